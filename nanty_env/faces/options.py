"""The options the environment faces share, each checked once, at construction.

Every face (``raw_env``, ``parallel_env``, ``NantySingleAgentEnv``) takes the game's setup as one
:class:`~nanty_env.engine.GameConfig` (``config=``) or, as before, as the game keywords
(``num_players``, ``personalities``, ``thresholds``, ``theme``, ``interrupt_windows``, and
``expansion`` / ``content`` for an expansion), which build that config. A bad value fails here,
naming the option and the allowed values, rather than somewhere in the first game. The faces
take their observation encoder, masks and action count from the config's ruleset
(:func:`nanty_env.encoding.rulesets.config_spec`), so one code path serves the base game and the
expansion.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from nanty_env.engine import GameConfig, IllegalActionError
from nanty_env.faces.rewards import REWARD_MODES

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


def check_seed(seed: Any) -> int | None:
    """``seed`` as an ``int`` if it is ``None`` or a Python or numpy integer >= 0; a bool, a
    float, a string... raises a ``TypeError``, a negative integer a ``ValueError`` (what every
    face's ``reset(seed=...)`` and the vectorised faces' ``seed()`` accept)."""
    if seed is None:
        return None
    if isinstance(seed, bool | np.bool_) or not isinstance(seed, int | np.integer):
        raise TypeError(
            f"seed must be a non-negative integer or None, got {type(seed).__name__} {seed!r}"
        )
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer or None, got {seed}")
    return int(seed)


class ActionBatchError(ValueError, TypeError):
    """A batch of actions for a vectorised face that is not one integer per game: the wrong
    length or shape, bools, floats, ``None``, strings. Raised before any game moves. A
    ``ValueError``, and a ``TypeError`` too, as a single non-integer action is on every face."""


_INT64_MAX = np.iinfo(np.int64).max


def _is_integer(value: Any) -> bool:
    """Whether ``value`` is one action by :func:`as_action`'s rule."""
    if isinstance(value, np.ndarray) and value.shape == ():
        value = value[()]
    return not isinstance(value, bool) and isinstance(value, int | np.integer)


def as_actions(actions: Any, n: int) -> np.ndarray:
    """``actions`` as an ``int64`` array of shape ``(n,)`` if it holds one integer per game: a
    numpy integer array (what SB3's ``predict`` returns for a batch), a list or tuple of actions
    as :func:`as_action` takes them (Python or numpy integers, 0-d integer arrays), or anything
    with ``__array__`` (a CPU tensor) holding integers. Anything else raises
    :class:`ActionBatchError`, saying what is wrong."""
    if isinstance(actions, list | tuple):
        for i, a in enumerate(actions):
            if type(a) is not int and not _is_integer(a):
                raise ActionBatchError(
                    f"actions must be integers, one per game; actions[{i}] is "
                    f"{type(a).__name__} {a!r}"
                )
        try:
            arr = np.array(actions, dtype=np.int64)
        except OverflowError:
            raise ActionBatchError("actions must be integers that fit in int64") from None
    elif isinstance(actions, np.ndarray) or (
        hasattr(actions, "__array__") and not isinstance(actions, str | bytes)
    ):
        arr = np.asarray(actions)
        if arr.dtype.kind not in "iu":
            raise ActionBatchError(
                f"actions must be integers, one per game; got an array of {arr.dtype}"
            )
        if arr.dtype == np.uint64 and arr.size and arr.max() > _INT64_MAX:
            raise ActionBatchError("actions must be integers that fit in int64")
    else:
        raise ActionBatchError(
            f"actions must be a sequence or array of {n} integers, one per game; got "
            f"{type(actions).__name__} {actions!r}"
        )
    if arr.shape != (n,):
        got = f"{len(arr)} actions" if arr.ndim == 1 else f"shape {arr.shape}"
        raise ActionBatchError(
            f"actions must have shape ({n},), one integer per game: got {got} for {n} games"
        )
    return arr.astype(np.int64, copy=False)


def check_legal(
    actions: np.ndarray, masks: np.ndarray, raising: np.ndarray, first: int = 0
) -> None:
    """Raise ``IllegalActionError`` if a game whose ``illegal_action`` is ``"raise"``
    (``raising[i]``) is given an action its mask forbids; ``first``: the batch index of game 0
    (for the message). Checked before any game moves: in a batch, one game's illegal action
    would otherwise stop the step half done."""
    if not raising.any():
        return
    num_actions = masks.shape[1]
    inside = (actions >= 0) & (actions < num_actions)
    legal = inside & masks[np.arange(len(actions)), np.where(inside, actions, 0)]
    bad = np.flatnonzero(raising & ~legal)
    if len(bad):
        i = int(bad[0])
        raise IllegalActionError(
            f"action {int(actions[i])} is not legal in game {first + i}, whose illegal_action "
            f"is 'raise'; no game has moved"
        )


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
