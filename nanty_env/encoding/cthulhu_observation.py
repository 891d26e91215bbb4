"""Flat numpy observations of *The Rise of Cthulhu* expansion, of a fixed size for every content
pack (rosters up to ``MAX_ELDER_ONES``; layout ``CTHULHU_OBS_LAYOUT``, printed in
``docs/env.md``), and the full-state vector. A different vector from the base game's, filled by
its skeleton (``observation.ViewEncoder``) from this table, then the expansion's own blocks.

Every entry is written from the seat's view (``Game.view(seat)``): the observation cannot hold
anything the seat does not know, and a policy playing from a view sees exactly what it saw in
training. Only the oracle option ``reveal_objectives=True`` adds the others' secret objectives.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from nanty_env.data.cthulhu import model as M
from nanty_env.data.cthulhu.model import TRACK_GRENADIERS
from nanty_env.encoding import obs_fields as F
from nanty_env.encoding import observation as O
from nanty_env.engine.actions import NUM_ACTIONS_CTHULHU
from nanty_env.engine.cthulhu import game as _registers_handlers  # noqa: F401
from nanty_env.engine.cthulhu.tables import CthulhuTables, cthulhu_tables
from nanty_env.engine.frames import frame_kinds

if TYPE_CHECKING:
    from nanty_env.engine import Game

NA, NS, NC, NK, NE = O.NA, O.NS, O.NC, M.NUM_OBJECTIVES, M.MAX_ELDER_ONES
NB, NG, NV, NL = M.NUM_BUILDING_TYPES, M.NUM_GREAT_OLD_ONES, M.NUM_EVENT_CARDS, M.DOOMSDAY_LEVEL
CTHULHU_KINDS = tuple(frame_kinds("cthulhu"))
NUM_ACTIONS = NUM_ACTIONS_CTHULHU
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
    *F.resolving(M.MAX_SYMBOLS),
    *F.CONTEXT,
    ("context_elder", NE, "Elder One named by my pending decision"),
    ("context_roll", 1, "die roll of my pending summon / 12"),
    F.MY_TURN,
)
_VIEW = O.ViewEncoder(
    _FIELDS,
    CTHULHU_KINDS,
    flags=(
        ("trouble", "trouble"),
        ("building_gained_this_turn", "city_gained_this_turn"),
        ("building_abilities_used", "abilities_used"),
        ("elder_arrived_this_turn", "elder_arrived_this_turn"),
        ("elder_abilities_used", "elder_abilities_used"),
    ),
    piles=[(k, k) for k in ("face_up", "discard", "in_play", "removed", "events_done")],
    role=("objective", "revealed_objectives", NK),
    scalars=(("deck_size", NC), ("turn", 100), ("trouble_count", NA)),
    seat_keys=("target", "to", "payer", "source"),
)
CTHULHU_OBS_LAYOUT: dict[str, slice] = _VIEW.layout
CTHULHU_OBS_SIZE: int = _VIEW.size
OFF = _VIEW.off
CTHULHU_STATE_SIZE = CTHULHU_OBS_SIZE + (NS - 1) * NC + NC + NK
_HP, _POOL, _AREA, _OWNER, _HITS = (
    OFF[k] for k in ("elder_hp", "elder_in_pool", "elder_area", "elder_owner", "elder_hits")
)


def layout_table() -> str:
    """The observation layout as a Markdown table."""
    return _VIEW.layout_table()


def encode_view(
    view: Mapping[str, Any], t: CthulhuTables | None = None, *, reveal: Sequence[int] | None = None
) -> np.ndarray:
    """The observation vector (float32, ``CTHULHU_OBS_SIZE``) of the seat whose view (of an
    expansion game) this is; ``t``: the game's tables (default the shipped content pack);
    ``reveal``: every seat's objective (oracle experiments only)."""
    t = t or cthulhu_tables()
    out = _VIEW(view, reveal)
    x = memoryview(out)  # its item assignment is cheaper than numpy's, with the same rounding
    seat, n = view["seat"], view["num_players"]
    for a, (b, k) in enumerate(zip(view["buildings"], view["building_types"], strict=True)):
        if b >= 0:
            x[OFF["building_types"] + a * NB + k] = 1.0
    hp = t.elder_hp
    for e, (a, o) in enumerate(zip(view["elder_area"], view["elder_owner"], strict=True)):
        x[_HP + e] = hp[e] / MAX_HP
        if a < 0:
            x[_POOL + e] = 1.0
        else:
            x[_AREA + e * NA + a] = 1.0
            x[_OWNER + e * NS + (o - seat) % n] = 1.0
            x[_HITS + e] = view["elder_hits"][e] / hp[e]
    for r in range(n):
        x[OFF["great_old_ones"] + r * NG + view["great_old_ones"][(seat + r) % n]] = 1.0
    x[OFF["goo_ability_used"]] = float(view["goo_ability_used"])
    level = view["insanity"]
    x[OFF["insanity"] + level - 1] = 1.0
    x[OFF["insanity_level"]] = level / NL
    x[OFF["grenadiers_on_track"]] = view["grenadiers_on_track"] / TRACK_GRENADIERS
    if level < NL:
        x[OFF["next_box"]] = float(t.track_grenadier[level + 1])
        x[OFF["next_box"] + 1] = float(t.track_event[level + 1])
    bottom = view["event_deck_bottom"]
    if bottom and len(bottom) == view["event_deck_size"]:
        x[OFF["next_event"] + bottom[-1]] = 1.0  # the least recently drawn is on top
    e, roll = view["context"].get("elder", -1), view["context"].get("roll", 0)  # {}: not mine
    if isinstance(e, int) and 0 <= e < NE:
        x[OFF["context_elder"] + e] = 1.0
    if isinstance(roll, int) and roll > 0:
        x[OFF["context_roll"]] = roll / 12
    return out


def encode(g: Game, seat: int, *, reveal_objectives: bool = False) -> np.ndarray:
    """The observation vector of ``seat`` in expansion game ``g`` (from its view)."""
    reveal = g.objective if reveal_objectives else None  # type: ignore[attr-defined]
    return encode_view(g.view(seat), g.t, reveal=reveal)  # type: ignore[arg-type]


class CthulhuEncoder:
    """The interface of :class:`nanty_env.encoding.observation.Encoder` for expansion games (one
    per env): ``encoder(game, seat, reveal_personalities=...)``, where the flag reveals the
    other players' objectives (the expansion's hidden roles)."""

    def __call__(self, g: Game, seat: int, *, reveal_personalities: bool = False) -> np.ndarray:
        return encode(g, seat, reveal_objectives=reveal_personalities)


# the base game's masks and no-op, sized by the game's action space (``O.view_action_mask``
# takes the expansion's ``NUM_ACTIONS`` for a view)
action_mask, mask_with_no_op, NO_OP = O.action_mask, O.mask_with_no_op, O.NO_OP


def encode_state(g: Game) -> np.ndarray:
    """Full-state vector for centralised critics: seat 0's observation with every objective
    revealed, plus every other hand, the draw pile's contents and the set-aside objectives."""
    obs = encode(g, 0, reveal_objectives=True)
    return O.state_vector(g, obs, g.objective_pool, NK)  # type: ignore[attr-defined]
