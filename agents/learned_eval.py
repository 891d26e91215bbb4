"""The hand-weighted evaluation blended with the learned win probability, for a seat that does
not know its opponent's personality (the scripted look-ahead and the search's root prior).

``value = (1 - learned) * hand + learned * TERMINAL * (2 P - 1)`` where ``hand`` is
:meth:`~agents.evaluation.Evaluator.value` and ``P`` the seat's win probability
(:mod:`agents.value_model`) averaged over the opponent's personality under the seat's belief.
It has the interface :class:`~agents.heuristic.TurnPlanner` uses (``seat``, ``w``, ``value``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agents.evaluation import MAX_CACHED_VALUES, Evaluator, Metrics, board_key, goals, metrics
from agents.value_model import ValueModel, seat_features, shared_features
from nanty_env.engine.game import Game

TERMINAL = 3.0  # a certain win (as in agents.ismcts)


class LearnedEvaluator:
    """See the module docstring. Values are cached by board and mover when ``cache_values``.

    Args:
        hand: the hand-weighted evaluator of the seat (its belief about the opponent is used
            for the learned term as well).
        model: the learned 2-player model.
        belief: ``belief[q]``: probabilities of seat ``q``'s personality.
        own: the seat's personality.
        learned: weight of the learned term in [0, 1].
    """

    def __init__(
        self,
        hand: Evaluator,
        model: ValueModel,
        belief: Sequence[np.ndarray],
        own: int,
        learned: float,
        cache_values: bool = False,
    ) -> None:
        if hand.n != 2:
            raise ValueError("the learned value is for 2-player games")
        self.hand = hand
        self.model = model
        self.seat = hand.seat
        self.w = hand.w
        self.config = hand.config
        self.own = own
        self.learned = float(learned)
        opp = 1 - self.seat
        dealt = goals(hand.config)
        cards = [(k, float(p)) for k, p in enumerate(belief[opp]) if p > 1e-6 and k in dealt]
        total = sum(p for _, p in cards)
        self._cards = [(k, p / total) for k, p in cards]
        self._probs = np.array([p for _, p in self._cards])
        self._values: dict[tuple, float] | None = {} if cache_values else None

    def win_probability(self, m: Metrics, active: int) -> float:
        """The seat's win probability, averaged over the opponent's personality."""
        me, opp, cfg = self.seat, 1 - self.seat, self.config
        f_me = seat_features(m, cfg, me, self.own, active == me)
        sh = shared_features(m, 2)
        rows = [f_me + seat_features(m, cfg, opp, k, active == opp) + sh for k, _ in self._cards]
        p = 0.5 * (1.0 + np.tanh(0.5 * self.model.logits(np.array(rows))))
        return float(self._probs @ p)

    def value(self, g: Game) -> float:
        values = self._values
        if values is None:
            return self._value(g)
        key = (*board_key(g), g.active)
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
        if self.learned >= 1.0:
            return learned
        return (1.0 - self.learned) * self.hand.value_from_metrics(m) + self.learned * learned
