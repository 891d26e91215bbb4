"""Checks of a whole game state: the schema of ``Game.to_dict`` output and every rule that a
reachable state obeys (piece counts, each card in exactly one place, ranges, seats, the frames
of the decision stack, the outcome).

``Game.from_dict`` runs :func:`check_schema` on the dict, builds the game, runs
:func:`check_state` and then resumes the pending frames with :func:`advance_checked`; the first
problem raises one :class:`~nanty_env.engine.errors.InvalidStateError` naming the field
(``money[2]: -50 is negative``). The soak benchmark runs :func:`check_state` after every step,
so these are exactly the invariants random play is measured against.

Every frame of the decision stack is checked, not only the pending one, because each comes
back to the top sooner or later: the turn cycle at the bottom, each frame's keys (the ones its
kind must and may hold, :func:`register_frame_kind`), the domain of each value, where it may
stand (a frame that waits for no child is the top), and its kind's rule relating it to the
state (the card being resolved is in play, the pawns to swap are pawns, a reaction answers a
frame that waits for one, ...). The config is checked for types too (``num_players`` 2.0 is
not 2), and the outcome for a reason of the ruleset and at least one winner. So a state that
passes can be played on: ``benchmarks/fuzz_state.py`` mutates real states a million times to
measure exactly that, and the soak (``benchmarks/soak.py``) restores every state of both
rulesets.

Extensions (expansions with more state) add to the same checks without editing this module:
:func:`register_check` adds a whole-state check, :func:`register_frame_field` the domain of
a frame field (for every kind, or one kind), :func:`register_frame_kind` a kind's keys, stages,
rule and place (for every ruleset or one expansion's) and :func:`register_endings` the reasons
its games end with. The built-in checks read the game's own ruleset (its tables, frame
handlers, action space and ability bits); the base game's personality and event-deck checks
apply to base games only, an expansion registering its own.
"""

from __future__ import annotations

import numbers
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import pairwise
from typing import Any

from nanty_env.engine import actions as A
from nanty_env.engine.actions import NUM_ACTIONS, NUM_AREAS, NUM_CARDS, PAWN, PAWN_SLOTS
from nanty_env.engine.config import GameConfig
from nanty_env.engine.errors import InvalidStateError
from nanty_env.engine.ruleset import find_ruleset, known_rulesets
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

_ALL_CARDS = list(range(NUM_CARDS))
_INT = {int}
StateCheck = Callable[[GameState], None]


def member(prefix: str, key: Any) -> str:
    """The name of ``prefix``'s entry ``key``: ``stack[2].stay``, or ``config['a b']`` when
    the key is no plain name."""
    return (
        f"{prefix}.{key}" if isinstance(key, str) and key.isidentifier() else f"{prefix}[{key!r}]"
    )


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
CARD = Domain(0, lambda n: NUM_CARDS, what="card")
CARDS = Domain(0, lambda n: NUM_CARDS, many=True, what="card")
AREA = Domain(0, lambda n: NUM_AREAS, what="area")
AREA_OR_NONE = Domain(-1, lambda n: NUM_AREAS, what="area or -1")
AREAS = Domain(0, lambda n: NUM_AREAS, many=True, what="area")
ACTIONS = Domain(-1, lambda n: NUM_ACTIONS, many=True, what="action")
ACTION_OR_NONE = Domain(-1, lambda n: NUM_ACTIONS, what="action or -1")
PAWN_END = PAWN + NUM_AREAS * PAWN_SLOTS
PAWNS = Domain(PAWN, lambda n: PAWN_END, many=True, what="pawn action")
FLAG = Domain(0, lambda n: 2, what="0/1 flag")
FLAGS = Domain(0, lambda n: 2, many=True, what="0/1 flag")
VERDICT = Domain(0, lambda n: 3, what="verdict (0 go on, 1 blocked, 2 replaced)")
COUNT = Domain(0, lambda n: 100, what="count (0-99)")
STAYS = Domain(0, lambda n: AGENTS_PER_PLAYER + 1, many=True, what="count of staying agents")
AMOUNT = Domain(0, lambda n: 1000, what="amount (0-999)")
NEED = Domain(-99, lambda n: 100, what="count (-99..99)")
NEUTRAL = Domain(-2, lambda n: 0, what="neutral pawn (-1 grenadier, -2 citizen)")
OWNER = Domain(-2, lambda n: n, what="seat, -1 or -2")


