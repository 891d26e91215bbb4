"""Flat numpy observations of one seat's information set, seats ordered relative to the
observer (me first), plus the full-state vector for centralised critics.

The layout is a table of named slices (``OBS_LAYOUT``; printed in ``docs/env.md``). Everything
is read from what the seat may know: its own hand and personality, public board and piles, the
cards it has learnt about, and the pending decision only when it is the seat's own. Other seats'
personalities appear only with ``reveal_personalities=True`` (oracle experiments).

:class:`ViewEncoder` is every ruleset's skeleton: a field table and the fill steps the rulesets
share, from a seat's view, with a small table of what differs (the expansion's module adds its
own blocks after it). :func:`encode` builds the base game's vector from a game; an
:class:`Encoder` (one per env) returns the same vectors while rewriting only the blocks whose
inputs changed since the seat's last observation.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from nanty_env.encoding import obs_fields as F
from nanty_env.engine import frame_kinds, tables
from nanty_env.engine.actions import MAX_PLAYERS, NUM_ACTIONS, NUM_AREAS, NUM_CARDS, PASS

if TYPE_CHECKING:
    from nanty_env.engine import Game

NA = NUM_AREAS
NS = MAX_PLAYERS  # seat slots
NC = NUM_CARDS
NP = len(tables().data.personalities)
NE = len(tables().data.events)
KINDS = tuple(frame_kinds())
MAX_SYMBOLS = 5

_FIELDS: tuple[F.Field, ...] = (
    *F.BOARD,
    *F.NEUTRALS,
    ("city_retired", NA, "City Area card set aside by Inigo Jones"),
    ("city_gained_this_turn", NA, "City Area card gained this turn (ability not yet usable)"),
    ("abilities_used", NA, "City Area ability already used this turn"),
    *F.SEATS,
    ("personality", NP, "my personality (one-hot)"),
    ("known_unused", NP, "set-aside personalities I have seen"),
    ("revealed_personalities", (NS - 1) * NP, "others' personalities (oracle option only)"),
    *F.PILES,
    ("events_done", NE, "random events already drawn"),
    ("scalars", 4, "deck size / 101, event deck size / 12, turn / 100, trouble count / 12"),
    ("decision", len(KINDS), "kind of my pending decision (one-hot; zero if not mine)"),
    *F.resolving(MAX_SYMBOLS),
    *F.CONTEXT,
    F.MY_TURN,
)


class ViewEncoder:
    """A ruleset's observation of a seat's dict view (``Game.view``): the fill steps every
    ruleset shares, over the ruleset's field table. The arguments but ``fields`` and ``kinds``
    are what differs between rulesets: which fields the shared steps fill, from which entries
    of the view; a ruleset writes the fields no step fills itself, after calling this.

    Args:
        fields: the layout's ``(name, size, meaning)`` rows, in order.
        kinds: the decision kinds, in the order of the ``decision`` one-hot.
        flags: ``(field, view key)`` of the 0/1 lists marked in a field.
        piles: ``(field, view key)`` of the lists of indices (cards, events...) marked in a field.
        role: the view key (and field) of my secret role card, the field of the others' (only
            when revealed: oracle experiments) and the number of role cards.
        scalars: ``(view key, divisor)`` of each entry of ``scalars``.
        seat_keys: the keys of a pending decision's context that may name a seat (the first
            present marks ``context_player``).
    """

    def __init__(
        self,
        fields: tuple[F.Field, ...],
        kinds: Sequence[str],
        *,
        flags: Sequence[tuple[str, str]],
        piles: Sequence[tuple[str, str]],
        role: tuple[str, str, int],
        scalars: Sequence[tuple[str, int]],
        seat_keys: tuple[str, ...],
    ) -> None:
        self.fields = fields
        self.layout: dict[str, slice] = F.field_slices(fields)
        self.size: int = sum(size for _, size, _ in fields)
        self.off = off = {name: s.start for name, s in self.layout.items()}
        self.kind_index = {k: i for i, k in enumerate(kinds)}
        self.flags = [(off[name], key) for name, key in flags]
        self.piles = [(off[name], key) for name, key in piles]
        self.role = (role[0], off[role[0]], off[role[1]], role[2])
        self.scalars = tuple(scalars)
        self.keys = ("area", seat_keys, "card")

    def __call__(self, view: Mapping[str, Any], reveal: Sequence[int] | None = None) -> np.ndarray:
        """The observation (float32, length ``size``) of the seat whose view this is, but the
        ruleset's own fields; ``reveal``: every seat's role card (oracle experiments only)."""
        out = np.zeros(self.size, dtype=np.float32)
        x = memoryview(out)  # its item assignment is cheaper than numpy's, with the same rounding
        seat, n = view["seat"], view["num_players"]
        rel = [(seat + r) % n for r in range(n)]
        self._board(x, view, seat, n, rel)
        self._seats(x, view, seat, n, rel)
        self._cards(x, view, rel, reveal)
        self._decision(x, view, seat, n)
        return out

    def layout_table(self) -> str:
        """The observation layout as a Markdown table."""
        return F.fields_table(self.fields)

    def _board(
        self, x: memoryview, view: Mapping[str, Any], seat: int, n: int, rel: list[int]
    ) -> None:
        """``agents``, ``buildings``, ``grenadiers``, ``citizens`` and the ``flags``."""
        off = self.off
        pos, agents = off["agents"], view["agents"]
        for r, q in enumerate(rel):
            for a, k in enumerate(agents[q]):
                if k:
                    x[pos + a * NS + r] = k * 0.25
        pos, gren, cit = off["buildings"], off["grenadiers"], off["citizens"]
        neutrals = zip(view["buildings"], view["grenadiers"], view["citizens"], strict=True)
        for a, (b, k, c) in enumerate(neutrals):
            if b >= 0:
                x[pos + a * NS + (b - seat) % n] = 1.0
            if k:
                x[gren + a] = k * 0.25
            if c:
                x[cit + a] = c / 3
        for pos, key in self.flags:
            flags = view[key]
            if any(flags):  # most are all zero
                for i, f in enumerate(flags):
                    if f:
                        x[pos + i] = 1.0

    def _seats(
        self, x: memoryview, view: Mapping[str, Any], seat: int, n: int, rel: list[int]
    ) -> None:
        """``money`` to ``num_players``: the per-seat blocks, whose turn it is, the players."""
        money, loans, penalties = view["money"], view["loans"], view["penalties"]
        hands, agents = view["hand_sizes"], view["agents"]
        i = self.off["money"]  # the first of ``F.SEATS``' consecutive blocks of NS entries
        for q in rel:
            x[i] = money[q] / 50
            x[i + NS] = len(loans[q])
            x[i + 2 * NS] = len(penalties[q])
            x[i + 3 * NS] = hands[q] / 10
            x[i + 4 * NS] = sum(agents[q]) / 12
            x[i + 5 * NS] = 1.0  # seat_present
            i += 1
        x[self.off["active"] + (view["active"] - seat) % n] = 1.0
        x[self.off["num_players"] + n - 2] = 1.0

    def _cards(
        self, x: memoryview, view: Mapping[str, Any], rel: list[int], reveal: Sequence[int] | None
    ) -> None:
        """``hand``, ``known_cards``, the role fields and the ``piles``."""
        _ones(x, self.off["hand"], view["hand"])
        pos, known = self.off["known_cards"], view["known_cards"]
        for r in range(1, len(rel)):
            _ones(x, pos + (r - 1) * NC, known[rel[r]])
        key, mine, others, roles = self.role
        x[mine + view[key]] = 1.0
        if reveal is not None:
            for r in range(1, len(rel)):
                x[others + (r - 1) * roles + reveal[rel[r]]] = 1.0
        for pos, key in self.piles:
            _ones(x, pos, view[key])

    def _decision(self, x: memoryview, view: Mapping[str, Any], seat: int, n: int) -> None:
        """``scalars``, the card being resolved and, if mine, the pending decision."""
        pos = self.off["scalars"]
        for i, (key, divisor) in enumerate(self.scalars):
            x[pos + i] = view[key] / divisor
        if view["resolving"]:  # the card being resolved last: [seat, card, next symbol]
            _, card, i = view["resolving"][-1]
            x[self.off["resolving_card"] + card] = 1.0
            x[self.off["symbol_index"] + min(i, MAX_SYMBOLS - 1)] = 1.0
        if view["decision"]:
            self.context(x, view["decision"], view["context"], seat, n)

    def context(
        self,
        x: np.ndarray | memoryview,
        kind: str,
        f: Mapping[str, Any],
        seat: int,
        n: int,
        keys: tuple[str, tuple[str, ...], str] | None = None,
    ) -> None:
        """Mark the pending decision of ``seat``: its ``kind``, ``my_turn_to_act`` and the
        area, seat and cards its fields ``f`` name (``keys``: the area's, the seat's and the
        card's keys in ``f``; default a view context's)."""
        area, seats, card = keys or self.keys
        off = self.off
        x[off["decision"] + self.kind_index[kind]] = 1.0
        x[off["my_turn_to_act"]] = 1.0
        a = f.get(area, -1)
        if isinstance(a, int) and 0 <= a < NA:
            x[off["context_area"] + a] = 1.0
        for key in seats:
            q = f.get(key, -1)
            if isinstance(q, int) and 0 <= q < n:
                x[off["context_player"] + (q - seat) % n] = 1.0
                break
        c = f.get(card, -1)
        if isinstance(c, int) and 0 <= c < NC:
            x[off["context_cards"] + c] = 1.0
        for c in f.get("cards", ()):
            if 0 <= c < NC:
                x[off["context_cards"] + c] = 1.0


_VIEW = ViewEncoder(
    _FIELDS,
    KINDS,
    flags=[(k, k) for k in ("trouble", "city_retired", "city_gained_this_turn", "abilities_used")],
    piles=(
        ("known_unused", "known_unused_personalities"),
        ("discard", "discard"),
        ("in_play", "in_play"),
        ("events_done", "events_done"),
    ),
    role=("personality", "revealed_personalities", NP),
    scalars=(("deck_size", NC), ("event_deck_size", NE), ("turn", 100), ("trouble_count", NA)),
    # ``from_area`` (an agent's starting area) is ``src`` in the game's frames (``_FRAME_KEYS``),
    # so the base game has always read it as a seat too
    seat_keys=("target", "to", "payer", "source", "from_area"),
)
_FRAME_KEYS = ("a", ("t", "to", "payer", "src"), "c")  # ``context`` keys in a game's frame
OBS_LAYOUT: dict[str, slice] = _VIEW.layout
OBS_SIZE: int = _VIEW.size
OBS_HIGH = 100.0  # the observation spaces' upper bound (every entry is in [0, OBS_HIGH])
OFF = _VIEW.off
KIND_INDEX = _VIEW.kind_index


def layout_table() -> str:
    """The observation layout as a Markdown table."""
    return _VIEW.layout_table()


def _area_layout(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Positions and scales of the per-area counts, in :func:`_area_counts` order."""
    idx = [OFF["agents"] + a * NS + r for r in range(n) for a in range(NA)]
    scale = [0.25] * (n * NA)
    for name, k in (
        ("grenadiers", 0.25),
        ("citizens", 1 / 3),
        ("trouble", 1.0),
        ("city_retired", 1.0),
    ):
        idx += range(OFF[name], OFF[name] + NA)
        scale += [k] * NA
    return np.array(idx), np.array(scale)


