"""Pieces on the board: placing, moving and removing them under the trouble rule, and the
board metrics that goals and scoring share (control, occupancy, net worth, points).

Pawn owners are encoded as ints: a seat (0..3) for a player's agent, ``GRENADIER`` or
``CITIZEN`` for the neutral pawns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nanty_env.engine.tables import LOAN_NET_WORTH, tables  # noqa: F401  (tests read board.tables)

if TYPE_CHECKING:
    from nanty_env.engine.game import Game

GRENADIER = -1
CITIZEN = -2
NO_BUILDING = -1


def pawn_count(g: Game, area: int) -> int:
    """All pawns (agents of every player, grenadiers, new citizens, and the expansion's Elder
    Ones) in ``area``."""
    n = g.gren[area] + g.cit[area] + g.eo[area]
    for row in g.agents:
        n += row[area]
    return n


def pawns_of(g: Game, owner: int, area: int) -> int:
    if owner >= 0:
        return g.agents[owner][area]
    return g.gren[area] if owner == GRENADIER else g.cit[area]


def add_pawn(g: Game, owner: int, area: int, *, trouble: bool = True) -> None:
    """Put a pawn into ``area``: a marker follows if the area already held a pawn, and always
    for a grenadier (unless ``trouble`` is False, as for Deep Dwarves / Mr Shine)."""
    occupied = pawn_count(g, area) > 0
    if owner >= 0:
        g.agents[owner][area] += 1
        g.on_board[owner] += 1
    elif owner == GRENADIER:
        g.gren[area] += 1
    else:
        g.cit[area] += 1
    if trouble and (occupied or owner == GRENADIER):
        g.trouble[area] = 1


def take_pawn(g: Game, owner: int, area: int) -> None:
    """Take a pawn off ``area`` (to its supply); any trouble marker there goes too."""
    if owner >= 0:
        g.agents[owner][area] -= 1
        g.on_board[owner] -= 1
    elif owner == GRENADIER:
        g.gren[area] -= 1
    else:
        g.cit[area] -= 1
    g.trouble[area] = 0


def move_pawn(g: Game, owner: int, src: int, dst: int) -> None:
    """Move one pawn: it leaves (removing the marker) and then enters (perhaps adding one)."""
    take_pawn(g, owner, src)
    add_pawn(g, owner, dst)


def place_building(g: Game, seat: int, area: int) -> None:
    """Put ``seat``'s building in ``area``; its City Area card comes with it (unless retired)."""
    g.building[area] = seat
    g.city_gained[area] = g.turn


def remove_building(g: Game, area: int) -> None:
    """Take the building off ``area``; its City Area card (if not retired) returns to display
    (in the expansion: its Building card returns to its owner's reserve)."""
    g.building[area] = NO_BUILDING
    g.city_gained[area] = -1
    if g.has_elders:
        g.btype[area] = -1


def buildings_of(g: Game, seat: int) -> list[int]:
    return [a for a in range(12) if g.building[a] == seat]


def city_card_owner(g: Game, area: int) -> int:
    """Who holds the City Area card of ``area`` (-1: on display or retired)."""
    return -1 if g.city_retired[area] else g.building[area]


def ability_active(g: Game, seat: int, area: int) -> bool:
    """Whether ``seat`` holds a working City Area card for ``area`` (no grenadier there)."""
    return g.building[area] == seat and not g.city_retired[area] and g.gren[area] == 0


def placement_areas(g: Game, seat: int) -> list[int]:
    """Where an agent symbol may put an agent: next to or with one of your agents; anywhere
    when you have none on the board. In the expansion your Elder Ones count as minions too."""
    row = g.agents[seat]
    near = g.t.near
    ok = set()
    if g.has_elders:
        for a in g.elder_areas_of(seat):
            ok |= near[a]
    if g.on_board[seat] == 0 and not ok:
        return list(range(12))
    for a in range(12):
        if row[a]:
            ok |= near[a]
    return sorted(ok)


def trouble_count(g: Game) -> int:
    return sum(g.trouble)


def occupied_areas(g: Game, seat: int) -> int:
    row, gren = g.agents[seat], g.gren
    return sum(1 for a in range(12) if row[a] and not gren[a])


def controls(g: Game, seat: int, area: int) -> bool:
    """More pieces (agents + building) than any other player and than the new citizens there,
    and no grenadier in the area."""
    if g.gren[area]:
        return False
    b = g.building[area]
    mine = g.agents[seat][area] + (b == seat)
    if mine <= g.cit[area]:
        return False
    for q in range(g.n):  # noqa: SIM110  (a plain loop is faster on this hot path)
        if q != seat and g.agents[q][area] + (b == q) >= mine:
            return False
    return True


def controlled_areas(g: Game, seat: int) -> int:
    row, building = g.agents[seat], g.building
    count = 0
    for a in range(12):  # only where ``seat`` has a piece: nobody controls an area with none
        if (row[a] or building[a] == seat) and controls(g, seat, a):
            count += 1
    return count


def building_value(g: Game, seat: int) -> int:
    """Printed cost of your buildings (0 in grenadier areas) less 12 per loan."""
    cost = g.t.cost
    v = sum(cost[a] for a in range(12) if g.building[a] == seat and not g.gren[a])
    return v + LOAN_NET_WORTH * len(g.loans[seat])


def net_worth(g: Game, seat: int) -> int:
    return g.money[seat] + building_value(g, seat)


def own_buildings(g: Game, seat: int) -> int:
    return sum(1 for b in g.building if b == seat)


def buildings_on_board(g: Game) -> int:
    return sum(1 for b in g.building if b >= 0)


def pieces_on_board(g: Game, seat: int) -> int:
    return g.on_board[seat] + own_buildings(g, seat)


METRICS = {
    "occupied_areas": occupied_areas,
    "controlled_areas": controlled_areas,
    "net_worth": net_worth,
    "building_value": building_value,
    "own_buildings": own_buildings,
    "pieces_on_board": pieces_on_board,
    "trouble_markers": lambda g, seat: trouble_count(g),
    "buildings_on_board": lambda g, seat: buildings_on_board(g),
}


def metric(g: Game, name: str, seat: int) -> int:
    return METRICS[name](g, seat)
