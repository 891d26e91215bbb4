"""The expansion's table for the evaluation skeleton (:mod:`agents.evaluation`): what it values
differently from the base game.

* **metrics**: minions are agents and Elder Ones (they occupy, control and stand exposed);
  buildings are worth their type's cost, in a grenadier area too; points count Elder One HP and
  the loan cards' own repayments and penalties; the objectives' metrics add Elder One HP.
* **goals**: the seven objectives (every one dealt from); **Sloth** has no threshold but wins
  the draw-pile and doomsday endings, so its own value is how near the nearer of the two is
  (:func:`end_proximity`: the share of the draw pile gone, or of the Insanity track climbed).
* Sloth *races* for the end (``end_role_races``): a seat that may hold it is a threat by the
  end's proximity, and the endings on points go to the most points only when nobody holds it,
  so a non-Sloth seat's points lead is weighted by the probability that no other seat does.
* every seat minds its exposed minions (assassination targets, Elder Ones included).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar

from agents import evaluation as base
from agents.evaluation import (
    EvaluationRules,
    Evaluator,
    Goal,
    Metrics,
    PublicBoard,
    Weights,
    game_board,
    tally_areas,
    view_board,
)
from nanty_env.data.cthulhu.model import DOOMSDAY_LEVEL, OBJECTIVE_METRICS
from nanty_env.engine import Game, GameConfig, settle_loans
from nanty_env.engine.cthulhu.tables import CthulhuTables, cthulhu_tables
from nanty_env.engine.cthulhu.victory import AGENT_POINTS, ELDER_POINTS_PER_HP, SLOTH
from nanty_env.engine.state import with_item

if TYPE_CHECKING:
    from nanty_env.engine.cthulhu.game import CthulhuGame


@dataclass(init=False)
class CthulhuMetrics(Metrics):
    """:class:`~agents.evaluation.Metrics` of an expansion position (``by_metric`` in
    ``OBJECTIVE_METRICS`` order, as ``nanty_env.engine.cthulhu.pieces.METRICS`` counts them;
    ``points`` as ``nanty_env.engine.cthulhu.victory.points``), and the expansion's own."""

    minions: list[int]  # agents plus own Elder Ones on the board
    elder_hp: list[int]
    elders: list[int]  # Elder Ones controlled
    insanity: int
    names: ClassVar[tuple[str, ...]] = OBJECTIVE_METRICS

    def __init__(
        self,
        *base: Any,
        minions: list[int],
        elder_hp: list[int],
        elders: list[int],
        insanity: int,
    ) -> None:
        """:class:`Metrics`'s fields in their order (``base``), then the expansion's, by name
        (written out as :class:`Metrics`'s are, for the compiled build)."""
        Metrics.__init__(self, *base)
        self.minions = minions
        self.elder_hp = elder_hp
        self.elders = elders
        self.insanity = insanity


def metrics(g: CthulhuGame) -> CthulhuMetrics:
    """All public metrics of an expansion game in one pass over the board."""
    return board_metrics(g.t, game_board(g), g.btype, g.elder_area, g.elder_owner, g.insanity)


def view_metrics(view: Mapping[str, Any], config: GameConfig) -> CthulhuMetrics:
    """The same metrics from a seat's view (everything they need is public)."""
    extra = (view[k] for k in ("building_types", "elder_area", "elder_owner", "insanity"))
    return board_metrics(cthulhu_tables(config.content), view_board(view), *extra)


def board_key(g: CthulhuGame) -> tuple:
    """Everything :func:`metrics` reads from ``g``, as a hashable key."""
    return (base.board_key(g), g.btype, g.loans, g.elder_area, g.elder_owner, g.insanity)


