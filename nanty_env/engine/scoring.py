"""Control, final points and net worth: the one home of the rules that personality goals, the
end of the game and the bots' evaluations share.

Each rule is written once, over public numbers, so that a bot reads a seat's view the way the
engine reads a game:

* one area's control from each seat's pieces there (:func:`area_control`, with the
  controller's lead, and :func:`pieces_to_control`, what a rival needs);
* a whole board's: functions taking a *board*, any object with the public arrays ``n``,
  ``agents``, ``building``, ``gren``, ``cit``, ``money`` and ``loans`` under the state's
  names: a :class:`~nanty_env.engine.Game`, or :func:`board_of_view` of what a seat sees;
* the money side of the final score (:func:`settle_loans`) and of net worth
  (:func:`net_worth_of`), from plain numbers.

The expansion's pieces and scoring (``cthulhu.pieces``, ``cthulhu.victory``) use the same
control rule with its Elder Ones counted among a seat's pieces, and the same loans rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from nanty_env.engine import board
from nanty_env.engine.actions import NUM_AREAS
from nanty_env.engine.tables import LOAN_NET_WORTH, Tables, tables

AGENT_POINTS = 5  # final points per agent on the board (outside grenadier areas)
LOAN_REPAYMENT = 12  # a loan repaid from money at the end ...
LOAN_PENALTY = 15  # ... or this many points lost when the money does not cover it
BASE_LOAN = (LOAN_REPAYMENT, LOAN_PENALTY)
AREAS = range(NUM_AREAS)


# ---------------------------------------------------------------------- one area
class Control(NamedTuple):
    """Who controls an area and by how much (see :func:`area_control`)."""

    controller: int  # the seat in control, -1 for nobody
    lead: int  # the controller's pieces minus the strongest rival's; 0 when nobody controls


NOBODY = Control(-1, 0)


def area_control(pieces: Sequence[int], citizens: int, grenadiers: int = 0) -> Control:
    """The control rule: an area is controlled by the seat with more pieces there than every
    other seat and than the new citizens (all of them together count as one rival), unless a
    grenadier stands there; trouble markers do not matter. ``pieces[q]`` is seat ``q``'s
    pieces in the area: its agents and its building (in the expansion its Elder Ones too).

    The lead is how many pieces the controller can lose (or a rival gain) before nobody
    controls the area: it takes that many hits to break the control."""
    if grenadiers:
        return NOBODY
    top = rival = citizens
    seat = -1
    for q, k in enumerate(pieces):
        if k > top:
            top, rival, seat = k, top, q
        elif k > rival:
            rival = k
    if seat < 0 or top == rival:
        return NOBODY
    return Control(seat, top - rival)


def seat_lead(pieces: list[int], seat: int, citizens: int) -> int:
    """``seat``'s pieces in an area beyond its strongest rival's (the new citizens together
    are one): positive exactly when :func:`area_control` gives it the area with that lead,
    unless a grenadier stands there. By index over C integers, compiled."""
    rival = citizens
    for q in range(len(pieces)):
        if q != seat and pieces[q] > rival:
            rival = pieces[q]
    return pieces[seat] - rival


def pieces_to_control(
    pieces: Sequence[int], citizens: int, grenadiers: int, seat: int
) -> int | None:
    """How many more pieces ``seat`` needs in the area to control it (0: it does already;
    ``None``: nobody can while a grenadier stands there)."""
    if grenadiers:
        return None
    rival = citizens
    for q, k in enumerate(pieces):
        if q != seat and k > rival:
            rival = k
    return max(0, rival + 1 - pieces[seat])


# ---------------------------------------------------------------------- a board
class PublicBoard(NamedTuple):
    """The public arrays the rules read, under the state's names (``Game`` has the same
    attributes): per seat and area ``agents`` (the pawns that are a seat's pieces), per area
    ``building`` (owner, -1 none), ``gren`` and ``cit`` (neutral pawns), per seat ``money``
    and ``loans`` (loan cards in front), and the ruleset's tables ``t``."""

    n: int
    agents: Sequence[Sequence[int]]
    building: Sequence[int]
    gren: Sequence[int]
    cit: Sequence[int]
    money: Sequence[int]
    loans: Sequence[Sequence[int]]
    t: Tables


def board_of_view(view: Mapping[str, Any]) -> PublicBoard:
    """The board of a base-game view (``Game.view(seat)``): everything the rules here read is
    public, so a seat applies them to what it sees."""
    return PublicBoard(
        view["num_players"],
        view["agents"],
        view["buildings"],
        view["grenadiers"],
        view["citizens"],
        view["money"],
        view["loans"],
        tables(),
    )


def area_pieces(b: Any, area: int) -> list[int]:
    """Each seat's pieces in ``area`` for control: its agents there and its building."""
    out = [row[area] for row in b.agents]
    owner = b.building[area]
    if owner >= 0:
        out[owner] += 1
    return out


def control(b: Any, area: int) -> Control:
    """Who controls ``area`` of board ``b``, and by how much (:func:`area_control`)."""
    return area_control(area_pieces(b, area), b.cit[area], b.gren[area])


def controls(b: Any, seat: int, area: int) -> bool:
    return control(b, area).controller == seat


def control_margins(b: Any, seat: int) -> list[int]:
    """``seat``'s lead in each area it controls, in area order (the hits each control takes
    to break): :func:`area_control`'s rule for one seat, written out without building each
    area's pieces (the engine checks the Lords' goals with it every turn;
    ``tests/engine/test_fast_paths.py`` holds it to :func:`controls`). Counted by index, one
    number at a time, so that the compiled build does it in C integers."""
    agents, building, gren, cit = b.agents, b.building, b.gren, b.cit
    row = agents[seat]
    n = len(agents)
    out = []
    for a in range(NUM_AREAS):
        owner = building[a]
        mine = row[a]
        if owner == seat:
            mine += 1
        if not mine or gren[a]:  # nobody controls an area with none of your pieces
            continue
        rival = cit[a]  # the new citizens together are one rival
        for q in range(n):
            if q != seat:
                theirs = agents[q][a]
                if owner == q:
                    theirs += 1
                if theirs > rival:
                    rival = theirs
        if mine > rival:
            out.append(mine - rival)
    return out


def controlled_areas(b: Any, seat: int) -> int:
    return len(control_margins(b, seat))


def occupied_areas(b: Any, seat: int) -> int:
    """Areas holding at least one of ``seat``'s agents and no grenadier."""
    row, gren = b.agents[seat], b.gren
    count = 0
    for a in range(NUM_AREAS):
        if row[a] and not gren[a]:
            count += 1
    return count


# ---------------------------------------------------------------------- money and points
def settle_loans(money: int, loans: Iterable[tuple[int, int]]) -> int:
    """What money and loans are worth at the end: each loan in turn is paid back from the
    money when the money covers it (``(repayment, penalty)`` pairs), or costs its penalty."""
    worth = 0
    for repay, penalty in loans:
        if money >= repay:
            money -= repay
        else:
            worth -= penalty
    return worth + money


def net_worth_of(money: int, building_value: int, loans: int) -> int:
    """Money plus the value of your buildings, less 12 for each loan (the goal metric)."""
    return money + building_value + LOAN_NET_WORTH * loans


def building_value(b: Any, seat: int) -> int:
    """Printed cost of your buildings (none in grenadier areas) less 12 per loan: the goal
    metric that counts buildings with their debts."""
    cost, building, gren = b.t.cost, b.building, b.gren
    value = 0
    for a in range(NUM_AREAS):
        if building[a] == seat and not gren[a]:
            value += cost[a]
    return value + LOAN_NET_WORTH * len(b.loans[seat])


def net_worth(b: Any, seat: int) -> int:
    return b.money[seat] + building_value(b, seat)


def board_points(b: Any, seat: int) -> int:
    """Points of the pieces on the board: 5 per agent and each building's printed cost,
    nothing in an area that holds a grenadier."""
    cost, row, gren, building = b.t.cost, b.agents[seat], b.gren, b.building
    pts = 0
    for a in range(NUM_AREAS):
        if gren[a]:
            continue
        pts += AGENT_POINTS * row[a]
        if building[a] == seat:
            pts += cost[a]
    return pts


def points(b: Any, seat: int) -> int:
    """Final points: the pieces (:func:`board_points`), £1 each, each loan repaid (12) or
    -15 (:func:`settle_loans`)."""
    return board_points(b, seat) + settle_loans(b.money[seat], [BASE_LOAN] * len(b.loans[seat]))


def best_city_card(g: Any, seat: int) -> int:
    """The highest cost among the City Area cards ``seat`` holds (0 if none): the tie-break."""
    cost = g.t.cost
    return max((cost[a] for a in AREAS if board.city_card_owner(g, a) == seat), default=0)


# ---------------------------------------------------------------------- goal metrics
def pieces_on_board(g: Any, seat: int) -> int:
    return g.on_board[seat] + board.own_buildings(g, seat)


Metric = Callable[[Any, int], int]

METRICS: dict[str, Metric] = {
    "occupied_areas": occupied_areas,
    "controlled_areas": controlled_areas,
    "net_worth": net_worth,
    "building_value": building_value,
    "own_buildings": board.own_buildings,
    "pieces_on_board": pieces_on_board,
    "trouble_markers": lambda g, seat: board.trouble_count(g),
    "buildings_on_board": lambda g, seat: board.buildings_on_board(g),
}
"""The personality goals' metrics of the base game, by the name ``personalities.toml`` uses."""


def metric(g: Any, name: str, seat: int) -> int:
    return METRICS[name](g, seat)