@dataclass(frozen=True)
class Choice:
    """A frame field holding one of a few strings."""

    values: frozenset[str]

    def check(self, value: Any, n: int, field: str) -> None:
        if value not in self.values:
            fail(field, f"{value!r} is not one of {sorted(self.values)}")


@dataclass(frozen=True)
class Or:
    """A frame field in ``domain`` or equal to one of ``extra`` (``-1`` for "none yet", or
    ``None``: JSON ``null``)."""

    domain: Domain
    extra: tuple[Any, ...] = (None,)

    def check(self, value: Any, n: int, field: str) -> None:
        if not any(value is x or (_is_int(value) and value == x) for x in self.extra):
            self.domain.check(value, n, field)


FieldDomain = Domain | Choice | Or
PAWN_OR_NONE = Or(Domain(PAWN, lambda n: PAWN_END, what="pawn action or -1"), (-1,))
FrameRule = Callable[[GameState, dict[str, Any], str], None]

_FRAME_FIELDS: dict[tuple[str | None, str], FieldDomain | None] = {
    (None, "p"): SEAT,
    (None, "c"): CARD,
    (None, "a"): AREA_OR_NONE,
    (None, "t"): SEAT_OR_NONE,
    (None, "payer"): SEAT_OR_NONE,
    (None, "to"): SEAT,
    ("refill_to", "to"): Domain(0, lambda n: 100, what="hand size (0-99)"),
    (None, "o"): OWNER,
    ("arrive", "o"): NEUTRAL,
    (None, "src"): SEAT_OR_NONE,
    ("move_own", "src"): AREA_OR_NONE,
    ("place_agent", "src"): AREA,
    (None, "seats"): SEATS,
    (None, "cards"): CARDS,
    (None, "areas"): AREAS,
    (None, "dests"): AREAS,
    (None, "fl"): AREAS,
    (None, "rolls"): AREAS,
    ("arrive", "ask"): Or(SEATS),
    (None, "stay"): STAYS,
    (None, "targets"): PAWNS,
    (None, "first"): PAWN_OR_NONE,
    (None, "second"): PAWN_OR_NONE,
    (None, "r"): VERDICT,
    (None, "text"): FLAG,
    (None, "must"): FLAG,
    (None, "nt"): FLAG,
    (None, "opt"): FLAG,
    (None, "lifted"): FLAG,
    (None, "ft"): FLAG,
    (None, "any"): FLAG,
    (None, "need_trouble"): FLAG,
    (None, "half"): FLAG,
    (None, "not"): AREA_OR_NONE,
    (None, "left"): COUNT,
    (None, "need"): NEED,
    (None, "pay"): AMOUNT,
    (None, "amount"): AMOUNT,
    (None, "i"): COUNT,
    (None, "w"): Choice(
        frozenset(("remove", "move", "text", "building", "holborn", "remove_elder"))
    ),
}
for _kind in ("rm", "rmb", "mv", "inigo", "ev_clear_trouble", "relocate_building"):
    _FRAME_FIELDS[(_kind, "a")] = AREA


@dataclass(frozen=True)
class FrameKind:
    """What a frame of one kind holds: the keys it must have, the keys it may have, the
    domains of its own fields (over the shared ones of :func:`register_frame_field`), a rule
    relating its fields to the state (``rule(g, frame, "stack[i]")``, raising through
    :func:`fail`), and whether other frames may wait above it (``lower``; a frame that never
    asks for a child is the top of the stack)."""

    required: tuple[str, ...]
    optional: tuple[str, ...] = ()
    fields: Mapping[str, FieldDomain] = field(default_factory=dict)
    rule: FrameRule | None = None
    lower: bool = False


