"""Static evaluation of a position for the scripted and search bots: one skeleton for every
ruleset, and the base game's table of what it values.

Everything here reads only the *public* part of a :class:`~nanty_env.engine.Game` (board, money,
loans, hand sizes, draw-pile size), so it may be applied to a game rebuilt from a seat's view:
the roles of other seats are never read from the game but come from a belief (a probability
for each role), or, inside a search over determinisations, from the sampled deal.

The value of a seat is its own progress towards its role's goal minus the threat that the others
pose (their progress weighted by how likely each role is), plus small terms for money, cards
and points that break ties and keep a fallback plan for a game decided on points. A role that
wins when the game ends (the base game's Holmes) values how near that end is instead.

What a ruleset changes is an :class:`EvaluationRules` table (its metrics, goals, end of game
and weights) and an :class:`Evaluator` subclass naming it; the base game's is
:data:`BASE_RULES`, the expansion's is in :mod:`agents.cthulhu.evaluation`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any, ClassVar, NamedTuple

import numpy as np

from nanty_env.engine import Game, GameConfig

# from the defining modules: the compiled build calls them in C
from nanty_env.engine.scoring import (
    AGENT_POINTS,
    BASE_LOAN,
    net_worth_of,
    settle_loans,
)
from nanty_env.engine.setup import personality_deck
from nanty_env.engine.tables import tables

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
    """One role's goal at one player count: alternative (metric, threshold) pairs, and the
    end-of-game rule (base game: ``holmes``, ``holmes_v``, ``fagin_v`` or ""); ``metrics``
    names the ruleset's goal metrics in :attr:`Metrics.by_metric` order."""

    index: int
    id: str
    needs: tuple[tuple[str, int], ...]
    end_rule: str
    metrics: tuple[str, ...] = field(default=METRICS, repr=False, compare=False)
    # ``needs`` with metric indices instead of names (for :func:`needs_progress`)
    compiled: tuple[Need, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index = self.metrics.index
        compiled = tuple((index(m), need, m == "controlled_areas") for m, need in self.needs)
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
    exposed: list[int]  # own agents (minions) standing in an area with a trouble marker
    loans: list[int]
    # every goal metric's per-seat values, in the ruleset's goal-metric order (a board total
    # repeated per seat); the lists are the ones above, so a Metrics is not to be changed
    by_metric: tuple[list[int], ...]
    names: ClassVar[tuple[str, ...]] = METRICS  # the goal metrics of ``by_metric``

    def metric(self, name: str, seat: int) -> int:
        """The goal metric ``name`` (one of :attr:`names`) of ``seat``."""
        return self.by_metric[self.names.index(name)][seat]


class PublicBoard(NamedTuple):
    """What every ruleset's metrics read, from a game or a seat's view (``loans``: each
    seat's loans as the game holds them)."""

    n: int
    agents: Sequence[Sequence[int]]
    gren: Sequence[int]
    cit: Sequence[int]
    bld: Sequence[int]
    trouble: Sequence[int]
    money: Sequence[int]
    loans: Sequence[Sequence[Any]]
    on_board: Sequence[int]
    hand: Sequence[int]
    deck: int


def game_board(g: Any) -> PublicBoard:
    """The :class:`PublicBoard` of a game."""
    held = [len(h) + len(p) for h, p in zip(g.hands, g.penalties, strict=True)]
    return PublicBoard(
        g.n, g.agents, g.gren, g.cit, g.building, g.trouble, g.money, g.loans, g.on_board,
        held, len(g.deck),
    )  # fmt: skip


def view_board(view: Mapping[str, Any]) -> PublicBoard:
    """The :class:`PublicBoard` of a seat's view (everything it needs is public)."""
    held = [h + len(p) for h, p in zip(view["hand_sizes"], view["penalties"], strict=True)]
    return PublicBoard(
        view["num_players"], view["agents"], view["grenadiers"], view["citizens"],
        view["buildings"], view["trouble"], view["money"], view["loans"],
        [sum(row) for row in view["agents"]], held, view["deck_size"],
    )  # fmt: skip


def metrics(g: Game) -> Metrics:
    """All public metrics of a game in one pass over the board (the evaluation's hot path)."""
    n, trouble, hands, penalties = g.n, g.trouble, g.hands, g.penalties
    tally = tally_areas(n, g.agents, g.building, g.cit, g.gren, trouble, COST)
    return tally_metrics(
        tally, n, trouble, g.money, [len(x) for x in g.loans], g.on_board,
        [len(hands[q]) + len(penalties[q]) for q in range(n)], len(g.deck),
    )  # fmt: skip


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
        tuple([len(x) for x in g.loans]),
        tuple(g.on_board),
        tuple([len(h) for h in g.hands]),
        tuple([len(p) for p in g.penalties]),
        len(g.deck),
    )


