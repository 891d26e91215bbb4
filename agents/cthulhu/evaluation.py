"""Static evaluation of an expansion position: objective progress, the three endings, threats.

Like :mod:`agents.evaluation` for the base game, everything here reads only the public part of
a game (board, Elder Ones, money, loans, hand sizes, draw pile, Insanity level), so it may be
applied to a game rebuilt from a seat's view; the other players' objectives come from a belief
(a probability for each objective) or, inside a search, from the sampled deal.

The value of a seat:

* **own progress**: a threshold objective's best metric over its threshold (a contested area
  counts 0.4 towards control), plus a bonus once met; **Sloth** has no threshold but wins the
  draw-pile and doomsday endings, so its progress is how near the nearer of the two is
  (:func:`end_proximity`: the share of the draw pile gone, or of the Insanity track climbed).
* **threat**: for each other seat, ``sum_k P(objective k) * progress_k ** 3`` (1 once met);
  Sloth's progress is the end's proximity, so a seat that may hold Sloth makes the whole table
  wary of hastening the end. Minus 1.2 x the largest threat and 0.3 x their sum.
* **points**: the draw-pile and doomsday endings go to the most points when nobody holds
  Sloth, so a non-Sloth seat values its points lead, weighted by the end's proximity and by
  the probability that no other seat holds Sloth.
* small terms for money, cards in hand and own minions exposed in areas with trouble
  (assassination targets, Elder Ones included).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from agents.evaluation import CachedValues, needs_progress
from nanty_env.data.cthulhu.model import DOOMSDAY_LEVEL, OBJECTIVE_METRICS
from nanty_env.engine import Game, GameConfig
from nanty_env.engine.cthulhu.tables import CthulhuTables, cthulhu_tables
from nanty_env.engine.cthulhu.victory import AGENT_POINTS, ELDER_POINTS_PER_HP, SLOTH

if TYPE_CHECKING:
    from nanty_env.engine.cthulhu.game import CthulhuGame

NUM_AREAS = 12
METRIC_INDEX = {name: i for i, name in enumerate(OBJECTIVE_METRICS)}
CONTROL = METRIC_INDEX["controlled_areas"]


def tables_of(config: GameConfig) -> CthulhuTables:
    """The expansion tables of ``config``'s content pack."""
    return cthulhu_tables(config.content)


@dataclass(slots=True)
class CthulhuMetrics:
    """Public per-seat quantities that objectives, threats and points are made of.

    ``by_metric[i][seat]`` is the objective metric ``OBJECTIVE_METRICS[i]`` of ``seat`` (board
    totals repeated per seat), exactly as ``nanty_env.engine.cthulhu.pieces.METRICS`` counts
    it; ``points`` is ``nanty_env.engine.cthulhu.victory.points``. A ``CthulhuMetrics`` shares
    its lists with ``by_metric`` and is not to be changed after it is built.
    """

    controlled: list[int]
    contested: list[int]  # areas where the seat is level with the leader (control in reach)
    occupied: list[int]
    minions: list[int]  # agents plus own Elder Ones on the board
    net_worth: list[int]
    building_value: list[int]
    own_buildings: list[int]
    pieces: list[int]
    elder_hp: list[int]
    elders: list[int]  # Elder Ones controlled
    points: list[int]
    money: list[int]
    hand: list[int]
    exposed: list[int]  # own minions standing in an area with a trouble marker
    loans: list[int]
    trouble: int
    insanity: int
    deck: int
    by_metric: tuple[list[int], ...]


def metrics(g: CthulhuGame) -> CthulhuMetrics:
    """All public metrics of an expansion game in one pass over the board."""
    return board_metrics(
        g.t,
        g.n,
        g.agents,
        g.gren,
        g.cit,
        g.building,
        g.btype,
        g.trouble,
        g.money,
        g.loans,
        g.on_board,
        [len(h) + len(p) for h, p in zip(g.hands, g.penalties, strict=True)],
        len(g.deck),
        g.elder_area,
        g.elder_owner,
        g.insanity,
    )


def view_metrics(view: Mapping[str, Any], t: CthulhuTables) -> CthulhuMetrics:
    """The same metrics from a seat's view (everything they need is public)."""
    return board_metrics(
        t,
        view["num_players"],
        view["agents"],
        view["grenadiers"],
        view["citizens"],
        view["buildings"],
        view["building_types"],
        view["trouble"],
        view["money"],
        view["loans"],
        [sum(row) for row in view["agents"]],
        [h + len(p) for h, p in zip(view["hand_sizes"], view["penalties"], strict=True)],
        view["deck_size"],
        view["elder_area"],
        view["elder_owner"],
        view["insanity"],
    )


def board_key(g: CthulhuGame) -> tuple:
    """Everything :func:`metrics` reads from ``g``, as a hashable key (the engine's immutable
    tuples taken as they are)."""
    return (
        g.agents,
        g.gren,
        g.cit,
        g.building,
        g.btype,
        tuple(g.trouble),
        tuple(g.money),
        g.loans,
        tuple(map(len, g.hands)),
        tuple(map(len, g.penalties)),
        len(g.deck),
        g.elder_area,
        g.elder_owner,
        g.insanity,
    )


