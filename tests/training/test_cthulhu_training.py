"""A short training run on the expansion, end to end through ``nanty train``: the shipped
``configs/cthulhu_quick.yaml`` (its step count cut), a checkpoint that records the expansion's
observation and action space, an evaluation against random bots on expansion games, and the
trained policy playing an expansion game legally (and refusing a base game)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from agents.base import play_game
from agents.policy import PolicyBot
from agents.random_bot import RandomBot
from nanty_env.encoding import cthulhu_observation as co
from nanty_env.engine import NUM_ACTIONS_CTHULHU, GameConfig
from tests.app.conftest import run_nanty

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_nanty_train_on_the_expansion_config_runs_end_to_end(tmp_path: Path) -> None:
    small = tmp_path / "cthulhu_small.yaml"
    text = (ROOT / "configs" / "cthulhu_quick.yaml").read_text(encoding="utf-8")
    for old, new in (
        ("num_envs: 8", "num_envs: 4"),
        ("n_steps: 256", "n_steps: 128"),
        ("net_arch: [256, 256]", "net_arch: [32, 32]"),
        ("  every: 25000\n  games: 40", "  every: 512\n  games: 4"),
    ):
        assert old in text
        text = text.replace(old, new)
    small.write_text(text, encoding="utf-8")
    out = tmp_path / "run"
    args = ["--config", str(small), "--out", str(out), "--total-timesteps", "1024"]
    done = run_nanty(["train", *args, "--no-progress"])
    assert done.returncode == 0, done.stderr
    meta = json.loads((out / "model.json").read_text())
    assert meta["num_actions"] == NUM_ACTIONS_CTHULHU
    assert meta["observation"]["size"] == co.CTHULHU_OBS_SIZE
    assert meta["env"]["expansion"] == "cthulhu"
    assert json.loads((out / "train.json").read_text())["timesteps"] >= 1024
    rows = list(csv.DictReader((out / "eval.csv").open()))
    assert rows, "the evaluation did not run"
    reasons = [r["reason"] for r in csv.DictReader((out / "progress.csv").open())]
    assert reasons and all(
        r.split(":")[0] in ("objective", "deck_exhausted", "doomsday") for r in reasons
    )

    config = GameConfig(num_players=4, expansion="cthulhu", log=False)
    bots = [PolicyBot(path=str(out)), RandomBot(), RandomBot(), RandomBot()]
    _, record = play_game(bots, config, seed=3)
    assert record.decisions > 0
    with pytest.raises(ValueError, match="expansion"):
        play_game(bots, GameConfig(num_players=4, log=False), seed=3)