def view_metrics(view: Mapping, config: GameConfig | None = None) -> Metrics:
    """The same metrics from a seat's view (``config`` is not needed in the base game)."""
    b = view_board(view)
    return board_metrics(*b[:7], [len(x) for x in b.loans], *b[8:])


# One pass over the areas (see :func:`tally_areas`): per-seat counts, in this order
Tally = tuple[list[int], list[int], list[int], list[int], list[int], list[int], list[int]]
TALLY_FIELDS = (
    "occupied",
    "controlled",
    "contested",
    "exposed",  # minions standing in an area with a trouble marker
    "own_buildings",
    "building_value",
    "counted",  # minions outside grenadier areas
)


def tally_areas(
    n: int,
    rows: Sequence[Sequence[int]],
    bld: Sequence[int],
    cit: Sequence[int],
    gren: Sequence[int],
    trouble: Sequence[int],
    worth: Sequence[int],
    worth_under_grenadiers: bool = False,
) -> Tally:
    """One pass over the areas (the counts :data:`TALLY_FIELDS` names, new lists): ``rows[q][a]`` is seat ``q``'s minions in area ``a``,
    ``worth[a]`` the value of the building standing there (counted in a grenadier area only
    with ``worth_under_grenadiers``). Grenadier areas count for trouble and buildings only.

    An area's pieces are a seat's minions and its building (one piece); its controller is the
    engine's rule (:func:`~nanty_env.engine.scoring.area_control`, written out here over C
    integers in the compiled build), and a seat is *contested* there when nobody controls it
    and the seat is level at the top with more pieces than the new citizens."""
    occupied = [0] * n
    controlled = [0] * n
    contested = [0] * n
    exposed = [0] * n
    nbuild = [0] * n
    bval = [0] * n
    counted = [0] * n
    for a in range(len(bld)):
        b = bld[a]
        if b >= 0:
            nbuild[b] += 1
            if worth_under_grenadiers:
                bval[b] += worth[a]
        if trouble[a]:
            for q in range(n):
                exposed[q] += rows[q][a]
        if gren[a]:
            continue
        if b >= 0 and not worth_under_grenadiers:
            bval[b] += worth[a]
        c = cit[a]
        # area_control's rule: the most pieces (``top``, seat ``seat``), beaten by nobody
        # else (``rival``: the runner-up, the new citizens counting as one rival)
        top = rival = c
        seat = -1
        most = 0  # the most pieces of any seat, citizens aside
        for q in range(n):
            k = rows[q][a]
            if k:
                occupied[q] += 1
                counted[q] += k
            if q == b:
                k += 1
            if k > most:
                most = k
            if k > top:
                top, rival, seat = k, top, q
            elif k > rival:
                rival = k
        if seat >= 0 and top != rival:
            controlled[seat] += 1
        elif most > c:  # level at the top, above the citizens: a control in reach
            for q in range(n):
                if rows[q][a] + (q == b) == most:
                    contested[q] += 1
    return occupied, controlled, contested, exposed, nbuild, bval, counted


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
    """Metrics from the raw public arrays (see :class:`Metrics`; ``loans``: loan counts)."""
    t = tally_areas(n, agents, bld, cit, gren, trouble, COST)
    return tally_metrics(t, n, trouble, money, loans, on_board, hand, deck)


