"""Environment throughput beside PettingZoo's classic games, in the same run.

AEC: the standard loop (``last()``, so an observation and a mask every step, then a uniformly
random legal action by the same code for every game: ``random.Random.choice`` on the mask's
nonzero indices) on nanty_narking_v0 (2-4 players) and PettingZoo's connect_four_v3 and
texas_holdem_v4, each both unwrapped (``raw_env``) and as ``env()`` builds it (with its
wrappers); every ratio compares the same level (raw with raw, ``env()`` with ``env()``).

Vector: the single-learner env (4 players, random opponents) stepped by a random learner for
16, 64 and 128 games: in one process, split over two processes (``SubprocNantyVecEnv``, the SB3
``VecEnv``; with a fixed half on the worker, and balanced: games moved between the processes as
measured fastest, ``nanty_env.vector.balance``), asynchronously (``AsyncNantyVecEnv``) over two
workers, and over one worker with a quarter of the games played by the caller itself
(``caller_games``; also balanced: the worker's chunks moved to the caller while that is
measured faster), and, as the ceiling two cores give, two unsynchronised processes with half
the games each. ``--loaded`` repeats it with
one other process keeping a core busy (a second user of the machine).

Bound (``--bound``, only this section): why the synchronous split (the caller steps its half of
the games while one worker process steps the other, handing over by a pipe byte and shared
memory, with blocking waits) stops short of twice one process. It measures the pipe round trip
between two processes with blocking waits (an empty echo, and one where the worker busy-works
for about one half-batch step before answering: the round trip minus that work is the
hand-over a step pays), the time of one ``GameBatch.step_into`` for all N games and for half of
them, the expected slower of two independent half-steps (a synchronous step waits for it), and
from these the ceiling of the split: mean(N step) / (E[max of two halves] + hand-over).

Every case runs once per round, rounds interleaved (``benchmarks/harness.py``).

    python benchmarks/env.py [--seconds 3] [--rounds 5] [--vec-sizes 16,64,128] [--loaded]
    python benchmarks/env.py --no-vector          # the AEC table only
    python benchmarks/env.py --no-aec --loaded-only --vec-cases "2 processes, sync"
    python benchmarks/env.py --bound [--vec-sizes 16,64,128] [--loaded]   # the bound only
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import NamedTuple

import numpy as np
from harness import (
    PURE,
    Measured,
    Rounds,
    add_arguments,
    busy_process,
    engine_build,
    footer,
    header,
    interleave,
    interleave_beside_pure,
    rate_columns,
    table,
    write_json,
)

import nanty_env
from nanty_env.vector.async_vector import make_async_vec_env
from nanty_env.vector.batch import EnvMaker, GameBatch, process_context

PEERS = ("connect_four_v3", "texas_holdem_v4")
LEVELS = ("raw_env", "env()")
PURE_PLAYERS = 4  # the AEC cases the pure engine runs beside the compiled build


def aec_steps_per_second(make: Callable, seconds: float, seed: int = 0) -> Measured:
    """Steps/s of the standard AEC loop with random legal actions (Python's ``random.choice``:
    numpy's ``Generator.choice`` alone costs more than a connect-four step's environment
    work)."""
    env = make()
    rng = random.Random(seed)
    steps, episode = 0, 0
    env.reset(seed=seed)
    t0, c0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < seconds:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            if not env.agents:
                episode += 1
                env.reset(seed=seed + episode)
            continue
        env.step(int(rng.choice(obs["action_mask"].nonzero()[0])))
        steps += 1
    return Measured(steps / (time.perf_counter() - t0), steps / (time.process_time() - c0))


def aec_makers() -> dict[str, Callable]:
    """Every AEC environment measured, by name (``<game> <level>``)."""
    from pettingzoo.classic import connect_four_v3, texas_holdem_v4

    peers = {"connect_four_v3": connect_four_v3, "texas_holdem_v4": texas_holdem_v4}
    makers: dict[str, Callable] = {}
    for game, module in peers.items():
        makers[f"{game} raw_env"] = module.raw_env
        makers[f"{game} env()"] = module.env
    for n in (2, 3, 4):
        makers[f"nanty {n}p raw_env"] = lambda n=n: nanty_env.raw_env(num_players=n)
        makers[f"nanty {n}p env()"] = lambda n=n: nanty_env.env(num_players=n)
    return makers


PURE_AEC = tuple(f"nanty {PURE_PLAYERS}p {level}" for level in LEVELS)


def pure_aec_cases(seconds: float) -> dict[str, Callable[[], Measured]]:
    """The AEC cases that the pure-Python engine runs beside the compiled one (in a child
    process, ``harness.PureBuild``): nanty at ``PURE_PLAYERS`` players, both levels."""
    makers = aec_makers()
    return {
        name: lambda make=makers[name]: aec_steps_per_second(make, seconds) for name in PURE_AEC
    }


def pure_vector_cases(sizes: list[int], seconds: float) -> dict[str, Callable[[], float]]:
    """The vector env in one process on the pure-Python engine, for each size (a child
    process of its own, ``harness.PureBuild``)."""
    return {f"{n} games, 1 process": lambda n=n: vec_steps_per_second(1, n, seconds) for n in sizes}


def compiled_over_pure(result: Rounds, names: list[str]) -> None:
    """Print each case's rate on the compiled build over the pure one, round by round."""
    for name in names:
        if name + PURE in result.values:
            cpu = result.has_cpu(name) and result.has_cpu(name + PURE)
            ratio = result.ratio(name, name + PURE, cpu=cpu).format(2)
            print(f"{name}: compiled / pure {ratio}{' (CPU time)' if cpu else ''}")