_FRAME_KINDS: dict[tuple[str | None, str], FrameKind] = {}


def register_frame_kind(
    kind: str,
    required: Sequence[str],
    optional: Sequence[str] = (),
    *,
    stages: int | None = None,
    fields: Mapping[str, FieldDomain] | None = None,
    rule: FrameRule | None = None,
    lower: bool = False,
    ruleset: str | None = None,
) -> None:
    """Declare frame ``kind`` (for every ruleset, or for the expansion ``ruleset`` only, whose
    declaration then wins over the base game's): the keys it must and may hold (``k`` and
    ``p`` always; no others), ``stages`` of its step counter ``s`` (0 .. ``stages`` - 1),
    domains of its own ``fields``, its ``rule`` and whether frames may wait above it."""
    own = dict(fields or {})
    if stages is not None:
        own["s"] = Domain(0, lambda n: stages, what=f"stage (0-{stages - 1})")
    keys = tuple(dict.fromkeys(("k", "p", *required)))
    _FRAME_KINDS[(ruleset, kind)] = FrameKind(keys, tuple(optional), own, rule, lower)


def frame_kind(g: GameState, kind: str) -> FrameKind | None:
    """The declaration of ``kind`` in force for ``g``'s ruleset (None: undeclared)."""
    for ruleset in ancestry(g.cfg.expansion):
        spec = _FRAME_KINDS.get((ruleset, kind))
        if spec is not None:
            return spec
    return None


@cache
def ancestry(expansion: str | None) -> tuple[str | None, ...]:
    """The ``GameConfig.expansion`` of the ruleset selected by ``expansion`` and of each of its
    ancestors, nearest first (a house variant's declarations fall back to its parent's)."""
    return tuple(r.expansion for r in reversed(find_ruleset(expansion).lineage()))


def register_frame_field(field: str, domain: FieldDomain | None, kind: str | None = None) -> None:
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
    _config_types(d["config"])
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
    roles = find_ruleset(cfg.expansion).roles == "persona"
    for name in ("money", "on_board", "persona") if roles else ("money", "on_board"):
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


_CONFIG_TYPES: dict[str, tuple[type, ...]] = {
    "num_players": (int,),
    "personalities": (str,),
    "thresholds": (str,),
    "theme": (str,),
    "interrupt_windows": (str,),
    "log": (bool,),
    "expansion": (str, type(None)),
    "content": (str, type(None)),
}


def _config_types(cfg: Mapping[str, Any]) -> None:
    """Each config field known and of its type (``num_players`` 2.0 or ``log`` "yes" would
    pass ``GameConfig``'s own checks), and the expansion a registered one."""
    for key, value in cfg.items():
        if key not in _CONFIG_TYPES:
            fail(member("config", key), "not a configuration field")
        if type(value) not in _CONFIG_TYPES[key]:
            names = " or ".join(
                "null" if t is type(None) else t.__name__ for t in _CONFIG_TYPES[key]
            )
            fail(f"config.{key}", f"must be {names}, got {value!r}")
    expansion = cfg.get("expansion")
    if expansion is not None and expansion not in known_rulesets():
        fail("config.expansion", f"{expansion!r} is not a known expansion")


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
                if not 0 <= c < NUM_CARDS:
                    fail(f"{name}[{i}]", f"{c} is not a card (0..{NUM_CARDS - 1})")
                if c in where:
                    fail(name, f"card {c} ({t.card_id(c)}) is also in {where[c]}")
                where[c] = name
        missing = [c for c in range(NUM_CARDS) if c not in where]
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
        if not 0 <= c < NUM_CARDS:
            fail(f"played[{i}]", f"{c} is not a card")


@cache
def _penalty_cards() -> frozenset[int]:
    return _penalties_of(tables().effect)


def _penalties_of(effect: Sequence[str]) -> frozenset[int]:
    return frozenset(c for c in range(NUM_CARDS) if effect[c] == "pay_or_take_penalty_card")


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


