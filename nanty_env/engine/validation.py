"""Checks of a whole game state: the schema of ``Game.to_dict`` output and every rule that a
reachable state obeys (piece counts, each card in exactly one place, ranges, seats, the frames
of the decision stack, the outcome).

``Game.from_dict`` runs :func:`check_schema` on the dict, builds the game, runs
:func:`check_state` and then resumes the pending frames with :func:`advance_checked`; the first
problem raises one :class:`~nanty_env.engine.errors.InvalidStateError` naming the field
(``money[2]: -50 is negative``). The soak benchmark runs :func:`check_state` after every step,
so these are exactly the invariants random play is measured against.

Extensions (expansions with more state) add to the same checks without editing this module:
:func:`register_check` adds a whole-state check and :func:`register_frame_field` the domain of
a frame field (for every kind, or one kind). The built-in checks read the game's own ruleset
(its tables, frame handlers, action space and ability bits); the base game's personality and
event-deck checks apply to base games only, an expansion registering its own.
"""

from __future__ import annotations

import numbers
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from typing import Any

from nanty_env.engine import actions as A
from nanty_env.engine.actions import NUM_AREAS
from nanty_env.engine.config import GameConfig
from nanty_env.engine.errors import InvalidStateError
from nanty_env.engine.setup import personality_deck
from nanty_env.engine.state import GameState
from nanty_env.engine.tables import (
    AGENTS_PER_PLAYER,
    BUILDINGS_PER_PLAYER,
    CITIZENS,
    GRENADIERS,
    TROUBLE_MARKERS,
    tables,
)

_ALL_CARDS = list(range(A.NUM_CARDS))
_INT = {int}
StateCheck = Callable[[GameState], None]


def fail(field: str, problem: str) -> None:
    """Raise the one error every check raises: ``field: problem``."""
    raise InvalidStateError(f"{field}: {problem}")


# ---------------------------------------------------------------------- registries
_CHECKS: list[tuple[str, StateCheck]] = []


def register_check(name: str) -> Callable[[StateCheck], StateCheck]:
    """Add a whole-state check (run by :func:`check_state` after the built-in ones, in
    registration order); it raises through :func:`fail`."""

    def deco(fn: StateCheck) -> StateCheck:
        if any(n == name for n, _ in _CHECKS):
            raise ValueError(f"state check {name!r} registered twice")
        _CHECKS.append((name, fn))
        return fn

    return deco


@dataclass(frozen=True)
class Domain:
    """What a frame field may hold: integers in ``[low, high)`` (``high`` may depend on the
    number of players ``n``), one or a tuple of them (``many``)."""

    low: int
    high: Callable[[int], int]
    many: bool = False
    what: str = "value"

    def check(self, value: Any, n: int, field: str) -> None:
        items = value if self.many else (value,)
        if self.many and not isinstance(value, tuple):
            fail(field, f"must be a list of {self.what}s, got {value!r}")
        for x in items:
            if not _is_int(x) or not self.low <= x < self.high(n):
                fail(field, f"{x!r} is not a {self.what} (in [{self.low}, {self.high(n)}))")


SEAT = Domain(0, lambda n: n, what="seat")
SEAT_OR_NONE = Domain(-1, lambda n: n, what="seat or -1")
SEATS = Domain(0, lambda n: n, many=True, what="seat")
CARD = Domain(0, lambda n: A.NUM_CARDS, what="card")
CARDS = Domain(0, lambda n: A.NUM_CARDS, many=True, what="card")
AREA_OR_NONE = Domain(-1, lambda n: NUM_AREAS, what="area or -1")
AREAS = Domain(0, lambda n: NUM_AREAS, many=True, what="area")
ACTIONS = Domain(-1, lambda n: A.NUM_ACTIONS, many=True, what="action")
ACTION_OR_NONE = Domain(-1, lambda n: A.NUM_ACTIONS, what="action or -1")
FLAGS = Domain(0, lambda n: 2, many=True, what="0/1 flag")

_FRAME_FIELDS: dict[tuple[str | None, str], Domain | None] = {
    (None, "p"): SEAT,
    (None, "c"): CARD,
    (None, "a"): AREA_OR_NONE,
    (None, "t"): SEAT_OR_NONE,
    (None, "payer"): SEAT_OR_NONE,
    (None, "to"): SEAT,
    ("refill_to", "to"): None,  # a hand size there
    (None, "o"): Domain(-2, lambda n: n, what="seat, -1 or -2"),
    (None, "seats"): SEATS,
    (None, "cards"): CARDS,
    (None, "areas"): AREAS,
    (None, "dests"): AREAS,
    (None, "fl"): AREAS,
    (None, "rolls"): AREAS,
    (None, "stay"): FLAGS,
    (None, "targets"): ACTIONS,
    (None, "first"): ACTION_OR_NONE,
    (None, "second"): ACTION_OR_NONE,
}