def board_metrics(
    t: CthulhuTables,
    n: int,
    agents: Sequence[Sequence[int]],
    gren: Sequence[int],
    cit: Sequence[int],
    bld: Sequence[int],
    btype: Sequence[int],
    trouble: Sequence[int],
    money: Sequence[int],
    loans: Sequence[Sequence[int]],
    on_board: Sequence[int],
    hand: Sequence[int],
    deck: int,
    elder_area: Sequence[int],
    elder_owner: Sequence[int],
    insanity: int,
) -> CthulhuMetrics:
    """Metrics from the raw public arrays (see :class:`CthulhuMetrics`)."""
    cost, hp = t.building_cost, t.elder_hp
    seats = range(n)
    controlled = [0] * n
    contested = [0] * n
    occupied = [0] * n
    bval = [0] * n
    nbuild = [0] * n
    exposed = [0] * n
    elders = [0] * n
    ehp = [0] * n
    # Elder Ones per area and seat (usually none: the pool holds most of them)
    elder_here: dict[int, list[int]] = {}
    for e, (a, o) in enumerate(zip(elder_area, elder_owner, strict=True)):
        if a >= 0:
            elders[o] += 1
            ehp[o] += hp[e]
            elder_here.setdefault(a, [0] * n)[o] += 1
    for a, col in enumerate(zip(*agents, strict=True)):  # col: every seat's agents in area a
        extra = elder_here.get(a)
        minions = col if extra is None else tuple(x + y for x, y in zip(col, extra, strict=True))
        b = bld[a]
        if b >= 0:
            bval[b] += cost[btype[a]]
            nbuild[b] += 1
        if trouble[a]:
            for q in seats:
                exposed[q] += minions[q]
        if gren[a]:
            continue
        top, leader, level = _area_control(minions, b)
        for q in seats:
            if minions[q]:
                occupied[q] += 1
        if top > cit[a]:
            if leader >= 0:
                controlled[leader] += 1
            else:
                for q in level:
                    contested[q] += 1
    net, points, pieces_on, minions_on, nloans = [], [], [], [], []
    repay, penalty = t.loan_repay, t.loan_penalty
    for q in range(n):
        due = 0
        cash, pts = money[q], AGENT_POINTS * on_board[q] + ELDER_POINTS_PER_HP * ehp[q] + bval[q]
        for c in loans[q]:
            due += repay[c]
            if cash >= repay[c]:
                cash -= repay[c]
            else:
                pts -= penalty[c]
        net.append(money[q] + bval[q] - due)
        points.append(pts + cash)
        pieces_on.append(on_board[q] + elders[q] + nbuild[q])
        minions_on.append(on_board[q] + elders[q])
        nloans.append(len(loans[q]))
    trouble_total = sum(trouble)
    bv = [bval[q] for q in range(n)]
    return CthulhuMetrics(
        controlled=controlled,
        contested=contested,
        occupied=occupied,
        minions=minions_on,
        net_worth=net,
        building_value=bv,
        own_buildings=nbuild,
        pieces=pieces_on,
        elder_hp=ehp,
        elders=elders,
        points=points,
        money=list(money),
        hand=list(hand),
        exposed=exposed,
        loans=nloans,
        trouble=trouble_total,
        insanity=insanity,
        deck=deck,
        by_metric=(
            controlled,
            occupied,
            [trouble_total] * n,
            net,
            bv,
            nbuild,
            pieces_on,
            ehp,
        ),
    )


@lru_cache(maxsize=1 << 14)
def _area_control(minions: tuple[int, ...], building: int) -> tuple[int, int, tuple[int, ...]]:
    """(most pieces of any seat, the seat with more than every other or -1, the seats with
    the most) of an area where seat ``q`` has ``minions[q]`` minions and ``building`` owns the
    building (-1: none). Cached: boards repeat the same few columns all the time."""
    pieces = list(minions)
    if building >= 0:
        pieces[building] += 1
    top = max(pieces)
    level = tuple(q for q, k in enumerate(pieces) if k == top)
    return top, level[0] if len(level) == 1 else -1, level


# ---------------------------------------------------------------------- objectives
Need = tuple[int, int, bool]  # (metric index, threshold, whether contested areas count)


@dataclass(frozen=True, slots=True)
class ObjectiveGoal:
    """One objective at one player count: alternative thresholds, or the Sloth rule."""

    index: int
    id: str
    sloth: bool
    needs: tuple[Need, ...]


@cache
def objective_goals(config: GameConfig) -> tuple[ObjectiveGoal, ...]:
    """Every objective of ``config``'s content pack at its player count, by index."""
    out = []
    for o in tables_of(config).data.objectives:
        needs = tuple(
            (METRIC_INDEX[m], need, m == "controlled_areas")
            for m, need in sorted(o.goal(config.num_players).items())
        )
        out.append(ObjectiveGoal(o.index, o.id, o.rule == SLOTH, needs))
    return tuple(out)


