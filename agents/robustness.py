"""How many hits a goal that holds can take before it no longer does.

A goal only wins at the start of its owner's next turn, so it must outlast every other seat's
turn first, and the other seats spend those turns breaking it: a met goal that one hit
undoes (the weakest controlled area held by one piece, one agent too few, one trouble marker
too few) rarely survives the round, one that takes two hits far more often
(``python -m lab.goal_survival``; the measurements are in ``docs/experiments.md``).
:func:`break_cost` counts those hits.

A *hit* is one piece: an agent or building removed from an area the goal counts, a rival's
piece added there, or a trouble marker removed. The goals counted are the controlled areas
(the Lords), the occupied areas (Moriarty) and the trouble markers (Fagin); a goal measured in
pounds (de Sidonia) and Sherlock Holmes's have no count of hits (0).
"""

from __future__ import annotations

from collections.abc import Sequence

from agents.evaluation import METRIC_INDEX, Need
from nanty_env.engine import NUM_AREAS, Game, control_margins

_CONTROLLED = METRIC_INDEX["controlled_areas"]
_OCCUPIED = METRIC_INDEX["occupied_areas"]
_TROUBLE = METRIC_INDEX["trouble_markers"]


def unit_costs(g: Game, seat: int, metric: int) -> list[int] | None:
    """The hits that take each unit of a goal metric away from ``seat``: per controlled area
    its lead in pieces over the strongest rival (all new citizens together count as one), per
    occupied area its agents, 1 per trouble marker; ``None`` for other metrics."""
    if metric == _CONTROLLED:
        return controlled_margins(g, seat)
    if metric == _OCCUPIED:
        row, gren = g.agents[seat], g.gren
        return [row[a] for a in range(NUM_AREAS) if row[a] and not gren[a]]
    if metric == _TROUBLE:
        return [1] * sum(g.trouble)
    return None


def controlled_margins(g: Game, seat: int) -> list[int]:
    """``seat``'s lead in pieces in each area it controls (the engine's
    :func:`~nanty_env.engine.control_margins`)."""
    return control_margins(g, seat)


def break_cost(g: Game, seat: int, needs: Sequence[Need]) -> int:
    """The fewest hits that undo ``seat``'s goal (compiled ``needs``; 0 if it does not hold):
    with ``k`` units where ``need`` are required, the ``k - need + 1`` cheapest must fall."""
    best = 0
    for metric, need, _ in needs:
        costs = unit_costs(g, seat, metric)
        if costs is None or len(costs) < need:
            continue
        costs.sort()
        best = max(best, sum(costs[: len(costs) - need + 1]))
    return best


def durable_share(g: Game, seat: int, needs: Sequence[Need]) -> float:
    """The share of the units a goal needs that ``seat`` holds with two or more pieces (0 to 1);
    counted for controlled areas only (the Lords), where a lead of one piece changes hands
    far more often than a lead of two (``docs/experiments.md``)."""
    best = 0.0
    for metric, need, _ in needs:
        if metric == _CONTROLLED:
            firm = sum(1 for c in controlled_margins(g, seat) if c >= 2)
            best = max(best, min(need, firm) / need)
    return best
