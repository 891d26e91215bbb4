"""How hard a table blocks: the control the other seats lose during each turn, from public board
changes between consecutive turn starts.

Against players who attack whoever is nearest to a goal (HeuristicBot's threat term), a goal of
controlled areas held by single pieces rarely survives, and sturdiness is worth its cost;
against players who race, it is not (docs/experiments.md, 2026-11-29). Measured with the hint
bot in one seat (``python -m lab.blocking_rates``, 16 games a table): areas of control lost by
the seats not moving, per turn, 0.22 against three random bots, 0.27 against three `ppo`, 0.30
against three hint bots and 0.49 against three HeuristicBots (per-game spread about 0.07).
"""

from __future__ import annotations

from typing import Any

PRIOR_RATE = 0.30  # the rate before any turn is seen: a table of hint bots
PRIOR_TURNS = 8.0  # how many turns the prior counts for
RACING, BLOCKING = 0.30, 0.45  # rates whose scale is 0 and 1


class BlockingRate:
    """The running rate, fed the role tracker's turn-start snapshots
    (:class:`~agents.roles.Snapshot`: ``turn``, ``active`` and ``metrics.controlled``)."""

    def __init__(self) -> None:
        self.lost = 0.0
        self.turns = 0
        self.prev: Any = None

    def update(self, snap: Any) -> None:
        prev = self.prev
        if snap is None or (prev is not None and snap.turn == prev.turn):
            return
        if prev is not None and snap.turn == prev.turn + 1:
            before, after = prev.metrics.controlled, snap.metrics.controlled
            self.lost += sum(
                max(0, before[r] - after[r]) for r in range(len(before)) if r != prev.active
            )
            self.turns += 1
        self.prev = snap

    def rate(self) -> float:
        """Control lost by the seats not moving, per turn, shrunk towards :data:`PRIOR_RATE`."""
        return (self.lost + PRIOR_RATE * PRIOR_TURNS) / (self.turns + PRIOR_TURNS)

    def scale(self) -> float:
        """0 at a racing table (rate <= :data:`RACING`), 1 at a blocking one (>=
        :data:`BLOCKING`), linear between."""
        return min(1.0, max(0.0, (self.rate() - RACING) / (BLOCKING - RACING)))
