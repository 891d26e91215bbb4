"""``ppo.average_window``: the written model is the mean of the run's last checkpoints."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from agents.base import play_game
from agents.checkpoint import CheckpointError, read_tensors, save_policy
from agents.policy import PolicyBot
from agents.random_bot import RandomBot
from nanty_env.engine import GameConfig
from training.averaging import average_checkpoints, window_checkpoints
from training.config import load_config
from training.train import train

ROOT = Path(__file__).resolve().parents[2]


def _meta(width: int) -> dict:
    return {
        "actor": [{"weight": "a.w", "bias": "a.b", "activation": "none"}],
        "value": [{"weight": "v.w", "bias": "v.b", "activation": "none"}],
        "observation": {"size": 3, "hint": False},
        "num_actions": width,
        "trained_with": {"timesteps": 0},
    }


def _write(path: Path, scale: float, width: int = 2) -> Path:
    tensors = {
        "a.w": np.full((width, 3), scale, np.float32),
        "a.b": np.arange(width, dtype=np.float32) * scale,
        "v.w": np.full((1, 3), -scale, np.float32),
        "v.b": np.zeros(1, np.float32),
    }
    save_policy(path, tensors, _meta(width))
    return path


def test_window_takes_the_steps_in_range_in_order(tmp_path: Path) -> None:
    for step in (100, 200, 300, 400):
        _write(tmp_path / f"step_{step}", step)
    (tmp_path / "step_300.train.json").write_text("{}")
    _write(tmp_path / "last", 1)
    (tmp_path / "step_500.json").write_text("{}")  # tensors missing: not a checkpoint
    assert [p.name for p in window_checkpoints(tmp_path, 400, 250)] == [
        "step_200",
        "step_300",
        "step_400",
    ]
    assert [p.name for p in window_checkpoints(tmp_path, 300, 100)] == ["step_300"]
    assert window_checkpoints(tmp_path, 50, 1000) == []


def test_average_is_the_elementwise_mean_and_names_its_steps(tmp_path: Path) -> None:
    stems = [_write(tmp_path / f"step_{s}", s) for s in (1, 2, 6)]
    meta_path = average_checkpoints(stems, tmp_path / "model")
    tensors = read_tensors(tmp_path / "model.safetensors")
    assert np.allclose(tensors["a.w"], 3.0) and np.allclose(tensors["v.w"], -3.0)
    assert np.allclose(tensors["a.b"], [0.0, 3.0])
    assert tensors["a.w"].dtype == np.float32
    assert json.loads(meta_path.read_text())["trained_with"]["averaged_steps"] == [1, 2, 6]


def test_average_refuses_two_networks_and_nothing(tmp_path: Path) -> None:
    stems = [_write(tmp_path / "step_1", 1), _write(tmp_path / "step_2", 2, width=4)]
    with pytest.raises(CheckpointError, match="another network"):
        average_checkpoints(stems, tmp_path / "model")
    with pytest.raises(CheckpointError, match="no checkpoints"):
        average_checkpoints([], tmp_path / "model")
    assert not (tmp_path / "model.json").exists()


def test_window_shorter_than_the_checkpoint_clock_is_refused() -> None:
    with pytest.raises(Exception, match="average_window"):
        load_config(
            ROOT / "configs" / "quick.yaml", **{"ppo.average_window": 10, "checkpoint_every": 512}
        )
    with pytest.raises(Exception, match="average_window"):
        load_config(ROOT / "configs" / "quick.yaml", **{"ppo.average_window": -1})


@pytest.mark.slow
def test_training_writes_the_mean_and_the_last_iterate(tmp_path: Path) -> None:
    cfg = load_config(
        ROOT / "configs" / "quick.yaml",
        **{
            "env.num_players": 2,
            "ppo.num_envs": 2,
            "ppo.n_steps": 128,
            "ppo.batch_size": 128,
            "ppo.n_epochs": 1,
            "ppo.net_arch": [16],
            "ppo.average_window": 1024,
            "checkpoint_every": 512,
            "eval.every": 100_000,
            "selfplay.weights": {"random": 1.0},
        },
    )
    out = train(cfg, total_timesteps=1536, out=tmp_path / "run", progress=False)
    final = json.loads((out / "checkpoints" / "last.train.json").read_text())["timesteps"]
    steps = json.loads((out / "train.json").read_text())["averaged_steps"]
    assert steps[-1] == final and len(steps) >= 2 and all(final - 1024 < s for s in steps)
    parts = [read_tensors(out / "checkpoints" / f"step_{s}.safetensors") for s in steps]
    model = read_tensors(out / "model.safetensors")
    for name, value in model.items():
        assert np.allclose(value, np.mean([p[name] for p in parts], axis=0), atol=1e-6)
    last = read_tensors(out / "model_final.safetensors")
    assert all(np.array_equal(last[k], parts[-1][k]) for k in last)
    assert any(not np.allclose(model[k], last[k]) for k in last)  # the mean moved
    _, record = play_game(
        [PolicyBot(path=str(out)), RandomBot()], GameConfig(num_players=2), seed=3
    )
    assert record.decisions > 0  # the mean is a playable policy
