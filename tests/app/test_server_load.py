"""``nanty serve`` under load on loopback (``benchmarks/web_load.py``, briefly): games against
bots that think as long as the web allows, games against quick bots and a stream of bad
requests at once. No answer is a 5xx, every bad request gets a 4xx with a message, and the
quick games' requests stay quick (95th percentile under half a second) while the slow games'
bots think."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("starlette")

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "web_load.py"


def web_load():
    spec = importlib.util.spec_from_file_location("web_load", BENCHMARK)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("web_load", module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_other_games_stay_quick_while_slow_bots_think(tmp_path) -> None:
    bench = web_load()
    proc, url = bench.start_server(tmp_path)
    assert url.startswith("http://127.0.0.1:")
    try:
        load = bench.run_load(url, seconds=8.0, slow=2, fast=2, pause=0.05)
    finally:
        proc.terminate()
        proc.wait(30)
    report = bench.report(load)
    print(report)
    assert load.problems == []
    assert all(status < 500 for status in load.statuses)
    assert len(load.bad) > 20 and len(load.fast) > 50
    assert max(load.slow) > 1.0 and load.bot_moves >= 2  # the slow bots did think meanwhile
    assert report["fast games' requests (ms)"]["p95"] < 500
