"""The effect registry: effect id -> handler ``(game, player, card, params) -> None``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from nanty_env.engine.state import GameState

Effect = Callable[["GameState", int, int, Mapping[str, Any]], None]
EFFECTS: dict[str, Effect] = {}


def effect(*names: str) -> Callable[[Effect], Effect]:
    """Register a handler for one or more effect ids."""

    def deco(fn: Effect) -> Effect:
        for name in names:
            if name in EFFECTS:
                raise ValueError(f"effect {name!r} registered twice")
            EFFECTS[name] = fn
        return fn

    return deco


def others(g: GameState, p: int) -> tuple[int, ...]:
    """The other seats in turn order starting left of ``p``."""
    return tuple([(p + i) % g.n for i in range(1, g.n)])
