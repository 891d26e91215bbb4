"""The expansion's pieces: Elder Ones (minions that are not agents), typed buildings, and the
board metrics that objectives and scoring share.

A player's minions are their agents and the Elder Ones they control. Elder Ones are pawns for
the trouble rule (entering an occupied area brings a marker; leaving takes it away) and count
as one piece each for area control. An Elder One in the pool has area and owner -1.
"""

from __future__ import annotations

from nanty_env.engine import board, scoring
from nanty_env.engine.board import AREAS, owned_by
from nanty_env.engine.cthulhu.state import CthulhuState
from nanty_env.engine.scoring import Control
from nanty_env.engine.state import NUM_AREAS, with_item

MAX_OWN_ELDERS = 2


# ---------------------------------------------------------------------- Elder Ones
def own_elders(g: CthulhuState, seat: int) -> list[int]:
    """The Elder Ones ``seat`` controls (roster indices)."""
    return [e for e, o in enumerate(g.elder_owner) if o == seat]


def pool(g: CthulhuState) -> list[int]:
    """Elder Ones available to be summoned."""
    return [e for e, a in enumerate(g.elder_area) if a < 0]


def minions_in(g: CthulhuState, seat: int, area: int) -> int:
    """``seat``'s agents plus Elder Ones in ``area``."""
    n = g.agents[seat][area]
    # by index, not zip(strict=True): compiled, a C loop without a tuple per Elder One
    elder_owner = g.elder_owner
    for e, a in enumerate(g.elder_area):
        if a == area and elder_owner[e] == seat:
            n += 1
    return n


def minion_areas(g: CthulhuState, seat: int) -> list[int]:
    """Areas holding at least one of ``seat``'s minions, sorted."""
    row = g.agents[seat]
    # loops over C integers rather than generator expressions (``_build``: C_LOCALS)
    out = []
    for a in range(NUM_AREAS):
        if row[a]:
            out.append(a)
    elder_area = g.elder_area
    for e, owner in enumerate(g.elder_owner):
        if owner == seat and elder_area[e] not in out:
            out.append(elder_area[e])
    out.sort()
    return out


def has_minion(g: CthulhuState, seat: int) -> bool:
    """Whether ``seat`` has a minion on the board (``minion_areas`` is not empty)."""
    return g.on_board[seat] > 0 or owns_elder(g, seat)


def owns_elder(g: CthulhuState, seat: int) -> bool:
    """Whether ``seat`` controls an Elder One."""
    return owned_by(g.elder_owner, seat)


def place_elder(g: CthulhuState, e: int, seat: int, area: int) -> None:
    """A summoned Elder One arrives in ``area`` for ``seat``, with a trouble marker."""
    set_elder(g, e, area, seat, g.turn)
    g.trouble[area] = 1


def move_elder(g: CthulhuState, e: int, dst: int) -> None:
    """Move an Elder One under the trouble rule (it leaves, then enters)."""
    src = g.elder_area[e]
    g.trouble[src] = 0
    occupied = board.pawn_count(g, dst) - (dst == src) > 0  # the Elder One itself has left
    set_elder(g, e, dst, g.elder_owner[e], g.elder_arrived[e], g.elder_hits[e])
    if occupied:
        g.trouble[dst] = 1


def remove_elder(g: CthulhuState, e: int) -> None:
    """The Elder One goes back to the pool; its owner loses it; the area's marker goes."""
    g.trouble[g.elder_area[e]] = 0
    set_elder(g, e, -1, -1, -1)


def set_elder(g: CthulhuState, e: int, area: int, owner: int, arrived: int, hits: int = 0) -> None:
    """Put Elder One ``e`` in ``area`` (-1: the pool) for ``owner``, summoned in turn
    ``arrived``, with ``hits`` taken; the Elder Ones per area (``eo``) follow. No trouble
    marker comes or goes: the callers handle those."""
    src = g.elder_area[e]
    if src != area:
        eo = list(g.eo)
        if src >= 0:
            eo[src] -= 1
        if area >= 0:
            eo[area] += 1
        g.eo = tuple(eo)
    g.elder_area = with_item(g.elder_area, e, area)
    g.elder_owner = with_item(g.elder_owner, e, owner)
    g.elder_arrived = with_item(g.elder_arrived, e, arrived)
    g.elder_hits = with_item(g.elder_hits, e, hits)


