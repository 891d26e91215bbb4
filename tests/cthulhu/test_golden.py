"""Replay the expansion's golden traces (``tests/cthulhu/golden/``): same actions, same final
state, same outcome. They end by doomsday, by an objective and by the draw pile."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest


def _load_regen():
    path = Path(__file__).with_name("golden_regen.py")
    spec = importlib.util.spec_from_file_location("cthulhu_golden_regen", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


regen = _load_regen()


@pytest.mark.parametrize("n, seed", regen.GAMES)
def test_golden_trace_replays(n, seed):
    trace = json.loads(regen.golden_path(n, seed).read_text())
    g = regen.new_game(n, seed)
    for a in trace["actions"]:
        assert a in g.legal_actions()
        g.apply(a)
    assert g.is_terminal
    assert regen.outcome_dict(g) == trace["outcome"]
    assert regen.state_hash(g) == trace["final_hash"]


def test_golden_traces_end_in_all_three_ways():
    reasons = [
        json.loads(regen.golden_path(n, seed).read_text())["outcome"]["reason"]
        for n, seed in regen.GAMES
    ]
    kinds = {r.split(":")[0] for r in reasons}
    assert kinds == {"doomsday", "objective", "deck_exhausted"}