def register_frame_field(field: str, domain: Domain | None, kind: str | None = None) -> None:
    """Declare what ``field`` holds in every frame (``kind`` None) or in frames of ``kind``
    (``None`` domain: any integer, string or tuple of them)."""
    _FRAME_FIELDS[(kind, field)] = domain


# ---------------------------------------------------------------------- schema (the dict)
def check_schema(
    d: Any,
    scalars: Sequence[str],
    lists: Sequence[str],
    nested: Sequence[str],
) -> None:
    """The shape of a ``to_dict`` state before anything is built from it: every key present
    with the right type and length (``n`` players, 12 areas)."""
    if not isinstance(d, Mapping):
        fail("state", f"must be a mapping, got {type(d).__name__}")
    required = ["config", *scalars, *lists, *nested, "known", "stack"]
    missing = [k for k in required if k not in d]
    if missing:
        fail(missing[0], "missing" + (f" (also {', '.join(missing[1:4])})" if missing[1:] else ""))
    if not isinstance(d["config"], Mapping):
        fail("config", "must be a mapping")
    try:
        cfg = GameConfig.from_dict(dict(d["config"]))
    except (TypeError, ValueError) as e:
        fail("config", str(e))
    for name in scalars:
        if not _is_int(d[name]):
            fail(name, f"must be an integer, got {d[name]!r}")
    n = d["n"]
    if n != cfg.num_players:
        fail("n", f"{n} but config.num_players is {cfg.num_players}")
    for name in lists:
        _int_list(d[name], name)
    for name in nested:
        rows = d[name]
        if not isinstance(rows, list) or len(rows) != n:
            fail(name, f"must be a list of {n} lists (one per seat)")
        for s, row in enumerate(rows):
            _int_list(row, f"{name}[{s}]")
    known = d["known"]
    if not isinstance(known, list) or len(known) != n:
        fail("known", f"must be {n} lists of {n} lists")
    for s, rows in enumerate(known):
        if not isinstance(rows, list) or len(rows) != n:
            fail(f"known[{s}]", f"must be a list of {n} lists")
        for q, row in enumerate(rows):
            _int_list(row, f"known[{s}][{q}]")
    for name, size in (("gren", NUM_AREAS), ("cit", NUM_AREAS), ("trouble", NUM_AREAS)):
        _length(d[name], size, name)
    for name in ("building", "city_retired", "city_gained"):
        _length(d[name], NUM_AREAS, name)
    for name in ("money", "on_board") if cfg.expansion else ("money", "on_board", "persona"):
        _length(d[name], n, name)
    for s, row in enumerate(d["agents"]):
        _length(row, NUM_AREAS, f"agents[{s}]")
    stack = d["stack"]
    if not isinstance(stack, list) or not all(isinstance(f, Mapping) for f in stack):
        fail("stack", "must be a list of frames (mappings)")
    outcome = d.get("outcome")
    if outcome is not None:
        if not isinstance(outcome, Mapping):
            fail("outcome", "must be a mapping or null")
        for key in ("winners", "reason"):
            if key not in outcome:
                fail(f"outcome.{key}", "missing")
        _int_list(outcome["winners"], "outcome.winners")
        if not isinstance(outcome["reason"], str):
            fail("outcome.reason", "must be a string")
        if outcome.get("points") is not None:
            _int_list(outcome["points"], "outcome.points")
            _length(outcome["points"], n, "outcome.points")
    rng = d.get("rng")
    if rng is not None and not isinstance(rng, Mapping):
        fail("rng", "must be a bit-generator state (mapping) or null")
    log = d.get("log", [])
    if not isinstance(log, list) or not all(isinstance(x, str) for x in log):
        fail("log", "must be a list of strings")


def _is_int(x: Any) -> bool:
    """A Python or numpy integer, not a bool (``True`` as a seat is a mistake, not a 1)."""
    return type(x) is int or (isinstance(x, numbers.Integral) and not isinstance(x, bool))


def _int_list(x: Any, field: str) -> None:
    if not isinstance(x, list):
        fail(field, f"must be a list, got {type(x).__name__}")
    if set(map(type, x)) <= _INT:  # the common case, fast
        return
    for i, v in enumerate(x):
        if not _is_int(v):
            fail(f"{field}[{i}]", f"must be an integer, got {v!r}")


def _length(x: list, size: int, field: str) -> None:
    if len(x) != size:
        fail(field, f"must have {size} entries, has {len(x)}")


# ---------------------------------------------------------------------- the built game
def check_state(g: GameState) -> None:
    """Every invariant of a reachable state (see the module docstring), then the registered
    extra checks."""
    for check in (_turn, _pieces, _cards, _knowledge, _frames, _outcome):
        check(g)
    if not g.has_elders:  # the base game's roles and event deck (expansions check their own)
        _personalities(g)
        _events(g)
    for _, check in _CHECKS:
        check(g)