def set_hits(g: CthulhuState, e: int, hits: int) -> None:
    """Elder One ``e`` has taken ``hits`` this turn."""
    g.elder_hits = with_item(g.elder_hits, e, hits)


# ---------------------------------------------------------------------- buildings
def types_on_board(g: CthulhuState, seat: int) -> list[int]:
    return [g.btype[a] for a in AREAS if g.building[a] == seat]


def reserve(g: CthulhuState, seat: int) -> list[int]:
    """Building types whose card ``seat`` still has in reserve."""
    out = set(range(len(g.t.building_cost)))
    out.difference_update(types_on_board(g, seat))
    return sorted(out)


def place_building(g: CthulhuState, seat: int, area: int, kind: int) -> None:
    """Put ``seat``'s building of type ``kind`` in ``area``; its card is gained this turn."""
    g.building = with_item(g.building, area, seat)
    g.btype = with_item(g.btype, area, kind)
    g.city_gained = with_item(g.city_gained, area, g.turn)


def building_value(g: CthulhuState, seat: int) -> int:
    cost = g.t.building_cost
    value = 0
    for a in AREAS:
        if g.building[a] == seat:
            value += cost[g.btype[a]]
    return value


def best_building(g: CthulhuState, seat: int) -> int:
    """The highest cost among ``seat``'s buildings on the board (0 if none): the tie-break."""
    cost = g.t.building_cost
    costs = [cost[g.btype[a]] for a in AREAS if g.building[a] == seat]
    return max(costs) if costs else 0


# ---------------------------------------------------------------------- control and metrics
def pieces_in(g: CthulhuState, seat: int, area: int) -> int:
    """Agents, Elder Ones and buildings of ``seat`` in ``area`` (the control count)."""
    return minions_in(g, seat, area) + (g.building[area] == seat)


def area_pieces(g: CthulhuState, area: int) -> list[int]:
    """Each seat's pieces in ``area`` for control: agents, Elder Ones and its building."""
    out = scoring.area_pieces(g, area)
    elder_owner = g.elder_owner
    for e, a in enumerate(g.elder_area):
        if a == area:
            out[elder_owner[e]] += 1
    return out


def control(g: CthulhuState, area: int) -> Control:
    """Who controls ``area``: the base game's rule (``scoring.area_control``) with the Elder
    Ones among their owners' pieces."""
    return scoring.area_control(area_pieces(g, area), g.cit[area], g.gren[area])


def controls(g: CthulhuState, seat: int, area: int) -> bool:
    return control(g, area).controller == seat


def control_margins(g: CthulhuState, seat: int) -> list[int]:
    """``seat``'s lead in each area it controls, in area order (:func:`control`'s rule, by
    ``scoring.seat_lead``: no ``Control`` built per area)."""
    out = []
    for a in range(NUM_AREAS):
        if not g.gren[a]:
            lead = scoring.seat_lead(area_pieces(g, a), seat, g.cit[a])
            if lead > 0:
                out.append(lead)
    return out


def controlled_areas(g: CthulhuState, seat: int) -> int:
    return len(control_margins(g, seat))


def occupied_areas(g: CthulhuState, seat: int) -> int:
    count = 0
    for a in minion_areas(g, seat):
        if not g.gren[a]:
            count += 1
    return count


def loans_due(g: CthulhuState, seat: int) -> int:
    repay = g.t.loan_repay
    due = 0
    for c in g.loans[seat]:
        due += repay[c]
    return due


def net_worth(g: CthulhuState, seat: int) -> int:
    return g.money[seat] + building_value(g, seat) - loans_due(g, seat)


def pieces_on_board(g: CthulhuState, seat: int) -> int:
    return g.on_board[seat] + len(own_elders(g, seat)) + board.own_buildings(g, seat)


def elder_hp(g: CthulhuState, seat: int) -> int:
    hp = g.t.elder_hp
    total = 0
    for e in own_elders(g, seat):
        total += hp[e]
    return total


METRICS = {
    "controlled_areas": controlled_areas,
    "occupied_areas": occupied_areas,
    "trouble_markers": lambda g, seat: board.trouble_count(g),
    "net_worth": net_worth,
    "building_value": building_value,
    "own_buildings": board.own_buildings,
    "pieces_on_board": pieces_on_board,
    "elder_hp": elder_hp,
}
