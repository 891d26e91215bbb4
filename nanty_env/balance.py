"""Whether a split batch's worker should play its games, or the caller all of them: measured.

A synchronous split (``nanty_env.split_batch``) pays for every step with the hand-over to its
worker (waking it, then being woken by its answer) and waits for the slower half. Whether that
beats playing every game in the calling process depends on the batch size, on the machine and
on what else runs on it: with two free cores a split of 64 games or more is about 1.5x faster,
with 16 games it gains little, and beside one busy process it loses (0.7-0.9x). So
:class:`SplitBalancer` measures both while the games play and keeps the faster:

* **split mode**: the worker plays its share (half the games);
* **local mode**: the worker holds no games and sleeps; a step costs what one process pays.

Steps are counted in windows of about ``WINDOW_GAME_STEPS`` game-steps (about 0.2 s). After
each window the balancer records the mean step time of the window's mode (averaged with the
previous window's when it was the same mode; the first window of all, with cold caches, does
not count) and answers the worker's share for the next window: the mode measured faster (split
must win by ``margin``: local mode is the safe one), except that the other mode is measured
again after ``probe_every`` windows when the two were within ``PROBE_TOLERANCE`` of each other
when last measured, and after ``4 * probe_every`` windows otherwise. So a machine that gets
busier or quieter is followed within a few seconds, and a probe of the slower mode costs at most
one window in ``probe_every + 1``. Pure bookkeeping: no processes, no clocks (the caller passes
the timings), so it is tested on made-up timings.
"""

from __future__ import annotations

from dataclasses import dataclass, field

WINDOW_GAME_STEPS = 4096  # game-steps per measuring window
MIN_WINDOW = 16  # steps per window, at least
PROBE_TOLERANCE = 0.15  # modes further apart than this are probed four times less often


@dataclass
class SplitBalancer:
    """Chooses, window by window, between the worker playing ``max_worker`` of the ``total``
    games and playing none (see the module docstring)."""

    total: int
    max_worker: int
    probe_every: int = 8
    margin: float = 0.03  # split mode must be this much faster than local mode to be kept
    window_steps: int = 0  # 0: from WINDOW_GAME_STEPS
    worker_games: int = -1  # the current share (-1: max_worker)
    measured: dict[str, float] = field(default_factory=dict)  # mode -> s per step
    age: dict[str, int] = field(default_factory=dict)  # mode -> windows since measured
    _steps: int = 0
    _seconds: float = 0.0
    _warm: bool = False

    def __post_init__(self) -> None:
        if self.worker_games < 0:
            self.worker_games = self.max_worker
        if self.window_steps <= 0:
            self.window_steps = max(MIN_WINDOW, WINDOW_GAME_STEPS // max(self.total, 1))

    @property
    def mode(self) -> str:
        return "split" if self.worker_games > 0 else "local"

    def record(self, step_seconds: float) -> int | None:
        """One whole step's wall time. At the end of a window, the worker's new share if it
        changes (else None)."""
        self._steps += 1
        self._seconds += step_seconds
        if self._steps < self.window_steps:
            return None
        mean = self._seconds / self._steps
        self._steps, self._seconds = 0, 0.0
        if not self._warm:
            self._warm = True
            return None
        return self._end_window(mean)

    def _end_window(self, step_seconds: float) -> int | None:
        mode = self.mode
        if self.age.get(mode) == 0:  # a run of windows in one mode: smooth them
            step_seconds = (self.measured[mode] + step_seconds) / 2
        self.measured[mode] = step_seconds
        for m in self.age:
            self.age[m] += 1
        self.age[mode] = 0
        other = "local" if mode == "split" else "split"
        if other not in self.measured or self._probe_due(other):
            next_mode = other
        else:
            split_wins = self.measured["split"] < self.measured["local"] * (1 - self.margin)
            next_mode = "split" if split_wins else "local"
        share = self.max_worker if next_mode == "split" else 0
        if share == self.worker_games:
            return None
        self.worker_games = share
        return share

    def _probe_due(self, other: str) -> bool:
        near = self.measured[other] < self.measured[self.mode] * (1 + PROBE_TOLERANCE)
        return self.age[other] >= (self.probe_every if near else 4 * self.probe_every)
