"""--ray-address: the same seeded games on a Ray cluster as on one machine. Ray 2.60 has no
local mode any more: the test starts a one-CPU Ray on this machine, on loopback only, as
``nanty train --backend rllib`` does without an address, and the runner uses it as it is."""

from __future__ import annotations

import json

import pytest

from arena.leakage import run_leakage
from arena.tournament import TournamentSpec, run_tournament
from nanty_app.cli import main

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray():
    import os

    os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")  # loopback only
    ray.init(
        address="local",
        num_cpus=1,
        include_dashboard=False,
        log_to_driver=False,
        _node_ip_address="127.0.0.1",
    )
    yield
    ray.shutdown()


def _games(records: list[dict]) -> list[tuple]:
    return [(r["game"], r["seats"], r["winners"], r["personalities"], r["turns"]) for r in records]


@pytest.mark.slow
def test_tournament_on_ray_plays_the_same_games(local_ray) -> None:
    spec = TournamentSpec(bots=("random", "heuristic:plan=greedy"), num_players=2, games=4, seed=3)
    here = run_tournament(spec, workers=1, progress=False)
    there = run_tournament(spec, progress=False, chunk=1, ray_address="auto")
    assert _games(there.records) == _games(here.records)
    assert ray.is_initialized()  # a Ray it did not start is left running


@pytest.mark.slow
def test_seeded_games_on_ray_give_the_same_report(local_ray) -> None:
    kw = {"opponent": "random", "progress": False, "boot": 50}
    here = run_leakage("heuristic:plan=greedy", 2, 2, 4, workers=1, **kw)
    there = run_leakage("heuristic:plan=greedy", 2, 2, 4, ray_address="auto", **kw)
    for key in ("accuracy", "chance", "auc", "won", "turn50", "log_loss"):
        assert there[key] == here[key]


@pytest.mark.slow
def test_commands_take_ray_address(local_ray, tmp_path) -> None:
    common = ["--games", "2", "--no-progress", "--no-plots"]
    outs = []
    for extra in (["--workers", "1"], ["--ray-address", "auto"]):
        out = tmp_path / f"roles{len(outs)}.json"
        argv = ["roles", "--observer", "fitted", "--bots", "random,random", *common, *extra]
        assert main([*argv, "--boot", "20", "--out", str(out)]) == 0
        outs.append(json.loads(out.read_text()))
    assert outs[0]["accuracy"] == outs[1]["accuracy"]
    mg = tmp_path / "mg.json"
    argv = ["metagame", "--bots", "random,heuristic:plan=greedy", *common, "--out", str(mg)]
    assert main([*argv, "--ray-address", "auto"]) == 0
    assert json.loads(mg.read_text())["games"][0][1] == 2
    ev = tmp_path / "ev"
    argv = ["eval", "--bots", "random,random", "--games", "2", "--no-progress", "--no-plots"]
    assert main([*argv, "--ray-address", "auto", "--out", str(ev)]) == 0
    assert len(json.loads((ev / "results.json").read_text())["games"]) == 2