_AREA_LAYOUT = {n: _area_layout(n) for n in range(2, NS + 1)}


_REL = {n: [tuple((s + r) % n for r in range(n)) for s in range(n)] for n in range(2, NS + 1)}
"""``_REL[n][seat][r]``: the absolute seat at relative position ``r``."""


def _area_counts(g: Game, rel: tuple[int, ...]) -> np.ndarray:
    """Agents per area of each relative seat, then grenadiers, citizens, trouble markers and
    retired City Area cards per area (all small counts, hence bytes)."""
    counts: list[int] = []
    for q in rel:
        counts += g.agents[q]
    counts += g.gren
    counts += g.cit
    counts += g.trouble
    counts += g.city_retired
    return np.frombuffer(bytes(counts), dtype=np.uint8)


_MONEY, _LOANS, _PENALTIES, _HAND_SIZES, _ON_BOARD, _PRESENT = (
    OFF[name]
    for name in ("money", "loans", "penalties", "hand_sizes", "agents_on_board", "seat_present")
)
_BUILDINGS, _GAINED, _USED, _ACTIVE, _NUM_PLAYERS = (
    OFF[name]
    for name in ("buildings", "city_gained_this_turn", "abilities_used", "active", "num_players")
)
_HAND, _KNOWN, _PERSONALITY, _KNOWN_UNUSED, _REVEALED = (
    OFF[name]
    for name in ("hand", "known_cards", "personality", "known_unused", "revealed_personalities")
)
_DISCARD, _IN_PLAY, _EVENTS, _SCALARS, _CARD, _SYMBOL = (
    OFF[name]
    for name in ("discard", "in_play", "events_done", "scalars", "resolving_card", "symbol_index")
)


