"""Environment throughput: AEC steps/s with random legal actions (observation and mask built
every step) for nanty_narking_v0 (raw and wrapped, 2-4 players) and, in the same run, the same
loop on PettingZoo's connect_four_v3 and texas_holdem_v4; then the vectorised single-learner
env on one and two processes (synchronous SB3 VecEnv and asynchronous send/recv) for several
batch sizes.

    python benchmarks/env.py [--seconds 5] [--vec-sizes 16,64,128] [--repeats 3]
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import time
from collections.abc import Callable

import numpy as np

import nanty_env
from nanty_env.async_vector import make_async_vec_env


def aec_steps_per_second(make: Callable, seconds: float, seed: int = 0) -> float:
    """The standard AEC loop: last() (observation + mask) then a random legal step (Python's
    ``random.choice``: numpy's ``Generator.choice`` alone costs ~12 us, more than a whole
    connect-four step's environment work)."""
    env = make()
    rng = random.Random(seed)  # the same cheap choice for every environment measured
    steps, episode = 0, 0
    env.reset(seed=seed)
    t0 = time.perf_counter()
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
    return steps / (time.perf_counter() - t0)


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
    """The same random learner on ``AsyncNantyVecEnv`` (two chunks per worker): it answers
    whichever chunk of games is ready first while the others keep playing."""
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
        print(
            f"{name}, {num_envs} games: workers' RSS {[round(rss_mb(p)) for p in venv.worker_pids]} MB"
        )
        venv.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument(
        "--vec-sizes", type=lambda t: [int(x) for x in t.split(",")], default=[16, 64, 128]
    )
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--worker-memory", action="store_true", help="only the workers' memory")
    args = ap.parse_args()
    if args.worker_memory:
        worker_memory()
        return
    from pettingzoo.classic import connect_four_v3, texas_holdem_v4

    s = args.seconds
    c4 = aec_steps_per_second(connect_four_v3.env, s)
    th = aec_steps_per_second(texas_holdem_v4.env, s)
    print(f"{'environment':<34} {'steps/s':>10} {'vs c4':>7} {'vs holdem':>9}")
    print(f"{'connect_four_v3 env()':<34} {c4:>10,.0f} {1:>7.2f} {c4 / th:>9.2f}")
    print(f"{'texas_holdem_v4 env()':<34} {th:>10,.0f} {th / c4:>7.2f} {1:>9.2f}")
    for n in (2, 3, 4):
        for name, fn in (("raw_env", nanty_env.raw_env), ("env()", nanty_env.env)):
            rate = aec_steps_per_second(lambda fn=fn, n=n: fn(num_players=n), s)
            label = f"nanty {name} {n}p"
            print(f"{label:<34} {rate:>10,.0f} {rate / c4:>7.2f} {rate / th:>9.2f}")
    print(
        "\nvectorised single-learner env, 4 players (learner steps/s; medians of "
        f"{args.repeats} alternating runs of {s:g} s each):"
    )
    print(
        f"{'games':>6} {'1 process':>10} {'2 processes':>12} {'speed-up':>9} "
        f"{'async, 2 workers':>17} {'speed-up':>9} {'ceiling':>8}"
    )
    for n in args.vec_sizes:
        one, two, asyn = [], [], []
        for _ in range(args.repeats):  # alternate, so drifts of the machine hit all alike
            one.append(vec_steps_per_second(1, n, s))
            two.append(vec_steps_per_second(2, n, s))
            asyn.append(async_steps_per_second(2, n, s))
        m1, m2, ma = (float(np.median(x)) for x in (one, two, asyn))
        ceiling = independent_halves(n, s) / m1
        print(
            f"{n:>6} {m1:>10,.0f} {m2:>12,.0f} {m2 / m1:>8.2f}x {ma:>17,.0f} {ma / m1:>8.2f}x "
            f"{ceiling:>7.2f}x"
        )
    print(
        "(speed-up target >= 1.6x; 2 processes: SubprocNantyVecEnv, the SB3 VecEnv stepping every "
        "game together; async: AsyncNantyVecEnv, send/recv by chunk, two chunks per worker; "
        "ceiling: two unsynchronised processes with half the games each, what two cores give "
        "here)"
    )
    print("\ntargets: raw_env >= 15,000 steps/s; env() >= connect_four_v3 env()")


if __name__ == "__main__":
    main()
