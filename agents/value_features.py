"""The value network's inputs: what a board says about each seat's chances.

Per seat ``f(seat, personality)`` (:data:`SEAT_FEATURES`): progress towards the goal of the
personality and whether it is met (as in :mod:`agents.value_model`), the goal class, how firmly
a met goal holds (its break cost, :func:`agents.robustness.break_cost`, and the share of its
areas held by two pieces or more), the seat's board, money and hand, whether it is to move and
how many seats move before its next turn. Shared (:data:`SHARED_FEATURES`): how far the draw
pile is gone, trouble markers and buildings on the board.

A :class:`Position` computes them for one board (a :class:`~nanty_env.engine.game.Game` or a
recorded snapshot with the same fields), for any seat under any personality: training reads the
true personalities, a bot its belief about the others (an expectation over the personalities
it thinks possible, :meth:`Position.expected_goal_features`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agents.evaluation import METRIC_INDEX, Metrics, board_metrics, metrics
from agents.robustness import controlled_margins
from agents.value_model import CLASSES, board_features, goal_table, initial_deck
from nanty_env.engine import NUM_AREAS, GameConfig

MAX_HITS = 3  # break costs are counted up to this many hits
GOAL_FEATURES: tuple[str, ...] = (
    "progress",
    "met",
    *(f"is_{c}" for c in CLASSES),
    *(f"progress_{c}" for c in CLASSES if c != "holmes"),
    "break_cost",
    "durable",
)
BOARD_FEATURES: tuple[str, ...] = (
    "occupied",
    "controlled",
    "contested",
    "agents",
    "buildings",
    "net_worth",
    "points",
    "money",
    "hand",
    "exposed",
    "loans",
    "to_move",
    "wait",
)
SEAT_FEATURES = GOAL_FEATURES + BOARD_FEATURES
SHARED_FEATURES: tuple[str, ...] = ("depletion", "trouble", "buildings_total")
NUM_GOAL = len(GOAL_FEATURES)
NUM_SEAT = len(SEAT_FEATURES)
NUM_SHARED = len(SHARED_FEATURES)

_NUM_PROGRESS_CLASSES = len(CLASSES) - 1  # Holmes has no progress of his own
_CONTROLLED = METRIC_INDEX["controlled_areas"]
_OCCUPIED = METRIC_INDEX["occupied_areas"]
_TROUBLE = METRIC_INDEX["trouble_markers"]


class Position:
    """Features of one board (see module doc). ``g`` needs the fields that
    :func:`agents.evaluation.metrics` and :mod:`agents.robustness` read; a recorded snapshot
    passes its :class:`~agents.evaluation.Metrics` as ``m``."""

    __slots__ = ("_parts", "_units", "active", "config", "g", "m", "n")

    def __init__(self, g, config: GameConfig, m: Metrics | None = None) -> None:
        self.g = g
        self.config = config
        self.n = config.num_players
        self.m = metrics(g) if m is None else m
        self.active = g.active
        self._units: dict[tuple[int, int], list[int] | None] = {}
        self._parts: dict[tuple, tuple[float, float, float, float]] = {}

    @classmethod
    def from_board(cls, b, config: GameConfig) -> Position:
        """A recorded snapshot (:class:`training.value_records.Board`)."""
        m = board_metrics(
            b.n,
            b.agents,
            b.gren,
            b.cit,
            b.building,
            b.trouble,
            b.money,
            b.loans,
            b.on_board,
            b.hand,
            b.deck_size,
        )
        return cls(b, config, m)

    def unit_costs(self, seat: int, metric: int) -> list[int] | None:
        """The hits that take each unit of a goal metric from ``seat``, cheapest first (see
        :func:`agents.robustness.unit_costs`); ``None`` for a metric without hits."""
        key = (seat, metric)
        if key not in self._units:
            g = self.g
            if metric == _CONTROLLED:
                costs = controlled_margins(g, seat)
            elif metric == _OCCUPIED:
                row, gren = g.agents[seat], g.gren
                costs = [row[a] for a in range(NUM_AREAS) if row[a] and not gren[a]]
            elif metric == _TROUBLE:
                costs = [1] * sum(g.trouble)
            else:
                costs = None
            if costs is not None:
                costs.sort()
            self._units[key] = costs
        return self._units[key]

    def goal_parts(self, seat: int, needs: tuple) -> tuple[float, float, float, float]:
        """(progress, met, break cost / :data:`MAX_HITS`, durable share) of compiled ``needs``
        for ``seat`` (cached: personalities with the same goal share them)."""
        key = (seat, needs)
        parts = self._parts.get(key)
        if parts is None:
            m = self.m
            best, met, hits, firm = 0.0, 0.0, 0, 0.0
            for metric, need, soft in needs:
                v = m.by_metric[metric][seat]
                if v >= need:
                    met = 1.0
                x = v + 0.4 * min(m.contested[seat], max(0, need - v)) if soft else v
                best = max(best, min(1.0, x / need))
                costs = self.unit_costs(seat, metric)
                if costs is not None and len(costs) >= need:
                    hits = max(hits, sum(costs[: len(costs) - need + 1]))
                if metric == _CONTROLLED and costs:
                    firm = max(firm, min(need, sum(1 for c in costs if c >= 2)) / need)
            parts = self._parts[key] = (best, met, min(hits, MAX_HITS) / MAX_HITS, firm)
        return parts

    def goal_features(self, seat: int, persona: int) -> list[float]:
        """The personality-dependent part of ``f(seat)`` (:data:`GOAL_FEATURES`)."""
        return self.expected_goal_features(seat, ((persona, 1.0),))

    def expected_goal_features(
        self, seat: int, options: Sequence[tuple[int, float]]
    ) -> list[float]:
        """:meth:`goal_features` averaged over personalities ``(index, probability)``."""
        out = [0.0] * NUM_GOAL
        table = goal_table(self.config)
        for k, p in options:
            needs, cls = table[k]
            best, met, hits, firm = self.goal_parts(seat, needs)
            out[0] += p * best
            out[1] += p * met
            if cls >= 0:
                out[2 + cls] += p
                if cls < _NUM_PROGRESS_CLASSES:
                    out[2 + len(CLASSES) + cls] += p * best
            out[-2] += p * hits
            out[-1] += p * firm
        return out

    def board_features(self, seat: int) -> list[float]:
        """The personality-free part of ``f(seat)`` (:data:`BOARD_FEATURES`)."""
        n, active = self.n, self.active
        return [
            *board_features(self.m, seat),
            float(seat == active),
            ((seat - active) % n) / (n - 1),
        ]

    def shared(self) -> list[float]:
        """:data:`SHARED_FEATURES`."""
        m = self.m
        return [1.0 - m.deck / initial_deck(self.n), m.trouble / 8.0, m.buildings / 12.0]

    def seat_features(self, seat: int, persona: int) -> list[float]:
        """``f(seat)`` under a known personality."""
        return self.goal_features(seat, persona) + self.board_features(seat)

    def table(self, personas: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """Every seat's ``f`` under the given personalities, ``(n, F)``, and the shared row."""
        f = [self.seat_features(q, personas[q]) for q in range(self.n)]
        return np.array(f), np.array(self.shared())
