"""Choosing between a parallel way of doing some repeated work and a serial one, by measuring
both while the work goes on, and keeping the faster.

Two uses:

* :class:`SplitBalancer`: whether a split batch's worker (``nanty_env.vector.split_batch``) should
  play its games, or the caller all of them. A synchronous split pays for every step with the
  hand-over to its worker (waking it, then being woken by its answer) and waits for the slower
  half. Whether that beats playing every game in the calling process depends on the batch size,
  on the machine and on what else runs on it: with two free cores a split of 64 games or more
  is about 1.5x faster, with 16 games it gains little, and beside one busy process it loses
  (0.7-0.9x). Its modes: **split** (the worker plays its share) and **local** (the worker holds
  no games and sleeps; a step costs what one process pays).
* ``training.masked_policy.UpdateThreads``: whether PPO's network updates run on several torch
  threads or one (several are faster on free cores, far slower when another job holds one).

:class:`FasterMode` is the bookkeeping both share. Work is counted in windows of
``window_steps`` steps. After each window it records the mean step time of the window's mode
(averaged with the previous window's when it was the same mode; the first window of all, with
cold caches, does not count) and answers the mode for the next window: the one measured faster
(the parallel one must win by ``margin``: the serial one is the safe one), except that the
other mode is measured again after ``probe_every`` windows when the two were within
``PROBE_TOLERANCE`` of each other when last measured, and after ``4 * probe_every`` windows
otherwise. So a machine that gets busier or quieter is followed within a few windows, and a
probe of the slower mode costs at most one window in ``probe_every + 1``. Pure bookkeeping: no
processes, no clocks (the caller passes the timings), so it is tested on made-up timings.
"""

from __future__ import annotations

WINDOW_GAME_STEPS = 4096  # game-steps per measuring window of a split batch
MIN_WINDOW = 16  # steps per window of a split batch, at least
PROBE_TOLERANCE = 0.15  # modes further apart than this are probed four times less often


class FasterMode:
    """Chooses, window by window, between the ``parallel`` and the ``serial`` mode (see the
    module docstring); starts in the parallel one."""

    def __init__(
        self,
        parallel: str,
        serial: str,
        window_steps: int = 1,
        probe_every: int = 8,
        margin: float = 0.03,
    ) -> None:
        if window_steps < 1 or probe_every < 1:
            raise ValueError("window_steps and probe_every must be at least 1")
        self.parallel, self.serial = parallel, serial
        self.window_steps = window_steps
        self.probe_every = probe_every
        self.margin = margin  # the parallel mode must be this much faster to be kept
        self.mode = parallel
        self.measured: dict[str, float] = {}  # mode -> seconds per step
        self.age: dict[str, int] = {}  # mode -> windows since measured
        self._steps = 0
        self._seconds = 0.0
        self._warm = False

    def record(self, step_seconds: float) -> str | None:
        """One step's wall time. At the end of a window, the next window's mode if it
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

    def _end_window(self, step_seconds: float) -> str | None:
        mode = self.mode
        if self.age.get(mode) == 0:  # a run of windows in one mode: smooth them
            step_seconds = (self.measured[mode] + step_seconds) / 2
        self.measured[mode] = step_seconds
        for m in self.age:
            self.age[m] += 1
        self.age[mode] = 0
        other = self.serial if mode == self.parallel else self.parallel
        if other not in self.measured or self._probe_due(other):
            next_mode = other
        else:
            measured = self.measured
            parallel_wins = measured[self.parallel] < measured[self.serial] * (1 - self.margin)
            next_mode = self.parallel if parallel_wins else self.serial
        if next_mode == mode:
            return None
        self.mode = next_mode
        return next_mode

    def _probe_due(self, other: str) -> bool:
        near = self.measured[other] < self.measured[self.mode] * (1 + PROBE_TOLERANCE)
        return self.age[other] >= (self.probe_every if near else 4 * self.probe_every)


class SplitBalancer(FasterMode):
    """Chooses, window by window, between the worker playing ``max_worker`` of the ``total``
    games (mode ``"split"``) and playing none (``"local"``); see the module docstring.
    ``window_steps`` 0: about ``WINDOW_GAME_STEPS`` game-steps a window."""

    def __init__(
        self,
        total: int,
        max_worker: int,
        probe_every: int = 8,
        margin: float = 0.03,
        window_steps: int = 0,
    ) -> None:
        if window_steps <= 0:
            window_steps = max(MIN_WINDOW, WINDOW_GAME_STEPS // max(total, 1))
        super().__init__("split", "local", window_steps, probe_every, margin)
        self.total = total
        self.max_worker = max_worker

    @property
    def worker_games(self) -> int:
        """The worker's current share."""
        return self.max_worker if self.mode == "split" else 0

    def record(self, step_seconds: float) -> int | None:  # type: ignore[override]
        """One whole step's wall time. At the end of a window, the worker's new share if it
        changes (else None)."""
        mode = super().record(step_seconds)
        return None if mode is None else self.worker_games
