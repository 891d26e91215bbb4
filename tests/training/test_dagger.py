"""DAgger relabelling after behaviour cloning: the learner plays, the teacher labels each of
its real decisions from the seat's own view, the rows join the data and the policy is refitted."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from agents.base import BaseBot, bot_rngs
from agents.registry import make_bot
from nanty_env.engine import GameConfig
from training.config import load_config
from training.pretrain import dagger, dagger_games, dagger_round, play_dagger, play_recorded

ROOT = Path(__file__).resolve().parents[2]
TEACHER = "heuristic:plan=greedy"

TINY = {
    "env.num_players": 2,
    "env.shaping": "goal_progress",
    "ppo.net_arch": [16],
    "pretrain.enabled": True,
    "pretrain.teacher": TEACHER,
    "pretrain.workers": 1,
    "pretrain.batch_size": 64,
    "pretrain.dagger_rounds": 1,
    "pretrain.dagger_vs": {"random": 1},
    "pretrain.dagger_epochs": 1,
}


def tiny_model(cfg):
    from sb3_contrib import MaskablePPO

    from nanty_env.faces.single import NantySingleAgentEnv

    env = NantySingleAgentEnv(num_players=cfg.env.num_players)
    return MaskablePPO("MlpPolicy", env, n_steps=64, policy_kwargs={"net_arch": [16]}, seed=0)


class Shadow(BaseBot):
    """Plays exactly what a fresh ``TEACHER`` in its seat would, with the random stream the
    relabelling teacher gets (salt 1): its labels must then equal its own actions."""

    observes = True

    def __init__(self, seed: int, n: int) -> None:
        super().__init__()
        self.bot = make_bot(TEACHER)
        self.seed, self.n = seed, n

    def reset(self, seat, config) -> None:
        self.bot.reset(seat, config)
        self.rng = bot_rngs(self.seed, self.n, salt=1)[seat]

    def observe(self, view) -> None:
        self.bot.observe(view)

    def act(self, view, legal_actions, rng) -> int:
        return int(self.bot.act(view, legal_actions, self.rng))


def test_labels_are_the_teachers_choices() -> None:
    cfg = GameConfig(num_players=2, log=False)
    d = play_dagger(Shadow(5, 2), TEACHER, "random", 1, cfg, 5, 0.99, "goal_progress", "win_loss")
    n = len(d["action"])
    assert n > 5 and len(d["played"]) == n
    assert d["mask"][np.arange(n), d["action"]].all()
    assert (d["played"] == d["action"]).all()  # the same teacher, the same history and rng
    # labelled seats must be recorded ones; other seats' bots are unaffected by the teacher
    with pytest.raises(ValueError, match="must be recorded"):
        play_recorded(
            ["random", "random"], cfg, 5, 0.99, "goal_progress", "win_loss", {0}, {1: TEACHER}
        )


@pytest.mark.slow
def test_a_tiny_round_adds_legal_teacher_labels() -> None:
    cfg = load_config(ROOT / "configs" / "quick.yaml", **TINY)
    assert dagger_games(cfg, 0) != dagger_games(cfg, 1)  # new games each round
    model = tiny_model(cfg)
    base = play_recorded(
        TEACHER, GameConfig(num_players=2, log=False), 1, 0.99, "goal_progress", "win_loss"
    )
    new, cpu = dagger_round(model, cfg, 0, log=lambda *_: None)
    n = len(new["action"])
    assert n > 0 and cpu > 0 and len(new["game_won"]) == 1
    assert new["mask"][np.arange(n), new["action"]].all()
    assert new["mask"][np.arange(n), new["played"]].all()
    # replaying the learner's actions with the teacher asked gives the same labels
    ((opponent, seat, seed),) = dagger_games(cfg, 0)

    class Replay(BaseBot):
        def __init__(self, actions) -> None:
            super().__init__()
            self.actions = iter(actions)

        def act(self, view, legal_actions, rng) -> int:
            return next(self.actions)

    again = play_dagger(
        Replay(new["played"]),
        TEACHER,
        opponent,
        seat,
        GameConfig(num_players=2, log=False),
        seed,
        cfg.ppo.gamma,
        "goal_progress",
        cfg.env.reward_mode,
    )
    assert (again["action"] == new["action"]).all()
    # aggregation and the refit
    data, cpu, stats = dagger(model, base, cfg, log=lambda *_: None)
    assert len(data["action"]) == len(base["action"]) + n
    assert set(data) == set(base) and (data["action"][-n:] == new["action"]).all()
    assert stats[0]["decisions"] == n and len(stats[0]["fit"]["epochs"]) == 1
    assert 0 <= stats[0]["agreement"] <= 1 and cpu > 0


@pytest.mark.slow
def test_saved_policy_in_workers(tmp_path: Path) -> None:
    overrides = {**TINY, "pretrain.workers": 2, "pretrain.dagger_vs": {"random": 2}}
    cfg = load_config(ROOT / "configs" / "quick.yaml", **overrides)
    model = tiny_model(cfg)
    with pytest.raises(ValueError, match="scratch"):
        dagger_round(model, cfg, 0, log=lambda *_: None)
    d, cpu = dagger_round(model, cfg, 0, tmp_path / "p", log=lambda *_: None)
    serial = replace(cfg, pretrain=replace(cfg.pretrain, workers=1))
    one, _ = dagger_round(model, serial, 0, log=lambda *_: None)
    assert (d["action"] == one["action"]).all() and (d["played"] == one["played"]).all()
    assert cpu > 0 and len(d["game_won"]) == 2
