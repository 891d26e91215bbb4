"""The browser UI in a real headless browser (Debian's chromium driven by Playwright): a whole
game against a bot by clicking, then its replay stepped through, and a game of bots (one of them
a trained policy the server allows) watched with play, pause, step and the choice of what is
shown, with no console errors.

Playwright's own browser download is not used: the test launches the system's
``/usr/bin/chromium`` (``.ci/run`` installs it when missing). It is skipped, saying why, only
when that browser is absent.
"""

from __future__ import annotations

import contextlib
import http.server
import socket
import threading
import time

import pytest

from tests.app.chromium import CHROMIUM, require_chromium

require_chromium()
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the dev extra")
uvicorn = pytest.importorskip("uvicorn", reason="uvicorn is in the web extra")

from nanty_app.server import create_app  # noqa: E402
from nanty_env.storage.records import check_record, load_record  # noqa: E402

BROWSER_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serving(app):
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(10)


@contextlib.contextmanager
def browser_page(errors: list[str], width: int = 1600, height: int = 1000):
    """A page of a fresh headless chromium; its console and page errors go to ``errors``."""
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        page = browser.new_page(viewport={"width": width, "height": height})
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        try:
            yield page
        finally:
            browser.close()


@pytest.fixture
def server(tmp_path):
    with serving(create_app(tmp_path)) as url:
        yield url, tmp_path


@pytest.fixture
def other_site():
    """Another web site on loopback (another port, so another origin): one empty page."""
    page = b"<!doctype html><title>elsewhere</title>"

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args) -> None:
            pass

    site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{site.server_address[1]}"
    site.shutdown()
    thread.join(10)


