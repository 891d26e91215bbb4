"""The options the environment faces share, each checked once, at construction.

Every face (``raw_env``, ``parallel_env``, ``NantySingleAgentEnv``) takes the game's setup as one
:class:`~nanty_env.engine.GameConfig` (``config=``) or, as before, as the game keywords
(``num_players``, ``personalities``, ``thresholds``, ``theme``, ``interrupt_windows``, and
``expansion`` / ``content`` for an expansion), which build that config. A bad value fails here,
naming the option and the allowed values, rather than somewhere in the first game. The faces
take their observation encoder, masks and action count from the config's ruleset
(:func:`nanty_env.rulesets.config_spec`), so one code path serves the base game and the
expansion.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from nanty_env.engine import GameConfig
from nanty_env.rewards import REWARD_MODES

GAME_OPTIONS = (
    "num_players",
    "personalities",
    "thresholds",
    "theme",
    "interrupt_windows",
    "expansion",
    "content",
)


def game_config(config: GameConfig | None = None, *, log: bool = False, **game: Any) -> GameConfig:
    """The face's ``GameConfig``: ``config`` itself, or one built from the game keywords in
    ``game`` (not both). ``log`` (the engine's readable log) is the face's own option and
    overrides ``config.log``."""
    unknown = sorted(set(game) - set(GAME_OPTIONS))
    if unknown:
        raise TypeError(
            f"unknown option(s) {', '.join(unknown)}; the game options are "
            f"{', '.join(GAME_OPTIONS)} (or config=GameConfig(...))"
        )
    check_bool("log", log)
    if config is None:
        if "num_players" in game:
            game["num_players"] = check_int("num_players", game["num_players"])
        return GameConfig(**game, log=log)
    if not isinstance(config, GameConfig):
        raise TypeError(f"config must be a GameConfig, got {type(config).__name__}")
    if game:
        raise TypeError(
            f"give the game either as config=GameConfig(...) or as keywords, not both "
            f"(got config and {', '.join(sorted(game))})"
        )
    return dataclasses.replace(config, log=log)


def check_choice(name: str, value: Any, allowed: tuple[Any, ...]) -> Any:
    """``value`` if it is one of ``allowed``, else a ``ValueError`` naming them."""
    if not (value is None or isinstance(value, str)) or value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}; got {value!r}")
    return value


def check_bool(name: str, value: Any) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_int(name: str, value: Any) -> int:
    """``value`` as an ``int`` if it is a Python or numpy integer (not a bool)."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    return int(value)


def check_number(name: str, value: Any) -> float:
    """``value`` as a finite ``float`` (an int or a float, not a bool)."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | float | np.number):
        raise TypeError(f"{name} must be a number, got {value!r}")
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return float(value)


def check_reward_mode(value: Any) -> str:
    return check_choice("reward_mode", value, REWARD_MODES)


def check_render_mode(value: Any, modes: list[str]) -> str | None:
    return check_choice("render_mode", value, (None, *modes))


def check_potential(value: Any) -> Callable | None:
    """A shaping potential ``phi(game, seat) -> float`` or ``None``."""
    if value is not None and not callable(value):
        raise TypeError(f"shaping must be a potential phi(game, seat) or None, got {value!r}")
    return value


def as_action(action: Any) -> int:
    """``action`` as an ``int`` if it is an integer: a Python int, a numpy integer or a 0-d
    integer array (what SB3's ``predict`` returns for one observation); bools, floats, strings,
    lists and ``None`` raise a ``TypeError``. The same rule as ``Game.apply``."""
    if type(action) is int:
        return action
    value = action[()] if isinstance(action, np.ndarray) and action.shape == () else action
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise TypeError(
            f"an action is a Python or numpy integer, got {type(action).__name__} {action!r}"
        )
    return int(value)