# No game comes near it, and play from it stays far inside the compiled build's 64-bit counter.
MAX_TURN = 1 << 31


def _turn(g: GameState) -> None:
    n = g.n
    for name in ("active", "first_player"):
        value = getattr(g, name)
        if not 0 <= value < n:
            fail(name, f"{value} is not a seat of a {n}-player game")
    if g.turn < 0:
        fail("turn", f"{g.turn} is negative")
    if g.turn > MAX_TURN:
        fail("turn", f"{g.turn} is beyond {MAX_TURN}, more turns than any game plays")
    if not 0 <= g.ability_used < 1 << g.ability_bits:
        fail("ability_used", f"{g.ability_used} is not a {g.ability_bits}-bit mask")


def _frames(g: GameState) -> None:
    """Every frame of the stack, from the bottom: its kind, keys and their domains, where it
    may stand, then each kind's rule relating its fields to the state."""
    stack, n = g.stack, g.n
    if g.outcome is None and not stack:
        fail("stack", "empty, but the game is not over (no pending decision)")
    if g.outcome is not None and stack:
        fail("stack", "must be empty once the game is over")
    if stack and stack[0].get("k") != "turn":
        fail("stack[0].k", f"{stack[0].get('k')!r}: the bottom frame is the turn cycle ('turn')")
    specs = []
    for i, f in enumerate(stack):
        where = f"stack[{i}]"
        kind = f.get("k")
        if not isinstance(kind, str) or kind not in g._options:
            fail(f"{where}.k", f"{kind!r} is not a frame kind")
        if "p" not in f:
            fail(f"{where}.p", "missing")
        up = f.get("up", -1)
        if not _is_int(up) or not -1 <= up < i:
            fail(f"{where}.up", f"{up!r} must be -1 or the index of a frame below")
        spec = frame_kind(g, kind)
        for key, value in f.items():
            field = member(where, key)
            if not isinstance(key, str):
                fail(field, "frame keys must be strings")
            domain = _domain(spec, kind, key)
            if value is None and isinstance(domain, Or) and None in domain.extra:
                continue
            if not _plain(value):
                fail(field, f"{value!r} is not an integer, string or tuple of them")
            if spec is not None and key not in spec.required and key not in spec.optional:
                fail(field, f"a {kind} frame has no such key")
            if domain is not None:
                domain.check(value, n, field)
        if spec is not None:
            for key in spec.required:
                if key not in f:
                    fail(f"{where}.{key}", f"missing (a {kind} frame needs it)")
        specs.append(spec)
    for i, (f, spec) in enumerate(zip(stack, specs, strict=True)):
        if spec is None:
            continue
        if i < len(stack) - 1 and not spec.lower:
            fail(f"stack[{i}].k", f"a {f['k']} frame waits for no other: it must be on top")
        if spec.rule is not None:
            spec.rule(g, f, f"stack[{i}]")


def _domain(spec: FrameKind | None, kind: str, key: str) -> FieldDomain | None:
    if spec is not None and key in spec.fields:
        return spec.fields[key]
    return _FRAME_FIELDS.get((kind, key), _FRAME_FIELDS.get((None, key)))


def _plain(x: Any) -> bool:
    if isinstance(x, tuple):
        return all(_plain(v) for v in x)
    return isinstance(x, str) or _is_int(x)


# ---------------------------------------------------------------------- the frame kinds
# Each rule holds a frame to what the engine's own frames of that kind hold, so that the
# handler can resume it whenever it comes back to the top.
def _turn_frame(g: GameState, f: dict[str, Any], where: str) -> None:
    if g.stack[0] is not f or any(x["k"] == "turn" for x in g.stack[1:]):
        fail(f"{where}.k", "the turn frame is the bottom of the stack, and the only one")
    if f["p"] != g.active:
        fail(f"{where}.p", f"{f['p']} but the active seat is {g.active}")


def _own_turn(g: GameState, f: dict[str, Any], where: str) -> None:
    if f["p"] != g.active:
        fail(f"{where}.p", f"{f['p']}: only the active seat {g.active} decides this")