def _in_range(values: Iterable[int], low: int, high: int, field: str) -> None:
    for i, v in enumerate(values):
        if not low <= v < high:
            fail(f"{field}[{i}]", f"{v} is outside [{low}, {high})")


def _pieces(g: GameState) -> None:
    n = g.n
    for s in range(n):
        row = g.agents[s]
        _in_range(row, 0, AGENTS_PER_PLAYER + 1, f"agents[{s}]")
        if sum(row) != g.on_board[s]:
            fail(f"on_board[{s}]", f"{g.on_board[s]} but agents[{s}] has {sum(row)} agents")
        if sum(row) > AGENTS_PER_PLAYER:
            fail(f"agents[{s}]", f"{sum(row)} agents on the board (at most {AGENTS_PER_PLAYER})")
        if g.money[s] < 0:
            fail(f"money[{s}]", f"{g.money[s]} is negative")
    _in_range(g.building, -1, n, "building")
    for s, count in Counter(b for b in g.building if b >= 0).items():
        if count > BUILDINGS_PER_PLAYER:
            fail("building", f"seat {s} owns {count} buildings (at most {BUILDINGS_PER_PLAYER})")
    for name, cap in (("gren", GRENADIERS), ("cit", CITIZENS)):
        values = getattr(g, name)
        _in_range(values, 0, cap + 1, name)
        if sum(values) > cap:
            fail(name, f"{sum(values)} pieces on the board (there are {cap})")
    _in_range(g.trouble, 0, 2, "trouble")
    if sum(g.trouble) > TROUBLE_MARKERS:
        fail("trouble", f"{sum(g.trouble)} markers (there are {TROUBLE_MARKERS})")
    _in_range(g.city_retired, 0, 2, "city_retired")
    _in_range(g.city_gained, -1, max(g.turn, 0) + 1, "city_gained")
    for a in range(NUM_AREAS):
        if g.building[a] < 0 and g.city_gained[a] != -1:
            fail(f"city_gained[{a}]", "set for an area without a building")


def _cards(g: GameState) -> None:
    t = g.t
    places: list[tuple[str, list[int]]] = [
        ("deck", g.deck),
        ("discard", g.discard),
        ("in_play", g.in_play),
        ("removed", g.removed),
    ]
    if g.has_elders:
        places.append(("faceup", g.faceup))
    for s in range(g.n):
        places += [(f"hands[{s}]", g.hands[s]), (f"loans[{s}]", g.loans[s])]
        places.append((f"penalties[{s}]", g.penalties[s]))
    every = sorted(c for _, cards in places for c in cards)
    if every != _ALL_CARDS:  # each card in exactly one place; find out which rule broke
        where: dict[int, str] = {}
        for name, cards in places:
            for i, c in enumerate(cards):
                if not 0 <= c < A.NUM_CARDS:
                    fail(f"{name}[{i}]", f"{c} is not a card (0..{A.NUM_CARDS - 1})")
                if c in where:
                    fail(name, f"card {c} ({t.card_id(c)}) is also in {where[c]}")
                where[c] = name
        missing = [c for c in range(A.NUM_CARDS) if c not in where]
        fail("cards", f"{len(missing)} cards are nowhere (first: {t.card_id(missing[0])})")
    removed = sorted(t.removed_with_two if g.n == 2 else ())
    if sorted(g.removed) != removed:
        fail("removed", f"{sorted(g.removed)} but a {g.n}-player game sets aside {removed}")
    penalty = _penalty_cards() if t is tables() else _penalties_of(t.effect)
    for s in range(g.n):
        for name, allowed in (("loans", t.loan_cards), ("penalties", penalty)):
            bad = [c for c in getattr(g, name)[s] if c not in allowed]
            if bad:
                fail(f"{name}[{s}]", f"card {t.card_id(bad[0])} cannot lie there")
    for i, c in enumerate(g.played):
        if not 0 <= c < A.NUM_CARDS:
            fail(f"played[{i}]", f"{c} is not a card")


@cache
def _penalty_cards() -> frozenset[int]:
    return _penalties_of(tables().effect)


def _penalties_of(effect: Sequence[str]) -> frozenset[int]:
    return frozenset(c for c in range(A.NUM_CARDS) if effect[c] == "pay_or_take_penalty_card")


def _knowledge(g: GameState) -> None:
    for s in range(g.n):
        for q in range(g.n):
            wrong = set(g.known[s][q]) - set(g.hands[q])
            if wrong:
                fail(f"known[{s}][{q}]", f"cards {sorted(wrong)} are not in hands[{q}]")
        wrong = set(g.known_unused[s]) - set(g.persona_pool)
        if wrong:
            fail(f"known_unused[{s}]", f"personalities {sorted(wrong)} are not set aside")