@cache
def initial_deck(config: GameConfig) -> int:
    """The draw pile's size at the start of a game under ``config``."""
    return max(1, len(Game.new(config, 0).deck))


def end_proximity(m: CthulhuMetrics, deck_at_start: int) -> float:
    """How near the draw-pile or doomsday ending is, in [0, 1]: the larger of the share of the
    draw pile gone and the share of the Insanity track climbed (1 at level 13)."""
    depletion = 1.0 - m.deck / deck_at_start
    climbed = (m.insanity - 1) / (DOOMSDAY_LEVEL - 1)
    return max(0.0, depletion, climbed)


@dataclass(frozen=True, slots=True)
class CthulhuWeights:
    """Weights of the value terms (set by tournament play against the random bot)."""

    own: float = 1.0
    met_bonus: float = 0.6
    sloth: float = 1.0
    threat_max: float = 1.2
    threat_sum: float = 0.3
    threat_power: float = 3.0
    points: float = 0.3
    money: float = 0.004
    hand: float = 0.006
    exposed: float = 0.01


DEFAULT_CTHULHU_WEIGHTS = CthulhuWeights()


class CthulhuEvaluator(CachedValues):
    """Values expansion positions for ``seat``, with the other seats' objectives given as a
    belief; the same interface as :class:`agents.evaluation.Evaluator` (``value``,
    ``value_from_metrics``, ``threats``, ``seat``, ``config``, ``w``).

    Args:
        config: the game configuration (an expansion one).
        seat: whose value this is.
        own: the seat's objective index.
        belief: ``belief[q]`` is a probability vector over objective indices for seat ``q``
            (ignored for ``seat``).
        weights: the weights of the value terms.
        cache_values: remember :meth:`value` by :func:`board_key`.
    """

    measure = staticmethod(metrics)
    key = staticmethod(board_key)

    def __init__(
        self,
        config: GameConfig,
        seat: int,
        own: int,
        belief: Sequence[np.ndarray] | Mapping[int, np.ndarray],
        weights: CthulhuWeights = DEFAULT_CTHULHU_WEIGHTS,
        cache_values: bool = False,
    ) -> None:
        self.config = config
        self.seat = seat
        self.n = config.num_players
        self.w = weights
        self.goals = objective_goals(config)
        self.own = self.goals[own]
        self._deck = initial_deck(config)
        self._others = [q for q in range(self.n) if q != seat]
        # (seat, probability, compiled needs) of every threshold objective an opponent may hold
        self._threat_terms: list[tuple[int, float, tuple[Need, ...]]] = []
        self._sloth_odds = [0.0] * self.n  # probability that each other seat holds Sloth
        for q in self._others:
            for goal in self.goals:
                p = float(belief[q][goal.index])
                if p <= 1e-6:
                    continue
                if goal.sloth:
                    self._sloth_odds[q] += p
                elif goal.needs:
                    self._threat_terms.append((q, p, goal.needs))
        nobody = 1.0
        for q in self._others:
            nobody *= 1.0 - min(1.0, self._sloth_odds[q])
        self._no_other_sloth = nobody
        self._values: dict[tuple, float] | None = {} if cache_values else None

    def threats(self, m: CthulhuMetrics) -> list[float]:
        """Expected alarm about each other seat (0 for ``seat`` itself)."""
        out = [0.0] * self.n
        power = self.w.threat_power
        for q, p, needs in self._threat_terms:
            x, met = needs_progress(needs, m, q)
            out[q] += p * (1.0 if met else x**power)
        end = end_proximity(m, self._deck) ** power
        for q in self._others:
            if self._sloth_odds[q]:
                out[q] += self._sloth_odds[q] * end
        return out

    def value_from_metrics(self, m: CthulhuMetrics) -> float:
        """:meth:`value` from the position's metrics (never cached)."""
        w, me = self.w, self.seat
        end = end_proximity(m, self._deck)
        if self.own.sloth:
            own = w.sloth * end
        else:
            x, met = needs_progress(self.own.needs, m, me)
            own = w.own * x + (w.met_bonus if met else 0.0)
            points = m.points
            lead = points[me] - max(points[q] for q in self._others)
            own += w.points * end * self._no_other_sloth * lead / 50.0
        threats = self.threats(m)
        v = own - w.threat_max * max(threats) - w.threat_sum * sum(threats)
        v += w.money * m.money[me] + w.hand * min(m.hand[me], 6)
        return v - w.exposed * m.exposed[me]


def sampled_evaluators(
    g: CthulhuGame, weights: CthulhuWeights = DEFAULT_CTHULHU_WEIGHTS
) -> list[CthulhuEvaluator]:
    """One evaluator per seat that takes the (sampled) objectives of ``g`` as known."""
    k = len(g.t.data.objectives)
    onehot = [np.zeros(k) for _ in range(g.n)]
    for q in range(g.n):
        onehot[q][g.objective[q]] = 1.0
    return [CthulhuEvaluator(g.cfg, q, g.objective[q], onehot, weights) for q in range(g.n)]
