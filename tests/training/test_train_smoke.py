"""A tiny end-to-end training run: checkpoints, snapshots in the opponent pool, evaluation,
PolicyBot playing the checkpoint legally, and resuming from the saved step count."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from agents.base import play_game
from agents.policy import PolicyBot
from agents.random_bot import RandomBot
from nanty_env.engine import GameConfig
from training.config import load_config
from training.train import train

ROOT = Path(__file__).resolve().parents[2]

TINY = {
    "env.num_players": 3,
    "ppo.num_envs": 2,
    "ppo.n_steps": 128,
    "ppo.batch_size": 128,
    "ppo.n_epochs": 1,
    "ppo.net_arch": [32, 32],
    "checkpoint_every": 512,
    "eval.every": 1024,
    "eval.games": 3,
    "eval.opponents": ["random"],
    "selfplay.snapshot_every": 512,
    "selfplay.weights": {"random": 1.0, "snapshots": 1.0},
}


@pytest.mark.slow
def test_train_checkpoint_policybot_resume(tmp_path: Path) -> None:
    cfg = load_config(ROOT / "configs" / "quick.yaml", **TINY)
    out = train(cfg, total_timesteps=1024, out=tmp_path / "run", progress=False)

    last = out / "checkpoints" / "last"
    state = json.loads((out / "checkpoints" / "last.train.json").read_text())
    first_steps = state["timesteps"]
    assert first_steps >= 1024
    assert (out / "checkpoints" / f"step_{first_steps}.train.json").exists()
    assert list((out / "snapshots").glob("step_*.safetensors")), "no snapshot was taken"
    assert not list(out.rglob("*.zip")), "nothing is saved in a pickle-based format"
    assert (out / "eval.csv").exists() and (out / "learning_curve.png").exists()

    # the checkpoint and the final model play legally through the harness
    for path in (last, out):
        bots = [PolicyBot(path=str(path)), RandomBot(), RandomBot()]
        _, record = play_game(bots, GameConfig(num_players=3, log=False), seed=5)
        assert record.decisions > 0

    # resuming continues from the saved step count, with the optimizer's state
    first_summary = json.loads((out / "train.json").read_text())
    train(cfg, total_timesteps=2048, out=out, resume=out, progress=False)
    resumed = json.loads((out / "checkpoints" / "last.train.json").read_text())["timesteps"]
    assert resumed >= 2048 > first_steps
    # the first leg's summary is kept, and the CPU time of both legs is added up
    summary = json.loads((out / "train.json").read_text())
    assert summary["earlier_legs"] == [first_summary]
    both = first_summary["cpu_seconds_total"] + summary["cpu_seconds_total"]
    assert summary["cpu_seconds_all_legs"] == pytest.approx(both, abs=0.11)
    steps = [int(r["timesteps"]) for r in csv.DictReader((out / "progress.csv").open())]
    assert steps == sorted(steps) and steps[-1] > first_steps


def test_earlier_legs_survive_a_damaged_summary(tmp_path: Path) -> None:
    from training.train import _earlier_legs

    path = tmp_path / "train.json"
    assert _earlier_legs(tmp_path, 5.0) == {}  # no earlier leg
    path.write_text(json.dumps({"cpu_seconds_total": 10.0, "earlier_legs": [7, {"x": 1}]}))
    kept = _earlier_legs(tmp_path, 5.0)
    assert kept["cpu_seconds_all_legs"] == 15.0 and kept["earlier_legs"][-1] == {
        "cpu_seconds_total": 10.0
    }
    path.write_text("{not json")
    assert _earlier_legs(tmp_path, 5.0) == {}  # said, not fatal: the trained step is saved already
    path.write_text("[1, 2]")
    assert _earlier_legs(tmp_path, 5.0) == {}