def _personalities(g: GameState) -> None:
    deck = sorted(personality_deck(g.cfg))
    if len(set(g.persona)) != g.n:
        fail("persona", f"{g.persona} must be {g.n} different personalities")
    if sorted(g.persona + g.persona_pool) != deck:
        fail(
            "persona_pool",
            f"personas {g.persona} + pool {g.persona_pool} must be the {len(deck)} "
            f"personality cards of this configuration {deck}",
        )


def _events(g: GameState) -> None:
    count = len(tables().data.events)
    if sorted(g.event_deck + g.events_done) != list(range(count)):
        fail("event_deck", f"event_deck + events_done must hold each of the {count} events once")


def _turn(g: GameState) -> None:
    n = g.n
    for name in ("active", "first_player"):
        value = getattr(g, name)
        if not 0 <= value < n:
            fail(name, f"{value} is not a seat of a {n}-player game")
    if g.turn < 0:
        fail("turn", f"{g.turn} is negative")
    if not 0 <= g.ability_used < 1 << g.ability_bits:
        fail("ability_used", f"{g.ability_used} is not a {g.ability_bits}-bit mask")


def _frames(g: GameState) -> None:
    stack, n = g.stack, g.n
    if g.outcome is None and not stack:
        fail("stack", "empty, but the game is not over (no pending decision)")
    if g.outcome is not None and stack:
        fail("stack", "must be empty once the game is over")
    for i, f in enumerate(stack):
        where = f"stack[{i}]"
        kind = f.get("k")
        if kind not in g._options:
            fail(f"{where}.k", f"{kind!r} is not a frame kind")
        if "p" not in f:
            fail(f"{where}.p", "missing")
        up = f.get("up", -1)
        if not _is_int(up) or not -1 <= up < i:
            fail(f"{where}.up", f"{up!r} must be -1 or the index of a frame below")
        for key, value in f.items():
            field = f"{where}.{key}"
            if not isinstance(key, str):
                fail(field, "frame keys must be strings")
            if not _plain(value):
                fail(field, f"{value!r} is not an integer, string or tuple of them")
            domain = _FRAME_FIELDS.get((kind, key), _FRAME_FIELDS.get((None, key)))
            if domain is not None:
                domain.check(value, n, field)


def _plain(x: Any) -> bool:
    if isinstance(x, tuple):
        return all(_plain(v) for v in x)
    return isinstance(x, str) or _is_int(x)


def _outcome(g: GameState) -> None:
    o = g.outcome
    if o is None:
        return
    if len(set(o.winners)) != len(o.winners):
        fail("outcome.winners", f"{list(o.winners)} names a seat twice")
    for w in o.winners:
        if not 0 <= w < g.n:
            fail("outcome.winners", f"{w} is not a seat of a {g.n}-player game")
    if o.points is not None and len(o.points) != g.n:
        fail("outcome.points", f"must have {g.n} entries")


def advance_checked(g: GameState) -> None:
    """Resume the pending frames of a restored game (``g._advance()``), turning a failure
    deep inside a handler into an :class:`InvalidStateError` about the stack, then check the
    decision it arrives at."""
    try:
        g._advance()
    except InvalidStateError:
        raise
    except Exception as e:  # a frame whose fields do not fit its handler
        top = g.stack[-1].get("k") if g.stack else None
        fail(
            "stack", f"the pending frames cannot be resumed ({type(e).__name__}: {e}; top {top!r})"
        )
    if g.outcome is None:
        if not 0 <= g.current_player < g.n:
            fail(f"stack[{len(g.stack) - 1}].p", f"{g.current_player} is not a seat")
        legal = g.legal_actions()
        if not all(0 <= a < g.num_actions for a in legal):
            fail("stack", f"the pending decision offers actions outside 0..{g.num_actions - 1}")
    else:
        check_state(g)  # finishing during the resume must leave a valid end state


def check_game(g: GameState) -> None:
    """:func:`check_state` plus the pending decision (for a live game, e.g. after each step)."""
    check_state(g)
    legal = g.legal_actions()
    if g.is_terminal:
        if legal or g.current_player != -1:
            fail("stack", "a finished game offers no decision")
        return
    if not legal:
        fail("stack", "no legal action before the end")
    if any(a >= b for a, b in pairwise(legal)):
        fail("stack", "legal actions must be sorted and distinct")
    if legal[0] < 0 or legal[-1] >= g.num_actions:
        fail("stack", f"legal actions outside 0..{g.num_actions - 1}")
    if not 0 <= g.current_player < g.n:
        fail("stack", f"current player {g.current_player} is not a seat")