def encode(g: Game, seat: int, *, reveal_personalities: bool = False) -> np.ndarray:
    """The observation vector of ``seat`` (float32, length ``OBS_SIZE``)."""
    x = np.zeros(OBS_SIZE, dtype=np.float32)
    m = memoryview(x)  # its item assignment is cheaper than numpy's, with the same rounding
    rel = _REL[g.n][seat]
    _board(x, m, g, seat, rel)
    _turn_and_seats(m, g, seat, rel)
    _cards(m, g, seat, rel)
    _personas(m, g, seat, rel, reveal_personalities)
    _ones(m, _DISCARD, g.discard)
    _ones(m, _IN_PLAY, g.in_play)
    _ones(m, _EVENTS, g.events_done)
    _decision(m, g, seat)
    return x


# Each function below writes some consecutive blocks of the layout from its own inputs, into a
# vector that is zero there (``Encoder`` keeps some of them from one call to the next).
def _board(x: np.ndarray, m: memoryview, g: Game, seat: int, rel: tuple[int, ...]) -> None:
    """``agents`` to ``city_retired`` (``m``: a memoryview of ``x``)."""
    idx, scale = _AREA_LAYOUT[g.n]
    x[idx] = _area_counts(g, rel) * scale  # the same float64 products as one at a time
    n = g.n
    for a, b in enumerate(g.building):
        if b >= 0:
            m[_BUILDINGS + a * NS + (b - seat) % n] = 1.0