def tally_metrics(
    t: Tally,
    n: int,
    trouble: Sequence[int],
    money: Sequence[int],
    loans: Sequence[int],
    on_board: Sequence[int],
    hand: Sequence[int],
    deck: int,
) -> Metrics:
    """:func:`board_metrics` from the board's :func:`tally_areas` (whose new lists it keeps)."""
    occupied, controlled, contested, exposed, nbuild, bval, counted = t
    net, bv, points, pieces = [], [], [], []
    buildings = 0
    for q in range(n):
        b, k, cash = bval[q], loans[q], money[q]
        net.append(net_worth_of(cash, b, k))
        bv.append(net_worth_of(0, b, k))
        pts = b + AGENT_POINTS * counted[q]
        points.append(pts + settle_loans(cash, [BASE_LOAN] * k) if k else pts + cash)
        pieces.append(on_board[q] + nbuild[q])
        buildings += nbuild[q]
    total = 0
    for x in trouble:  # a loop, not sum(): compiled, C integers
        total += x
    named = (occupied, controlled, net, bv, nbuild, pieces, [total] * n, [buildings] * n)
    return Metrics(
        occupied, controlled, contested, net, bv, nbuild, pieces, list(on_board),
        points, list(money), list(hand), total, buildings, deck, exposed, list(loans),
        named,
    )  # fmt: skip


CONTESTED_CREDIT = 0.4  # an area held level with the leader, towards a control threshold


def needs_progress(needs: Sequence[Need], m: Metrics, seat: int) -> tuple[float, bool]:
    """:func:`progress` of compiled needs (any ruleset's metrics)."""
    return seat_progress(needs, m.by_metric, m.contested, seat)


def seat_progress(
    needs: Sequence[Need],
    by_metric: Sequence[Sequence[int]],
    contested: Sequence[int],
    seat: int,
) -> tuple[float, bool]:
    """:func:`needs_progress` from the metrics' ``by_metric`` and ``contested``."""
    best, met = 0.0, False
    for i, need, soft in needs:
        v = by_metric[i][seat]
        if v >= need:
            met = True
        x = v
        if soft:
            x = v + CONTESTED_CREDIT * min(contested[seat], max(0, need - v))
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


def deck_depletion(m: Metrics, deck_at_start: int) -> float:
    """The share of the draw pile gone (how near the base game's end is)."""
    return 1.0 - m.deck / deck_at_start


def base_deck_at_start(config: GameConfig) -> int:
    """The base game's draw pile at the start of a game (at least 1)."""
    n = config.num_players
    return max(1, 101 - 5 * n - (2 if n == 2 else 0))


@dataclass(frozen=True)
class EvaluationRules:
    """What a ruleset's evaluation changes in the skeleton (:class:`Evaluator`).

    ``measure`` and ``key`` read a game's :class:`Metrics` and its hashable board; ``goals``
    gives every role's :class:`Goal` by role index. The game ends at ``end_proximity(metrics,
    deck_at_start(config))`` in [0, 1], which is the own value (times the weight named
    ``end_weight``) of a role whose ``end_rule`` is in ``end_rules``. With ``end_role_races``
    that role takes the endings on points: an opponent who may hold it is a threat by the
    end's proximity, its holder does not count points, and another seat's points lead counts
    as far as nobody else may hold it (without, the points lead is every seat's tie-break).
    Roles in ``unexposed`` do not mind their exposed minions."""

    measure: Callable[[Any], Metrics]
    key: Callable[[Any], tuple]
    goals: Callable[[GameConfig], Mapping[int, Goal]]
    deck_at_start: Callable[[GameConfig], int]
    end_proximity: Callable[[Metrics, int], float]
    weights: Weights
    end_rules: frozenset[str]
    end_weight: str
    end_role_races: bool = False
    unexposed: frozenset[str] = frozenset()


BASE_RULES = EvaluationRules(
    measure=metrics,
    key=board_key,
    goals=goals,
    # Holmes wins when the draw pile runs out (and nobody else has won)
    end_rules=frozenset({"holmes", "holmes_v"}),
    end_proximity=deck_depletion,
    deck_at_start=base_deck_at_start,
    end_weight="holmes_depletion",
    weights=DEFAULT_WEIGHTS,
    # Fagin wants trouble markers on the board, agents in them included
    unexposed=frozenset({"fagin", "v_fagin"}),
)


