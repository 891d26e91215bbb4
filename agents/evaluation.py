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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from nanty_env.engine.config import GameConfig
from nanty_env.engine.game import Game
from nanty_env.engine.setup import personality_deck
from nanty_env.engine.tables import LOAN_NET_WORTH, tables

NUM_PERSONALITIES = len(tables().data.personalities)
AGENT_POINTS = 5
NUM_AREAS = 12


@dataclass(frozen=True, slots=True)
class Goal:
    """One personality's goal at one player count: alternative (metric, threshold) pairs, and
    the end-of-game rule (``holmes``, ``holmes_v``, ``fagin_v`` or "")."""

    index: int
    id: str
    needs: tuple[tuple[str, int], ...]
    end_rule: str

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

    def metric(self, name: str, seat: int) -> int:
        if name == "occupied_areas":
            return self.occupied[seat]
        if name == "controlled_areas":
            return self.controlled[seat]
        if name == "net_worth":
            return self.net_worth[seat]
        if name == "building_value":
            return self.building_value[seat]
        if name == "own_buildings":
            return self.own_buildings[seat]
        if name == "pieces_on_board":
            return self.pieces[seat]
        if name == "trouble_markers":
            return self.trouble
        if name == "buildings_on_board":
            return self.buildings
        raise KeyError(name)


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
        [len(x) for x in g.loans],
        g.on_board,
        [len(h) + len(p) for h, p in zip(g.hands, g.penalties, strict=True)],
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
    cost = tables().cost
    occupied = [0] * n
    controlled = [0] * n
    contested = [0] * n
    bval = [0] * n
    nbuild = [0] * n
    on_board_pts = [0] * n
    exposed = [0] * n
    for a in range(NUM_AREAS):
        b = bld[a]
        if b >= 0:
            nbuild[b] += 1
        if trouble[a]:
            for q in range(n):
                exposed[q] += agents[q][a]
        if gren[a]:
            continue
        if b >= 0:
            bval[b] += cost[a]
            on_board_pts[b] += cost[a]
        best, top, second = -1, 0, 0
        for q in range(n):
            k = agents[q][a]
            if k:
                occupied[q] += 1
                on_board_pts[q] += AGENT_POINTS * k
            c = k + (b == q)
            if c > top:
                second, top, best = top, c, q
            elif c > second:
                second = c
        if top > cit[a]:
            if top > second:
                controlled[best] += 1
            elif top == second:
                for q in range(n):
                    if agents[q][a] + (b == q) == top:
                        contested[q] += 1
    net = [money[q] + bval[q] + LOAN_NET_WORTH * loans[q] for q in range(n)]
    bv = [bval[q] + LOAN_NET_WORTH * loans[q] for q in range(n)]
    points = []
    for q in range(n):
        m, pts = money[q], on_board_pts[q]
        for _ in range(loans[q]):
            if m >= 12:
                m -= 12
            else:
                pts -= 15
        points.append(pts + m)
    return Metrics(
        occupied=occupied,
        controlled=controlled,
        contested=contested,
        net_worth=net,
        building_value=bv,
        own_buildings=nbuild,
        pieces=[on_board[q] + nbuild[q] for q in range(n)],
        agents=list(on_board),
        points=points,
        money=list(money),
        hand=list(hand),
        trouble=sum(trouble),
        buildings=sum(nbuild),
        deck=deck,
        exposed=exposed,
        loans=list(loans),
    )


def progress(goal: Goal, m: Metrics, seat: int) -> tuple[float, bool]:
    """(soft progress in [0, 1], goal met now) of ``seat`` under ``goal``.

    Soft progress gives half credit for an area held level with the leader (one piece away
    from control) so that a Lord is drawn towards contested areas.
    """
    if not goal.needs:
        return 0.0, False
    best, met = 0.0, False
    for name, need in goal.needs:
        v = m.metric(name, seat)
        if v >= need:
            met = True
        x = v
        if name == "controlled_areas":
            x = v + 0.4 * min(m.contested[seat], max(0, need - v))
        best = max(best, min(1.0, x / need))
    return best, met


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


def threat_curve(x: float, met: bool, power: float) -> float:
    """How alarming an opponent's progress is: convex, 1 once the goal is met."""
    return 1.0 if met else x**power


class Evaluator:
    """Values positions for ``seat``, with other seats' personalities given as a belief.

    Args:
        config: the game configuration.
        seat: whose value this is.
        own: the seat's personality index.
        belief: ``belief[q]`` is a probability vector over personality indices for seat ``q``
            (ignored for ``seat``).
        initial_deck: draw-pile size at the start of the game (for the depletion of Holmes).
    """

    def __init__(
        self,
        config: GameConfig,
        seat: int,
        own: int,
        belief: Sequence[np.ndarray] | Mapping[int, np.ndarray],
        weights: Weights = DEFAULT_WEIGHTS,
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
        self.initial_deck = 101 - 5 * self.n - (2 if self.n == 2 else 0)

    def threats(self, m: Metrics) -> list[float]:
        """Expected alarm about each other seat (0 for ``seat`` itself)."""
        out = []
        power = self.w.threat_power
        for q in range(self.n):
            t = 0.0
            for goal, p in self.belief[q]:
                x, met = progress(goal, m, q)
                t += p * (1.0 if met else x**power)
            out.append(t)
        return out

    def value(self, g: Game) -> float:
        """The position's value for ``seat`` (higher is better; roughly in [-2, 2])."""
        m = metrics(g)
        return self.value_from_metrics(m)

    def value_from_metrics(self, m: Metrics) -> float:
        w, me = self.w, self.seat
        threats = self.threats(m)
        depletion = 1.0 - m.deck / max(1, self.initial_deck)
        if self.own.is_holmes:
            own = w.holmes_depletion * depletion
        else:
            x, met = progress(self.own, m, me)
            own = w.own * x + (w.met_bonus if met else 0.0)
        others = [q for q in range(self.n) if q != me]
        v = own - w.threat_max * max(threats) - w.threat_sum * sum(threats)
        best_other = max(m.points[q] for q in others)
        v += w.points * depletion * (m.points[me] - best_other) / 50.0
        v += w.money * m.money[me] + w.hand * min(m.hand[me], 6)
        if self.own.id not in ("fagin", "v_fagin"):
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