def _turn_and_seats(m: memoryview, g: Game, seat: int, rel: tuple[int, ...]) -> None:
    """``city_gained_this_turn`` to ``num_players``: this turn's City Area cards and
    abilities, the per-seat blocks, whose turn it is and the number of players."""
    turn = g.turn
    if turn in g.city_gained:
        for a, t in enumerate(g.city_gained):
            if t == turn:
                m[_GAINED + a] = 1.0
    used = g.ability_used
    if used:
        for a in range(NA):
            if used >> a & 1:
                m[_USED + a] = 1.0
    money, loans, penalties, hands, on_board = g.money, g.loans, g.penalties, g.hands, g.on_board
    for r, q in enumerate(rel):
        m[_MONEY + r] = money[q] / 50
        m[_LOANS + r] = len(loans[q])
        m[_PENALTIES + r] = len(penalties[q])
        m[_HAND_SIZES + r] = len(hands[q]) / 10
        m[_ON_BOARD + r] = on_board[q] / 12
        m[_PRESENT + r] = 1.0
    n = g.n
    m[_ACTIVE + (g.active - seat) % n] = 1.0
    m[_NUM_PLAYERS + n - 2] = 1.0


def _cards(m: memoryview, g: Game, seat: int, rel: tuple[int, ...]) -> None:
    """``hand`` and ``known_cards``: my hand and what I know of the others' hands."""
    _ones(m, _HAND, g.hands[seat])
    known = g.known[seat]
    for r in range(1, len(rel)):
        _ones(m, _KNOWN + (r - 1) * NC, known[rel[r]])


def _personas(m: memoryview, g: Game, seat: int, rel: tuple[int, ...], reveal: bool) -> None:
    """``personality`` to ``revealed_personalities`` (the others' only with ``reveal``)."""
    m[_PERSONALITY + g.persona[seat]] = 1.0
    _ones(m, _KNOWN_UNUSED, g.known_unused[seat])
    if reveal:
        for r in range(1, len(rel)):
            m[_REVEALED + (r - 1) * NP + g.persona[rel[r]]] = 1.0


