"""Shared helpers for the engine scenario tests (generic: every engine test file may use them).

Import them in a test module with ``from tests.engine.conftest import pc, play, ...`` (pytest
runs with ``--import-mode=importlib`` and registers this file as ``tests.engine.conftest``).

One name per helper: the action builders are ``pc`` / ``dc`` / ``sc`` (play, discard, select a
card), ``ar`` (an area), ``pw`` (a pawn), ``pl`` (a player), ``ability`` (a City Area card),
all taking data ids or names, and ``act`` for any family by name. Keep this file backward
compatible: add helpers, never change what an existing one means.
"""

from __future__ import annotations

from nanty_env.engine import actions as A
from nanty_env.engine.game import Game
from nanty_env.engine.position import area, build_position, card

__all__ = [
    "DIE_AREAS",
    "DIE_COST",
    "DIE_NEIGHBOURS",
    "QUIET_PERSONALITIES",
    "A",
    "ability",
    "act",
    "ar",
    "area",
    "area_actions",
    "areas",
    "build_position",
    "can",
    "card",
    "cards",
    "dc",
    "die",
    "families",
    "finish_turn",
    "legal_args",
    "pass_reactions",
    "pc",
    "pl",
    "play",
    "pw",
    "quiet_position",
    "refresh",
    "sc",
]


# ---------------------------------------------------------------------------- the board
# Written out from the rulebook / fact sheet, independently of the data files, keyed by the die
# number (area index = die number - 1).
DIE_AREAS = {
    1: "dolly_sisters",  # Chelsea (start area)
    2: "unreal_estate",  # Westminster
    3: "dragons_landing",  # West End
    4: "small_gods",  # Holborn
    5: "the_scours",  # City (start area)
    6: "the_hippo",  # Highbury
    7: "the_shades",  # East End (start area)
    8: "dimwell",  # Bermondsey
    9: "longwall",  # Southwark
    10: "isle_of_gods",  # Strand
    11: "seven_sleepers",  # Lambeth
    12: "nap_hill",  # Battersea
}
DIE_NEIGHBOURS = {
    1: {2, 3, 12},
    2: {1, 3, 4, 10, 11, 12},
    3: {1, 2, 4},
    4: {2, 3, 5, 6, 10},
    5: {4, 6, 7, 8, 10},
    6: {4, 5, 7},
    7: {5, 6, 8},
    8: {5, 7, 9},
    9: {8, 10, 11},
    10: {2, 4, 5, 9, 11},
    11: {2, 9, 10, 12},
    12: {1, 2, 11},
}
DIE_COST = {1: 6, 2: 18, 3: 12, 4: 18, 5: 6, 6: 12, 7: 6, 8: 6, 9: 12, 10: 12, 11: 18, 12: 12}


def die(k: int) -> int:
    """Area index of die number ``k``."""
    return k - 1


def area_actions(*numbers: int) -> set[int]:
    """AREA actions of the areas with die numbers ``numbers``."""
    return {A.AREA + die(k) for k in numbers}


# ---------------------------------------------------------------------------- encoding
def _arg(family: str, arg: int | str | None) -> int | None:
    """Accept data ids for card/area arguments ("groat", "dolly_sisters")."""
    if isinstance(arg, str):
        if family in ("PLAY_CARD", "DISCARD_CARD", "SELECT_CARD"):
            return card(arg)
        if family in ("AREA", "ABILITY"):
            return area(arg)
        raise ValueError(f"family {family} takes an int argument, got {arg!r}")
    return arg


def act(g: Game | None, family: str, arg: int | str | None = None) -> int:
    """The action integer of ``family``/``arg``; card and area arguments may be data ids.

    ``g`` is accepted (and ignored) so calls read ``act(g, "AREA", "the_shades")``.
    """
    return A.encode(family, _arg(family, arg))


def ability(a: int | str) -> int:
    return act(None, "ABILITY", a)