def board_metrics(
    t: CthulhuTables,
    b: PublicBoard,
    btype: Sequence[int],
    elder_area: Sequence[int],
    elder_owner: Sequence[int],
    insanity: int,
) -> CthulhuMetrics:
    """Metrics from the public board and the expansion's own arrays."""
    n, agents, gren, cit, bld, trouble, money, loans, on_board, hand, deck = b
    elders, ehp = [0] * n, [0] * n
    # each seat's minions per area: its agents and its Elder Ones there (usually none: the
    # pool holds most of them)
    rows = list(agents)
    hp = t.elder_hp
    for e in range(len(elder_area)):
        a = elder_area[e]
        if a >= 0:
            o = elder_owner[e]
            elders[o] += 1
            ehp[o] += hp[e]
            rows[o] = with_item(rows[o], a, rows[o][a] + 1)
    cost = t.building_cost
    worth = [cost[k] for k in btype]
    tally = tally_areas(n, rows, bld, cit, gren, trouble, worth, True)
    occupied, controlled, contested, exposed, nbuild, bval, _ = tally
    net, points, pieces, minions = [], [], [], []
    repay, penalty = t.loan_repay, t.loan_penalty
    buildings = 0
    for q in range(n):
        pts = AGENT_POINTS * on_board[q] + ELDER_POINTS_PER_HP * ehp[q] + bval[q]
        own, owed = [], 0  # each loan's (repayment, penalty), and all repayments together
        for c in loans[q]:
            own.append((repay[c], penalty[c]))
            owed += repay[c]
        net.append(money[q] + bval[q] - owed)
        points.append(pts + settle_loans(money[q], own))  # as the engine scores them
        minions.append(on_board[q] + elders[q])
        pieces.append(minions[q] + nbuild[q])
        buildings += nbuild[q]
    total = 0
    for x in trouble:  # a loop, not sum(): compiled, C integers
        total += x
    named = (controlled, occupied, [total] * n, net, bval, nbuild, pieces, ehp)
    return CthulhuMetrics(
        occupied, controlled, contested, net, bval, nbuild, pieces, list(on_board), points,
        list(money), list(hand), total, buildings, deck, exposed, list(map(len, loans)),
        named, minions=minions, elder_hp=ehp, elders=elders, insanity=insanity,
    )  # fmt: skip


@cache
def objective_goals(config: GameConfig) -> dict[int, Goal]:
    """Every objective of ``config``'s content pack at its player count, by index."""
    out = {}
    for o in cthulhu_tables(config.content).data.objectives:
        needs = tuple(sorted(o.goal(config.num_players).items()))
        out[o.index] = Goal(o.index, o.id, needs, o.rule, OBJECTIVE_METRICS)
    return out


@cache
def initial_deck(config: GameConfig) -> int:
    """The draw pile's size at the start of a game under ``config`` (at least 1)."""
    return max(1, len(Game.new(config, 0).deck))


def end_proximity(m: CthulhuMetrics, deck_at_start: int) -> float:
    """How near the draw-pile or doomsday ending is, in [0, 1]: the larger of the share of the
    draw pile gone and the share of the Insanity track climbed (1 at level 13)."""
    depletion = 1.0 - m.deck / deck_at_start
    climbed = (m.insanity - 1) / (DOOMSDAY_LEVEL - 1)
    return max(0.0, depletion, climbed)


@dataclass(frozen=True, slots=True)
class CthulhuWeights(Weights):
    """The expansion's weights: the base game's terms (``holmes_depletion`` unused) with a
    larger points weight, and ``sloth`` for Sloth's own value."""

    points: float = 0.3
    sloth: float = 1.0


DEFAULT_CTHULHU_WEIGHTS = CthulhuWeights()

RULES = EvaluationRules(
    measure=metrics,
    key=board_key,
    goals=objective_goals,
    # Sloth races for the draw-pile and doomsday endings
    end_rules=frozenset({SLOTH}),
    end_role_races=True,
    end_proximity=end_proximity,  # type: ignore[arg-type]
    deck_at_start=initial_deck,
    end_weight="sloth",
    weights=DEFAULT_CTHULHU_WEIGHTS,
)


class CthulhuEvaluator(Evaluator):
    """:class:`~agents.evaluation.Evaluator` under the expansion's :data:`RULES` (``own`` and
    ``belief`` are objective indices)."""

    rules = RULES


EVALUATOR = CthulhuEvaluator