def _decision(m: memoryview, g: Game, seat: int) -> None:
    """``scalars`` to ``my_turn_to_act``: counters, the card being resolved and, if it is
    mine, the pending decision."""
    _SCALAR_NUMBERS.pack_into(
        m, _SCALARS * 4, len(g.deck) / NC, len(g.event_deck) / NE, g.turn / 100, sum(g.trouble) / NA
    )
    stack = g.stack
    for f in reversed(stack):
        if f["k"] == "card":
            m[_CARD + f["c"]] = 1.0
            m[_SYMBOL + min(f["i"], MAX_SYMBOLS - 1)] = 1.0
            break
    if g.outcome is None and stack[-1]["p"] == seat:
        _VIEW.context(m, stack[-1]["k"], stack[-1], seat, g.n, _FRAME_KEYS)


def _ones(m: np.ndarray | memoryview, off: int, items: Sequence[int]) -> None:
    """Set ``m[off + i]`` to 1 for every ``i`` in ``items``."""
    for i in items:
        m[off + i] = 1.0


# zeros to clear a block with in one copy (the compiled build types it: ``_build.C_GLOBALS``)
_ZEROS = memoryview(np.zeros(OBS_SIZE, dtype=np.float32))


def _clear(m: memoryview, block: tuple[int, int]) -> None:
    """Zero the entries ``start:stop`` of ``m`` (``block``: the pair)."""
    start, stop = block
    m[start:stop] = _ZEROS[: stop - start]


_AGENTS, _GREN, _CIT, _TROUBLE, _RETIRED = (
    OFF[name] for name in ("agents", "grenadiers", "citizens", "trouble", "city_retired")
)
_BUILDING_BLOCK = (_BUILDINGS, _GREN)
_THIS_TURN_BLOCK = (_GAINED, _MONEY)  # city_gained_this_turn, abilities_used
# the per-seat blocks' offsets from ``money`` (consecutive blocks of one entry per seat)
_LOANS_AFTER, _PENALTIES_AFTER, _HAND_SIZES_AFTER, _ON_BOARD_AFTER = (
    k - _MONEY for k in (_LOANS, _PENALTIES, _HAND_SIZES, _ON_BOARD)
)
assert (_LOANS_AFTER, _PENALTIES_AFTER, _HAND_SIZES_AFTER, _ON_BOARD_AFTER) == (4, 8, 12, 16)
# money ... agents_on_board as float32s: ``pack_into`` rounds each double to float32 as an
# item assignment does (one C cast), in one call instead of twenty
_SEAT_NUMBERS = struct.Struct(f"={5 * NS}f")
_SCALAR_NUMBERS = struct.Struct("=4f")  # the four ``scalars``
_HAND_BLOCK = (_HAND, _KNOWN)
_KNOWN_BLOCK = (_KNOWN, _PERSONALITY)
_PERSONAS = (_PERSONALITY, _DISCARD)  # personality ... revealed_personalities
_DISCARD_BLOCK = (_DISCARD, _IN_PLAY)
_IN_PLAY_BLOCK = (_IN_PLAY, _EVENTS)
_EVENTS_BLOCK = (_EVENTS, _SCALARS)
_DECISION = (_SCALARS, OBS_SIZE)  # scalars ... my_turn_to_act
_MARKERS = ((_GREN, 0.25), (_CIT, 1 / 3), (_TROUBLE, 1.0), (_RETIRED, 1.0))
_NEVER: list = [None]  # equal to no list of the game


class _SeatCache:
    """One seat's last observation (for ``n`` players, ``reveal``) and copies of the inputs
    of its slower blocks, as they were when it was built. The blocks that depend only on the
    number of players and the seat (``seat_present``, ``num_players``) are written once."""

    __slots__ = (
        "active",
        "board",
        "discard",
        "events",
        "hand",
        "known",
        "n",
        "personas",
        "reveal",
        "this_turn",
        "x",
    )

    def __init__(self, n: int, reveal: bool) -> None:
        self.n, self.reveal = n, reveal
        self.x = np.zeros(OBS_SIZE, dtype=np.float32)
        self.x[_PRESENT : _PRESENT + n] = 1.0
        self.x[_NUM_PLAYERS + n - 2] = 1.0
        self.active = 0  # relative seat marked in ``active`` (none yet: the entry is 0)
        # agents (per absolute seat), grenadiers, citizens, trouble, retired, buildings
        self.board: list = [(_NEVER,) * n, _NEVER, _NEVER, _NEVER, _NEVER, _NEVER]
        self.hand = self.known = self.personas = self.discard = self.events = _NEVER
        self.this_turn: tuple = (None, -1)  # areas gained this turn, abilities used