def pc(c: int | str) -> int:
    """Play card ``c`` (index, id or name)."""
    return act(None, "PLAY_CARD", c)


def dc(c: int | str) -> int:
    """Discard card ``c``."""
    return act(None, "DISCARD_CARD", c)


def sc(c: int | str) -> int:
    """Select card ``c`` (give, keep, take)."""
    return act(None, "SELECT_CARD", c)


def ar(a: int | str) -> int:
    """Area ``a`` (index, id or name)."""
    return act(None, "AREA", a)


def pl(rel: int) -> int:
    """The player ``rel`` seats to the decider's left (0: the decider)."""
    return A.encode("PLAYER", rel)


def pw(a: int | str, slot: int | str) -> int:
    """PAWN action for area ``a`` and ``slot``: 0-3 the agent of the seat *relative* to the
    decider, or "grenadier"/"citizen" (4/5)."""
    if isinstance(slot, str):
        slot = {"grenadier": A.SLOT_GRENADIER, "citizen": A.SLOT_CITIZEN}[slot]
    return A.pawn_action(area(a) if isinstance(a, str) else a, slot)


# ---------------------------------------------------------------------------- driving
Step = int | tuple


def _to_action(step: Step) -> int:
    if isinstance(step, tuple):
        return act(None, *step)
    if isinstance(step, str):
        return act(None, step)
    return int(step)


def play(g: Game, *steps: Step) -> Game:
    """Apply each step in order and return ``g``.

    A step is an action int, a family name ("PASS", "CONFIRM"), or a tuple
    ``(family, arg)`` as taken by :func:`act`. Raises ``IllegalActionError`` like ``g.apply``.
    """
    for s in steps:
        g.apply(_to_action(s))
    return g


def can(g: Game, step: Step) -> bool:
    """Whether ``step`` is legal now."""
    return _to_action(step) in g.legal_actions()


def families(g: Game) -> set[str]:
    """The action families present in the legal actions."""
    return {A.decode(a).family for a in g.legal_actions()}


def legal_args(g: Game, family: str) -> set[int | None]:
    """The arguments of the legal actions of ``family`` (e.g. legal areas, legal cards)."""
    out: set[int | None] = set()
    for a in g.legal_actions():
        d = A.decode(a)
        if d.family == family:
            out.add(d.arg)
    return out


def areas(*names: str) -> set[int]:
    """Area indices of the given ids/names."""
    return {area(x) for x in names}


def cards(*names: str) -> set[int]:
    return {card(x) for x in names}


def refresh(g: Game) -> Game:
    """Recompute the pending decision after a test edited the state of ``g`` by hand
    (``Game.resume``)."""
    g.resume()
    return g


def pass_reactions(g: Game) -> Game:
    """Answer every pending out-of-turn reaction window (``react``) with PASS."""
    while g.decision == "react":
        g.apply(A.PASS)
    return g


def finish_turn(g: Game) -> Game:
    """PASS every pending decision of the active player's turn (and any reaction window) until
    the next turn starts or the game ends. Mandatory decisions (no PASS) raise ``AssertionError``.
    """
    seat, turn = g.active, g.turn
    while not g.is_terminal and g.turn == turn and g.active == seat:
        assert A.PASS in g.legal_actions(), f"no PASS in decision {g.decision!r}"
        g.apply(A.PASS)
    return g


# Personalities that cannot win at the start of a turn in an ordinary test position: Sherlock
# Holmes for the first seat, then goals far out of reach on a near-empty board.
QUIET_PERSONALITIES = ("sherlock_holmes", "moriarty", "lord_bellinger", "lord_holdhurst")


def quiet_position(num_players: int = 4, **kw) -> Game:
    """``build_position`` with personalities that will not end the game by surprise
    (override with ``personalities=...``); all other keywords are passed through."""
    kw.setdefault("personalities", QUIET_PERSONALITIES[:num_players])
    return build_position(num_players, **kw)