def _card_frame(g: GameState, f: dict[str, Any], where: str) -> None:
    _own_turn(g, f, where)
    c = f["c"]
    if c not in g.in_play:
        # its own text may have put it aside (a loan, a penalty card), with no text left
        aside = any(c in row for row in (*g.loans, *g.penalties))
        if not aside or "scroll" in g.t.symbols[c][f["i"] :]:
            fail(f"{where}.c", f"card {c} is neither in play nor put aside by its own text")
    if sum(1 for x in g.stack if x["k"] == "card" and x["c"] == c) > 1:
        fail(f"{where}.c", f"card {c} is resolved by two frames")
    if f["i"] > len(g.t.symbols[c]):
        fail(f"{where}.i", f"{f['i']} is past the {len(g.t.symbols[c])} symbols of card {c}")


def _text_of(effects: Callable[[], Iterable[str]]) -> FrameRule:
    """A frame resolving the text of card ``c``: the card is in play and has that text."""

    def rule(g: GameState, f: dict[str, Any], where: str) -> None:
        c = f["c"]
        if g.t.effect[c] not in set(effects()):
            fail(f"{where}.c", f"card {c}'s text ({g.t.effect[c] or 'none'}) is not this")
        _resolving(g, f, where)

    return rule


def _resolving(g: GameState, f: dict[str, Any], where: str) -> None:
    """A frame carrying out the text of card ``c``: the card is in play, and its frame waits
    below, past its text (which would otherwise run a second time)."""
    c = f["c"]
    if c not in g.in_play:
        fail(f"{where}.c", f"card {c} is not in play")
    below = g.stack[: next(i for i, x in enumerate(g.stack) if x is f)]
    if not any(
        x["k"] == "card" and x["c"] == c and "scroll" not in g.t.symbols[c][x["i"] :] for x in below
    ):
        fail(f"{where}.c", f"no frame of card {c} below, past its text")


def _targeted_effects() -> Iterable[str]:
    from nanty_env.engine.effects.targeted import TARGETED

    return TARGETED


def _each_effects() -> Iterable[str]:
    from nanty_env.engine.effects.targeted import EACH

    return EACH


def _targeted(g: GameState, f: dict[str, Any], where: str) -> None:
    if ("e" in f) != ("amount" in f):
        fail(f"{where}.e", "a die outcome's effect (e) comes with its amount, and only then")
    if "e" in f:
        if f["e"] not in set(_targeted_effects()):
            fail(f"{where}.e", f"{f['e']!r} is not an effect aimed at a player")
        _resolving(g, f, where)
    else:
        _text_of(_targeted_effects)(g, f, where)
    if f["s"] > 0 and f["t"] < 0:
        fail(f"{where}.t", "no player picked, past the first stage")


def _each(g: GameState, f: dict[str, Any], where: str) -> None:
    _text_of(_each_effects)(g, f, where)


def _pay_or(g: GameState, f: dict[str, Any], where: str) -> None:
    _text_of(lambda: ("pay_or_take_penalty_card", "pay_or_lose_building"))(g, f, where)


def _pay_first(g: GameState, f: dict[str, Any], where: str) -> None:
    effects = ("pay_player_to_assassinate", "pay_player_then_assassinate")
    _text_of(lambda: (*effects, "pay_player_then_move_own_agent"))(g, f, where)


def _transfer(g: GameState, f: dict[str, Any], where: str) -> None:
    _text_of(lambda: ("force_transfer",))(g, f, where)
    if f["s"] >= 1 and f["payer"] < 0:
        fail(f"{where}.payer", "no payer picked, past the first stage")
    if f["s"] >= 2 and "to" not in f:
        fail(f"{where}.to", "missing, past the second stage")


def _keep_one(g: GameState, f: dict[str, Any], where: str) -> None:
    cards = f["cards"]
    if not cards or len(set(cards)) != len(cards) or not set(cards) <= set(g.hands[f["t"]]):
        fail(f"{where}.cards", f"{list(cards)} must be different cards of hands[{f['t']}]")