class Encoder:
    """Builds the same arrays as :func:`encode`, rewriting only what changed.

    Each seat keeps its last observation. The blocks that change at only some steps (the
    board, my cards, the personalities, the discard pile and events drawn) are rewritten only
    when their inputs differ, by value, from copies kept at that seat's previous call (a pile
    that only grew gets its new cards); the others are rewritten at every call. Any game may
    be passed, in any order: only the values count. An env keeps one ``Encoder``.
    """

    def __init__(self) -> None:
        self._seats: dict[int, _SeatCache] = {}

    def __call__(self, g: Game, seat: int, *, reveal_personalities: bool = False) -> np.ndarray:
        """The observation vector of ``seat`` (equal to ``encode(g, seat, ...)``)."""
        c = self._seats.get(seat)
        if c is None or c.n != g.n or c.reveal != reveal_personalities:
            c = self._seats[seat] = _SeatCache(g.n, reveal_personalities)
        return _update(c, g, seat)


def _update(c: _SeatCache, g: Game, seat: int) -> np.ndarray:
    """Bring seat ``seat``'s cached observation ``c`` up to date with ``g``; return a copy.
    (A module-level function, so that the compiled build reads the game's fields as C
    struct members and calls the steps below directly.)"""
    x = c.x
    m = memoryview(x)
    # the same view; the compiled build types it (``_build.C_LOCALS``), so that the steps
    # handed ``v`` write their floats as C stores
    v = m
    rel = _REL[g.n][seat]
    board = [g.agents, g.gren, g.cit, g.trouble, g.city_retired, g.building]
    if board != c.board:
        _update_board(v, c.board, board, seat, rel)
    _update_turn_and_seats(m, c, g, seat, rel)
    _update_cards(v, c, g, seat, rel)
    if g.discard != c.discard:
        c.discard = _update_pile(v, _DISCARD_BLOCK, g.discard, c.discard)
    if g.events_done != c.events:
        c.events = _update_pile(v, _EVENTS_BLOCK, g.events_done, c.events)
    _clear(v, _IN_PLAY_BLOCK)
    _ones(v, _IN_PLAY, g.in_play)
    _clear(v, _DECISION)
    _decision(m, g, seat)
    return x.copy()


def _update_turn_and_seats(
    m: memoryview, c: _SeatCache, g: Game, seat: int, rel: tuple[int, ...]
) -> None:
    """``city_gained_this_turn`` to ``active`` as ``_turn_and_seats`` writes them: this turn's
    City Area cards and abilities only when they differ from the copies in ``c``, the per-seat
    numbers always (``seat_present`` and ``num_players`` never change for a cache)."""
    turn, gained, used = g.turn, g.city_gained, g.ability_used
    areas: tuple[int, ...] = ()
    if turn in gained:  # a loop, not a generator: the compiled build then types ``g``
        found = []
        for a, t in enumerate(gained):
            if t == turn:
                found.append(a)
        areas = tuple(found)
    if areas != c.this_turn[0] or used != c.this_turn[1]:
        _clear(m, _THIS_TURN_BLOCK)
        for a in areas:
            m[_GAINED + a] = 1.0
        if used:
            for a in range(NA):
                if used >> a & 1:
                    m[_USED + a] = 1.0
        c.this_turn = (areas, used)
    money, loans, penalties, hands, on_board = g.money, g.loans, g.penalties, g.hands, g.on_board
    if len(rel) == NS:  # the usual table: one packed write of the 20 numbers
        a, b, c_, d = rel
        _SEAT_NUMBERS.pack_into(
            m,
            _MONEY * 4,
            money[a] / 50,
            money[b] / 50,
            money[c_] / 50,
            money[d] / 50,
            len(loans[a]),
            len(loans[b]),
            len(loans[c_]),
            len(loans[d]),
            len(penalties[a]),
            len(penalties[b]),
            len(penalties[c_]),
            len(penalties[d]),
            len(hands[a]) / 10,
            len(hands[b]) / 10,
            len(hands[c_]) / 10,
            len(hands[d]) / 10,
            on_board[a] / 12,
            on_board[b] / 12,
            on_board[c_] / 12,
            on_board[d] / 12,
        )
    else:
        for r, q in enumerate(rel):
            i = _MONEY + r
            m[i] = money[q] / 50
            m[i + _LOANS_AFTER] = len(loans[q])
            m[i + _PENALTIES_AFTER] = len(penalties[q])
            m[i + _HAND_SIZES_AFTER] = len(hands[q]) / 10
            m[i + _ON_BOARD_AFTER] = on_board[q] / 12
    active = (g.active - seat) % len(rel)
    if active != c.active:
        m[_ACTIVE + c.active] = 0.0
        c.active = active
    m[_ACTIVE + active] = 1.0


