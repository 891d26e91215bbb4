"""Ending and winning the expansion: objectives announced at the start of a turn (a
sudden-death victory), the draw pile running out, doomsday at Insanity 13, Sloth, and scoring.

Outcome reasons: ``objective:<id>`` (sudden death), ``deck_exhausted:objective`` (Sloth wins
when a player cannot refill), ``deck_exhausted:points``, and ``doomsday`` (level 13, won by
Sloth's holder or on points).
"""

from __future__ import annotations

from nanty_env.engine import scoring
from nanty_env.engine.cthulhu import pieces
from nanty_env.engine.cthulhu.pieces import METRICS
from nanty_env.engine.cthulhu.state import CthulhuState
from nanty_env.engine.outcome import Outcome
from nanty_env.engine.victory import all_points, score_outcome

AGENT_POINTS = 5
ELDER_POINTS_PER_HP = 5
SLOTH = "sloth"


def objective(g: CthulhuState, seat: int):  # -> Objective
    return g.t.data.objectives[g.objective[seat]]


def objective_met(g: CthulhuState, seat: int) -> bool:
    """Whether ``seat``'s objective holds now (any one of its thresholds; never for Sloth)."""
    obj = objective(g, seat)
    if obj.rule == SLOTH:
        return False
    # the record's thresholds read here rather than by ``Objective.goal`` (a Python call, at
    # every turn's start); a loop rather than any() of a generator: compiled, a C function
    # (``_build._typable``)
    for name, need in obj.goals.get(g.n, {}).items():  # noqa: SIM110 (compiled: no generator)
        if METRICS[name](g, seat) >= need:
            return True
    return False


def first_round(g: CthulhuState) -> bool:
    """Whether every player is still on their first turn."""
    return g.turn <= g.n


def start_of_turn_win(g: CthulhuState, seat: int) -> bool:
    """The first option of a turn: announce a sudden-death victory when the objective holds
    (never during the first round). Ends the game and returns True when it does."""
    if first_round(g) or not objective_met(g, seat):
        return False
    g.finish(Outcome((seat,), f"objective:{objective(g, seat).id}"))
    return True


def sloth_holders(g: CthulhuState) -> tuple[int, ...]:
    return tuple([s for s in range(g.n) if objective(g, s).rule == SLOTH])


def _sloth_or_points(g: CthulhuState, sloth_reason: str, points_reason: str) -> None:
    """End the game: Sloth's holder wins (``sloth_reason``), else the most points."""
    sloth = sloth_holders(g)
    if sloth:
        g.finish(Outcome(sloth, sloth_reason, all_points(g)))
    else:
        g.finish(score_outcome(g, points_reason))


def end_by_deck(g: CthulhuState) -> None:
    """A player cannot refill: Sloth's holder wins, else the most points."""
    _sloth_or_points(g, "deck_exhausted:objective", "deck_exhausted:points")


def end_by_doomsday(g: CthulhuState) -> None:
    """The Insanity marker reached 13: Sloth's holder wins, else the most points."""
    _sloth_or_points(g, "doomsday", "doomsday")


def points(g: CthulhuState, seat: int) -> int:
    """Agents 5 each, controlled Elder Ones 5 x HP, buildings their cost, £1 each, each loan
    paid back (its amount) or -its penalty. No exception for grenadier areas (the expansion's
    scoring prints none)."""
    t = g.t
    pts = AGENT_POINTS * g.on_board[seat]
    for e in pieces.own_elders(g, seat):
        pts += ELDER_POINTS_PER_HP * t.elder_hp[e]
    pts += pieces.building_value(g, seat)
    loans = [(t.loan_repay[c], t.loan_penalty[c]) for c in g.loans[seat]]
    return pts + scoring.settle_loans(g.money[seat], loans)
