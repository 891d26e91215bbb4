"""The skeleton of a role tracker: running public statistics of every player, fed with one
seat's successive views, that every ruleset's role features are built on.

Only the first view of each turn is used; a turn's changes (:meth:`TurnTracker.deltas`) are
attributed to its active player when consecutive turn starts were both seen (otherwise only
the board is updated). A ruleset says how a view is summed up (``snapshot``), what a turn
changed and each player's feature row (``row``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np


class TurnTracker:
    """Subclasses set ``num_features`` and ``scale`` and define the three hooks."""

    num_features: int
    scale: np.ndarray

    def __init__(self, num_players: int, deltas: int) -> None:
        self.n = num_players
        self.sums = np.zeros((num_players, deltas))
        self.turns = np.zeros(num_players)
        self.prev: Any = None

    def snapshot(self, view: Mapping[str, Any]) -> Any:
        """The view's public summary (with ``turn``, ``active`` and ``metrics``)."""
        raise NotImplementedError

    def deltas(self, a: Any, b: Any, q: int) -> Sequence[float]:
        """What seat ``q``'s turn changed, from the snapshot ``a`` at its start to ``b``."""
        raise NotImplementedError

    def row(self, q: int) -> Sequence[float]:
        """Seat ``q``'s feature row from the running sums and the last snapshot."""
        raise NotImplementedError

    def update(self, view: Mapping[str, Any]) -> None:
        if self.prev is not None and view["turn"] == self.prev.turn:
            return
        snap = self.snapshot(view)
        prev = self.prev
        if prev is not None and snap.turn == prev.turn + 1:
            q = prev.active
            self.turns[q] += 1
            self.sums[q] += self.deltas(prev, snap, q)
        self.prev = snap

    def features(self) -> np.ndarray:
        """``[num_players, num_features]`` feature matrix (scaled)."""
        x = np.zeros((self.n, self.num_features))
        if self.prev is None:
            x[:, 0] = 1.0
            return x / self.scale
        for q in range(self.n):
            x[q] = self.row(q)
        return x / self.scale