def _update_cards(m: memoryview, c: _SeatCache, g: Game, seat: int, rel: tuple[int, ...]) -> None:
    """Rewrite ``hand``, ``known_cards`` and the personality blocks where their inputs differ
    from the copies in ``c`` (updated here)."""
    hand = g.hands[seat]
    if hand != c.hand:
        _clear(m, _HAND_BLOCK)
        _ones(m, _HAND, hand)
        c.hand = hand[:]
    known = g.known[seat]  # immutable (engine.knowledge): equal if the same object
    if known is not c.known and known != c.known:
        _clear(m, _KNOWN_BLOCK)
        for r in range(1, len(rel)):
            _ones(m, _KNOWN + (r - 1) * NC, known[rel[r]])
        c.known = known
    personas = [g.persona, g.known_unused[seat]]
    if personas != c.personas:
        _clear(m, _PERSONAS)
        _personas(m, g, seat, rel, c.reveal)
        c.personas = [g.persona[:], personas[1][:]]


def _update_board(m: memoryview, old: list, new: list, seat: int, rel: tuple[int, ...]) -> None:
    """Rewrite the parts of the board block (``agents`` to ``city_retired``) whose inputs in
    ``new`` differ from ``old`` (the copies they were written from; updated here)."""
    agents, was = new[0], old[0]
    for r, q in enumerate(rel):
        row = agents[q]
        if row != was[q]:
            col = _AGENTS + r
            for a, k in enumerate(row):  # every entry of the column: no clearing needed
                m[col + a * NS] = k * 0.25
    # the engine's rows are immutable (shared with its clones): kept as they are
    old[0] = agents if type(agents) is tuple else [row[:] for row in agents]
    for i, (off, scale) in enumerate(_MARKERS, start=1):
        counts = new[i]
        if counts != old[i]:
            for a, k in enumerate(counts):
                m[off + a] = k * scale
            old[i] = counts[:]
    building = new[5]
    if building != old[5]:
        _clear(m, _BUILDING_BLOCK)
        n = len(rel)
        for a, b in enumerate(building):
            if b >= 0:
                m[_BUILDINGS + a * NS + (b - seat) % n] = 1.0
        old[5] = building[:]


def _update_pile(
    m: memoryview, block: tuple[int, int], items: list[int], old: list[int]
) -> list[int]:
    """Mark the cards of a pile (``items``, last written from ``old``): only the new ones if
    the pile just grew, else all of them from scratch. Returns the copy to keep."""
    k = len(old)
    if len(items) > k and items[:k] == old:
        _ones(m, block[0], items[k:])
    else:
        _clear(m, block)
        _ones(m, block[0], items)
    return items[:]


def with_hint(
    obs: np.ndarray, hint: int | np.ndarray | None, num_actions: int = NUM_ACTIONS
) -> np.ndarray:
    """The input of a residual policy: ``obs`` (one observation or a batch) with the one-hot
    of the suggested action ``hint`` (one per row; ``None``: no suggestion, all zero) appended
    after the observation (``num_actions``: the ruleset's action count)."""
    rows = np.atleast_2d(obs)
    onehot = np.zeros((len(rows), num_actions), dtype=rows.dtype)
    if hint is not None:
        onehot[np.arange(len(rows)), hint] = 1.0
    out = np.concatenate([rows, onehot], axis=1)
    return out if np.ndim(obs) == 2 else out[0]


def legal_mask(legal_actions: Sequence[int], num_actions: int = NUM_ACTIONS) -> np.ndarray:
    """int8 mask over an action space of ``num_actions`` (default the base game's; the
    expansion's is larger) with a 1 at each of ``legal_actions``: the one builder of action
    masks (the env faces of both rulesets, dict views and the policy bot all use it)."""
    m = np.zeros(num_actions, dtype=np.int8)
    m[list(legal_actions)] = 1
    return m


