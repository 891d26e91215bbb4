"""Take the pictures of the README and docs/play-and-watch.md again.

    python docs/img/screenshots.py   # board.png, browser_play.png, browser_replay.png,
                                     # board_seat.png, board_revealed.png

Starts the real web app (``nanty serve``'s) on a free loopback port with a scratch records
folder, drives Debian's chromium headless through Playwright (as ``tests/app/test_browser.py``
does), plays seed 3 against two bots by always taking the first choice, and photographs the
table at 1280 × 800 mid-game and then the game's replay. The two board pictures are the SVG
(``nanty_env.presentation.board_svg``) as ``render_mode="rgb_array"`` draws it, for a seat and with
everything revealed, 60 random decisions into seed 5. The PNGs are stored in a palette of
``COLOURS`` colours so that they stay small.
"""

from __future__ import annotations

import io
import shutil
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
SIZE = {"width": 1280, "height": 800}
COLOURS = 256
MOVES = 24  # the person's decisions taken before the picture


def save_small(png: bytes, path: Path) -> int:
    """Store ``png`` in a palette of ``COLOURS`` colours; its size in bytes."""
    from PIL import Image

    from nanty_env.storage.files import atomic_write_bytes

    out = io.BytesIO()
    image = Image.open(io.BytesIO(png)).convert("RGB")
    image.quantize(COLOURS, method=Image.Quantize.FASTOCTREE).save(out, "PNG", optimize=True)
    atomic_write_bytes(path, out.getvalue())
    path.chmod(0o644)
    return len(out.getvalue())


def serve(records: Path):
    """The web app on a free port, in a thread: (url, server)."""
    import uvicorn

    from nanty_app.server import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(create_app(records), host="127.0.0.1", port=port, log_level="warning")
    )
    threading.Thread(target=server.run, daemon=True).start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the web app did not start")
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}", server


def board_pictures() -> None:
    """The SVG board of one seat and with everything revealed, as PNGs."""
    import numpy as np

    from nanty_env.engine import Game, GameConfig
    from nanty_env.presentation.board_svg import board_svg, revealed_view
    from nanty_env.presentation.render_image import svg_to_png

    game = Game.new(GameConfig(num_players=4), seed=5)
    rng = np.random.default_rng(5)
    for _ in range(60):
        game.apply(int(rng.choice(game.legal_actions())))
    names = ["you", "heuristic", "random", "random"]
    seat = svg_to_png(board_svg(game.view(0), game.cfg, names))
    print("board_seat.png", save_small(seat, HERE / "board_seat.png"), "bytes")
    everything = svg_to_png(board_svg(revealed_view(game), game.cfg, names))
    print("board_revealed.png", save_small(everything, HERE / "board_revealed.png"), "bytes")


def main() -> int:
    sys.path.insert(0, str(ROOT))
    board_pictures()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as scratch:
        url, server = serve(Path(scratch))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = browser.new_page(viewport=SIZE)
                page.goto(url + "/")
                page.wait_for_selector("#bot-1 option", state="attached")
                page.select_option("#bot-2", "heuristic")
                page.fill("#seed", "3")
                page.select_option("#speed", "0")
                page.click("#start")
                for _ in range(MOVES):
                    page.wait_for_selector(".choice:not([disabled])", timeout=60_000)
                    page.click(".choice >> nth=0")
                page.wait_for_selector(".choice:not([disabled])", timeout=60_000)
                page.locator("#hand .card-name").first.click()  # a chosen card shows its text
                shot = page.screenshot()
                for name in ("board.png", "browser_play.png"):
                    print(name, save_small(shot, HERE / name), "bytes")
                while not page.is_visible("#result"):
                    page.wait_for_selector(
                        ".choice:not([disabled]), #result:not([hidden])", timeout=60_000
                    )
                    if page.is_visible(".choice:not([disabled])"):
                        page.click(".choice >> nth=0")
                page.click("#tab-replay")
                page.wait_for_selector("#record-list option", state="attached")
                page.click("#open-record")
                page.wait_for_selector("#viewer:not([hidden])")
                page.locator("#slider").fill("120")
                page.wait_for_function(
                    "document.querySelector('#position').textContent.startsWith('action 120')"
                )
                print(
                    "browser_replay.png",
                    save_small(page.screenshot(), HERE / "browser_replay.png"),
                    "bytes",
                )
                browser.close()
        finally:
            server.should_exit = True
    return 0


if __name__ == "__main__":
    sys.exit(main())
