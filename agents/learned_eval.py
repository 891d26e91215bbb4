"""The hand-weighted evaluation blended with the learned win probability, for a seat that does
not know its opponent's personality (the scripted look-ahead and the search's root prior).

``value = (1 - learned) * hand + learned * (TERMINAL * (2 P - 1) + sturdiness)`` where ``hand``
is :meth:`~agents.evaluation.Evaluator.value` and ``P`` the seat's win probability
(:mod:`agents.value_model`) averaged over the opponent's personality under the seat's belief.
``sturdiness`` (0 unless asked for) rewards a goal the others cannot easily undo before it wins:
``robust`` for each hit beyond the first that the seat's met goal can take
(:func:`~agents.robustness.break_cost`, counted up to :data:`MAX_HITS`), and ``durable`` times
the share of the goal's units that take two hits (:func:`~agents.robustness.durable_share`).
The learned model sees how far a goal has come, not how firmly it holds, and a met goal that one
hit undoes rarely survives the round (:mod:`agents.robustness`).
With more than two seats the model is a :class:`~agents.value_model.PooledValueModel`; each
opponent's features are then their expectation under the seat's belief (``mixture="mean"``,
one evaluation of the model), or ``P`` is averaged over every combination of the opponents'
personalities, taken as independent (``mixture="deals"``: up to ``5 ** (n - 1)`` evaluations).
Personalities with the same goal are merged, and those below :data:`MIN_PROB` dropped. It has
the interface :class:`~agents.heuristic.TurnPlanner` uses (``seat``, ``w``, ``value``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agents.evaluation import (
    MAX_CACHED_VALUES,
    Evaluator,
    Metrics,
    board_key,
    goals,
    metrics,
    needs_progress,
)
from agents.robustness import break_cost, durable_share
from agents.value_model import (
    CLASSES,
    PooledValueModel,
    ValueModel,
    board_features,
    goal_class,
    goal_features,
    goal_table,
    pooled_seat_features,
    seat_features,
    shared_features,
)
from nanty_env.engine import Game

TERMINAL = 3.0  # the value of a win (a loss is -TERMINAL), for the look-ahead and agents.ismcts
MIN_PROB = 0.02  # an opponent's personality less likely than this is ignored (n > 2)
MAX_HITS = 3  # a met goal's break cost counts up to this many hits
MIXTURES = ("mean", "deals")


def check_mixture(mixture: str) -> str:
    """``mixture`` if it is one of :data:`MIXTURES`, else a ``ValueError`` naming them."""
    if mixture not in MIXTURES:
        raise ValueError(f"mixture must be one of {MIXTURES}, got {mixture!r}")
    return mixture


class LearnedEvaluator:
    """See the module docstring. Values are cached by board and mover when ``cache_values``.

    Args:
        hand: the hand-weighted evaluator of the seat (its belief about the opponent is used
            for the learned term as well).
        model: the learned model for the game's player count
            (:func:`~agents.value_model.value_model_for`).
        belief: ``belief[q]``: probabilities of seat ``q``'s personality.
        own: the seat's personality.
        learned: weight of the learned term in [0, 1].
        mixture: how the opponents' personalities are averaged over with more than two seats
            (see the module docstring).
        robust: value of each hit beyond the first that the seat's met goal can take.
        durable: value of the goal's units that take two hits, as a share of those it needs.
    """

    def __init__(
        self,
        hand: Evaluator,
        model: ValueModel | PooledValueModel,
        belief: Sequence[np.ndarray],
        own: int,
        learned: float,
        cache_values: bool = False,
        mixture: str = "mean",
        robust: float = 0.0,
        durable: float = 0.0,
    ) -> None:
        if isinstance(model, ValueModel) != (hand.n == 2):
            raise ValueError(f"{type(model).__name__} does not fit a {hand.n}-player game")
        self.hand = hand
        self.model = model
        self.seat = hand.seat
        self.w = hand.w
        self.config = hand.config
        self.own = own
        self.robust = float(robust)
        self.durable = float(durable)
        self._own_needs = goals(hand.config)[own].compiled
        self.learned = float(learned)
        self._values: dict[tuple, float] | None = {} if cache_values else None
        if isinstance(model, PooledValueModel):
            self._pooled = model
            self._mixture = check_mixture(mixture)
            self._init_mixture(belief)
            return
        opp = 1 - self.seat
        dealt = goals(hand.config)
        cards = [(k, float(p)) for k, p in enumerate(belief[opp]) if p > 1e-6 and k in dealt]
        total = sum(p for _, p in cards)
        self._cards = [(k, p / total) for k, p in cards]
        self._probs = np.array([p for _, p in self._cards])

    def _init_mixture(self, belief: Sequence[np.ndarray]) -> None:
        """Per opponent, one personality per goal with its merged probability (n > 2)."""
        dealt = goals(self.config)
        table = goal_table(self.config)
        self._opponents = [q for q in range(self.hand.n) if q != self.seat]
        # per opponent: [(needs, class index, probability)] and the expected class one-hot
        self._options: list[list[tuple[tuple, int, float]]] = []
        self._onehots: list[list[float]] = []
        personas: list[list[int]] = []
        probs = []
        for q in self._opponents:
            merged: dict[tuple, list] = {}
            for k, p in enumerate(belief[q]):
                if p > 1e-6 and k in dealt:
                    key = (dealt[k].needs, goal_class(dealt[k].id))
                    merged.setdefault(key, [k, 0.0])[1] += float(p)
            kept = [(k, p) for k, p in merged.values() if p >= MIN_PROB] or [
                max(merged.values(), key=lambda kp: kp[1])
            ]
            total = sum(p for _, p in kept)
            options = [(*table[k], p / total) for k, p in kept]
            self._options.append(options)
            onehot = [0.0] * len(CLASSES)
            for _, cls, p in options:
                if cls >= 0:
                    onehot[cls] += p
            self._onehots.append(onehot)
            personas.append([k for k, _ in kept])
            probs.append(np.array([p for *_, p in options]))
        self._personas = personas
        # "deals": every combination of the options, its weight and each seat's row in the
        # table that _pooled_probability builds (own row first, then each opponent's options)
        n = self.hand.n
        grid = np.indices([len(o) for o in personas]).reshape(len(personas), -1)
        self._weights = np.prod([pr[i] for pr, i in zip(probs, grid, strict=True)], axis=0)
        self._rows = np.zeros((grid.shape[1], n), dtype=np.intp)
        start = 1
        for q, options, idx in zip(self._opponents, personas, grid, strict=True):
            self._rows[:, q] = start + idx
            start += len(options)

    def win_probability(self, m: Metrics, active: int) -> float:
        """The seat's win probability, averaged over the opponents' personalities."""
        if self.hand.n > 2:
            return self._pooled_probability(m, active)
        me, opp, cfg = self.seat, 1 - self.seat, self.config
        f_me = seat_features(m, cfg, me, self.own, active == me)
        sh = shared_features(m, 2)
        rows = [f_me + seat_features(m, cfg, opp, k, active == opp) + sh for k, _ in self._cards]
        p = 0.5 * (1.0 + np.tanh(0.5 * self.model.logits(np.array(rows))))
        return float(self._probs @ p)

    def _pooled_probability(self, m: Metrics, active: int) -> float:
        cfg, me, n = self.config, self.seat, self.hand.n
        own = pooled_seat_features(m, cfg, me, self.own, active)
        sh = np.array(shared_features(m, n))
        tails = {
            q: [*board_features(m, q), float(q == active), ((q - active) % n) / (n - 1)]
            for q in self._opponents
        }
        if self._mixture == "deals":
            rows = [own]
            for q, options in zip(self._opponents, self._personas, strict=True):
                rows += [goal_features(m, cfg, q, k) + tails[q] for k in options]
            f = np.array(rows)[self._rows]  # (combinations, n, F)
            return float(self._weights @ self._pooled.probabilities(f, sh)[:, me])
        seats = [own] * n
        for q, options, onehot in zip(self._opponents, self._options, self._onehots, strict=True):
            # the expectation of goal_features(m, cfg, q, k) over the options k
            x_mean = met_mean = 0.0
            by_class = [0.0] * (len(CLASSES) - 1)
            for needs, cls, p in options:
                if needs:
                    x, met = needs_progress(needs, m, q)
                    x_mean += p * x
                    met_mean += p * met
                    if 0 <= cls < len(by_class):
                        by_class[cls] += p * x
            seats[q] = [x_mean, met_mean, *onehot, *by_class, *tails[q]]
        return float(self._pooled.probabilities(np.array(seats), sh)[me])

    def sturdiness(self, g: Game) -> float:
        """The ``robust`` and ``durable`` terms of the seat's own goal in ``g``."""
        out = 0.0
        if self.robust:
            hits = break_cost(g, self.seat, self._own_needs)
            if hits > 1:
                out += self.robust * (min(hits, MAX_HITS) - 1)
        if self.durable:
            out += self.durable * durable_share(g, self.seat, self._own_needs)
        return out

    def value(self, g: Game) -> float:
        values = self._values
        if values is None:
            return self._value(g)
        key = (board_key(g), g.active)
        v = values.get(key)
        if v is None:
            if len(values) >= MAX_CACHED_VALUES:
                values.clear()
            v = values[key] = self._value(g)
        return v

    def _value(self, g: Game) -> float:
        m = metrics(g)
        if g.is_terminal:
            learned = TERMINAL if self.seat in g.outcome.winners else -TERMINAL
        else:
            learned = TERMINAL * (2.0 * self.win_probability(m, g.active) - 1.0)
            if self.robust or self.durable:
                learned += self.sturdiness(g)
        if self.learned >= 1.0:
            return learned
        return (1.0 - self.learned) * self.hand.value_from_metrics(m) + self.learned * learned
