"""Pieces on the board: placing, moving and removing pawns under the trouble rule, building,
and which pawns a player's symbols and cards can reach.

Pawn owners are encoded as ints: a seat (0..3) for a player's agent, ``GRENADIER`` or
``CITIZEN`` for the neutral pawns. What the pieces are worth (control, points, net worth)
is in ``scoring``.
"""

from __future__ import annotations

from collections.abc import Sequence

from nanty_env.engine.actions import NUM_AREAS, SLOT_CITIZEN, SLOT_GRENADIER, pawn_action
from nanty_env.engine.frames import call
from nanty_env.engine.state import GameState, with_cell, with_item
from nanty_env.engine.tables import BUILDINGS_PER_PLAYER

GRENADIER = -1
CITIZEN = -2
NO_BUILDING = -1
AREAS = range(NUM_AREAS)


# ---------------------------------------------------------------------- pawns
def pawn_count(g: GameState, area: int) -> int:
    """All pawns (agents of every player, grenadiers, new citizens, and the expansion's Elder
    Ones) in ``area``."""
    n = g.gren[area] + g.cit[area] + g.eo[area]
    for row in g.agents:
        n += row[area]
    return n


def pawns_of(g: GameState, owner: int, area: int) -> int:
    if owner >= 0:
        return g.agents[owner][area]
    return g.gren[area] if owner == GRENADIER else g.cit[area]


def add_pawn(g: GameState, owner: int, area: int, trouble: bool = True) -> None:
    """Put a pawn into ``area``: a marker follows if the area already held a pawn, and always
    for a grenadier (unless ``trouble`` is False, as for Deep Dwarves / Mr Shine)."""
    occupied = pawn_count(g, area) > 0
    set_pawns(g, owner, area, pawns_of(g, owner, area) + 1)
    if trouble and (occupied or owner == GRENADIER):
        g.trouble[area] = 1


def take_pawn(g: GameState, owner: int, area: int) -> None:
    """Take a pawn off ``area`` (to its supply); any trouble marker there goes too."""
    set_pawns(g, owner, area, pawns_of(g, owner, area) - 1)
    g.trouble[area] = 0


def set_pawns(g: GameState, owner: int, area: int, count: int) -> None:
    """Make ``owner``'s pawns in ``area`` ``count`` (an agent's supply follows); no trouble
    marker comes or goes: :func:`add_pawn` and :func:`take_pawn` handle those."""
    if owner >= 0:
        g.on_board[owner] += count - g.agents[owner][area]
        g.agents = with_cell(g.agents, owner, area, count)
    elif owner == GRENADIER:
        g.gren = with_item(g.gren, area, count)
    else:
        g.cit = with_item(g.cit, area, count)


def move_pawn(g: GameState, owner: int, src: int, dst: int) -> None:
    """Move one pawn: it leaves (removing the marker) and then enters (perhaps adding one)."""
    take_pawn(g, owner, src)
    add_pawn(g, owner, dst)


def place_agent(g: GameState, p: int, a: int, trouble: bool = True) -> None:
    add_pawn(g, p, a, trouble=trouble)
    if g.cfg.log:
        g.say(f"player {p} places an agent in {area_name(g, a)}")


def placement_areas(g: GameState, seat: int) -> list[int]:
    """Where an agent symbol may put an agent: next to or with one of your agents; anywhere
    when you have none on the board. In the expansion your Elder Ones count as minions too."""
    row = g.agents[seat]
    near = g.t.near_mask
    ok = 0  # a bit per area
    if g.has_elders:
        for a in g.elder_areas_of(seat):
            ok |= near[a]
    if g.on_board[seat] == 0 and not ok:
        return list(AREAS)
    for a in range(NUM_AREAS):
        if row[a]:
            ok |= near[a]
    # a loop, not a comprehension: compiled, ``a`` is the function's C integer (C_LOCALS)
    out = []
    for a in range(NUM_AREAS):
        if ok >> a & 1:
            out.append(a)
    return out


def trouble_count(g: GameState) -> int:
    return sum(g.trouble)


# ---------------------------------------------------------------------- buildings
def place_building(g: GameState, seat: int, area: int) -> None:
    """Put ``seat``'s building in ``area``; its City Area card comes with it (unless retired)."""
    g.building = with_item(g.building, area, seat)
    g.city_gained = with_item(g.city_gained, area, g.turn)


def remove_building(g: GameState, area: int) -> None:
    """Take the building off ``area``; its City Area card (if not retired) returns to display
    (in the expansion: its Building card returns to its owner's reserve)."""
    g.building = with_item(g.building, area, NO_BUILDING)
    g.city_gained = with_item(g.city_gained, area, -1)
    if g.has_elders:
        g.btype = with_item(g.btype, area, -1)