MAX_CACHED_VALUES = 10_000  # a caching evaluator forgets its values beyond this many


class CachedValues:
    """:meth:`value` of a position: ``value_from_metrics`` of its metrics (``measure``),
    remembered by its board (``key``) when ``_values`` is a dict. An evaluator sets the
    three."""

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
    """Values positions for ``seat``, with other seats' roles given as a belief, under the
    ruleset's :attr:`rules` (a subclass per ruleset sets them; this class: the base game).

    An evaluator must not be changed after it is built (what it needs is precomputed, and it
    may cache values).

    Args:
        config: the game configuration.
        seat: whose value this is.
        own: the seat's role index (personality card, or objective).
        belief: ``belief[q]`` is a probability vector over role indices for seat ``q``
            (ignored for ``seat``).
        weights: the weights of the value terms (None: the ruleset's defaults).
        cache_values: remember :meth:`value` by the board's key (a look-ahead meets the same
            board many times); worth it for an evaluator that values many positions of a turn.
    """

    rules: ClassVar[EvaluationRules] = BASE_RULES

    def __init__(
        self,
        config: GameConfig,
        seat: int,
        own: int,
        belief: Sequence[np.ndarray] | Mapping[int, np.ndarray],
        weights: Weights | None = None,
        cache_values: bool = False,
    ) -> None:
        rules = self.rules
        self.measure, self.key = rules.measure, rules.key  # type: ignore[method-assign]
        self.config = config
        self.seat = seat
        self.goals = rules.goals(config)
        self.own = self.goals[own]
        self.w = w = rules.weights if weights is None else weights
        self.n = config.num_players
        races = rules.end_role_races
        # Sparse beliefs: (goal, probability) per distinct goal with some probability (the
        # base game's three standard Lords share one goal, so they are merged), and the
        # probability of a role that wins at the end (when it races for it).
        self.belief: list[list[tuple[Goal, float]]] = []
        end_odds = [0.0] * self.n
        for q in range(self.n):
            merged: dict[tuple, tuple[Goal, float]] = {}
            if q != seat:
                for k, goal in self.goals.items():
                    p = float(belief[q][k])
                    if not p > 1e-6:
                        continue
                    if races and goal.end_rule in rules.end_rules:
                        end_odds[q] += p
                    elif goal.needs:
                        g0, p0 = merged.get(goal.needs, (goal, 0.0))
                        merged[goal.needs] = (g0, p0 + p)
            self.belief.append(list(merged.values()))
        # What the hot path needs, computed once: the threats' terms (read by :meth:`threats`
        # too), then everything in one plain tuple, in the order :func:`plan_value` unpacks it
        self._threat_terms = [
            (q, p, goal.compiled) for q, row in enumerate(self.belief) for goal, p in row
        ]
        self._end_threats = [(q, p) for q, p in enumerate(end_odds) if p]
        self._deck_scale = rules.deck_at_start(config)
        self._end = rules.end_proximity
        self._values: dict[tuple, float] | None = {} if cache_values else None
        nobody = 1.0  # the probability that no other seat holds a role racing for the end
        for q in range(self.n):
            if q != seat:
                nobody *= 1.0 - min(1.0, end_odds[q])
        self._plan = (
            seat, self.n, self.own.end_rule in rules.end_rules, getattr(w, rules.end_weight),
            self.own.compiled, races, self._threat_terms, self._end_threats,
            [q for q in range(self.n) if q != seat], nobody, self._deck_scale, self._end,
            self.own.id not in rules.unexposed, w.own, w.met_bonus, w.threat_max, w.threat_sum,
            w.threat_power, w.money, w.hand, w.exposed, w.points,
        )  # fmt: skip

    def threats(self, m: Metrics) -> list[float]:
        """Expected alarm about each other seat (0 for ``seat`` itself)."""
        end = self._end(m, self._deck_scale)
        power = self.w.threat_power
        return threat_levels(
            self.n, power, self._threat_terms, self._end_threats, m.by_metric, m.contested, end
        )

    def value_from_metrics(self, m: Metrics) -> float:
        """:meth:`value` from the position's metrics (never cached)."""
        return plan_value(self._plan, m)


