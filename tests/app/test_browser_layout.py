"""The page reads at laptop size and up: at 1280 × 800 and 1920 × 1080, in both rulesets and
both themes, every piece of text on the page (page text and the board picture's labels) has a
readable size, none overlaps another and none is clipped; the whole hand is there and a card's
text shows when the card is chosen. Boxes are measured in the real browser (Debian's chromium,
driven by Playwright; see ``test_browser.py``), and a screenshot of each is kept.
"""

from __future__ import annotations

import pytest

from tests.app.chromium import require_chromium

require_chromium()  # before test_browser is imported: its own skip would leave it half-built
from nanty_app.server import create_app  # noqa: E402
from tests.app.test_browser import BROWSER_ARGS, CHROMIUM, serving, sync_api  # noqa: E402

SIZES = [(1280, 800), (1920, 1080)]
GAMES = [("nanty", ""), ("discworld", ""), ("nanty", "cthulhu"), ("discworld", "cthulhu")]
MIN_PAGE_PX = 12.0  # the smallest page text (log lines, hints)
MIN_BOARD_PX = 10.5  # the smallest label drawn on the board, as shown

# Every text box on the page: text nodes measured line by line (Range rects) and the SVG's
# <text> elements, with their font size as shown and what cuts them. A line scrolled out of a
# scrolling box (the log) is not shown, so not measured; one scrolled half out is measured by
# its shown part. Cut sideways, or by a box that hides its overflow, is clipping.
MEASURE = """() => {
  const boxes = [];
  const measure = (rect, node) => {
    let [left, top, right, bottom] = [rect.left, rect.top, rect.right, rect.bottom];
    for (let el = node.parentElement; el; el = el.parentElement) {
      const style = getComputedStyle(el);
      const r = el.getBoundingClientRect();
      const inX = left >= r.left - 1 && right <= r.right + 1;
      const inY = top >= r.top - 1 && bottom <= r.bottom + 1;
      if (el instanceof SVGSVGElement && !(inX && inY)) return {clip: "outside its picture"};
      if (style.overflowX !== "visible" && !inX) return {clip: `cut by ${el.tagName}.${el.className}`};
      const hides = style.overflowY === "hidden" || style.overflowY === "clip";
      if (hides && !inY) return {clip: `cut by ${el.tagName}.${el.className}`};
      if (style.overflowY === "auto" || style.overflowY === "scroll") {
        top = Math.max(top, r.top);
        bottom = Math.min(bottom, r.bottom);
        if (bottom - top < 1) return null;  // scrolled away
      }
    }
    const page = document.documentElement.clientWidth;
    return {box: [left, top, right, bottom], clip: right > page + 1 ? "past the page's edge" : ""};
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!node.textContent.trim() || parent.closest("svg, select, script, title")) continue;
    if (!parent.checkVisibility()) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const size = parseFloat(getComputedStyle(parent).fontSize);
    for (const r of range.getClientRects()) {
      if (r.width < 1 || r.height < 1) continue;
      const seen = measure(r, node);
      if (seen) boxes.push({text: node.textContent.trim().slice(0, 40), size, board: false,
                            box: seen.box || [r.left, r.top, r.right, r.bottom], clip: seen.clip});
    }
  }
  for (const svg of document.querySelectorAll("svg")) {
    if (!svg.checkVisibility()) continue;
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    for (const t of svg.querySelectorAll("text")) {
      const r = t.getBoundingClientRect();
      const size = parseFloat(t.getAttribute("font-size")) * scale;
      const seen = measure(r, t);
      if (seen) boxes.push({text: t.textContent.slice(0, 40), size, board: true,
                            box: seen.box || [r.left, r.top, r.right, r.bottom], clip: seen.clip});
    }
  }
  return boxes;
}"""


def overlaps(boxes: list[dict]) -> list[tuple[str, str]]:
    """Pairs of text boxes that share more than a pixel each way."""
    found = []
    for i, a in enumerate(boxes):
        ax0, ay0, ax1, ay1 = a["box"]
        for b in boxes[i + 1 :]:
            bx0, by0, bx1, by1 = b["box"]
            if min(ax1, bx1) - max(ax0, bx0) > 1 and min(ay1, by1) - max(ay0, by0) > 1:
                found.append((a["text"], b["text"]))
    return found


