"""Environment throughput beside PettingZoo's classic games, in the same run.

AEC: the standard loop (``last()``, so an observation and a mask every step, then a uniformly
random legal action by the same code for every game: ``random.Random.choice`` on the mask's
nonzero indices) on nanty_narking_v0 (2-4 players) and PettingZoo's connect_four_v3 and
texas_holdem_v4, each both unwrapped (``raw_env``) and as ``env()`` builds it (with its
wrappers); every ratio compares the same level (raw with raw, ``env()`` with ``env()``).

Vector: the single-learner env (4 players, random opponents) stepped by a random learner for
16, 64 and 128 games: in one process, split over two processes (``SubprocNantyVecEnv``, the SB3
``VecEnv``), asynchronously over two workers (``AsyncNantyVecEnv``) and, as the ceiling two
cores give, two unsynchronised processes with half the games each. ``--loaded`` repeats it with
one other process keeping a core busy (a second user of the machine).

Every case runs once per round, rounds interleaved (``benchmarks/harness.py``).

    python benchmarks/env.py [--seconds 3] [--rounds 5] [--vec-sizes 16,64,128] [--loaded]
    python benchmarks/env.py --no-vector          # the AEC table only
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import time
from collections.abc import Callable

import numpy as np
from harness import (
    Measured,
    Rounds,
    add_arguments,
    busy_process,
    footer,
    header,
    interleave,
    rate_columns,
    table,
    write_json,
)

import nanty_env
from nanty_env.async_vector import make_async_vec_env

PEERS = ("connect_four_v3", "texas_holdem_v4")
LEVELS = ("raw_env", "env()")


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


def aec_section(seconds: float, rounds: int) -> Rounds:
    cases = {
        name: lambda make=make: aec_steps_per_second(make, seconds)
        for name, make in aec_makers().items()
    }
    result = interleave(cases, rounds)
    rows = []
    for name in cases:
        level = "raw_env" if name.endswith("raw_env") else "env()"
        mine = name.startswith("nanty")
        c4, holdem = (rate_columns(result, name, f"{p} {level}" if mine else None) for p in PEERS)
        rows.append([name, c4[0], c4[1], holdem[1], c4[2], c4[3], holdem[3]])
    print("\nAEC loop, steps/s; ratios against the peer at the same level, round by round")
    headers = ["environment", "steps/s", "vs connect four", "vs hold'em"]
    print(table([*headers, "by CPU time", "vs c4 (CPU)", "vs hold'em (CPU)"], rows))
    footer(result)
    return result


def vec_steps_per_second(workers: int, num_envs: int, seconds: float) -> float:
    from nanty_env.vector import make_vec_env  # here: workers re-import this script, SB3-free

    venv = make_vec_env(num_envs, num_workers=workers, seed=0, num_players=4)
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


def async_steps_per_second(workers: int, num_envs: int, seconds: float) -> float:
    """The same random learner on ``AsyncNantyVecEnv``: it answers whichever chunk of games
    is ready first while the others keep playing."""
    venv = make_async_vec_env(num_envs, workers, seed=0, num_players=4)
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
    "2 workers, async": lambda n, s: async_steps_per_second(2, n, s),
    "ceiling (2 halves)": independent_halves,
}


def vector_section(sizes: list[int], seconds: float, rounds: int, label: str) -> Rounds:
    """One interleaved run over every (size, case); ratios against one process, per round."""
    cases = {
        f"{n} games, {name}": lambda f=f, n=n: f(n, seconds)
        for n in sizes
        for name, f in VEC_CASES.items()
    }
    result = interleave(cases, rounds)
    rows = []
    for n in sizes:
        one = f"{n} games, 1 process"
        for name in VEC_CASES:
            key = f"{n} games, {name}"
            ratio = "" if key == one else result.ratio(key, one).format(2)
            rows.append([key, result.summary(key).format(), ratio])
    print(f"\nvectorised single-learner env, 4 players, learner steps/s ({label})")
    print(table(["games, face", "steps/s", "vs 1 process"], rows))
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
        "--loaded", action="store_true", help="repeat the vector run beside a busy process"
    )
    ap.add_argument("--worker-memory", action="store_true", help="only the workers' memory")
    add_arguments(ap)
    args = ap.parse_args()
    if args.worker_memory:
        worker_memory()
        return
    info = header(f"env: steps/s, {args.seconds:g} s per case and round", args.rounds)
    sections: dict[str, Rounds] = {}
    if not args.no_aec:
        sections["aec"] = aec_section(args.seconds, args.rounds)
    if not args.no_vector:
        sections["vector"] = vector_section(
            args.vec_sizes, args.seconds, args.rounds, "nothing else started by the benchmark"
        )
        if args.loaded:
            with busy_process():
                sections["vector_loaded"] = vector_section(
                    args.vec_sizes, args.seconds, args.rounds, "beside one busy process"
                )
    write_json(args.json, info, **sections)


if __name__ == "__main__":
    main()
