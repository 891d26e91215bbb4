"""The RLlib backend's logs: a tiny run in a Ray started here (local, one CPU, sampling in the
driver) writes ``progress.csv``, ``eval.csv`` (each checkpoint's policy against RandomBot),
TensorBoard events with the rollout, learner and evaluation figures, and the SB3 path's
learning-curve PNG."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

pytest.importorskip("ray.rllib")
pytest.importorskip("tensorboard")

from tensorboard.backend.event_processing.event_accumulator import (
    EventAccumulator,
)

from training.rllib.config import load_rllib_config
from training.rllib.train import train_rllib

ROOT = Path(__file__).resolve().parents[2]
TINY = {
    "env.num_players": 2,
    "opponents.bot_seats": 1,
    "ppo.total_timesteps": 400,
    "ppo.train_batch_size": 200,
    "ppo.minibatch_size": 100,
    "ppo.num_epochs": 1,
    "ppo.hidden": [16],
    "ray.num_env_runners": 0,
    "ray.num_cpus": 1,
    "checkpoint_every": 1,
    "eval.games": 4,
    "eval.opponents": ["random"],
}


@pytest.mark.slow
def test_a_tiny_rllib_run_logs_to_tensorboard_and_draws_its_learning_curve(tmp_path) -> None:
    cfg = load_rllib_config(ROOT / "configs" / "rllib_quick.yaml", **TINY)
    out = train_rllib(cfg, out=tmp_path / "run", progress=False)

    rows = list(csv.DictReader((out / "progress.csv").open()))
    assert len(rows) >= 2 and int(rows[-1]["env_steps"]) >= 400
    assert any(r["policy_seat_win_rate"] != "" for r in rows)

    (events,) = (out / "tb").glob("events.out.tfevents.*")
    tags = EventAccumulator(str(events)).Reload().Tags()["scalars"]
    for tag in ("rollout/policy_seat_win_rate", "time/env_steps_per_second", "train/vf_loss"):
        assert tag in tags
    acc = EventAccumulator(str(events)).Reload()
    steps = [e.step for e in acc.Scalars("time/env_steps_per_second")]
    assert steps == [int(r["env_steps"]) for r in rows]  # one point a round, at its env steps

    evals = list(csv.DictReader((out / "eval.csv").open()))  # every checkpoint's policy
    assert [int(r["timesteps"]) for r in evals] == [int(r["env_steps"]) for r in rows]
    assert all(r["opponent"] == "random" and int(r["games"]) == 4 for r in evals)
    assert "eval/win_rate_vs_random" in tags

    png = (out / "learning_curve.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 5_000