def aec_section(seconds: float, rounds: int, pure: bool = True) -> Rounds:
    """The AEC table; on the compiled build (and ``pure``), with the pure engine's 4-player
    cases beside it in the same rounds."""
    cases: dict[str, Callable[[], Measured | float]] = {
        name: lambda make=make: aec_steps_per_second(make, seconds)
        for name, make in aec_makers().items()
    }
    result = interleave_beside_pure(
        cases, rounds, PURE_AEC if pure else (), pure_aec_cases, seconds
    )
    rows = []
    for name in result.values:
        level = "raw_env" if name.removesuffix(PURE).endswith("raw_env") else "env()"
        mine = name.startswith("nanty")
        c4, holdem = (rate_columns(result, name, f"{p} {level}" if mine else None) for p in PEERS)
        rows.append([name, c4[0], c4[1], holdem[1], c4[2], c4[3], holdem[3]])
    print("\nAEC loop, steps/s; ratios against the peer at the same level, round by round")
    print(f"(engine: {engine_build()}; a{PURE} row: the pure-Python engine in a child process)")
    headers = ["environment", "steps/s", "vs connect four", "vs hold'em"]
    print(table([*headers, "by CPU time", "vs c4 (CPU)", "vs hold'em (CPU)"], rows))
    compiled_over_pure(result, list(cases))
    footer(result)
    return result


def vec_steps_per_second(
    workers: int, num_envs: int, seconds: float, balance: bool = False
) -> float:
    from nanty_env.vector import make_vec_env  # here: workers re-import this script, SB3-free

    venv = make_vec_env(num_envs, num_workers=workers, seed=0, num_players=4, balance=balance)
    venv.reset()
    rng = random.Random(0)
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        masks = venv.action_masks()
        venv.step(np.array([rng.choice(m.nonzero()[0]) for m in masks]))
        steps += num_envs
    rate = steps / (time.perf_counter() - t0)
    venv.close()
    return rate