# action count -> legal set -> mask (the same sets recur)
_MASKS: dict[int, dict[tuple[int, ...], np.ndarray]] = {}
_MASK_CACHE_SIZE = 4096
_NO_MASKS: dict[tuple[int, ...], np.ndarray] = {}  # always empty


def _cached_mask(legal: tuple[int, ...], num_actions: int) -> np.ndarray:
    """A copy of the mask of ``legal`` over ``num_actions`` actions (kept for next time)."""
    masks = _MASKS.get(num_actions)
    if masks is None or len(masks) >= _MASK_CACHE_SIZE:
        masks = _MASKS[num_actions] = {}
    m = masks.get(legal)
    if m is None:
        m = masks[legal] = legal_mask(legal, num_actions)
    return m.copy()


def action_mask(g: Game, seat: int) -> np.ndarray:
    """int8 mask over the action space of ``g``'s ruleset (``g.num_actions``): the legal
    actions if ``seat`` decides now, else zeros."""
    size = g.num_actions
    if g.outcome is not None or g.stack[-1]["p"] != seat:
        return np.zeros(size, dtype=np.int8)
    m = _MASKS.get(size, _NO_MASKS).get(g.legal)  # the usual case, inline
    return _cached_mask(g.legal, size) if m is None else m.copy()


# The documented no-op of a seat that does not decide, where a face needs every seat to act
# (``parallel_env``, ``raw_env(agent_order="cycle")``): PASS, the only action its mask allows
# (in every ruleset).
NO_OP = PASS


def mask_with_no_op(g: Game, seat: int) -> np.ndarray:
    """int8 mask over ``g``'s action space: the legal actions if ``seat`` decides now, the
    no-op alone if another seat does, all zero once the game is over."""
    if g.outcome is None and g.stack[-1]["p"] != seat:
        return _cached_mask((NO_OP,), g.num_actions)
    return action_mask(g, seat)


# ---------------------------------------------------------------------- full state
STATE_SIZE = OBS_SIZE + (NS - 1) * NC + NC + 2 * NP


def state_vector(
    g: Game, obs: np.ndarray, pool: Sequence[int], roles: int, extra: int = 0
) -> np.ndarray:
    """A full-state vector for centralised critics: ``obs`` (seat 0's observation with every
    role revealed), every other hand, the draw pile's contents and the set-aside role cards
    ``pool`` (one-hot over ``roles``), then ``extra`` zeros for the ruleset to fill."""
    size = len(obs)
    x = np.zeros(size + (NS - 1) * NC + NC + roles + extra, dtype=np.float32)
    x[:size] = obs
    m = memoryview(x)  # cheaper item assignment than numpy's
    for r in range(1, g.n):
        _ones(m, size + (r - 1) * NC, g.hands[r])
    off = size + (NS - 1) * NC
    _ones(m, off, g.deck)
    _ones(m, off + NC, pool)
    return x


def encode_state(g: Game) -> np.ndarray:
    """Full-state vector for centralised critics: seat 0's observation with everything
    revealed, plus every other hand, the draw pile contents, the set-aside personalities and
    each seat's personality (``(seat + 1) / 4`` at its card)."""
    obs = encode(g, 0, reveal_personalities=True)
    x = state_vector(g, obs, g.persona_pool, NP, NP)
    off = STATE_SIZE - NP
    for s, p in enumerate(g.persona):
        x[off + p] = max(x[off + p], (s + 1) / NS)
    return x


def encode_view(view: dict, *, reveal: list[int] | None = None) -> np.ndarray:
    """The same vector as :func:`encode`, built from a seat's dict view (``Game.view``), for
    bots that only ever receive views. ``reveal``: all seats' personalities (oracle only)."""
    return _VIEW(view, reveal)


def view_action_mask(view: dict, num_actions: int = NUM_ACTIONS) -> np.ndarray:
    """int8 mask of the legal actions in a dict view (zeros if the seat is not deciding);
    ``num_actions``: the size of the ruleset's action space (the expansion's is larger)."""
    return legal_mask(view["legal_actions"], num_actions)
