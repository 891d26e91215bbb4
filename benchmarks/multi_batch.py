"""Decisions per second of the multi-agent batch (every seat of every game answered together).

Cases, for N games of 4 players (base game) each: ``MultiAgentBatch`` in this process, the same
batch over two worker processes (``MultiAgentWorkers``, the caller only choosing actions), over
one worker with the caller playing the other half of the games (``caller_games=N // 2``), and,
for reference, N AEC envs (``nanty_env.raw_env``) stepped one by one (``last()`` for each, their
observations and masks stacked, then one ``step`` each). Every case answers with the same
policy: a uniformly random legal action per row, drawn by numpy over the stacked mask in one
call (a random key per action, illegal ones set below every legal one, the largest taken).
Finished games are dealt again (by the batch itself; ``reset()`` for the AEC envs).

``--policy mlp`` answers with a network instead: a 1162-256-256-405 MLP in torch (one thread,
random weights), an action sampled from its masked logits, one forward pass over the stacked
rows; one more reference case then runs the AEC envs as an AEC loop does, one forward pass per
decision (what one pass for every seat of every game saves).

A decision is one answered row (one action applied to one game). Every case runs once per
round, rounds interleaved (``benchmarks/harness.py``). Each case also reports its rate per
second of CPU time, counting the worker processes' time too (read from ``/proc``, Linux): what
the decisions cost the machine, which other users of it disturb far less than the wall clock.

    python benchmarks/multi_batch.py [--sizes 16,64] [--seconds 1.5] [--rounds 5] [--json F]
    python benchmarks/multi_batch.py --policy mlp
"""

from __future__ import annotations

import argparse
import os
import time
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
from nanty_env.vector.multi_batch import MultiAgentBatch
from nanty_env.vector.multi_workers import MultiAgentWorkers

PLAYERS = 4
Policy = Callable[[np.ndarray, np.ndarray], np.ndarray]  # (obs, mask) -> one action per row


def random_legal(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """One uniformly random legal action per row of ``mask``, in one numpy pass."""
    keys = rng.random(mask.shape, dtype=np.float32)
    keys[~mask] = -1.0
    return keys.argmax(1)


def random_policy() -> Policy:
    rng = np.random.default_rng(1)
    return lambda obs, mask: random_legal(rng, mask)


def mlp_policy(obs_size: int, num_actions: int) -> Policy:
    """A torch MLP (random weights, one thread) sampling from its masked logits."""
    import torch  # only for this policy: the worker processes never load it

    torch.set_num_threads(1)
    torch.manual_seed(0)
    net = torch.nn.Sequential(
        torch.nn.Linear(obs_size, 256),
        torch.nn.ReLU(),
        torch.nn.Linear(256, 256),
        torch.nn.ReLU(),
        torch.nn.Linear(256, num_actions),
    )

    def act(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            logits = net(torch.from_numpy(obs)).masked_fill(~torch.from_numpy(mask), -1e9)
            gumbel = -torch.log(-torch.log(torch.rand_like(logits)))
            return (logits + gumbel).argmax(1).numpy()

    return act


def cpu_seconds(pids: list[int]) -> float:
    """CPU time (user + system) of this process and of the processes ``pids`` so far."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = time.process_time()
    for pid in pids:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
    return total


def batch_case(batch, seconds: float, policy: Policy) -> Callable[[], Measured]:
    """A case stepping ``batch`` (kept between rounds: its games go on); its CPU time counts
    its worker processes' too, if it has any."""
    state = {"d": batch.reset(seed=0)}
    pids = getattr(batch, "pids", [])

    def work() -> int:
        d = state["d"]
        d = state["d"] = batch.step(policy(d.obs, d.mask))
        return len(d)

    def measure() -> Measured:
        if not pids:
            return rate(work, seconds)
        units, start, cpu_start = 0, time.perf_counter(), cpu_seconds(pids)
        while (elapsed := time.perf_counter() - start) < seconds:
            units += work()
        return Measured(units / elapsed, units / (cpu_seconds(pids) - cpu_start))

    return measure


def aec_case(
    n: int, seconds: float, policy: Policy, per_decision: bool = False
) -> Callable[[], Measured]:
    """N raw_env stepped one by one, answered by ``policy`` over their stacked observations
    and masks (one call a step), or one call per decision (``per_decision``)."""
    envs = [nanty_env.raw_env(num_players=PLAYERS) for _ in range(n)]
    for k, e in enumerate(envs):
        e.reset(seed=k)
    spec = envs[0].ruleset
    obs = np.empty((n, spec.obs_size), dtype=np.float32)
    mask = np.empty((n, spec.num_actions), dtype=bool)

    def last(e) -> dict[str, np.ndarray]:
        while True:
            o, _, term, trunc, _ = e.last()
            if not (term or trunc):
                return o
            e.step(None)  # the finished game's agents step off; then the next game
            if not e.agents:
                e.reset()

    def stacked() -> int:
        for k, e in enumerate(envs):
            o = last(e)
            obs[k] = o["observation"]
            mask[k] = o["action_mask"]
        for e, a in zip(envs, policy(obs, mask).tolist(), strict=True):
            e.step(a)
        return n

    def one_by_one() -> int:
        for e in envs:
            o = last(e)
            a = policy(o["observation"][None], o["action_mask"][None].astype(bool))
            e.step(int(a[0]))
        return n

    work = one_by_one if per_decision else stacked
    return lambda: rate(work, seconds)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="16,64", help="comma-separated numbers of games")
    ap.add_argument("--seconds", type=float, default=1.5, help="seconds per case per round")
    ap.add_argument("--policy", choices=("random", "mlp"), default="random")
    add_arguments(ap)
    args = ap.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    info = header(
        f"multi-agent batch, {PLAYERS} players, base game, {args.policy} policy: decisions "
        "per second",
        args.rounds,
    )
    spec = MultiAgentBatch(1, num_players=PLAYERS).ruleset
    if args.policy == "mlp":
        policy = mlp_policy(spec.obs_size, spec.num_actions)
    else:
        policy = random_policy()
    cases: dict[str, Callable[[], float | Measured]] = {}
    closers = []
    for n in sizes:
        cases[f"N={n} AEC envs one by one"] = aec_case(n, args.seconds, policy)
        if args.policy == "mlp":
            cases[f"N={n} AEC envs, a pass per decision"] = aec_case(
                n, args.seconds, policy, per_decision=True
            )
        cases[f"N={n} MultiAgentBatch"] = batch_case(
            MultiAgentBatch(n, num_players=PLAYERS), args.seconds, policy
        )
        workers = MultiAgentWorkers(n, num_workers=2, num_players=PLAYERS)
        caller = MultiAgentWorkers(n, num_workers=1, caller_games=n // 2, num_players=PLAYERS)
        closers += [workers, caller]
        cases[f"N={n} MultiAgentWorkers, 2 workers"] = batch_case(workers, args.seconds, policy)
        cases[f"N={n} MultiAgentWorkers, 1 worker + caller"] = batch_case(
            caller, args.seconds, policy
        )
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
            ["case", "decisions/s", "vs AEC", "per CPU s", "vs AEC (CPU)"],
            rows,
        )
    )
    footer(rounds)
    write_json(args.json, info, multi_batch=rounds)


if __name__ == "__main__":
    main()