def async_steps_per_second(
    workers: int, num_envs: int, seconds: float, caller_games: int = 0, balance: bool = False
) -> float:
    """The same random learner on ``AsyncNantyVecEnv``: it answers whichever chunk of games
    is ready first while the others keep playing (``caller_games`` of them played by the
    calling process itself; ``balance``: the workers' chunks moved to the caller while that
    is measured faster)."""
    venv = make_async_vec_env(
        num_envs, workers, seed=0, num_players=4, caller_games=caller_games, balance=balance
    )
    venv.async_reset()
    rng = random.Random(0)
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        _, _, _, _, masks, ids = venv.recv()
        venv.send([rng.choice(m.nonzero()[0]) for m in masks], ids)
        steps += len(ids)
    rate = steps / (time.perf_counter() - t0)
    venv.close()
    return rate


def _half(args: tuple[int, float]) -> float:
    return vec_steps_per_second(1, *args)


def independent_halves(num_envs: int, seconds: float) -> float:
    """Total rate of two processes each stepping half the games on its own, never waiting for
    the other: the most any two-process split can reach on this machine."""
    with mp.get_context("spawn").Pool(2) as pool:
        return sum(pool.map(_half, [(num_envs // 2, seconds)] * 2))


VEC_CASES = {  # name: rate of (num_envs, seconds)
    "1 process": lambda n, s: vec_steps_per_second(1, n, s),
    "2 processes, sync": lambda n, s: vec_steps_per_second(2, n, s),
    "2 processes, sync, balanced": lambda n, s: vec_steps_per_second(2, n, s, balance=True),
    "2 workers, async": lambda n, s: async_steps_per_second(2, n, s),
    "caller + 1 worker, async": lambda n, s: async_steps_per_second(1, n, s, n // 4),
    "caller + 1 worker, async, balanced": lambda n, s: async_steps_per_second(
        1, n, s, n // 4, balance=True
    ),
    "ceiling (2 halves)": independent_halves,
}


def vector_section(
    sizes: list[int],
    seconds: float,
    rounds: int,
    label: str,
    only: list[str] | None = None,
    pure: bool = False,
) -> Rounds:
    """One interleaved run over every (size, case); ratios against one process, per round.
    ``only``: the cases to run besides "1 process" (all by default); ``pure``: on the compiled
    build, one process on the pure engine beside it (a child process) at each size."""
    names = [x for x in VEC_CASES if only is None or x == "1 process" or x in only]
    cases: dict[str, Callable[[], Measured | float]] = {
        f"{n} games, {name}": lambda f=VEC_CASES[name], n=n: f(n, seconds)
        for n in sizes
        for name in names
    }
    pure_names = [f"{n} games, 1 process" for n in sizes] if pure else []
    result = interleave_beside_pure(cases, rounds, pure_names, pure_vector_cases, sizes, seconds)
    rows = []
    for n in sizes:
        one = f"{n} games, 1 process"
        for name in [*names, "1 process" + PURE]:
            key = f"{n} games, {name}"
            if key not in result.values:
                continue  # no pure row (the pure build, or --no-pure)
            ratio = "" if key == one else result.ratio(key, one).format(2)
            rows.append([key, result.summary(key).format(), ratio])
    print(f"\nvectorised single-learner env, 4 players, learner steps/s ({label})")
    print(f"(engine: {engine_build()}; a{PURE} row: the pure-Python engine in a child process)")
    print(table(["games, face", "steps/s", "vs 1 process"], rows))
    compiled_over_pure(result, list(cases))
    footer(result)
    return result


ECHO, ECHO_STOP = b"S", b"X"  # one byte each way per round trip; ECHO_STOP ends the worker


def _echo_worker(conn: Connection, work_seconds: float) -> None:
    """Sleep on the pipe; for every byte, busy-work ``work_seconds`` by the wall clock (so a
    preemption during the work does not lengthen it) and answer with one byte."""
    while True:
        try:
            msg = conn.recv_bytes()
        except (EOFError, OSError):
            return
        if msg == ECHO_STOP:
            conn.close()
            return
        deadline = time.perf_counter() + work_seconds
        while time.perf_counter() < deadline:
            pass
        conn.send_bytes(ECHO)


def pipe_round_trip_us(work_seconds: float, seconds: float) -> float:
    """Mean round trip in microseconds, one byte each way over a ``multiprocessing`` pipe to
    a worker started by ``process_context()``, both sides waiting in blocking reads (as
    ``SubprocNantyVecEnv`` does); the worker busy-works ``work_seconds`` before each answer."""
    ctx = process_context()
    conn, child = ctx.Pipe()
    proc = ctx.Process(target=_echo_worker, args=(child, work_seconds), daemon=True)
    proc.start()
    child.close()
    try:
        for _ in range(20):  # the first answer waits for the start; then a few untimed trips
            conn.send_bytes(ECHO)
            conn.recv_bytes()
        trips = 0
        t0 = time.perf_counter()
        while True:
            conn.send_bytes(ECHO)
            conn.recv_bytes()
            trips += 1
            elapsed = time.perf_counter() - t0
            if elapsed >= seconds:
                return elapsed / trips * 1e6
    finally:
        conn.send_bytes(ECHO_STOP)
        conn.close()
        proc.join(5)
        if proc.is_alive():
            proc.terminate()
            proc.join()


class StepSample(NamedTuple):
    """One run of ``GameBatch.step_into``: each step's wall time (s), and over all steps the
    CPU time of the steps and the wall time of the learner's choices (s)."""

    wall: np.ndarray
    cpu: float
    choose: float


def step_sample(num_games: int, seconds: float, seed: int = 0) -> StepSample:
    """Step ``num_games`` single-learner 4-player games (random opponents) in one
    ``GameBatch`` for ``seconds``, a random learner choosing uniformly among each mask's
    legal actions (``random.Random``); only ``step_into`` (next masks included, as the split
    asks of each half) is timed per step."""
    batch = GameBatch([EnvMaker(num_players=4) for _ in range(num_games)])
    batch.seed(seed)
    batch.reset()
    masks = batch.action_masks()
    obs = np.empty((num_games, *batch.observation_space.shape), dtype=np.float32)
    rewards = np.zeros(num_games, dtype=np.float32)
    dones = np.zeros(num_games, dtype=bool)
    rng = random.Random(seed)
    walls: list[float] = []
    cpu = choose = 0.0
    end = time.perf_counter() + seconds
    while True:
        t0 = time.perf_counter()
        actions = [int(rng.choice(m.nonzero()[0])) for m in masks]
        t1, c1 = time.perf_counter(), time.process_time()
        batch.step_into(actions, obs, rewards, dones, masks)
        t2, c2 = time.perf_counter(), time.process_time()
        walls.append(t2 - t1)
        cpu += c2 - c1
        choose += t1 - t0
        if t2 >= end:
            return StepSample(np.array(walls), cpu, choose)


def expected_max_of_two(times: np.ndarray, rng: np.random.Generator, pairs: int = 100_000) -> float:
    """E[max(a, b)] of two independent draws from ``times`` (resampled ``pairs`` pairs): the
    mean wait for the slower of two halves stepping at once."""
    a, b = rng.choice(times, pairs), rng.choice(times, pairs)
    return float(np.maximum(a, b).mean())


def half_of(num_games: int) -> int:
    """The larger of the two chunks ``SubprocNantyVecEnv`` splits ``num_games`` into."""
    return num_games - num_games // 2


def bound_cases(
    sizes: list[int], seconds: float, samples: dict[str, list[StepSample]]
) -> tuple[dict[str, Callable[[], float | Measured]], dict[int, float]]:
    """The interleaved cases of the bound section (an empty echo; per size a busy echo, the
    whole batch's step and a half's step; step cases in microseconds per step, wall and CPU,
    each run's samples appended to ``samples[name]``) and the work (s) of each size's busy
    echo: one half-step, timed once beforehand."""

    def step_case(name: str, num_games: int) -> Callable[[], Measured]:
        def run() -> Measured:
            sample = step_sample(num_games, seconds)
            samples.setdefault(name, []).append(sample)
            return Measured(sample.wall.mean() * 1e6, sample.cpu / len(sample.wall) * 1e6)

        return run

    work = {n: float(step_sample(half_of(n), min(seconds, 0.5)).wall.mean()) for n in sizes}
    cases: dict[str, Callable[[], float | Measured]] = {
        "echo, empty": lambda: pipe_round_trip_us(0.0, seconds)
    }
    for n in sizes:
        cases[f"{n} games, echo"] = lambda w=work[n]: pipe_round_trip_us(w, seconds)
        cases[f"{n} games, step"] = step_case(f"{n} games, step", n)
        cases[f"{n} games, half step"] = step_case(f"{n} games, half step", half_of(n))
    return cases, work


def bound_derived(
    result: Rounds,
    sizes: list[int],
    work: dict[int, float],
    samples: dict[str, list[StepSample]],
    seed: int = 0,
) -> None:
    """Add to ``result``, round by round (all in microseconds but the ratios): each size's
    hand-over (busy round trip minus the work), E[max of two half-steps], the learner's choice
    per step, and the ratios of the N step to the half step, to the slower half, and to the
    slower half plus the hand-over (the ceiling; ``+ learner``: both sides plus the learner's
    choice, which neither process overlaps)."""
    rng = np.random.default_rng(seed)
    rounds = len(result.loads)
    for n in sizes:
        key = f"{n} games"
        whole = result.values[f"{key}, step"]
        half = result.values[f"{key}, half step"]
        handover = [x - work[n] * 1e6 for x in result.values[f"{key}, echo"]]
        halves = samples[f"{key}, half step"][-rounds:]  # the warm-up's sample came first
        wholes = samples[f"{key}, step"][-rounds:]
        emax = [expected_max_of_two(s.wall, rng) * 1e6 for s in halves]
        choose = [s.choose / len(s.wall) * 1e6 for s in wholes]
        series = {
            "hand-over": handover,
            "max of 2 halves": emax,
            "learner": choose,
            "ratio N/half": [w / h for w, h in zip(whole, half, strict=True)],
            "ratio N/max": [w / m for w, m in zip(whole, emax, strict=True)],
            "ceiling": [w / (m + o) for w, m, o in zip(whole, emax, handover, strict=True)],
            "ceiling + learner": [
                (c + w) / (c + m + o)
                for w, m, o, c in zip(whole, emax, handover, choose, strict=True)
            ],
        }
        for name, values in series.items():
            result.values[f"{key}, {name}"] = values


def bound_section(sizes: list[int], seconds: float, rounds: int, label: str) -> Rounds:
    """Why a synchronous 2-process split cannot reach twice one process: the hand-over, the
    step times and the implied ceiling, per size, from one interleaved run."""
    samples: dict[str, list[StepSample]] = {}
    cases, work = bound_cases(sizes, seconds, samples)
    result = interleave(cases, rounds)
    bound_derived(result, sizes, work, samples)

    def cell(name: str, digits: int = 0) -> str:
        return result.summary(name).format(digits)

    print(f"\nbound of a synchronous 2-process split, 4-player single-learner games ({label})")
    print("\npipe round trip, one byte each way, blocking waits, microseconds")
    rows = [["empty echo", cell("echo, empty"), ""]]
    for n in sizes:
        rows.append(
            [
                f"worker works {work[n] * 1e6:.0f} us ({half_of(n)} games' step)",
                cell(f"{n} games, echo"),
                cell(f"{n} games, hand-over"),
            ]
        )
    print(table(["echo", "round trip", "minus the work"], rows))

    print("\nGameBatch.step_into, microseconds per step (mean over a round's steps)")
    rows = [
        [
            f"{n} games",
            cell(f"{n} games, step"),
            result.summary(f"{n} games, step", cpu=True).format(),
            cell(f"{n} games, half step"),
            cell(f"{n} games, max of 2 halves"),
            cell(f"{n} games, learner"),
        ]
        for n in sizes
    ]
    headers = ["games", "N step", "N step (CPU)", "N/2 step", "max of 2 halves", "learner"]
    print(table(headers, rows))

    print(
        "\nimplied speed-up of the split over 1 process: N step / (N/2 step),"
        " / (max of 2 halves), / (max + hand-over) = the ceiling"
    )
    rows = [
        [f"{n} games"]
        + [
            cell(f"{n} games, {name}", 2)
            for name in ("ratio N/half", "ratio N/max", "ceiling", "ceiling + learner")
        ]
        for n in sizes
    ]
    print(table(["games", "/ N/2", "/ max", "ceiling", "ceiling + learner"], rows))
    footer(result)
    return result


def worker_memory(num_envs: int = 16) -> None:
    """Resident memory of the worker processes of both multi-process faces (``/proc``)."""
    from nanty_env.vector import make_vec_env

    def rss_mb(pid: int) -> float:
        with open(f"/proc/{pid}/status") as f:
            return int(next(x for x in f if x.startswith("VmRSS:")).split()[1]) / 1024

    sync = make_vec_env(num_envs, num_workers=2, seed=0, num_players=4)
    sync.reset()
    asyn = make_async_vec_env(num_envs, 2, seed=0, num_players=4)
    asyn.async_reset()
    asyn.recv()
    for name, venv in (("synchronous", sync), ("asynchronous", asyn)):
        rss = [round(rss_mb(p)) for p in venv.worker_pids]
        print(f"{name}, {num_envs} games: the workers' resident memory {rss} MB")
        venv.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds per case and round")
    ap.add_argument(
        "--vec-sizes", type=lambda t: [int(x) for x in t.split(",")], default=[16, 64, 128]
    )
    ap.add_argument("--no-aec", action="store_true", help="skip the AEC table")
    ap.add_argument("--no-vector", action="store_true", help="skip the vectorised env")
    ap.add_argument(
        "--bound", action="store_true", help="only the bound of a synchronous 2-process split"
    )
    ap.add_argument(
        "--loaded",
        action="store_true",
        help="repeat the vector run (or the bound) beside a busy process",
    )
    ap.add_argument(
        "--vec-cases",
        type=lambda t: [x.strip() for x in t.split(";")],
        default=None,
        help=f"only these vector cases (';'-separated) beside one process: {'; '.join(VEC_CASES)}",
    )
    ap.add_argument(
        "--loaded-only", action="store_true", help="the vector run beside a busy process only"
    )
    ap.add_argument("--worker-memory", action="store_true", help="only the workers' memory")
    ap.add_argument(
        "--no-pure",
        action="store_true",
        help="on the compiled build, skip timing the pure-Python engine beside it",
    )
    add_arguments(ap)
    args = ap.parse_args()
    if args.worker_memory:
        worker_memory()
        return
    what = "what bounds a 2-process split" if args.bound else "steps/s"
    info = header(f"env: {what}, {args.seconds:g} s per case and round", args.rounds)
    sections: dict[str, Rounds] = {}
    if args.bound:
        sections["bound"] = bound_section(
            args.vec_sizes, args.seconds, args.rounds, "nothing else started by the benchmark"
        )
        if args.loaded:
            with busy_process():
                sections["bound_loaded"] = bound_section(
                    args.vec_sizes, args.seconds, args.rounds, "beside one busy process"
                )
        write_json(args.json, info, **sections)
        return
    if not args.no_aec:
        sections["aec"] = aec_section(args.seconds, args.rounds, pure=not args.no_pure)
    if not args.no_vector:
        sizes, only = args.vec_sizes, args.vec_cases
        if not args.loaded_only:
            sections["vector"] = vector_section(
                sizes,
                args.seconds,
                args.rounds,
                "nothing else started by the benchmark",
                only,
                pure=not args.no_pure,
            )
        if args.loaded or args.loaded_only:
            with busy_process():
                sections["vector_loaded"] = vector_section(
                    sizes, args.seconds, args.rounds, "beside one busy process", only
                )
    write_json(args.json, info, **sections)


if __name__ == "__main__":
    main()