def _flood(g: GameState, f: dict[str, Any], where: str) -> None:
    if len(f["stay"]) != len(f["fl"]):
        fail(f"{where}.stay", f"must have one count per flooded area ({len(f['fl'])})")
    if len(set(f["fl"])) != len(f["fl"]):
        fail(f"{where}.fl", "names an area twice")


def _murders(g: GameState, f: dict[str, Any], where: str) -> None:
    if f["s"] > 0 and f["a"] < 0:
        fail(f"{where}.a", "no area rolled, past the first stage")


def _rm(g: GameState, f: dict[str, Any], where: str) -> None:
    if f.get("r") == 2 and f["o"] < 0:
        fail(f"{where}.r", "only an agent is put back elsewhere")


def _react(g: GameState, f: dict[str, Any], where: str) -> None:
    up = f.get("up", -1)
    parent = frame_kind(g, g.stack[up]["k"]) if up >= 0 else None
    if parent is None or "r" not in parent.optional:
        fail(f"{where}.up", f"{up} is not a frame that waits for a reaction")


def _move_own(g: GameState, f: dict[str, Any], where: str) -> None:
    if f["src"] >= 0 and not g.agents[f["p"]][f["src"]]:
        fail(f"{where}.src", f"no agent of seat {f['p']} in area {f['src']}")


def _swap(g: GameState, f: dict[str, Any], where: str) -> None:
    s = f["s"]
    if s >= 1 and f["first"] < 0:
        fail(f"{where}.first", "no first pawn, past the first stage")
    if s >= 2:
        second = f.get("second", -1)
        if second < 0:
            fail(f"{where}.second", "no second pawn, past the second stage")
        if A.split_pawn(second)[0] == A.split_pawn(f["first"])[0]:
            fail(f"{where}.second", "in the same area as the first pawn")


def _buy_building(g: GameState, f: dict[str, Any], where: str) -> None:
    if f["s"] >= 1 and (f["a"] < 0 or g.building[f["a"]] < 0):
        fail(f"{where}.a", f"{f['a']} holds no building to buy, past the first stage")