def layout_problems(page) -> list[str]:
    """What is wrong with the page's text as shown: too small, overlapping, clipped."""
    boxes = page.evaluate(MEASURE)
    assert len(boxes) > 50
    problems = [f"overlap: {a!r} / {b!r}" for a, b in overlaps(boxes)]
    for b in boxes:
        least = MIN_BOARD_PX if b["board"] else MIN_PAGE_PX
        if b["size"] < least - 0.05:
            problems.append(f"{b['size']:.1f} px: {b['text']!r}")
        if b["clip"]:
            problems.append(f"clipped ({b['clip']}): {b['text']!r}")
    return problems


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    with serving(create_app(tmp_path_factory.mktemp("records"))) as address:
        yield address


@pytest.mark.slow
@pytest.mark.parametrize("theme,expansion", GAMES)
def test_the_table_reads_at_laptop_size_and_up(url, theme, expansion, tmp_path_factory) -> None:
    shots = tmp_path_factory.mktemp("layout")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        for width, height in SIZES:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(url + "/")
            page.wait_for_selector("#bot-3 option", state="attached")
            page.select_option("#bot-3", "random")  # four players: the most to show
            page.select_option("#theme", theme)
            page.select_option("#expansion", expansion)
            page.fill("#seed", "3")
            page.click("#start")
            page.wait_for_selector(".choice:not([disabled])", timeout=60_000)
            cards = page.locator("#hand .card")
            assert cards.count() == 5  # the whole hand, in both rulesets
            for k in range(cards.count()):
                assert cards.nth(k).is_visible()
            cards.nth(4).locator(".card-name").click()  # choosing a card shows its text
            shown = page.locator("#hand .card-text:visible")
            sync_api.expect(shown).to_have_count(1)
            assert len(shown.inner_text()) > 5
            name = f"{width}x{height}_{theme}_{expansion or 'base'}.png"
            page.screenshot(path=str(shots / name), full_page=True)
            problems = layout_problems(page)
            assert problems == [], f"{name}: {problems[:12]}"
            page.close()
        browser.close()


@pytest.mark.slow
@pytest.mark.parametrize("theme,expansion", [GAMES[0], GAMES[3]])
def test_a_watched_game_with_every_hand_reads_at_laptop_size_and_up(
    url, theme, expansion, tmp_path_factory
) -> None:
    """The most text the page shows: four bots' game watched to its end, every hand and the
    next cards revealed, the outcome and a long log."""
    shots = tmp_path_factory.mktemp("layout_watch")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        for width, height in SIZES:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(url + "/")
            page.click("#tab-watch")
            page.wait_for_selector("#seat-3 option", state="attached")
            for seat, bot in enumerate(["heuristic", "random", "random", "random"]):
                page.select_option(f"#seat-{seat}", bot)
            page.select_option("#watch-theme", theme)
            page.select_option("#watch-expansion", expansion)
            page.fill("#watch-seed", "8")
            page.click("#watch-start")
            page.wait_for_selector("#watcher:not([hidden])")
            log = page.locator("#watch-log li")
            for k in range(1, 13):  # twelve decisions, one at a time
                page.click("#watch-step")
                sync_api.expect(log).to_have_count(k)
            assert "Hand:" in page.inner_text("#watch-players")  # every hand revealed
            name = f"watch_{width}x{height}_{theme}_{expansion or 'base'}"
            page.screenshot(path=str(shots / f"{name}_mid.png"), full_page=True)
            problems = layout_problems(page)
            assert problems == [], f"{name} mid-game: {problems[:12]}"
            page.select_option("#watch-speed", "0")
            page.click("#watch-play")
            page.wait_for_selector("#watch-result:not([hidden])", timeout=120_000)
            page.screenshot(path=str(shots / f"{name}_end.png"), full_page=True)
            problems = layout_problems(page)
            assert problems == [], f"{name} at the end: {problems[:12]}"
            page.close()
        browser.close()
