"""Flat numpy observations of *The Rise of Cthulhu* expansion: one seat's information set, seats
ordered relative to the observer (me first), plus the full-state vector for centralised critics.

The layout is a table of named slices (``CTHULHU_OBS_LAYOUT``; printed in ``docs/env.md``), of
a fixed size for every content pack (rosters up to ``MAX_ELDER_ONES``). It is a different
vector from the base game's (``nanty_env.encoding.observation``), which the expansion leaves
unchanged.

Every entry is written from the seat's view (``Game.view(seat)``), the engine's information
set: the observation cannot hold anything the seat does not know, and a policy playing from a
view (``agents.policy.PolicyBot``) sees exactly what it saw in training. Only the oracle option
``reveal_objectives=True`` adds the other players' secret objectives, read from the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from nanty_env.data.cthulhu.model import (
    DOOMSDAY_LEVEL,
    MAX_ELDER_ONES,
    MAX_SYMBOLS,
    NUM_BUILDING_TYPES,
    NUM_EVENT_CARDS,
    NUM_GREAT_OLD_ONES,
    NUM_OBJECTIVES,
    TRACK_GRENADIERS,
)
from nanty_env.encoding import obs_fields as F
from nanty_env.encoding.observation import legal_mask
from nanty_env.engine import actions as A
from nanty_env.engine.cthulhu import game as _registers_handlers  # noqa: F401
from nanty_env.engine.cthulhu.tables import CthulhuTables, cthulhu_tables
from nanty_env.engine.frames import frame_kinds

if TYPE_CHECKING:
    from nanty_env.engine import Game

NA = A.NUM_AREAS
NS = A.MAX_PLAYERS
NC = A.NUM_CARDS
NE = MAX_ELDER_ONES
NB = NUM_BUILDING_TYPES
NK = NUM_OBJECTIVES
NG = NUM_GREAT_OLD_ONES
NV = NUM_EVENT_CARDS
NL = DOOMSDAY_LEVEL
CTHULHU_KINDS = tuple(frame_kinds("cthulhu"))
CTHULHU_KIND_INDEX = {k: i for i, k in enumerate(CTHULHU_KINDS)}
NUM_ACTIONS = A.NUM_ACTIONS_CTHULHU
MAX_HP = 5  # HP scale (the shipped roster's largest is 4)

_FIELDS: tuple[F.Field, ...] = (
    *F.BOARD,
    ("building_types", NA * NB, "building type per area (one-hot)"),
    *F.NEUTRALS,
    ("building_gained_this_turn", NA, "Building card gained this turn (ability not yet usable)"),
    ("building_abilities_used", NA, "building ability already used this turn"),
    ("elder_area", NE * NA, "area of each Elder One (roster slot x area, one-hot; 0 in the pool)"),
    ("elder_owner", NE * NS, "owner of each Elder One (relative seat, one-hot)"),
    ("elder_in_pool", NE, "Elder One available to be summoned"),
    ("elder_hp", NE, "each Elder One's HP (/ 5; 0 for an empty roster slot)"),
    ("elder_hits", NE, "hits each Elder One has taken this turn (/ its HP)"),
    ("elder_arrived_this_turn", NE, "Elder One summoned this turn (ability not yet usable)"),
    ("elder_abilities_used", NE, "Elder One's ability already used this turn"),
    ("great_old_ones", NS * NG, "Great Old One board of each relative seat (one-hot)"),
    ("goo_ability_used", 1, "my Great Old One's ability already used this turn"),
    ("insanity", NL, "Insanity level 1-13 (one-hot)"),
    ("insanity_level", 1, "Insanity level / 13"),
    ("grenadiers_on_track", 1, "grenadiers still on the track / 4"),
    ("next_box", 2, "the next level holds a grenadier, an event"),
    *F.SEATS,
    ("face_up", NC, "the three face-up cards (public)"),
    ("objective", NK, "my secret objective (one-hot)"),
    ("revealed_objectives", (NS - 1) * NK, "others' objectives (oracle option only)"),
    *F.PILES,
    ("removed", NC, "cards out of the game (public)"),
    ("events_done", NV, "events drawn at least once"),
    ("next_event", NV, "the next event, once every event has been drawn (the deck cycles)"),
    ("scalars", 3, "deck size / 101, turn / 100, trouble count / 12"),
    ("decision", len(CTHULHU_KINDS), "kind of my pending decision (one-hot; zero if not mine)"),
    *F.resolving(MAX_SYMBOLS),
    *F.CONTEXT,
    ("context_elder", NE, "Elder One named by my pending decision"),
    ("context_roll", 1, "die roll of my pending summon / 12"),
    F.MY_TURN,
)


CTHULHU_OBS_LAYOUT: dict[str, slice] = F.field_slices(_FIELDS)
CTHULHU_OBS_SIZE: int = sum(size for _, size, _ in _FIELDS)
OFF = {name: s.start for name, s in CTHULHU_OBS_LAYOUT.items()}
CTHULHU_STATE_SIZE = CTHULHU_OBS_SIZE + (NS - 1) * NC + NC + NK


def layout_table() -> str:
    """The observation layout as a Markdown table."""
    return F.fields_table(_FIELDS)


def _ones(x: Any, off: int, items: Sequence[int]) -> None:
    """Set ``x[off + i]`` to 1 for every ``i`` in ``items``."""
    for i in items:
        x[off + i] = 1.0


def _flags(x: Any, off: int, flags: Sequence[int]) -> None:
    """Set ``x[off + i]`` to 1 where ``flags[i]`` is set."""
    for i, f in enumerate(flags):
        if f:
            x[off + i] = 1.0


def encode_view(
    view: Mapping[str, Any],
    t: CthulhuTables | None = None,
    *,
    reveal: Sequence[int] | None = None,
) -> np.ndarray:
    """The observation vector (float32, ``CTHULHU_OBS_SIZE``) of the seat whose view this is.

    Args:
        view: ``Game.view(seat)`` of an expansion game.
        t: the game's tables (its content pack); default the shipped pack.
        reveal: every seat's objective (oracle experiments only).
    """
    t = t or cthulhu_tables()
    out = np.zeros(CTHULHU_OBS_SIZE, dtype=np.float32)
    x = memoryview(out)  # its item assignment is cheaper than numpy's, with the same rounding
    seat, n = view["seat"], view["num_players"]
    rel = [(seat + r) % n for r in range(n)]
    _board(x, view, seat, n, rel)
    _elders(x, view, t, seat, n)
    _track(x, view, t, rel)
    _seats(x, view, seat, n, rel)
    _cards(x, view, rel, reveal)
    _decision(x, view, seat, n)
    return out


def _board(x: Any, view: Mapping[str, Any], seat: int, n: int, rel: list[int]) -> None:
    off = OFF["agents"]
    agents = view["agents"]
    for r, q in enumerate(rel):
        for a, k in enumerate(agents[q]):
            if k:
                x[off + a * NS + r] = k * 0.25
    bld, btype = view["buildings"], view["building_types"]
    for a in range(NA):
        b = bld[a]
        if b >= 0:
            x[OFF["buildings"] + a * NS + (b - seat) % n] = 1.0
            x[OFF["building_types"] + a * NB + btype[a]] = 1.0
        if view["grenadiers"][a]:
            x[OFF["grenadiers"] + a] = view["grenadiers"][a] * 0.25
        if view["citizens"][a]:
            x[OFF["citizens"] + a] = view["citizens"][a] / 3
    for name, key in (
        ("trouble", "trouble"),
        ("building_gained_this_turn", "city_gained_this_turn"),
        ("building_abilities_used", "abilities_used"),
    ):
        _flags(x, OFF[name], view[key])


def _elders(x: Any, view: Mapping[str, Any], t: CthulhuTables, seat: int, n: int) -> None:
    hp = t.elder_hp
    for e, (a, o) in enumerate(zip(view["elder_area"], view["elder_owner"], strict=True)):
        x[OFF["elder_hp"] + e] = hp[e] / MAX_HP
        if a < 0:
            x[OFF["elder_in_pool"] + e] = 1.0
            continue
        x[OFF["elder_area"] + e * NA + a] = 1.0
        x[OFF["elder_owner"] + e * NS + (o - seat) % n] = 1.0
        x[OFF["elder_hits"] + e] = view["elder_hits"][e] / hp[e]
    _flags(x, OFF["elder_arrived_this_turn"], view["elder_arrived_this_turn"])
    _flags(x, OFF["elder_abilities_used"], view["elder_abilities_used"])


def _track(x: Any, view: Mapping[str, Any], t: CthulhuTables, rel: list[int]) -> None:
    goo = view["great_old_ones"]
    for r, q in enumerate(rel):
        x[OFF["great_old_ones"] + r * NG + goo[q]] = 1.0
    x[OFF["goo_ability_used"]] = float(view["goo_ability_used"])
    level = view["insanity"]
    x[OFF["insanity"] + level - 1] = 1.0
    x[OFF["insanity_level"]] = level / NL
    x[OFF["grenadiers_on_track"]] = view["grenadiers_on_track"] / TRACK_GRENADIERS
    if level < NL:
        x[OFF["next_box"]] = float(t.track_grenadier[level + 1])
        x[OFF["next_box"] + 1] = float(t.track_event[level + 1])


def _seats(x: Any, view: Mapping[str, Any], seat: int, n: int, rel: list[int]) -> None:
    for r, q in enumerate(rel):
        x[OFF["money"] + r] = view["money"][q] / 50
        x[OFF["loans"] + r] = float(len(view["loans"][q]))
        x[OFF["penalties"] + r] = float(len(view["penalties"][q]))
        x[OFF["hand_sizes"] + r] = view["hand_sizes"][q] / 10
        x[OFF["agents_on_board"] + r] = sum(view["agents"][q]) / 12
        x[OFF["seat_present"] + r] = 1.0
    x[OFF["active"] + (view["active"] - seat) % n] = 1.0
    x[OFF["num_players"] + n - 2] = 1.0


def _cards(x: Any, view: Mapping[str, Any], rel: list[int], reveal: Sequence[int] | None) -> None:
    _ones(x, OFF["hand"], view["hand"])
    for r in range(1, len(rel)):
        _ones(x, OFF["known_cards"] + (r - 1) * NC, view["known_cards"][rel[r]])
    _ones(x, OFF["face_up"], view["face_up"])
    x[OFF["objective"] + view["objective"]] = 1.0
    if reveal is not None:
        for r in range(1, len(rel)):
            x[OFF["revealed_objectives"] + (r - 1) * NK + reveal[rel[r]]] = 1.0
    for name in ("discard", "in_play", "removed"):
        _ones(x, OFF[name], view[name])
    _ones(x, OFF["events_done"], view["events_done"])
    bottom = view["event_deck_bottom"]
    if bottom and len(bottom) == view["event_deck_size"]:
        x[OFF["next_event"] + bottom[-1]] = 1.0  # the least recently drawn is on top


def _decision(x: Any, view: Mapping[str, Any], seat: int, n: int) -> None:
    s = OFF["scalars"]
    x[s] = view["deck_size"] / NC
    x[s + 1] = view["turn"] / 100
    x[s + 2] = view["trouble_count"] / NA
    for f in reversed(view["stack"]):
        if f["k"] == "card":
            x[OFF["resolving_card"] + f["c"]] = 1.0
            x[OFF["symbol_index"] + min(f["i"], MAX_SYMBOLS - 1)] = 1.0
            break
    if not view["decision"]:
        return
    ctx = view["context"]
    x[OFF["decision"] + CTHULHU_KIND_INDEX[view["decision"]]] = 1.0
    x[OFF["my_turn_to_act"]] = 1.0
    a = ctx.get("area", -1)
    if isinstance(a, int) and 0 <= a < NA:
        x[OFF["context_area"] + a] = 1.0
    for key in ("target", "to", "payer", "source"):
        q = ctx.get(key, -1)
        if isinstance(q, int) and 0 <= q < n:
            x[OFF["context_player"] + (q - seat) % n] = 1.0
            break
    c = ctx.get("card", -1)
    if isinstance(c, int) and 0 <= c < NC:
        x[OFF["context_cards"] + c] = 1.0
    for c in ctx.get("cards", ()):
        if 0 <= c < NC:
            x[OFF["context_cards"] + c] = 1.0
    e = ctx.get("elder", -1)
    if isinstance(e, int) and 0 <= e < NE:
        x[OFF["context_elder"] + e] = 1.0
    roll = ctx.get("roll", 0)
    if isinstance(roll, int) and roll > 0:
        x[OFF["context_roll"]] = roll / 12


def encode(g: Game, seat: int, *, reveal_objectives: bool = False) -> np.ndarray:
    """The observation vector of ``seat`` in expansion game ``g`` (from its view)."""
    reveal = g.objective if reveal_objectives else None  # type: ignore[attr-defined]
    return encode_view(g.view(seat), g.t, reveal=reveal)  # type: ignore[arg-type]


class CthulhuEncoder:
    """The interface of :class:`nanty_env.encoding.observation.Encoder` for expansion games (one per
    env): ``encoder(game, seat, reveal_personalities=...)``, where the flag reveals the other
    players' objectives (the expansion's hidden roles)."""

    def __call__(self, g: Game, seat: int, *, reveal_personalities: bool = False) -> np.ndarray:
        return encode(g, seat, reveal_objectives=reveal_personalities)


def action_mask(g: Game, seat: int) -> np.ndarray:
    """int8 mask over the expansion's action space: the legal actions if ``seat`` decides
    now, else zeros."""
    if g.outcome is None and g.stack[-1]["p"] == seat:
        return legal_mask(g.legal, NUM_ACTIONS)
    return np.zeros(NUM_ACTIONS, dtype=np.int8)


NO_OP = A.PASS  # the no-op of a seat that does not decide (as in the base game)


def mask_with_no_op(g: Game, seat: int) -> np.ndarray:
    """int8 mask: the legal actions if ``seat`` decides now, the no-op alone if another seat
    does, all zero once the game is over."""
    if g.outcome is None and g.stack[-1]["p"] != seat:
        return legal_mask((NO_OP,), NUM_ACTIONS)
    return action_mask(g, seat)


def view_action_mask(view: Mapping[str, Any]) -> np.ndarray:
    """int8 mask of the legal actions in an expansion view (zeros if the seat is not
    deciding)."""
    return legal_mask(view["legal_actions"], NUM_ACTIONS)


def encode_state(g: Game) -> np.ndarray:
    """Full-state vector for centralised critics: seat 0's observation with every objective
    revealed, plus every other hand, the draw pile's contents and the set-aside objectives."""
    x = np.zeros(CTHULHU_STATE_SIZE, dtype=np.float32)
    x[:CTHULHU_OBS_SIZE] = encode(g, 0, reveal_objectives=True)
    off = CTHULHU_OBS_SIZE
    for r in range(1, g.n):
        _ones(x, off + (r - 1) * NC, g.hands[r])
    off += (NS - 1) * NC
    _ones(x, off, g.deck)
    off += NC
    _ones(x, off, g.objective_pool)  # type: ignore[attr-defined]
    return x