_REPLY = ("r", "up")  # a frame that asks for a reaction (the verdict) and may be a child
for _kind, _required, _optional, _kw in (
    ("turn", ("s",), (), {"stages": 3, "rule": _turn_frame, "lower": True}),
    ("main", (), ("up",), {"rule": _own_turn, "lower": True}),
    ("end", (), ("up",), {"rule": _own_turn, "lower": True}),
    ("two", ("left",), ("up",), {"rule": _own_turn, "lower": True}),
    ("card", ("c", "i"), (), {"rule": _card_frame, "lower": True}),
    ("relocate_building", ("a",), ("up",), {}),
    ("place_agent", ("areas",), ("not", "src", "nt", "opt", "lifted", "up"), {"lower": True}),
    ("react", ("w", "a", "src", "text"), ("up",), {"rule": _react}),
    ("rm", ("a", "o", "src", "text", "s"), _REPLY, {"stages": 2, "rule": _rm, "lower": True}),
    ("rmb", ("a", "s"), _REPLY, {"stages": 2, "lower": True}),
    ("mv", ("a", "o", "dests", "s"), _REPLY, {"stages": 2, "lower": True}),
    ("murders", ("seats", "a", "s"), (), {"stages": 3, "rule": _murders, "lower": True}),
    ("arrive", ("o", "rolls", "ask"), _REPLY, {"lower": True}),
    ("subsidence", ("seats",), (), {}),
    ("inigo", ("a", "s"), _REPLY, {"stages": 2, "lower": True}),
    ("flood", ("fl", "seats", "stay"), (), {"rule": _flood}),
    ("ev_clear_trouble", ("a",), (), {"lower": True}),
    ("discard", ("need", "left", "pay"), ("up",), {}),
    ("trouble_off", ("areas",), ("up",), {}),
    ("trouble_on", ("areas",), ("up",), {}),
    (
        "targeted",
        ("c", "s", "t"),
        ("e", "amount", *_REPLY),
        {
            "stages": 3,
            "rule": _targeted,
            "lower": True,
            "fields": {"e": Choice(frozenset(("steal_money",)))},
        },
    ),
    ("give_cards", ("to", "left"), ("up",), {}),
    ("pay_or", ("to", "c", "amount"), ("up",), {"rule": _pay_or}),
    ("burn_building", ("t",), ("up",), {"fields": {"t": SEAT}}),
    ("sell", ("t", "amount"), ("up",), {"fields": {"t": SEAT}}),
    ("discard_theirs", ("t",), ("up",), {"fields": {"t": SEAT}}),
    ("keep_one", ("t", "cards"), ("up",), {"fields": {"t": SEAT}, "rule": _keep_one}),
    ("each", ("c", "seats", "s"), _REPLY, {"stages": 2, "rule": _each, "lower": True}),
    ("money_or_card", ("to", "amount"), ("up",), {}),
    ("remove_own", ("src", "text"), ("up",), {}),
    (
        "transfer",
        ("c", "payer", "s"),
        ("to", *_REPLY),
        {"stages": 4, "rule": _transfer, "lower": True},
    ),
    ("pay_first", ("c",), ("up",), {"rule": _pay_first}),
    ("move_own", ("ft", "any", "src"), ("up",), {"rule": _move_own}),
    ("pick_foreign", (), ("up",), {}),
    ("kill", ("src", "targets", "must"), ("up",), {}),
    ("swap", ("first", "s"), ("second", *_REPLY), {"stages": 5, "rule": _swap, "lower": True}),
    (
        "buy_building",
        ("need_trouble", "a", "s"),
        _REPLY,
        {"stages": 3, "rule": _buy_building, "lower": True},
    ),
    ("half_build", (), ("up",), {}),
    ("slant", ("amount",), ("up",), {}),
    ("refill_to", ("to",), ("up",), {"lower": True}),
    ("ripper", ("left",), ("up",), {"lower": True}),
    ("pay_or_lose_agent", ("amount",), ("up",), {}),
):
    register_frame_kind(_kind, _required, _optional, **_kw)


# How a ruleset's games end: reason head -> the details it may carry (``reason`` is
# ``head:detail``, or ``head`` alone for an empty detail), computed from the game's tables.
Endings = Mapping[str, Callable[[GameState], Iterable[str]]]
_ENDINGS: dict[str | None, Endings] = {
    None: {
        "personality": lambda g: [p.id for p in g.t.data.personalities],
        "deck_exhausted": lambda g: ("personality", "points"),
        "riots": lambda g: ("points",),
    }
}
_ONE_WINNER = ("personality", "objective")  # a goal or an objective met: its holder alone


def register_endings(ruleset: str, endings: Endings) -> None:
    """Declare the reasons a game of expansion ``ruleset`` may end with (see ``_ENDINGS``)."""
    _ENDINGS[ruleset] = endings


def _outcome(g: GameState) -> None:
    o = g.outcome
    if o is None:
        return
    head, _, detail = o.reason.partition(":")
    endings = next((_ENDINGS[r] for r in ancestry(g.cfg.expansion) if r in _ENDINGS), {})
    if head not in endings or detail not in set(endings[head](g)):
        fail("outcome.reason", f"{o.reason!r} is not how a game of this ruleset ends")
    if not o.winners:
        fail("outcome.winners", "empty: every ending has a winner")
    if len(set(o.winners)) != len(o.winners):
        fail("outcome.winners", f"{list(o.winners)} names a seat twice")
    for w in o.winners:
        if not 0 <= w < g.n:
            fail("outcome.winners", f"{w} is not a seat of a {g.n}-player game")
    if head in _ONE_WINNER and len(o.winners) != 1:
        fail("outcome.winners", f"{list(o.winners)}: a {head} ending has one winner")
    if o.points is not None and len(o.points) != g.n:
        fail("outcome.points", f"must have {g.n} entries")
    if detail == "points" and o.points is None:
        fail("outcome.points", "missing, but points decided the game")


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