@pytest.mark.slow
def test_play_a_whole_game_and_watch_its_replay(server, tmp_path_factory) -> None:
    url, records = server
    shots = tmp_path_factory.mktemp("screenshots")
    errors: list[str] = []
    with browser_page(errors) as page:
        page.goto(url + "/")
        page.wait_for_selector("#bot-1 option", state="attached")
        page.select_option("#bot-1", "random")
        page.select_option("#bot-2", "none")
        page.select_option("#bot-3", "none")
        page.fill("#seed", "7")
        page.select_option("#speed", "0")
        page.click("#start")

        clicks = 0
        while True:
            page.wait_for_selector(".choice:not([disabled]), #result:not([hidden])", timeout=60_000)
            if page.is_visible("#result"):
                break
            assert "Seed" not in page.inner_text("#status")  # not while the game is played
            assert page.inner_text("#question").startswith("Your decision: ")
            page.click(".choice >> nth=0")
            clicks += 1
            assert clicks < 3000
        assert clicks > 10
        assert page.inner_text("#result").startswith("Game over.")
        assert page.inner_text("#status").startswith("Seed 7 ")
        assert page.locator("#board svg").count() == 1
        page.screenshot(path=str(shots / "game_over.png"))

        (path,) = records.iterdir()
        rec = load_record(path)
        assert rec["outcome"] is not None and check_record(rec).ok
        total = len(rec["actions"])

        page.click("#tab-replay")
        page.wait_for_selector(f"#record-list option[value='{path.name}']", state="attached")
        page.select_option("#record-list", path.name)
        page.click("#open-record")
        page.wait_for_selector("#viewer:not([hidden])")
        position = page.locator("#position")
        sync_api.expect(position).to_have_text(f"action 0 of {total}")
        for _ in range(3):
            page.click("#forward")
        sync_api.expect(position).to_have_text(f"action 3 of {total}")
        page.click("#back")
        sync_api.expect(position).to_have_text(f"action 2 of {total}")
        assert "everything revealed" in page.inner_html("#replay-board")
        page.locator("#slider").fill(str(total // 2))
        sync_api.expect(position).to_have_text(f"action {total // 2} of {total}")
        page.click("#last")
        sync_api.expect(position).to_have_text(f"action {total} of {total}")
        sync_api.expect(page.locator("#replay-next")).to_contain_text("Game over.")
        page.screenshot(path=str(shots / "replay.png"))
    assert errors == []
    assert (shots / "game_over.png").stat().st_size > 10_000


def test_other_sites_pages_cannot_use_the_server(server, other_site) -> None:
    """A page of another site posting to the server (a cross-site request the browser sends
    without asking), and a page reaching it under a rebound host name, change nothing."""
    url, records = server
    port = url.rsplit(":", 1)[1]
    post = """async (url) => {
        await fetch(url + "/api/games", {method: "POST", mode: "no-cors",
            headers: {"Content-Type": "text/plain"}, body: '{"bots": ["random"]}'});
        return "sent";
    }"""
    rebound = [*BROWSER_ARGS, f"--host-resolver-rules=MAP rebound.test 127.0.0.1:{port}"]
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=rebound)
        page = browser.new_page()
        page.goto(other_site + "/")
        assert page.evaluate(post, url) == "sent"
        answer = page.goto(f"http://rebound.test:{port}/")
        assert answer is not None and answer.status == 403
        status = page.evaluate(
            """async () => (await fetch("/api/games", {method: "POST",
                headers: {"Content-Type": "application/json"}, body: '{"bots": ["random"]}'
            })).status"""
        )
        assert status == 403
        page.goto(url + "/")  # the server's own page still may
        status = page.evaluate(
            """async () => (await fetch("/api/games", {method: "POST",
                headers: {"Content-Type": "application/json"}, body: '{"bots": ["random"]}'
            })).status"""
        )
        assert status == 201
        browser.close()
    assert len(list(records.glob("*.json"))) == 1  # the one game the server's page started


@pytest.mark.slow
def test_watch_bots_play_pause_step_and_reveal(tmp_path, tmp_path_factory) -> None:
    from tests.app.test_spectate import write_policy

    runs = tmp_path / "runs"
    write_policy(runs / "quick" / "model")
    shots = tmp_path_factory.mktemp("screenshots")
    errors: list[str] = []
    app = create_app(tmp_path / "records", allow_policy=runs)
    with serving(app) as url, browser_page(errors, 1280, 800) as page:
        page.goto(url + "/")
        page.click("#tab-watch")
        page.wait_for_selector("#seat-0 option[value='policy-0']", state="attached")
        assert page.input_value("#seat-0") == "policy-0"  # the trained policy, listed by name
        assert "policy quick/model" in page.inner_text("#seat-0")
        page.select_option("#seat-1", "heuristic")
        page.select_option("#seat-2", "random")
        page.select_option("#seat-3", "none")
        page.fill("#watch-seed", "5")
        page.click("#watch-start")
        page.wait_for_selector("#watcher:not([hidden])")
        log = page.locator("#watch-log li")
        assert log.count() == 0
        assert "everything revealed" in page.inner_html("#watch-board")

        page.click("#watch-play")
        sync_api.expect(page.locator("#watch-play")).to_have_text("❚❚ pause")
        page.wait_for_function("document.querySelectorAll('#watch-log li').length >= 5")
        page.click("#watch-play")  # pause
        sync_api.expect(page.locator("#watch-play")).to_have_text("▷ play")
        page.wait_for_timeout(600)  # an advance under way when paused lands
        paused = log.count()
        page.wait_for_timeout(800)
        assert log.count() == paused  # nothing moves while paused
        page.click("#watch-step")
        sync_api.expect(log).to_have_count(paused + 1)
        assert "policy quick/model" in page.inner_text("#watch-players")
        page.screenshot(path=str(shots / "watch_revealed.png"))

        page.select_option("#watch-view", "public")
        sync_api.expect(page.locator("#watch-board")).to_contain_text("public view: no hand shown")
        sync_api.expect(log).to_have_count(paused + 1)
        assert "seed" not in page.inner_text("#watch-status")
        page.screenshot(path=str(shots / "watch_public.png"))
        page.select_option("#watch-view", "1")
        sync_api.expect(page.locator("#watch-board")).to_contain_text("seen by player 1")
        sync_api.expect(page.locator("#watch-hand")).to_contain_text("Player 1's hand")
        page.screenshot(path=str(shots / "watch_seat.png"))
        page.select_option("#watch-view", "all")
        sync_api.expect(page.locator("#watch-board")).to_contain_text("everything revealed")
        assert "seed 5" in page.inner_text("#watch-status")

        page.select_option("#watch-speed", "0")
        page.click("#watch-play")
        page.wait_for_selector("#watch-result:not([hidden])", timeout=120_000)
        assert page.inner_text("#watch-result").startswith("Game over.")
        assert page.is_disabled("#watch-step")
        page.screenshot(path=str(shots / "watch_over.png"))

        page.click("#tab-replay")
        page.wait_for_selector("#record-list option", state="attached")
        line = page.inner_text("#record-list option >> nth=0")
        assert "base game" in line and "policy quick/model" in line and "won by" in line
        page.screenshot(path=str(shots / "records.png"))
    assert errors == []
    print("screenshots in", shots)


@pytest.mark.slow
def test_a_plug_in_ruleset_in_the_game_menu(tmp_path) -> None:
    """A server started with a plug-in ruleset (``nanty serve --expansion sixes``) lists it in
    both game menus by its title, and a game chosen there is played in it to the end."""
    from tests.rulesets.house import NAME

    errors: list[str] = []
    app = create_app(tmp_path, rulesets=("cthulhu", NAME))
    with serving(app) as url, browser_page(errors) as page:
        page.goto(url + "/")
        page.wait_for_selector(f"#expansion option[value='{NAME}']", state="attached")
        titles = ["the base game", "The Rise of Cthulhu", "Sixes (a house variant)"]
        for menu in ("#expansion", "#watch-expansion"):
            assert page.locator(f"{menu} option").all_inner_texts() == titles
        page.select_option("#expansion", NAME)
        page.select_option("#bot-1", "random")
        page.select_option("#bot-2", "none")
        page.select_option("#bot-3", "none")
        page.fill("#seed", "5")
        page.select_option("#speed", "0")
        page.click("#start")
        for _ in range(3000):
            page.wait_for_selector(".choice:not([disabled]), #result:not([hidden])", timeout=60_000)
            if page.is_visible("#result"):
                break
            page.click(".choice >> nth=0")
        assert page.inner_text("#result").startswith("Game over.")
    (path,) = tmp_path.iterdir()
    rec = load_record(path)
    assert rec["config"]["expansion"] == NAME and check_record(rec).ok
    assert errors == []
