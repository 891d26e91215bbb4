"""How a table plays, read from public board changes between consecutive turn starts: how hard
it blocks (the control the seats not moving lose in a turn) and how widely the others spread
(the areas a seat other than the bot newly occupies in its turn).

Against players who attack whoever is nearest to a goal (HeuristicBot's threat term), a goal of
controlled areas held by single pieces rarely survives, and sturdiness is worth its cost;
against players who race, it is not (docs/experiments.md, 2026-11-29). Measured with the hint
bot in one seat (``python -m lab.blocking_rates``, 16 games a table): areas of control lost by
the seats not moving, per turn, 0.22 against three random bots, 0.27 against three `ppo`, 0.30
against three hint bots and 0.49 against three HeuristicBots (per-game spread about 0.07). That
rate tells the tables apart only from the middle game on, since little is controlled before;
the others' spread does so from the first round: areas newly occupied per turn of another
seat, over the game's first 12 turns, 0.17 against hint bots, 0.26 against `ppo`, 0.35 against
random bots and 0.66 against HeuristicBots (per-game spread 0.12-0.21; :class:`SpreadRate`'s
constants were set from an earlier 12-game probe on other deals: 0.07, 0.20, 0.34, 0.64).
"""

from __future__ import annotations

from typing import Any


class TableRate:
    """A running rate of one public change per counted turn, shrunk towards a prior, and its
    scale: 0 at or below ``low``, 1 at or above ``high``, linear between. Fed the role
    tracker's turn-start snapshots (:class:`~agents.roles.Snapshot`: ``turn``, ``active`` and
    ``metrics``); a turn counts when both its start and the next turn's start were seen."""

    prior_rate: float
    prior_turns: float
    low: float
    high: float

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.total = 0.0
        self.turns = 0
        self.prev: Any = None

    def counts(self, mover: int) -> bool:
        """Whether the turn of ``mover`` is counted."""
        return True

    def change(self, before: Any, after: Any, mover: int) -> float:
        """What the turn of ``mover`` changed, from the metrics at its start to the next."""
        raise NotImplementedError

    def update(self, snap: Any) -> None:
        prev = self.prev
        if snap is None or (prev is not None and snap.turn == prev.turn):
            return
        if prev is not None and snap.turn == prev.turn + 1 and self.counts(prev.active):
            self.total += self.change(prev.metrics, snap.metrics, prev.active)
            self.turns += 1
        self.prev = snap

    def rate(self) -> float:
        """The change per counted turn, shrunk towards ``prior_rate`` by ``prior_turns``."""
        return (self.total + self.prior_rate * self.prior_turns) / (self.turns + self.prior_turns)

    def scale(self) -> float:
        return min(1.0, max(0.0, (self.rate() - self.low) / (self.high - self.low)))


class BlockingRate(TableRate):
    """Control lost by the seats not moving, per turn: scale 0 at a table of hint bots' rate
    (which is also the prior), 1 at 0.45."""

    prior_rate = 0.30
    prior_turns = 8.0
    low, high = 0.30, 0.45

    def change(self, before: Any, after: Any, mover: int) -> float:
        b, a = before.controlled, after.controlled
        return sum(max(0, b[r] - a[r]) for r in range(len(b)) if r != mover)


class SpreadRate(TableRate):
    """Areas newly occupied by the moving seat, the bot's own turns not counted: scale 0 at
    0.30 (random bots and below), 1 at 0.55 (HeuristicBots); the prior, 0.42 for 3 turns, sits
    between."""

    prior_rate = 0.42
    prior_turns = 3.0
    low, high = 0.30, 0.55

    def counts(self, mover: int) -> bool:
        return mover != self.seat

    def change(self, before: Any, after: Any, mover: int) -> float:
        return max(0, after.occupied[mover] - before.occupied[mover])
