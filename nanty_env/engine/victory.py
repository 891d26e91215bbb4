"""Winning: personality goals at the start of the owner's turn, the end of the draw pile
(Sherlock Holmes and the V clauses), Riots, and scoring with loans and the tie-break."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

from nanty_env.engine import board
from nanty_env.engine.tables import tables

if TYPE_CHECKING:
    from nanty_env.engine.game import Game

AGENT_POINTS = 5
LOAN_REPAYMENT = 12
LOAN_PENALTY = 15


def personality(g: Game, seat: int):  # -> Personality
    return g.t.data.personalities[g.persona[seat]]


@cache
def _goal(persona: int, n: int, threshold_set: str) -> tuple[tuple[Callable, int], ...]:
    """The alternatives of a personality's goal as (metric function, threshold) pairs."""
    goal = tables().data.personalities[persona].goal(n, threshold_set)
    return tuple((board.METRICS[name], need) for name, need in goal.items())


def goal_met(g: Game, seat: int) -> bool:
    """Whether ``seat``'s personality goal holds now (any one of its alternatives)."""
    for metric, need in _goal(g.persona[seat], g.n, g.cfg.threshold_set):
        if metric(g, seat) >= need:
            return True
    return False


def start_of_turn_win(g: Game, seat: int) -> bool:
    """Check ``seat``'s goal at the start of its turn; ends the game when met."""
    from nanty_env.engine.game import Outcome

    if goal_met(g, seat):
        pid = personality(g, seat).id
        g.finish(Outcome((seat,), f"personality:{pid}"))
        return True
    return False


def end_by_deck(g: Game) -> None:
    """A player cannot refill: Sherlock Holmes (standard) wins; the V Holmes and V Fagin
    clauses are checked; otherwise the game is decided on points."""
    from nanty_env.engine.game import Outcome

    winners = []
    for s in range(g.n):
        rule = personality(g, s).end_rule
        if rule == "holmes" or (rule == "holmes_v" and g.on_board[s] > board.trouble_count(g)):
            winners.append(s)
        elif rule == "fagin_v":
            most = max((g.on_board[q] for q in range(g.n) if q != s), default=0)
            if board.trouble_count(g) > most:
                winners.append(s)
    if winners:
        g.finish(Outcome(tuple(winners), "deck_exhausted:personality"))
        return
    g.finish(score_outcome(g, "deck_exhausted:points"))


def end_by_riots(g: Game) -> None:
    """Riots with 8+ markers: points decide; Sherlock Holmes just scores (V Holmes loses)."""
    g.finish(score_outcome(g, "riots:points", excluded=_riot_losers(g)))


def _riot_losers(g: Game) -> set[int]:
    return {s for s in range(g.n) if personality(g, s).end_rule == "holmes_v"}


def points(g: Game, seat: int) -> int:
    """Final points: 5 per agent, building costs, £1 each, loans repaid (12) or -15 each;
    nothing for agents or buildings in an area that holds a grenadier."""
    cost = g.t.cost
    pts = 0
    for a in range(12):
        if g.gren[a]:
            continue
        pts += AGENT_POINTS * g.agents[seat][a]
        if g.building[a] == seat:
            pts += cost[a]
    money = g.money[seat]
    for _ in g.loans[seat]:
        if money >= LOAN_REPAYMENT:
            money -= LOAN_REPAYMENT
        else:
            pts -= LOAN_PENALTY
    return pts + money


def best_city_card(g: Game, seat: int) -> int:
    """The highest cost among the City Area cards ``seat`` holds (0 if none)."""
    cost = g.t.cost
    return max((cost[a] for a in range(12) if board.city_card_owner(g, a) == seat), default=0)


def score_outcome(g: Game, reason: str, excluded: set[int] | frozenset[int] = frozenset()):
    """Winners on points; ties broken by the best City Area card, then shared."""
    from nanty_env.engine.game import Outcome

    pts = tuple(points(g, s) for s in range(g.n))
    eligible = [s for s in range(g.n) if s not in excluded]
    if not eligible:
        return Outcome((), reason, pts)
    top = max(pts[s] for s in eligible)
    tied = [s for s in eligible if pts[s] == top]
    if len(tied) > 1:
        best = max(best_city_card(g, s) for s in tied)
        tied = [s for s in tied if best_city_card(g, s) == best]
    return Outcome(tuple(tied), reason, pts)
