"""Winning: personality goals at the start of the owner's turn, the end of the draw pile
(Sherlock Holmes and the V clauses), Riots, and scoring with loans and the tie-break."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from nanty_env.engine import board
from nanty_env.engine.outcome import Outcome
from nanty_env.engine.scoring import METRICS
from nanty_env.engine.state import GameState
from nanty_env.engine.tables import tables


def personality(g: GameState, seat: int):  # -> Personality
    return g.t.data.personalities[g.persona[seat]]


@cache
def _goal(persona: int, n: int, threshold_set: str) -> tuple[tuple[Callable, int], ...]:
    """The alternatives of a personality's goal as (metric function, threshold) pairs."""
    goal = tables().data.personalities[persona].goal(n, threshold_set)
    return tuple((METRICS[name], need) for name, need in goal.items())


def goal_met(g: GameState, seat: int) -> bool:
    """Whether ``seat``'s personality goal holds now (any one of its alternatives)."""
    for metric, need in _goal(g.persona[seat], g.n, g.cfg.threshold_set):
        if metric(g, seat) >= need:
            return True
    return False


def start_of_turn_win(g: GameState, seat: int) -> bool:
    """Check ``seat``'s goal at the start of its turn; ends the game when met."""
    if goal_met(g, seat):
        pid = personality(g, seat).id
        g.finish(Outcome((seat,), f"personality:{pid}"))
        return True
    return False


def end_by_deck(g: GameState) -> None:
    """A player cannot refill: Sherlock Holmes (standard) wins; the V Holmes and V Fagin
    clauses are checked; otherwise the game is decided on points."""
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


def end_by_riots(g: GameState) -> None:
    """Riots with 8+ markers: points decide; Sherlock Holmes just scores (V Holmes loses)."""
    g.finish(score_outcome(g, "riots:points", excluded=_riot_losers(g)))


def _riot_losers(g: GameState) -> set[int]:
    return {s for s in range(g.n) if personality(g, s).end_rule == "holmes_v"}


def all_points(g: GameState) -> tuple[int, ...]:
    """Every seat's points by the ruleset's scoring (``Ruleset.points``)."""
    points = g.rules.points
    return tuple(points(g, s) for s in range(g.n))


def score_outcome(
    g: GameState, reason: str, excluded: set[int] | frozenset[int] = frozenset()
) -> Outcome:
    """Winners on points (the ruleset's); ties broken by the ruleset's ``tie_break`` (the
    best City Area card; the expansion's: the best building), then shared."""
    pts = all_points(g)
    eligible = [s for s in range(g.n) if s not in excluded]
    if not eligible:
        return Outcome((), reason, pts)
    top = max(pts[s] for s in eligible)
    tied = [s for s in eligible if pts[s] == top]
    if len(tied) > 1:
        tie_break = g.rules.tie_break
        best = max(tie_break(g, s) for s in tied)
        tied = [s for s in tied if tie_break(g, s) == best]
    return Outcome(tuple(tied), reason, pts)
