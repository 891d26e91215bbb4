"""The self-play opponent pool: scripted bots plus frozen snapshots of the learner.

The pool is picklable (snapshot *paths*, not models), so worker processes receive it whole and
load each snapshot (a nanty-policy checkpoint) once, lazily.

A drawn table is a list of bots that also carries each seat's pool member name
(:class:`Table`), so the environment can report whom the learner played
(``info["opponents"]``) and a league (``training/league.py``) can keep score per member.
With ``priorities`` (one factor per member name, from prioritised fictitious self-play), each
snapshot is a member of its own and every member's weight is multiplied by its factor.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from nanty_env.faces.single import RandomOpponent

SNAPSHOTS = "snapshots"
SNAPSHOT_PREFIX = "snapshot:"


def snapshot_name(path: str) -> str:
    """A snapshot's member name: ``snapshot:step_N`` for ``.../snapshots/step_N``."""
    return SNAPSHOT_PREFIX + Path(path).name


class Table(list):
    """The opponents of one episode (one bot per other seat) and their member names."""

    names: list[str]


class OpponentPool:
    """Draw the opponents of each episode, by weight, from bot specs (``random``,
    ``heuristic:depth=0``, ...) and ``snapshots`` (only once one exists): with probability
    ``whole_table`` one kind for every opponent seat (a table of three RandomBots, say, as in an
    evaluation), otherwise one kind per seat.

    Without ``priorities`` a draw picks a kind (a snapshot among the snapshots uniformly); with
    them it picks a member (each snapshot on its own, sharing the weight of ``snapshots``),
    weighted by ``weight x priority``."""

    def __init__(
        self,
        num_opponents: int,
        weights: dict[str, float],
        snapshots: Sequence[str] = (),
        whole_table: float = 0.0,
        priorities: Mapping[str, float] | None = None,
    ) -> None:
        self.num_opponents = num_opponents
        self.weights = {k: float(w) for k, w in weights.items()}
        self.snapshots = list(snapshots)
        self.whole_table = float(whole_table)
        self.priorities = None if priorities is None else dict(priorities)
        self._cache: dict[str, Any] = {}

    def with_snapshots(self, snapshots: Sequence[str]) -> OpponentPool:
        return OpponentPool(
            self.num_opponents, self.weights, snapshots, self.whole_table, self.priorities
        )

    def with_priorities(self, priorities: Mapping[str, float]) -> OpponentPool:
        return OpponentPool(
            self.num_opponents, self.weights, self.snapshots, self.whole_table, priorities
        )

    def __getstate__(self) -> dict[str, Any]:
        return {
            "num_opponents": self.num_opponents,
            "weights": self.weights,
            "snapshots": self.snapshots,
            "whole_table": self.whole_table,
            "priorities": self.priorities,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(
            state["num_opponents"],
            state["weights"],
            state["snapshots"],
            state.get("whole_table", 0.0),
            state.get("priorities"),
        )

    def kinds(self) -> tuple[list[str], np.ndarray]:
        """The kinds drawn from (``snapshots`` standing for all of them) and their
        probabilities, priorities left out."""
        kinds = [k for k, w in self.weights.items() if w > 0 and (k != SNAPSHOTS or self.snapshots)]
        if not kinds:
            kinds = ["random"]
        w = np.array([self.weights.get(k, 0.0) or 1.0 for k in kinds])
        return kinds, w / w.sum()

    def members(self) -> dict[str, float]:
        """Every member (bot specs and each snapshot by name) and its base weight: a snapshot
        gets an equal share of the weight of ``snapshots``."""
        kinds, p = self.kinds()
        out: dict[str, float] = {}
        for kind, share in zip(kinds, p, strict=True):
            if kind == SNAPSHOTS:
                for path in self.snapshots:
                    out[snapshot_name(path)] = float(share) / len(self.snapshots)
            else:
                out[kind] = float(share)
        return out

    def distribution(self) -> tuple[list[str], np.ndarray]:
        """The members drawn from and their probabilities (priorities applied)."""
        members = self.members()
        names = list(members)
        prio = self.priorities or {}
        w = np.array([members[n] * prio.get(n, 1.0) for n in names])
        if not w.sum() > 0:
            w = np.array([members[n] for n in names])
        return names, w / w.sum()

    def __call__(self, rng: np.random.Generator) -> Table:
        if self.priorities is None:
            names, p = self.kinds()
        else:
            names, p = self.distribution()

        def draw() -> str:
            return names[int(rng.choice(len(names), p=p))]

        whole = self.whole_table > 0 and rng.random() < self.whole_table
        kind = draw() if whole else ""
        table = Table()
        table.names = []
        for _ in range(self.num_opponents):  # a seat's draw, then its bot (the rng's order)
            name, bot = self._make(kind if whole else draw(), rng)
            table.append(bot)
            table.names.append(name)
        return table

    def _make(self, kind: str, rng: np.random.Generator) -> tuple[str, Any]:
        if kind == "random":
            return kind, RandomOpponent()  # needs no view: faster than agents.RandomBot
        if kind == SNAPSHOTS:
            path = self.snapshots[int(rng.integers(len(self.snapshots)))]
        elif kind.startswith(SNAPSHOT_PREFIX):
            path = next(p for p in self.snapshots if snapshot_name(p) == kind)
        else:
            from agents.registry import make_bot

            return kind, make_bot(kind)
        from agents.policy import PolicyBot, load_for_env

        if path not in self._cache:  # a nanty-policy checkpoint: read with numpy, no pickle
            self._cache[path] = load_for_env(path)
        return snapshot_name(path), PolicyBot(policy=self._cache[path])
