"""Shaping potentials that a training config names (``env.shaping``).

* ``none``: no shaping.
* ``goal_progress``: :func:`nanty_env.faces.rewards.goal_progress`, the seat's progress towards its
  own goal (0 for Sherlock Holmes).
* ``win_probability``: ``2 P - 1`` with ``P`` the shipped learned model's probability that the
  seat wins (:func:`~agents.value_model.value_model_for`), read with every seat's true
  personality. Rewards may use what the learner cannot see, since they only steer training.
  A finished game's potential is 0, so the shaping of an episode adds up to ``-phi(start)``
  whatever happens and the terminal reward alone says who won.
"""

from __future__ import annotations

from functools import cache

from agents.evaluation import game_config, metrics
from agents.value_model import PooledValueModel, ValueModel, value_model_for
from nanty_env.engine import Game, GameConfig
from nanty_env.faces.rewards import Potential, goal_progress

SHAPINGS = ("none", "goal_progress", "win_probability")


@cache
def _model(num_players: int) -> ValueModel | PooledValueModel:
    return value_model_for(num_players)


@cache
def _config(config: GameConfig) -> GameConfig:
    return game_config(config)


def win_probability(g: Game, seat: int) -> float:
    """``2 P(seat wins) - 1`` under the learned model, 0 once the game is over."""
    if g.is_terminal:
        return 0.0
    p = _model(g.n).win_probabilities(metrics(g), _config(g.cfg), g.persona, g.active)
    return 2.0 * p[seat] - 1.0


_POTENTIALS: dict[str, Potential | None] = {
    "none": None,
    "goal_progress": goal_progress,
    "win_probability": win_probability,
}


def potential(name: str) -> Potential | None:
    """The potential a config's ``env.shaping`` names (``None`` for no shaping)."""
    if name not in _POTENTIALS:
        raise ValueError(f"shaping must be one of {SHAPINGS}, got {name!r}")
    return _POTENTIALS[name]
