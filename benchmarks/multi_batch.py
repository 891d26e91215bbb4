"""Decisions per second of the multi-agent batch (every seat of every game answered together).

Cases, for N games of 4 players (base game) each: ``MultiAgentBatch`` in this process, the same
batch over two worker processes (``MultiAgentWorkers``, the caller only choosing actions), and,
for reference, N AEC envs (``nanty_env.raw_env``) stepped one by one (``last()`` for each, their
observations and masks stacked, then one ``step`` each). Every case answers with the same
policy: a uniformly random legal action per row, drawn by numpy over the stacked mask in one
call (a random key per action, illegal ones set below every legal one, the largest taken).
Finished games are dealt again (by the batch itself; ``reset()`` for the AEC envs).

A decision is one answered row (one action applied to one game). Every case runs once per
round, rounds interleaved (``benchmarks/harness.py``); the in-process cases also report their
rate per second of this process's CPU time (the worker case's caller mostly sleeps, so it has
none to report).

    python benchmarks/multi_batch.py [--sizes 16,64] [--seconds 1.5] [--rounds 5] [--json F]
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

import numpy as np
from harness import (
    Measured,
    add_arguments,
    footer,
    header,
    interleave,
    rate,
    rate_columns,
    table,
    write_json,
)

import nanty_env
from nanty_env.multi_batch import MultiAgentBatch
from nanty_env.multi_workers import MultiAgentWorkers

PLAYERS = 4


def random_legal(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """One uniformly random legal action per row of ``mask``, in one numpy pass."""
    keys = rng.random(mask.shape, dtype=np.float32)
    keys[~mask] = -1.0
    return keys.argmax(1)


def batch_case(batch, seconds: float, cpu: bool) -> Callable[[], float | Measured]:
    """A case stepping ``batch`` (kept between rounds: its games go on)."""
    rng = np.random.default_rng(1)
    state = {"d": batch.reset(seed=0)}

    def work() -> int:
        d = state["d"] = batch.step(random_legal(rng, state["d"].mask))
        return len(d)

    def measure() -> float | Measured:
        result = rate(work, seconds)
        return result if cpu else result.wall

    return measure


def aec_case(n: int, seconds: float) -> Callable[[], Measured]:
    """N raw_env stepped one by one, answered by the same policy over their stacked masks."""
    envs = [nanty_env.raw_env(num_players=PLAYERS) for _ in range(n)]
    for k, e in enumerate(envs):
        e.reset(seed=k)
    spec = envs[0].ruleset
    obs = np.empty((n, spec.obs_size), dtype=np.float32)
    mask = np.empty((n, spec.num_actions), dtype=bool)
    rng = np.random.default_rng(1)

    def work() -> int:
        for k, e in enumerate(envs):
            while True:
                o, _, term, trunc, _ = e.last()
                if not (term or trunc):
                    break
                e.step(None)  # the finished game's agents step off; then the next game
                if not e.agents:
                    e.reset()
            obs[k] = o["observation"]
            mask[k] = o["action_mask"]
        for e, a in zip(envs, random_legal(rng, mask).tolist(), strict=True):
            e.step(a)
        return n

    return lambda: rate(work, seconds)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="16,64", help="comma-separated numbers of games")
    ap.add_argument("--seconds", type=float, default=1.5, help="seconds per case per round")
    add_arguments(ap)
    args = ap.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    info = header(
        f"multi-agent batch, {PLAYERS} players, base game: decisions per second", args.rounds
    )
    cases: dict[str, Callable[[], float | Measured]] = {}
    closers = []
    for n in sizes:
        cases[f"N={n} AEC envs one by one"] = aec_case(n, args.seconds)
        cases[f"N={n} MultiAgentBatch"] = batch_case(
            MultiAgentBatch(n, num_players=PLAYERS), args.seconds, cpu=True
        )
        workers = MultiAgentWorkers(n, num_workers=2, num_players=PLAYERS)
        closers.append(workers)
        cases[f"N={n} MultiAgentWorkers, 2 workers"] = batch_case(workers, args.seconds, cpu=False)
    try:
        rounds = interleave(cases, args.rounds)
    finally:
        for w in closers:
            w.close()
    rows = []
    for name in cases:
        n = name.split()[0]
        rows.append([name, *rate_columns(rounds, name, f"{n} AEC envs one by one")])
    print(
        table(
            ["case", "decisions/s", "vs AEC", "per CPU s (caller)", "vs AEC (CPU)"],
            rows,
        )
    )
    footer(rounds)
    write_json(args.json, info, multi_batch=rounds)


if __name__ == "__main__":
    main()
