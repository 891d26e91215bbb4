"""A seat's information set in the expansion: the base game's view (board, own hand, learnt
cards, piles, the pending decision when it is the seat's own) plus the expansion's public state
and the seat's own objective.

Hidden from a seat: other hands (bar what it learnt), the draw pile's order, the other players'
objectives and the set-aside ones (until the end), and the order of the event cards not yet
drawn. Public: the Insanity level, the Elder Ones (pool, owners, areas, hits), every Great Old
One board, the three face-up cards, building types, and every event drawn (the event deck
cycles, so the drawn ones lie at its bottom in the reverse order of their last draws).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from nanty_env.data.cthulhu.model import NUM_BUILDING_TYPES
from nanty_env.engine.cthulhu.state import ELDER_BIT, GOO_BIT, CthulhuState
from nanty_env.engine.cthulhu.track import grenadiers_on_track
from nanty_env.engine.view import common_view, used_bits


def known_event_bottom(events_done: Sequence[int]) -> list[int]:
    """The bottom of the event deck as everyone knows it, bottom card first: each event ever
    drawn, most recently drawn first."""
    out: list[int] = []
    for e in reversed(events_done):
        if e not in out:
            out.append(e)
    return out


def building_reserve_of_view(view: Mapping[str, Any], seat: int) -> list[int]:
    """The building types ``seat`` still has in reserve, as a view shows them (the same as
    ``CthulhuGame.building_reserve``: every pack has the six types)."""
    types, owners = view["building_types"], view["buildings"]
    on_board = {k for owner, k in zip(owners, types, strict=True) if owner == seat}
    return [k for k in range(NUM_BUILDING_TYPES) if k not in on_board]


def player_view(g: CthulhuState, seat: int) -> dict[str, Any]:
    """What ``seat`` knows, as JSON-safe data."""
    view = common_view(g, seat)
    turn = g.turn
    view.update(
        {
            "expansion": "cthulhu",
            "insanity": g.insanity,
            "grenadiers_on_track": grenadiers_on_track(g),
            "elder_area": list(g.elder_area),
            "elder_owner": list(g.elder_owner),
            "elder_arrived_this_turn": [int(t == turn) for t in g.elder_arrived],
            "elder_hits": list(g.elder_hits),
            "goo_ability_used": g.ability_used >> GOO_BIT & 1,
            "elder_abilities_used": used_bits(g.ability_used, ELDER_BIT, len(g.elder_area)),
            "great_old_ones": list(g.goo),
            "objective": g.objective[seat],
            "objective_pool_size": len(g.objective_pool),
            "face_up": g.faceup[:],
            "building_types": list(g.btype),
            "event_deck_bottom": known_event_bottom(g.events_done),
        }
    )
    if g.outcome is not None:
        view["objectives"] = list(g.objective)
    return view