def threat_levels(
    n: int,
    power: float,
    terms: Sequence[tuple[int, float, Sequence[Need]]],
    end_threats: Sequence[tuple[int, float]],
    by_metric: Sequence[Sequence[int]],
    contested: Sequence[int],
    end: float,
) -> list[float]:
    """Expected alarm about each seat: each possible role's progress (``terms``: seat,
    probability, needs), convex in progress and 1 once met, and each role racing for the end
    (``end_threats``: seat, probability) by the end's proximity ``end``."""
    out = [0.0] * n
    for q, p, needs in terms:
        x, met = seat_progress(needs, by_metric, contested, q)
        out[q] += p * (1.0 if met else x**power)
    if end_threats:
        near = end**power
        for q, p in end_threats:
            out[q] += p * near
    return out


def points_lead(
    seat: int,
    others: Sequence[int],
    weight: float,
    no_other_ender: float,
    points: Sequence[int],
    end: float,
) -> float:
    """The points-lead term of ``seat`` (grows as the end nears)."""
    lead = points[seat] - max([points[q] for q in others])
    return weight * end * no_other_ender * lead / 50.0


def plan_value(plan: tuple, m: Metrics) -> float:
    """The value of a position with metrics ``m`` for an evaluator's seat (higher is
    better), from the evaluator's ``_plan``: its seat, belief and weights, prepared."""
    (
        me, n, own_ends, end_weight, own_needs, races, terms, end_threats, others,
        no_other_ender, deck_scale, end_of, counts_exposed, w_own, w_met_bonus, w_threat_max,
        w_threat_sum, power, w_money, w_hand, w_exposed, w_points,
    ) = plan  # fmt: skip
    by_metric, contested = m.by_metric, m.contested
    end = end_of(m, deck_scale)
    if own_ends:
        own = end_weight * end
    else:
        x, met = seat_progress(own_needs, by_metric, contested, me)
        own = w_own * x + (w_met_bonus if met else 0.0)
        if races:
            own += points_lead(me, others, w_points, no_other_ender, m.points, end)
    threats = threat_levels(n, power, terms, end_threats, by_metric, contested, end)
    v = own - w_threat_max * max(threats) - w_threat_sum * sum(threats)
    if not races:
        v += points_lead(me, others, w_points, no_other_ender, m.points, end)
    v += w_money * m.money[me] + w_hand * min(m.hand[me], 6)
    if counts_exposed:
        v -= w_exposed * m.exposed[me]
    return v


def sampled_evaluators(
    g: Any, weights: Weights | None = None, cls: type[Evaluator] = Evaluator
) -> list[Evaluator]:
    """One ``cls`` evaluator per seat that takes the (sampled) roles of ``g`` as known (the
    same evaluators for the same roles: evaluators are never changed once built)."""
    roles = tuple(getattr(g, g.ruleset.roles))
    return list(_known_role_evaluators(cls, g.cfg, weights, roles))


@lru_cache(maxsize=4096)
def _known_role_evaluators(
    cls: type[Evaluator], config: GameConfig, weights: Weights | None, roles: tuple[int, ...]
) -> tuple[Evaluator, ...]:
    """:func:`sampled_evaluators`, remembered: a search builds them for every determinisation,
    and the seats' roles repeat (4,096 role sets at most, about 1.3 KB an evaluator: 21 MB)."""
    n = config.num_players
    size = max(cls.rules.goals(config)) + 1
    onehot = [np.zeros(size) for _ in range(n)]
    for q in range(n):
        onehot[q][roles[q]] = 1.0
    return tuple(cls(config, q, roles[q], onehot, weights) for q in range(n))


def sampled_values(g: Game, weights: Weights = DEFAULT_WEIGHTS) -> list[float]:
    """Every seat's value in a fully known (determinised) game, each seat taking the sampled
    personalities as the truth. Search uses it at its leaves."""
    m = metrics(g)
    return [ev.value_from_metrics(m) for ev in sampled_evaluators(g, weights)]


EVALUATOR = Evaluator  # the base game's evaluation (see agents.rulesets.evaluator_class)