def owned_by(owners: Sequence[int], seat: int) -> bool:
    """Whether ``seat`` is among ``owners`` (a row of owners: of each area's building, of each
    Elder One): a loop rather than ``in``, so that the compiled build compares C integers
    instead of calling Python's comparison for each item."""
    for owner in owners:  # noqa: SIM110 (a generator is not compiled to a C loop)
        if owner == seat:
            return True
    return False


def has_building(g: GameState, seat: int) -> bool:
    """Whether ``seat`` has a building on the board."""
    return owned_by(g.building, seat)


def buildings_of(g: GameState, seat: int) -> list[int]:
    return [a for a in AREAS if g.building[a] == seat]


def own_buildings(g: GameState, seat: int) -> int:
    count = 0
    for owner in g.building:  # a loop, not a generator: compiled, a C loop
        if owner == seat:
            count += 1
    return count


def buildings_on_board(g: GameState) -> int:
    count = 0
    for owner in g.building:
        if owner >= 0:
            count += 1
    return count


def city_card_owner(g: GameState, area: int) -> int:
    """Who holds the City Area card of ``area`` (-1: on display or retired)."""
    return -1 if g.city_retired[area] else g.building[area]


def ability_active(g: GameState, seat: int, area: int) -> bool:
    """Whether ``seat`` holds a working City Area card for ``area`` (no grenadier there)."""
    return g.building[area] == seat and not g.city_retired[area] and g.gren[area] == 0


def building_price(cost: int, factor: float) -> int:
    """The price of a building (half price rounds up)."""
    return cost if factor >= 1 else -(-cost // 2)


def buildable_areas(g: GameState, p: int, cost_factor: float) -> list[int]:
    """Areas where ``p`` may build now: own agent there, no building, no trouble, affordable."""
    cost = g.t.cost
    row, money = g.agents[p], g.money[p]
    return [
        a
        for a in AREAS
        if row[a]
        and g.building[a] < 0
        and not g.trouble[a]
        and money >= building_price(cost[a], cost_factor)
    ]


def build(g: GameState, p: int, a: int, factor: float) -> None:
    """Pay for and place a building in ``a``; with all six out, one is moved (chosen next)."""
    price = building_price(g.t.cost[a], factor)
    g.money[p] -= price
    if own_buildings(g, p) >= BUILDINGS_PER_PLAYER:
        call(g, {"k": "relocate_building", "p": p, "a": a})
        if g.cfg.log:
            g.say(f"player {p} pays £{price} to build in {area_name(g, a)}")
        return
    place_building(g, p, a)
    if g.cfg.log:
        g.say(f"player {p} pays £{price} and builds in {area_name(g, a)}")


# ---------------------------------------------------------------------- pawns as targets
def pawn_owner(g: GameState, p: int, slot: int) -> int:
    """Owner code of a PAWN slot relative to ``p``."""
    if slot == SLOT_GRENADIER:
        return GRENADIER
    if slot == SLOT_CITIZEN:
        return CITIZEN
    return (p + slot) % g.n


def owner_slot(g: GameState, p: int, owner: int) -> int:
    """PAWN slot of ``owner`` relative to ``p``."""
    if owner == GRENADIER:
        return SLOT_GRENADIER
    if owner == CITIZEN:
        return SLOT_CITIZEN
    return (owner - p) % g.n


def assassination_targets(
    g: GameState, p: int, need_trouble: bool = True, grenadiers: bool | None = None
) -> list[int]:
    """PAWN actions for every pawn ``p`` may remove (not ``p``'s own agents). Grenadiers are
    included unless ``grenadiers`` is False; by default they are in the base game and not in
    the expansion, whose assassination spares them."""
    out = []
    n = g.n
    if grenadiers is None:
        grenadiers = not g.has_elders
    for a in range(NUM_AREAS):
        if need_trouble and not g.trouble[a]:
            continue
        for q in range(n):
            if q != p and g.agents[q][a]:
                out.append(pawn_action(a, (q - p) % n))
        if grenadiers and g.gren[a]:
            out.append(pawn_action(a, SLOT_GRENADIER))
        if g.cit[a]:
            out.append(pawn_action(a, SLOT_CITIZEN))
    out.sort()  # relative slots are not in absolute-seat order
    return out


def area_name(g: GameState, a: int) -> str:
    return g.t.data.areas[a].name(g.cfg.theme)
