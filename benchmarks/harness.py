"""The timing every benchmark script shares: interleaved rounds, medians with min-max, paired
ratios, the load average and what was measured (commit, machine).

The machine is shared and its speed drifts by a third from minute to minute, so a benchmark
never times A for a while and then B. It names its cases (each a callable that makes one timed
measurement and returns a rate, e.g. steps per second) and :func:`interleave` runs every case
once per round, rotating the order from round to round so that no case always goes first or
last. A ratio is taken within each round (A and B measured minutes apart at most) and
summarised, like every rate, by its median and its range over the rounds. The 1-minute load
average is recorded before every round and printed with the results: a ratio measured on a
loaded machine says so. Where a case runs in this process alone, it also reports its rate per
second of this process's CPU time (:class:`Measured`), which other users of the machine
disturb far less than the wall clock (a second thread's time counts too: it is work done).

Scripts run as ``python benchmarks/NAME.py`` import this module as ``harness``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing as mp
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

MIN_ROUNDS = 5


@dataclass(frozen=True)
class Summary:
    """A median with the smallest and largest value it was taken over."""

    values: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.values)

    @property
    def low(self) -> float:
        return min(self.values)

    @property
    def high(self) -> float:
        return max(self.values)

    def format(self, digits: int = 0) -> str:
        """``median (min-max)`` with thousands separators and ``digits`` decimals."""
        f = f"{{:,.{digits}f}}"
        return f"{f.format(self.median)} ({f.format(self.low)}-{f.format(self.high)})"


class Measured(NamedTuple):
    """One measurement by the wall clock and by this process's CPU time (a rate per second of
    each, or a time per call of each)."""

    wall: float
    cpu: float


@dataclass
class Rounds:
    """Every case's measurements (wall clock; CPU time where the case reported it), in round
    order, and the load average before each round."""

    values: dict[str, list[float]]
    cpu: dict[str, list[float]] = field(default_factory=dict)
    loads: list[float] = field(default_factory=list)

    def _series(self, name: str, cpu: bool) -> list[float]:
        return self.cpu[name] if cpu else self.values[name]

    def has_cpu(self, name: str) -> bool:
        return name in self.cpu

    def summary(self, name: str, cpu: bool = False) -> Summary:
        return Summary(tuple(self._series(name, cpu)))

    def ratio(self, a: str, b: str, cpu: bool = False) -> Summary:
        """``a / b`` within each round (the two measured in the same round), summarised."""
        pairs = zip(self._series(a, cpu), self._series(b, cpu), strict=True)
        return Summary(tuple(x / y for x, y in pairs))

    def load_summary(self) -> Summary:
        return Summary(tuple(self.loads))


def interleave(
    cases: Mapping[str, Callable[[], float | Measured]],
    rounds: int,
    *,
    warmup: bool = True,
    progress: bool = True,
) -> Rounds:
    """Run every case once per round for ``rounds`` rounds, the order rotated by one each round
    (round ``r`` starts with case ``r mod n``). With ``warmup``, each case runs once first,
    untimed in the results (imports, caches, first allocations)."""
    names = list(cases)
    if warmup:
        for name in names:
            cases[name]()
    out = Rounds({name: [] for name in names})
    for r in range(rounds):
        out.loads.append(load_average()[0])
        order = names[r % len(names) :] + names[: r % len(names)]
        for name in order:
            result = cases[name]()
            if isinstance(result, Measured):
                out.values[name].append(result.wall)
                out.cpu.setdefault(name, []).append(result.cpu)
            else:
                out.values[name].append(float(result))
        if progress:
            print(f"  round {r + 1}/{rounds} done (load {load_average()[0]:.2f})", file=sys.stderr)
    return out


def rate(work: Callable[[], int], seconds: float) -> Measured:
    """Units per second of wall and of CPU time: ``work()`` (which returns the units it did,
    e.g. the decisions of one game) is called until ``seconds`` of wall time have passed."""
    units = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    while True:
        units += work()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return Measured(units / elapsed, units / (time.process_time() - cpu_start))


def timed(run: Callable[[], int]) -> Measured:
    """Units per second of wall and CPU time of one call of ``run()`` (returning its units)."""
    start, cpu_start = time.perf_counter(), time.process_time()
    units = run()
    return Measured(
        units / (time.perf_counter() - start), units / (time.process_time() - cpu_start)
    )


def per_call_seconds(call: Callable[[], object], number: int) -> Measured:
    """Mean wall and CPU time of ``call()`` over ``number`` calls."""
    start, cpu_start = time.perf_counter(), time.process_time()
    for _ in range(number):
        call()
    return Measured(
        (time.perf_counter() - start) / number, (time.process_time() - cpu_start) / number
    )


def load_average() -> tuple[float, float, float]:
    """The 1, 5 and 15-minute load averages (zeros where the OS has none)."""
    try:
        return os.getloadavg()
    except OSError:
        return (0.0, 0.0, 0.0)


def commit() -> str:
    """The checked-out commit (``-dirty`` with uncommitted changes), or ``unknown``."""
    try:
        return subprocess.run(
            ["git", "describe", "--always", "--dirty", "--abbrev=10"],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).resolve().parent,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def add_arguments(parser: argparse.ArgumentParser, rounds: int = MIN_ROUNDS) -> None:
    """The options every benchmark takes: ``--rounds`` and ``--json``."""
    parser.add_argument(
        "--rounds", type=int, default=rounds, help=f"interleaved rounds (>= {MIN_ROUNDS} to quote)"
    )
    parser.add_argument("--json", type=Path, help="also write the raw measurements here")


def sched_autogroup() -> str:
    """Whether Linux shares the CPUs between sessions first (``on``/``off``; ``n/a`` elsewhere):
    it decides how much a busy process in another session slows a benchmark."""
    try:
        with open("/proc/sys/kernel/sched_autogroup_enabled") as f:
            return "on" if f.read().strip() == "1" else "off"
    except OSError:
        return "n/a"


def header(title: str, rounds: int) -> dict[str, object]:
    """Print what is measured, where and on what code; returns the same as a dict."""
    info: dict[str, object] = {
        "benchmark": title,
        "commit": commit(),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "rounds": rounds,
        "load_at_start": [round(x, 2) for x in load_average()],
        "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY", "(unset)"),
        "gomp_spincount": os.environ.get("GOMP_SPINCOUNT", "(unset)"),
        "sched_autogroup": sched_autogroup(),
        "date_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
    }
    print(
        f"{title}\ncommit {info['commit']}, Python {info['python']} on {info['machine']}, "
        f"{info['cpus']} CPUs, {info['date_utc']} UTC; load average at start "
        + " / ".join(f"{x:.2f}" for x in load_average())
        + f"; OMP_WAIT_POLICY {info['omp_wait_policy']}, GOMP_SPINCOUNT {info['gomp_spincount']}"
        + "; scheduler autogroup "
        + str(info["sched_autogroup"])
        + f"\n{rounds} interleaved rounds; median (min-max) over the rounds"
    )
    print(f"engine build: {engine_build()}")
    if rounds < MIN_ROUNDS:
        print(f"(fewer than {MIN_ROUNDS} rounds: a smoke run, not a measurement to quote)")
    return info


def engine_build() -> str:
    """Which build of the engine this process runs: "compiled (N modules)" or "pure Python"."""
    from nanty_env import _compiled

    return f"compiled ({len(_compiled.COMPILED)} modules)" if _compiled.COMPILED else "pure Python"


def _serve_cases(
    conn: object, factory: Callable[..., Mapping[str, Callable[[], Measured | float]]], args: tuple
) -> None:
    """The child of :class:`PureBuild`: build the cases, then run the one named on each request."""
    cases = factory(*args)
    while True:
        name = conn.recv()  # type: ignore[attr-defined]
        if name is None:
            return
        result = cases[name]()
        # a Measured as a plain tuple; a case that times only the wall clock, as its float
        conn.send(tuple(result) if isinstance(result, tuple) else float(result))  # type: ignore[attr-defined]


PURE = " (pure)"  # suffix of the cases that the pure-Python engine runs beside the compiled one


class PureBuild:
    """Cases that run in a child process on the pure-Python engine (``NANTY_PURE=1``), so that
    a benchmark run on the compiled build times the reference beside it in the same rounds.
    ``factory(*args)`` (a module-level function) builds the child's cases by name; each
    :meth:`case` is a callable for :func:`interleave` that asks the child to run one and
    returns its :class:`Measured` (its CPU time is the child's own)."""

    def __init__(
        self, factory: Callable[..., Mapping[str, Callable[[], Measured | float]]], *args: object
    ) -> None:
        ctx = mp.get_context("spawn")  # a fresh interpreter, which reads NANTY_PURE on import
        self._conn, child = ctx.Pipe()
        before = os.environ.get("NANTY_PURE")
        os.environ["NANTY_PURE"] = "1"
        try:
            self._proc = ctx.Process(target=_serve_cases, args=(child, factory, args), daemon=True)
            self._proc.start()
        finally:
            if before is None:
                del os.environ["NANTY_PURE"]
            else:
                os.environ["NANTY_PURE"] = before

    def case(self, name: str) -> Callable[[], Measured | float]:
        def run() -> Measured | float:
            self._conn.send(name)
            result = self._conn.recv()
            return Measured(*result) if isinstance(result, tuple) else result

        return run

    def close(self) -> None:
        self._conn.send(None)
        self._proc.join(10)


def interleave_beside_pure(
    cases: Mapping[str, Callable[[], float | Measured]],
    rounds: int,
    pure_names: Sequence[str],
    factory: Callable[..., Mapping[str, Callable[[], Measured | float]]],
    *args: object,
) -> Rounds:
    """:func:`interleave` of ``cases``; on the compiled build, with the cases ``pure_names`` of
    ``factory(*args)`` run beside them on the pure engine (a :class:`PureBuild`), named with
    the suffix :data:`PURE`. On the pure build, or with no ``pure_names``, just ``cases``."""
    if not pure_names or engine_build() == "pure Python":
        return interleave(cases, rounds)
    child = PureBuild(factory, *args)
    try:
        return interleave({**cases, **{n + PURE: child.case(n) for n in pure_names}}, rounds)
    finally:
        child.close()


def footer(rounds: Rounds) -> None:
    """Print the load average the rounds started at, and now."""
    loads = rounds.load_summary()
    now = " / ".join(f"{x:.2f}" for x in load_average())
    print(f"load average (1 min) before each round: {loads.format(2)}; at the end {now}")


def rate_columns(rounds: Rounds, name: str, peer: str | None, digits: int = 0) -> list[str]:
    """``name``'s wall-clock value, its ratio to ``peer``, and the same by CPU time (blank where
    there is no peer or no CPU time)."""
    cells = [rounds.summary(name).format(digits)]
    cells.append(rounds.ratio(name, peer).format(2) if peer else "")
    if rounds.has_cpu(name):
        cells.append(rounds.summary(name, cpu=True).format(digits))
        both = peer and rounds.has_cpu(peer)
        cells.append(rounds.ratio(name, peer, cpu=True).format(2) if both else "")
    else:
        cells += ["", ""]
    return cells


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain-text table: the first column left-aligned, the others right-aligned."""
    widths = [max(len(str(r[i])) for r in [headers, *rows]) for i in range(len(headers))]

    def line(cells: Sequence[str]) -> str:
        first = f"{cells[0]:<{widths[0]}}"
        rest = (f"{c:>{w}}" for c, w in zip(cells[1:], widths[1:], strict=True))
        return "  ".join([first, *rest])

    return "\n".join([line(headers), *(line(r) for r in rows)])


def write_json(path: Path | None, info: Mapping[str, object], **sections: Rounds) -> None:
    """Write the header and every section's raw values and loads to ``path`` (atomically)."""
    if path is None:
        return
    data = dict(info)
    for name, rounds in sections.items():
        data[name] = {"wall": rounds.values, "cpu": rounds.cpu, "loads": rounds.loads}
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2))
    tmp.replace(path)


def _spin(stop: mp.synchronize.Event) -> None:  # type: ignore[name-defined]
    # A session of its own, as a job started from another terminal has. Linux's scheduler
    # (with autogroup, the default on desktop kernels and on this machine) shares the CPUs
    # between sessions first: a spinner left in the benchmark's session would only compete
    # with the benchmark's own processes for the benchmark's share, and hardly slow it.
    with contextlib.suppress(OSError):
        os.setsid()
    x = 0
    while not stop.is_set():
        for _ in range(100_000):
            x += 1


@contextlib.contextmanager
def busy_process() -> Iterator[None]:
    """One other process keeping a core busy for the duration of the block: the loaded case
    (another engineer's job, a second training run) measured on purpose. It runs in a session
    of its own (see ``_spin``), so it competes for the CPUs as another user's job does."""
    ctx = mp.get_context("spawn")
    stop = ctx.Event()
    proc = ctx.Process(target=_spin, args=(stop,), daemon=True)
    proc.start()
    try:
        yield
    finally:
        stop.set()
        proc.join(5)
        if proc.is_alive():
            proc.terminate()
            proc.join()
