"""Shared helpers for the Rise of Cthulhu scenario tests.

Import them with ``from tests.cthulhu.conftest import ...`` (pytest runs with
``--import-mode=importlib`` and registers this file as ``tests.cthulhu.conftest``).
"""

from __future__ import annotations

from nanty_env.engine import actions as A
from nanty_env.engine.config import GameConfig
from nanty_env.engine.cthulhu import pieces
from nanty_env.engine.cthulhu.abilities import GOO_BIT
from nanty_env.engine.cthulhu.game import CthulhuGame
from nanty_env.engine.cthulhu.position import (
    area,
    build_position,
    building_type,
    card,
    elder,
    event,
    great_old_one,
    objective,
)

__all__ = [
    "QUIET",
    "A",
    "CthulhuGame",
    "GameConfig",
    "ab",
    "ar",
    "area",
    "bt",
    "build_position",
    "building_type",
    "card",
    "cfg",
    "dc",
    "el",
    "ela",
    "elder",
    "event",
    "finish_turn",
    "goo_spent",
    "great_old_one",
    "objective",
    "pc",
    "pieces",
    "play",
    "position",
    "pw",
    "refresh",
    "sc",
    "symbol",
]

# Objectives that cannot end a test position by surprise: Sloth (never checked at the start of
# a turn), Lust (needs two Elder Ones), Greed (£36 and more) and Pride (four controlled areas).
QUIET = ("sloth", "lust", "greed", "pride")
# Great Old Ones for the seats of a test position: Cthulhu's ability needs £5 (give less to
# keep it out of the legal actions), the others are then named where a test needs them.
DEFAULT_GOOS = ("cthulhu", "hastur", "nyarlathotep", "shub_niggurath")


def cfg(n: int = 3, **kw) -> GameConfig:
    return GameConfig(num_players=n, expansion="cthulhu", **kw)


def position(n: int = 3, **kw) -> CthulhuGame:
    """``build_position`` with quiet objectives and the default Great Old Ones (override
    either with ``objectives=`` / ``great_old_ones=``)."""
    kw.setdefault("objectives", QUIET[:n])
    kw.setdefault("great_old_ones", DEFAULT_GOOS[:n])
    return build_position(n, **kw)


def refresh(g: CthulhuGame) -> CthulhuGame:
    """Carry on after editing ``g`` by hand (``Game.resume``)."""
    g.resume()
    return g


def goo_spent(g: CthulhuGame) -> CthulhuGame:
    """Mark the active player's Great Old One ability as used this turn."""
    g.ability_used |= 1 << GOO_BIT
    return refresh(g)


def play(g: CthulhuGame, *actions: int) -> CthulhuGame:
    for a in actions:
        g.apply(a)
    return g


def finish_turn(g: CthulhuGame) -> CthulhuGame:
    """Pass every decision of the active player's turn (drawing blind at the refill) until the
    next turn starts or the game ends."""
    seat, turn = g.active, g.turn
    while not g.is_terminal and g.turn == turn and g.active == seat:
        legal = g.legal_actions()
        g.apply(A.PASS if A.PASS in legal else A.CONFIRM if A.CONFIRM in legal else legal[0])
    return g


def symbol(g: CthulhuGame) -> str:
    """The symbol the pending ``card`` decision is about."""
    f = g.stack[-1]
    assert f["k"] == "card"
    return g.t.symbols[f["c"]][f["i"]]


def pc(name: str) -> int:
    return A.PLAY_CARD + card(name)


def dc(name: str) -> int:
    return A.DISCARD_CARD + card(name)


def sc(name: str) -> int:
    return A.SELECT_CARD + card(name)


def ar(name: str) -> int:
    return A.AREA + area(name)


def ab(name: str) -> int:
    """ABILITY of the building in that area."""
    return A.ABILITY + area(name)


def pw(name: str, slot: int) -> int:
    return A.pawn_action(area(name), slot)


def el(name: str) -> int:
    return A.ELDER + elder(name)


def ela(name: str) -> int:
    return A.ELDER_ABILITY + elder(name)


def bt(name: str) -> int:
    return A.BUILDING_TYPE + building_type(name)


def dice(g: CthulhuGame, *values: int) -> CthulhuGame:
    """Make the next die rolls of ``g`` come out as ``values`` (die numbers 1-12) and no more
    (``Game.fix_rolls``, which takes area indices: die number - 1)."""
    return g.fix_rolls(v - 1 for v in values)


__all__ += ["dice"]
