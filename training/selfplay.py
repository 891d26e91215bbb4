"""The self-play opponent pool: scripted bots plus frozen snapshots of the learner.

The pool is picklable (snapshot *paths*, not models), so worker processes receive it whole and
load each snapshot (a nanty-policy checkpoint) once, lazily.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from nanty_env.single import RandomOpponent

SNAPSHOTS = "snapshots"


class OpponentPool:
    """Draw the opponents of each episode, by weight, from bot specs (``random``,
    ``heuristic:depth=0``, ...) and ``snapshots`` (only once one exists): with probability
    ``whole_table`` one kind for every opponent seat (a table of three RandomBots, say, as in an
    evaluation), otherwise one kind per seat."""

    def __init__(
        self,
        num_opponents: int,
        weights: dict[str, float],
        snapshots: Sequence[str] = (),
        whole_table: float = 0.0,
    ) -> None:
        self.num_opponents = num_opponents
        self.weights = {k: float(w) for k, w in weights.items()}
        self.snapshots = list(snapshots)
        self.whole_table = float(whole_table)
        self._cache: dict[str, Any] = {}

    def with_snapshots(self, snapshots: Sequence[str]) -> OpponentPool:
        return OpponentPool(self.num_opponents, self.weights, snapshots, self.whole_table)

    def __getstate__(self) -> dict[str, Any]:
        return {
            "num_opponents": self.num_opponents,
            "weights": self.weights,
            "snapshots": self.snapshots,
            "whole_table": self.whole_table,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(
            state["num_opponents"],
            state["weights"],
            state["snapshots"],
            state.get("whole_table", 0.0),
        )

    def kinds(self) -> tuple[list[str], np.ndarray]:
        kinds = [k for k, w in self.weights.items() if w > 0 and (k != SNAPSHOTS or self.snapshots)]
        if not kinds:
            kinds = ["random"]
        w = np.array([self.weights.get(k, 0.0) or 1.0 for k in kinds])
        return kinds, w / w.sum()

    def __call__(self, rng: np.random.Generator) -> list[Any]:
        kinds, p = self.kinds()

        def draw() -> str:
            return kinds[int(rng.choice(len(kinds), p=p))]

        if self.whole_table > 0 and rng.random() < self.whole_table:
            kind = draw()
            return [self._make(kind, rng) for _ in range(self.num_opponents)]
        return [self._make(draw(), rng) for _ in range(self.num_opponents)]

    def _make(self, kind: str, rng: np.random.Generator) -> Any:
        if kind == "random":
            return RandomOpponent()  # needs no view: faster than agents.RandomBot
        if kind != SNAPSHOTS:
            from agents.registry import make_bot

            return make_bot(kind)
        from agents.policy import PolicyBot, load_for_env

        path = self.snapshots[int(rng.integers(len(self.snapshots)))]
        if path not in self._cache:  # a nanty-policy checkpoint: read with numpy, no pickle
            self._cache[path] = load_for_env(path)
        return PolicyBot(policy=self._cache[path])
