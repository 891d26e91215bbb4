"""Static evaluation of a position for the scripted and search bots.

Everything here reads only the *public* part of a :class:`~nanty_env.engine.Game` (board, money,
loans, hand sizes, draw-pile size), so it may be applied to a game rebuilt from a seat's view:
personalities of other seats are never read from the game but come from a belief (a probability
for each personality card), or, inside a search over determinisations, from the sampled deal.

The value of a seat is its own progress towards its personality's goal minus the threat that
the others pose (their progress weighted by how likely each personality is), plus small terms
for money, cards and points that break ties and keep a fallback plan for a game decided on
points.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any, NamedTuple

import numpy as np

from nanty_env.engine import (
    AGENT_POINTS,
    BASE_LOAN,
    Game,
    GameConfig,
    area_control,
    net_worth_of,
    personality_deck,
    settle_loans,
    tables,
)

NUM_PERSONALITIES = len(tables().data.personalities)
COST = tables().cost

METRICS = (
    "occupied_areas",
    "controlled_areas",
    "net_worth",
    "building_value",
    "own_buildings",
    "pieces_on_board",
    "trouble_markers",
    "buildings_on_board",
)
"""Goal metric names, in the order of :attr:`Metrics.by_metric`."""
METRIC_INDEX = {name: i for i, name in enumerate(METRICS)}
Need = tuple[int, int, bool]  # (metric index, threshold, whether a contested area counts half)


@dataclass(frozen=True, slots=True)
class Goal:
    """One personality's goal at one player count: alternative (metric, threshold) pairs, and
    the end-of-game rule (``holmes``, ``holmes_v``, ``fagin_v`` or "")."""

    index: int
    id: str
    needs: tuple[tuple[str, int], ...]
    end_rule: str
    # ``needs`` with metric indices instead of names (for :func:`needs_progress`)
    compiled: tuple[Need, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        compiled = tuple((METRIC_INDEX[m], need, m == "controlled_areas") for m, need in self.needs)
        object.__setattr__(self, "compiled", compiled)

    @property
    def is_holmes(self) -> bool:
        return self.end_rule in ("holmes", "holmes_v")


@cache
def goals(config: GameConfig) -> dict[int, Goal]:
    """The goals of the personality cards dealt under ``config``, by personality index."""
    data = tables().data.personalities
    out = {}
    for k in personality_deck(config):
        p = data[k]
        needs = tuple(sorted(p.goal(config.num_players, config.threshold_set).items()))
        out[k] = Goal(k, p.id, needs, p.end_rule)
    return out


def game_config(config: GameConfig) -> GameConfig:
    """``config`` without the readable log (what search bots use internally)."""
    if not config.log:
        return config
    d = config.to_dict()
    d["log"] = False
    return GameConfig.from_dict(d)


@dataclass(slots=True)
class Metrics:
    """Public per-seat quantities that goals and points are made of."""

    occupied: list[int]
    controlled: list[int]
    contested: list[int]  # areas where the seat is level with the leader (a control in reach)
    net_worth: list[int]
    building_value: list[int]
    own_buildings: list[int]
    pieces: list[int]
    agents: list[int]
    points: list[int]
    money: list[int]
    hand: list[int]
    trouble: int
    buildings: int
    deck: int
    exposed: list[int]  # own agents standing in an area with a trouble marker
    loans: list[int]
    # every goal metric's per-seat values, in METRICS order (a board total repeated per seat);
    # the lists are the ones above, so a Metrics is not to be changed after it is built
    by_metric: tuple[list[int], ...]

    def metric(self, name: str, seat: int) -> int:
        """The goal metric ``name`` (one of :data:`METRICS`) of ``seat``."""
        return self.by_metric[METRIC_INDEX[name]][seat]


def metrics(g: Game) -> Metrics:
    """All public metrics of a game in one pass over the board (the evaluation's hot path)."""
    return board_metrics(
        g.n,
        g.agents,
        g.gren,
        g.cit,
        g.building,
        g.trouble,
        g.money,
        list(map(len, g.loans)),
        g.on_board,
        [len(h) + len(p) for h, p in zip(g.hands, g.penalties, strict=True)],
        len(g.deck),
    )


def board_key(g: Game) -> tuple:
    """Everything :func:`metrics` reads from ``g``, as a hashable key: games with equal keys
    have equal metrics, hence equal values. (``agents`` and the board counters are the
    engine's immutable tuples, taken as they are.)"""
    return (
        g.agents,
        g.gren,
        g.cit,
        g.building,
        tuple(g.trouble),
        tuple(g.money),
        tuple(map(len, g.loans)),
        tuple(g.on_board),
        tuple(map(len, g.hands)),
        tuple(map(len, g.penalties)),
        len(g.deck),
    )


def view_metrics(view: Mapping) -> Metrics:
    """The same metrics from a seat's view (everything they need is public)."""
    n = view["num_players"]
    return board_metrics(
        n,
        view["agents"],
        view["grenadiers"],
        view["citizens"],
        view["buildings"],
        view["trouble"],
        view["money"],
        [len(x) for x in view["loans"]],
        [sum(row) for row in view["agents"]],
        [h + len(p) for h, p in zip(view["hand_sizes"], view["penalties"], strict=True)],
        view["deck_size"],
    )


def board_metrics(
    n: int,
    agents: Sequence[Sequence[int]],
    gren: Sequence[int],
    cit: Sequence[int],
    bld: Sequence[int],
    trouble: Sequence[int],
    money: Sequence[int],
    loans: Sequence[int],
    on_board: Sequence[int],
    hand: Sequence[int],
    deck: int,
) -> Metrics:
    """Metrics from the raw public arrays (see :class:`Metrics`)."""
    seats = range(n)
    occupied = [0] * n
    controlled = [0] * n
    contested = [0] * n
    bval = [0] * n
    nbuild = [0] * n
    on_board_agents = [0] * n  # agents outside grenadier areas
    exposed = [0] * n
    for a, col in enumerate(zip(*agents, strict=True)):  # col: every seat's agents in area a
        b = bld[a]
        if b >= 0:
            nbuild[b] += 1
        occupants, top, controller, level = area_pieces(col, b, cit[a])
        if trouble[a]:
            for q, k in occupants:
                exposed[q] += k
        if gren[a]:
            continue
        if b >= 0:
            bval[b] += COST[a]
        for q, k in occupants:
            occupied[q] += 1
            on_board_agents[q] += k
        if controller >= 0:
            controlled[controller] += 1
        elif top > cit[a]:  # level at the top, above the citizens: a control in reach
            for q in level:
                contested[q] += 1
    net = []
    bv = []
    points = []
    pieces = []
    for q in seats:
        net.append(net_worth_of(money[q], bval[q], loans[q]))
        bv.append(net_worth_of(0, bval[q], loans[q]))
        pts = bval[q] + AGENT_POINTS * on_board_agents[q]
        k = loans[q]
        points.append(pts + settle_loans(money[q], [BASE_LOAN] * k) if k else pts + money[q])
        pieces.append(on_board[q] + nbuild[q])
    trouble_total = sum(trouble)
    buildings_total = sum(nbuild)
    return Metrics(
        occupied=occupied,
        controlled=controlled,
        contested=contested,
        net_worth=net,
        building_value=bv,
        own_buildings=nbuild,
        pieces=pieces,
        agents=list(on_board),
        points=points,
        money=list(money),
        hand=list(hand),
        trouble=trouble_total,
        buildings=buildings_total,
        deck=deck,
        exposed=exposed,
        loans=list(loans),
        by_metric=(
            occupied,
            controlled,
            net,
            bv,
            nbuild,
            pieces,
            [trouble_total] * n,
            [buildings_total] * n,
        ),
    )


class AreaPieces(NamedTuple):
    """Who has what in one area, from its agents and building (see :func:`area_pieces`)."""

    occupants: tuple[tuple[int, int], ...]  # (seat, agents) of every seat with agents there
    top: int  # the most pieces of any seat (a building counts as one piece)
    controller: int  # the seat in control by the engine's rule (grenadiers aside), or -1
    level: tuple[int, ...]  # the seats with ``top`` pieces


@lru_cache(maxsize=1 << 14)
def area_pieces(col: tuple[int, ...], building: int, citizens: int) -> AreaPieces:
    """:class:`AreaPieces` of an area where seat ``q`` has ``col[q]`` agents, ``building``
    owns the building (-1: none) and ``citizens`` new citizens stand; the controller is the
    engine's ``area_control`` (the caller leaves grenadier areas out). Cached: boards repeat
    the same few columns all the time."""
    occupants = tuple((q, k) for q, k in enumerate(col) if k)
    pieces = list(col)
    if building >= 0:
        pieces[building] += 1
    top = max(pieces)
    level = tuple(q for q, c in enumerate(pieces) if c == top)
    return AreaPieces(occupants, top, area_control(pieces, citizens).controller, level)


CONTESTED_CREDIT = 0.4  # an area held level with the leader, towards a control threshold


def needs_progress(needs: Sequence[Need], m: Metrics, seat: int) -> tuple[float, bool]:
    """:func:`progress` of compiled needs (any metrics with ``by_metric`` and ``contested``:
    the expansion's too)."""
    best, met = 0.0, False
    for i, need, soft in needs:
        v = m.by_metric[i][seat]
        if v >= need:
            met = True
        x = v
        if soft:
            x = v + CONTESTED_CREDIT * min(m.contested[seat], max(0, need - v))
        y = x / need
        if y > 1.0:
            y = 1.0
        if y > best:
            best = y
    return best, met


def progress(goal: Goal, m: Metrics, seat: int) -> tuple[float, bool]:
    """(soft progress in [0, 1], goal met now) of ``seat`` under ``goal``.

    Soft progress gives half credit for an area held level with the leader (one piece away
    from control) so that a Lord is drawn towards contested areas.
    """
    return needs_progress(goal.compiled, m, seat)


@dataclass(frozen=True, slots=True)
class Weights:
    """Weights of the value terms (tuned by tournament play against the random bot)."""

    own: float = 1.0
    met_bonus: float = 0.6
    threat_max: float = 1.2
    threat_sum: float = 0.3
    threat_power: float = 3.0
    money: float = 0.004
    hand: float = 0.006
    exposed: float = 0.01
    points: float = 0.15
    holmes_depletion: float = 0.2


DEFAULT_WEIGHTS = Weights()


MAX_CACHED_VALUES = 10_000  # a caching evaluator forgets its values beyond this many


class CachedValues:
    """:meth:`value` of a position: ``value_from_metrics`` of its metrics (``measure``),
    remembered by its board (``key``) when ``_values`` is a dict. A ruleset's evaluator
    sets the three."""

    _values: dict[tuple, float] | None
    measure: Callable[[Any], Any]
    key: Callable[[Any], tuple]

    def value_from_metrics(self, m: Any) -> float:
        raise NotImplementedError

    def value(self, g: Any) -> float:
        """The position's value for ``seat`` (higher is better; roughly in [-2, 2])."""
        values = self._values
        if values is None:
            return self.value_from_metrics(self.measure(g))
        key = self.key(g)
        v = values.get(key)
        if v is None:
            if len(values) >= MAX_CACHED_VALUES:
                values.clear()
            v = values[key] = self.value_from_metrics(self.measure(g))
        return v


class Evaluator(CachedValues):
    """Values positions for ``seat``, with other seats' personalities given as a belief.

    An evaluator must not be changed after it is built (what it needs is precomputed, and it
    may cache values).

    Args:
        config: the game configuration.
        seat: whose value this is.
        own: the seat's personality index.
        belief: ``belief[q]`` is a probability vector over personality indices for seat ``q``
            (ignored for ``seat``).
        weights: the weights of the value terms.
        cache_values: remember :meth:`value` by :func:`board_key` (a look-ahead meets the same
            board many times); worth it for an evaluator that values many positions of a turn.
    """

    measure = staticmethod(metrics)
    key = staticmethod(board_key)

    def __init__(
        self,
        config: GameConfig,
        seat: int,
        own: int,
        belief: Sequence[np.ndarray] | Mapping[int, np.ndarray],
        weights: Weights = DEFAULT_WEIGHTS,
        cache_values: bool = False,
    ) -> None:
        self.config = config
        self.seat = seat
        self.goals = goals(config)
        self.own = self.goals[own]
        self.w = weights
        self.n = config.num_players
        # Sparse beliefs: (goal, probability) per distinct goal with some probability; the
        # three standard Lords share one goal, so they are merged.
        self.belief: list[list[tuple[Goal, float]]] = []
        for q in range(self.n):
            merged: dict[tuple, tuple[Goal, float]] = {}
            if q != seat:
                for k, goal in self.goals.items():
                    p = float(belief[q][k])
                    if p > 1e-6 and goal.needs:
                        g0, p0 = merged.get(goal.needs, (goal, 0.0))
                        merged[goal.needs] = (g0, p0 + p)
            self.belief.append(list(merged.values()))
        # draw-pile size at the start of the game (for the depletion of Holmes)
        self.initial_deck = 101 - 5 * self.n - (2 if self.n == 2 else 0)
        # What the hot path needs, computed once.
        self._threat_terms = [
            (q, p, goal.compiled) for q, row in enumerate(self.belief) for goal, p in row
        ]
        self._own_needs = self.own.compiled
        self._others = [q for q in range(self.n) if q != seat]
        self._deck_scale = max(1, self.initial_deck)
        self._counts_exposed = self.own.id not in ("fagin", "v_fagin")
        self._values: dict[tuple, float] | None = {} if cache_values else None

    def threats(self, m: Metrics) -> list[float]:
        """Expected alarm about each other seat (0 for ``seat`` itself)."""
        out = [0.0] * self.n
        power = self.w.threat_power
        for q, p, needs in self._threat_terms:
            x, met = needs_progress(needs, m, q)
            out[q] += p * (1.0 if met else x**power)  # convex in progress, 1 once met
        return out

    def value_from_metrics(self, m: Metrics) -> float:
        """:meth:`value` from the position's metrics (never cached)."""
        w, me = self.w, self.seat
        threats = self.threats(m)
        depletion = 1.0 - m.deck / self._deck_scale
        if self.own.is_holmes:
            own = w.holmes_depletion * depletion
        else:
            x, met = needs_progress(self._own_needs, m, me)
            own = w.own * x + (w.met_bonus if met else 0.0)
        v = own - w.threat_max * max(threats) - w.threat_sum * sum(threats)
        points = m.points
        best_other = max([points[q] for q in self._others])
        v += w.points * depletion * (points[me] - best_other) / 50.0
        v += w.money * m.money[me] + w.hand * min(m.hand[me], 6)
        if self._counts_exposed:
            v -= w.exposed * m.exposed[me]
        return v


def sampled_values(g: Game, weights: Weights = DEFAULT_WEIGHTS) -> list[float]:
    """Every seat's value in a fully known (determinised) game, each seat taking the sampled
    personalities as the truth. Search uses it at its leaves."""
    n = g.n
    onehot = [np.zeros(NUM_PERSONALITIES) for _ in range(n)]
    for r in range(n):
        onehot[r][g.persona[r]] = 1.0
    m = metrics(g)
    return [
        Evaluator(g.cfg, q, g.persona[q], onehot, weights).value_from_metrics(m) for q in range(n)
    ]
