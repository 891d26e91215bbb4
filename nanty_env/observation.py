"""Flat numpy observations of one seat's information set, seats ordered relative to the
observer (me first), plus the full-state vector for centralised critics.

The layout is a table of named slices (``OBS_LAYOUT``; printed in ``docs/env.md``). Everything
is read from what the seat may know: its own hand and personality, public board and piles, the
cards it has learnt about, and the pending decision only when it is the seat's own. Other seats'
personalities appear only with ``reveal_personalities=True`` (oracle experiments).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from nanty_env.engine import actions as A
from nanty_env.engine.frames import frame_kinds
from nanty_env.engine.tables import tables

if TYPE_CHECKING:
    from nanty_env.engine.game import Game

NA = 12  # areas
NS = A.MAX_PLAYERS  # seat slots
NC = A.NUM_CARDS
NP = len(tables().data.personalities)
NE = len(tables().data.events)
KINDS = tuple(frame_kinds())
KIND_INDEX = {k: i for i, k in enumerate(KINDS)}
MAX_SYMBOLS = 5

_FIELDS: tuple[tuple[str, int, str], ...] = (
    ("agents", NA * NS, "agents per area x relative seat (count / 4)"),
    ("buildings", NA * NS, "building owner per area x relative seat (one-hot)"),
    ("grenadiers", NA, "grenadiers per area (count / 4)"),
    ("citizens", NA, "new citizens per area (count / 3)"),
    ("trouble", NA, "trouble marker per area"),
    ("city_retired", NA, "City Area card set aside by Inigo Jones"),
    ("city_gained_this_turn", NA, "City Area card gained this turn (ability not yet usable)"),
    ("abilities_used", NA, "City Area ability already used this turn"),
    ("money", NS, "money per relative seat (/ 50)"),
    ("loans", NS, "loan cards per relative seat"),
    ("penalties", NS, "penalty cards in front of each relative seat"),
    ("hand_sizes", NS, "hand size per relative seat (/ 10)"),
    ("agents_on_board", NS, "agents on the board per relative seat (/ 12)"),
    ("seat_present", NS, "relative seat is in the game"),
    ("active", NS, "whose turn it is (relative seat, one-hot)"),
    ("num_players", 3, "2, 3 or 4 players (one-hot)"),
    ("hand", NC, "my hand (multi-hot over the 101 cards)"),
    ("known_cards", (NS - 1) * NC, "cards I know to be in each other seat's hand"),
    ("personality", NP, "my personality (one-hot)"),
    ("known_unused", NP, "set-aside personalities I have seen"),
    ("revealed_personalities", (NS - 1) * NP, "others' personalities (oracle option only)"),
    ("discard", NC, "discard pile (public)"),
    ("in_play", NC, "cards being resolved (public)"),
    ("events_done", NE, "random events already drawn"),
    ("scalars", 4, "deck size / 101, event deck size / 12, turn / 100, trouble count / 12"),
    ("decision", len(KINDS), "kind of my pending decision (one-hot; zero if not mine)"),
    ("resolving_card", NC, "card whose symbols are being resolved (topmost)"),
    ("symbol_index", MAX_SYMBOLS, "index of that card's next symbol (one-hot)"),
    ("context_area", NA, "area named by my pending decision"),
    ("context_player", NS, "relative seat named by my pending decision"),
    ("context_cards", NC, "cards named by my pending decision"),
    ("my_turn_to_act", 1, "1 if I owe the pending decision"),
)


def _layout() -> dict[str, slice]:
    out, pos = {}, 0
    for name, size, _ in _FIELDS:
        out[name] = slice(pos, pos + size)
        pos += size
    return out


OBS_LAYOUT: dict[str, slice] = _layout()
OBS_SIZE: int = sum(size for _, size, _ in _FIELDS)
OFF = {name: s.start for name, s in OBS_LAYOUT.items()}


def layout_table() -> str:
    """The observation layout as a Markdown table."""
    rows = ["| slice | name | size | meaning |", "|---|---|---|---|"]
    for name, size, meaning in _FIELDS:
        s = OBS_LAYOUT[name]
        rows.append(f"| {s.start}:{s.stop} | `{name}` | {size} | {meaning} |")
    return "\n".join(rows)


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


def _area_counts(g: Game, rel: list[int]) -> np.ndarray:
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


def encode(g: Game, seat: int, *, reveal_personalities: bool = False) -> np.ndarray:
    """The observation vector of ``seat`` (float32, length ``OBS_SIZE``)."""
    x = np.zeros(OBS_SIZE, dtype=np.float32)
    m = memoryview(x)  # its item assignment is cheaper than numpy's, with the same rounding
    n = g.n
    rel = [(seat + r) % n for r in range(n)]  # rel[r] = absolute seat at relative position r

    idx, scale = _AREA_LAYOUT[n]
    x[idx] = _area_counts(g, rel) * scale  # the same float64 products as one at a time
    for a, b in enumerate(g.building):
        if b >= 0:
            m[OFF["buildings"] + a * NS + (b - seat) % n] = 1.0
    off, turn = OFF["city_gained_this_turn"], g.turn
    for a, t in enumerate(g.city_gained):
        if t == turn:
            m[off + a] = 1.0
    used = g.ability_used
    if used:
        off = OFF["abilities_used"]
        for a in range(NA):
            if used >> a & 1:
                m[off + a] = 1.0
    for r, q in enumerate(rel):
        m[_MONEY + r] = g.money[q] / 50
        m[_LOANS + r] = len(g.loans[q])
        m[_PENALTIES + r] = len(g.penalties[q])
        m[_HAND_SIZES + r] = len(g.hands[q]) / 10
        m[_ON_BOARD + r] = g.on_board[q] / 12
        m[_PRESENT + r] = 1.0
    m[OFF["active"] + (g.active - seat) % n] = 1.0
    m[OFF["num_players"] + n - 2] = 1.0

    _ones(m, OFF["hand"], g.hands[seat])
    for r in range(1, n):
        _ones(m, OFF["known_cards"] + (r - 1) * NC, g.known[seat][rel[r]])
    m[OFF["personality"] + g.persona[seat]] = 1.0
    _ones(m, OFF["known_unused"], g.known_unused[seat])
    if reveal_personalities:
        off = OFF["revealed_personalities"]
        for r in range(1, n):
            m[off + (r - 1) * NP + g.persona[rel[r]]] = 1.0
    _ones(m, OFF["discard"], g.discard)
    _ones(m, OFF["in_play"], g.in_play)
    _ones(m, OFF["events_done"], g.events_done)
    s = OFF["scalars"]
    m[s] = len(g.deck) / NC
    m[s + 1] = len(g.event_deck) / NE
    m[s + 2] = g.turn / 100
    m[s + 3] = sum(g.trouble) / NA

    for f in reversed(g.stack):
        if f["k"] == "card":
            m[OFF["resolving_card"] + f["c"]] = 1.0
            m[OFF["symbol_index"] + min(f["i"], MAX_SYMBOLS - 1)] = 1.0
            break
    if g.outcome is None and g.stack[-1]["p"] == seat:
        _context(m, g.stack[-1], seat, n)
    return x


def _ones(m: memoryview, off: int, items: list[int]) -> None:
    """Set ``m[off + i]`` to 1 for every ``i`` in ``items``."""
    for i in items:
        m[off + i] = 1.0


def _context(x: np.ndarray | memoryview, f: dict, seat: int, n: int) -> None:
    """Mark the kind and the context of the pending decision ``f`` of ``seat``."""
    x[OFF["decision"] + KIND_INDEX[f["k"]]] = 1.0
    x[OFF["my_turn_to_act"]] = 1.0
    a = f.get("a", -1)
    if isinstance(a, int) and 0 <= a < NA:
        x[OFF["context_area"] + a] = 1.0
    for key in ("t", "to", "payer", "src"):
        q = f.get(key, -1)
        if isinstance(q, int) and 0 <= q < n:
            x[OFF["context_player"] + (q - seat) % n] = 1.0
            break
    c = f.get("c", -1)
    if isinstance(c, int) and 0 <= c < NC:
        x[OFF["context_cards"] + c] = 1.0
    for c in f.get("cards", ()):
        x[OFF["context_cards"] + c] = 1.0


def with_hint(obs: np.ndarray, hint: int | np.ndarray | None) -> np.ndarray:
    """The input of a residual policy: ``obs`` (one observation or a batch) with the one-hot
    of the suggested action ``hint`` (one per row; ``None``: no suggestion, all zero) appended
    after the observation."""
    rows = np.atleast_2d(obs)
    onehot = np.zeros((len(rows), A.NUM_ACTIONS), dtype=rows.dtype)
    if hint is not None:
        onehot[np.arange(len(rows)), hint] = 1.0
    out = np.concatenate([rows, onehot], axis=1)
    return out if np.ndim(obs) == 2 else out[0]


_MASKS: dict[tuple[int, ...], np.ndarray] = {}  # legal set -> mask; the same sets recur
_MASK_CACHE_SIZE = 4096


def action_mask(g: Game, seat: int) -> np.ndarray:
    """int8 mask over the action space: the legal actions if ``seat`` decides now, else zeros."""
    if g.outcome is not None or g.stack[-1]["p"] != seat:
        return np.zeros(A.NUM_ACTIONS, dtype=np.int8)
    legal = tuple(g._legal)
    m = _MASKS.get(legal)
    if m is None:
        if len(_MASKS) >= _MASK_CACHE_SIZE:
            _MASKS.clear()
        m = _MASKS[legal] = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
        m[g._legal] = 1
    return m.copy()


# ---------------------------------------------------------------------- full state
STATE_SIZE = OBS_SIZE + (NS - 1) * NC + NC + 2 * NP


def encode_state(g: Game) -> np.ndarray:
    """Full-state vector for centralised critics: seat 0's observation with everything
    revealed, plus every other hand, the draw pile contents and the set-aside personalities."""
    x = np.zeros(STATE_SIZE, dtype=np.float32)
    x[:OBS_SIZE] = encode(g, 0, reveal_personalities=True)
    off = OBS_SIZE
    for r in range(1, g.n):
        for c in g.hands[r]:
            x[off + (r - 1) * NC + c] = 1.0
    off += (NS - 1) * NC
    for c in g.deck:
        x[off + c] = 1.0
    off += NC
    for p in g.persona_pool:
        x[off + p] = 1.0
    off += NP
    for s, p in enumerate(g.persona):
        x[off + p] = max(x[off + p], (s + 1) / NS)
    return x


def encode_view(view: dict, *, reveal: list[int] | None = None) -> np.ndarray:
    """The same vector as :func:`encode`, built from a seat's dict view (``Game.view``), for
    bots that only ever receive views. ``reveal``: all seats' personalities (oracle only)."""
    x = np.zeros(OBS_SIZE, dtype=np.float32)
    seat, n = view["seat"], view["num_players"]
    rel = [(seat + r) % n for r in range(n)]
    off = OFF["agents"]
    for r, q in enumerate(rel):
        for a, k in enumerate(view["agents"][q]):
            if k:
                x[off + a * NS + r] = k * 0.25
    off = OFF["buildings"]
    for a, b in enumerate(view["buildings"]):
        if b >= 0:
            x[off + a * NS + (b - seat) % n] = 1.0
    x[OFF["grenadiers"] : OFF["grenadiers"] + NA] = np.asarray(view["grenadiers"]) * 0.25
    x[OFF["citizens"] : OFF["citizens"] + NA] = np.asarray(view["citizens"], np.float32) / 3
    for name, key in (
        ("trouble", "trouble"),
        ("city_retired", "city_retired"),
        ("city_gained_this_turn", "city_gained_this_turn"),
        ("abilities_used", "abilities_used"),
    ):
        x[OFF[name] : OFF[name] + NA] = view[key]
    for r, q in enumerate(rel):
        x[OFF["money"] + r] = view["money"][q] / 50
        x[OFF["loans"] + r] = len(view["loans"][q])
        x[OFF["penalties"] + r] = len(view["penalties"][q])
        x[OFF["hand_sizes"] + r] = view["hand_sizes"][q] / 10
        x[OFF["agents_on_board"] + r] = sum(view["agents"][q]) / 12
        x[OFF["seat_present"] + r] = 1.0
    x[OFF["active"] + (view["active"] - seat) % n] = 1.0
    x[OFF["num_players"] + n - 2] = 1.0
    for c in view["hand"]:
        x[OFF["hand"] + c] = 1.0
    for r in range(1, n):
        for c in view["known_cards"][rel[r]]:
            x[OFF["known_cards"] + (r - 1) * NC + c] = 1.0
    x[OFF["personality"] + view["personality"]] = 1.0
    for p in view["known_unused_personalities"]:
        x[OFF["known_unused"] + p] = 1.0
    if reveal is not None:
        for r in range(1, n):
            x[OFF["revealed_personalities"] + (r - 1) * NP + reveal[rel[r]]] = 1.0
    for name in ("discard", "in_play"):
        for c in view[name]:
            x[OFF[name] + c] = 1.0
    for e in view["events_done"]:
        x[OFF["events_done"] + e] = 1.0
    s = OFF["scalars"]
    x[s : s + 4] = (
        view["deck_size"] / NC,
        view["event_deck_size"] / NE,
        view["turn"] / 100,
        view["trouble_count"] / NA,
    )
    for f in reversed(view["stack"]):
        if f["k"] == "card":
            x[OFF["resolving_card"] + f["c"]] = 1.0
            x[OFF["symbol_index"] + min(f["i"], MAX_SYMBOLS - 1)] = 1.0
            break
    if view["decision"]:
        _context(x, {"k": view["decision"], **view["context"]}, seat, n)
    return x


def view_action_mask(view: dict) -> np.ndarray:
    """int8 mask of the legal actions in a dict view (zeros if the seat is not deciding)."""
    m = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
    m[view["legal_actions"]] = 1
    return m
