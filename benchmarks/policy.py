"""Where a PPO update on our spaces spends its time: sb3-contrib's stock masked policy beside
``training.masked_policy.LeanMaskablePolicy``, piece by piece, in the same run.

On 512 observations and masks from random 4-player games (an update minibatch), and on 8 (a
rollout step): the masked distribution alone (forward and backward of a log-probability and an
entropy), the policy and value networks (``MlpExtractor``) with a dense and a sparse first
layer, the optimiser step, the whole forward and backward of ``evaluate_actions``, the
behaviour-cloning loss with soft targets in one pass (``evaluate_imitation``) and in two, and
a rollout call of the policy. Then the
threads: a forward-backward-step loop on one torch thread and on two, with OpenMP's threads
waiting for each other in three ways (sleeping at once: ``OMP_WAIT_POLICY=PASSIVE
GOMP_SPINCOUNT=0``; a short spin, then sleeping: ``GOMP_SPINCOUNT=1000``, what importing
``training`` sets; spinning: ``ACTIVE``), each in a fresh process (OpenMP reads the variables
when torch loads), on free cores and beside one busy process. Milliseconds per call; every case
runs once per round, rounds interleaved (``benchmarks/harness.py``).

    python benchmarks/policy.py [--rounds 5] [--no-threads | --no-pieces] [--spins 100,300,1000]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable

import numpy as np

import training  # before torch loads: the OpenMP wait policy `nanty train` uses

# isort: split
import torch
from harness import (
    Measured,
    Rounds,
    add_arguments,
    busy_process,
    footer,
    header,
    interleave,
    per_call_seconds,
    table,
    write_json,
)
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.distributions import MaskableCategoricalDistribution
from stable_baselines3.common.torch_layers import MlpExtractor
from torch import nn

from nanty_env.vector import make_vec_env
from training.masked_policy import LeanMaskableCategoricalDistribution, LeanMaskablePolicy
from training.sparse_input import SparseInputMlpExtractor

NET = [256, 256]
BATCH = 512


def sample_batch(size: int, seed: int = 0) -> tuple[torch.Tensor, np.ndarray, torch.Tensor]:
    """Observations, masks and legal actions of ``size`` learner decisions of random games."""
    venv = make_vec_env(8, seed=seed, num_players=4)
    obs = venv.reset()
    rng = random.Random(seed)
    rows, masks, acts = [], [], []
    while len(rows) < size:
        m = venv.action_masks()
        a = np.array([rng.choice(x.nonzero()[0]) for x in m])
        rows.append(obs)
        masks.append(m)
        acts.append(a)
        obs, *_ = venv.step(a)
    venv.close()
    return (
        torch.as_tensor(np.concatenate(rows)[:size]),
        np.concatenate(masks)[:size],
        torch.as_tensor(np.concatenate(acts)[:size]),
    )


def policies() -> dict[str, object]:
    venv = make_vec_env(1, seed=0, num_players=4)
    out = {}
    for name, cls in (("stock", "MlpPolicy"), ("lean", LeanMaskablePolicy)):
        model = MaskablePPO(cls, venv, policy_kwargs={"net_arch": NET}, seed=0, device="cpu")
        out[name] = model.policy
    out["lean"].load_state_dict(out["stock"].state_dict())
    return out


def ms(call: Callable[[], object], number: int) -> Callable[[], Measured]:
    def measure() -> Measured:
        wall, cpu = per_call_seconds(call, number)
        return Measured(1e3 * wall, 1e3 * cpu)

    return measure


def piece_cases(obs, masks, acts) -> dict[str, Callable[[], Measured]]:
    pols = policies()
    n_actions = masks.shape[1]
    logits = torch.randn(BATCH, n_actions, generator=torch.Generator().manual_seed(0))

    def distribution(cls) -> Callable[[], object]:
        def run() -> None:
            x = logits.clone().requires_grad_()
            d = cls(n_actions).proba_distribution(x)
            d.apply_masking(masks)
            (d.log_prob(acts).mean() + d.entropy().mean()).backward()

        return run

    torch.manual_seed(0)
    dense = MlpExtractor(obs.shape[1], net_arch=NET, activation_fn=nn.Tanh, device="cpu")
    sparse = SparseInputMlpExtractor(obs.shape[1], net_arch=NET, activation_fn=nn.Tanh)
    sparse.load_state_dict(dense.state_dict())

    def first_layers(extractor) -> Callable[[], object]:
        def run() -> None:
            pi, vf = extractor(obs)
            (pi.sum() + vf.sum()).backward()

        return run

    def optimiser(policy) -> Callable[[], object]:
        for p in policy.parameters():
            p.grad = torch.zeros_like(p)
        return policy.optimizer.step

    def update(policy) -> Callable[[], object]:
        def run() -> None:
            values, log_prob, entropy = policy.evaluate_actions(obs, acts, action_masks=masks)
            loss = -log_prob.mean() - 0.01 * entropy.mean() + 0.5 * values.square().mean()
            policy.optimizer.zero_grad()
            loss.backward()

        return run

    # behaviour cloning with the teacher's scores (pretrain.soft): random targets on the legal
    # actions, the loss from one forward pass or, as before evaluate_imitation, from two
    weights = np.where(masks, np.random.default_rng(0).random(masks.shape), 0.0)
    targets = (weights / weights.sum(axis=1, keepdims=True)).astype(np.float32)

    def imitation(policy, one_pass: bool) -> Callable[[], object]:
        def run() -> None:
            if one_pass:
                values, log_prob, ce = policy.evaluate_imitation(obs, acts, masks, targets)
            else:
                values, log_prob, _ = policy.evaluate_actions(obs, acts, action_masks=masks)
                full = policy.get_distribution(obs, action_masks=masks).distribution.logits
                ce = -(torch.as_tensor(targets) * full.log_softmax(1)).sum(1).mean()
            loss = -0.5 * log_prob.mean() + 0.5 * ce + 0.5 * values.square().mean()
            policy.optimizer.zero_grad()
            loss.backward()

        return run

    def rollout(policy) -> Callable[[], object]:
        small, small_masks = obs[:8], masks[:8]

        def run() -> None:
            with torch.no_grad():
                policy(small, action_masks=small_masks)

        return run

    return {
        "masked distribution, stock": ms(distribution(MaskableCategoricalDistribution), 20),
        "masked distribution, lean": ms(distribution(LeanMaskableCategoricalDistribution), 20),
        "policy + value nets, dense first layer": ms(first_layers(dense), 20),
        "policy + value nets, sparse first layer": ms(first_layers(sparse), 20),
        "Adam step, stock (foreach)": ms(optimiser(pols["stock"]), 20),
        "Adam step, lean (fused)": ms(optimiser(pols["lean"]), 20),
        "evaluate_actions + backward, stock": ms(update(pols["stock"]), 10),
        "evaluate_actions + backward, lean": ms(update(pols["lean"]), 10),
        "soft imitation loss + backward, two passes": ms(imitation(pols["lean"], False), 10),
        "soft imitation loss + backward, one pass": ms(imitation(pols["lean"], True), 10),
        "rollout call (8 games), stock": ms(rollout(pols["stock"]), 200),
        "rollout call (8 games), lean": ms(rollout(pols["lean"]), 200),
    }


PAIRS = {
    "masked distribution, lean": "masked distribution, stock",
    "policy + value nets, sparse first layer": "policy + value nets, dense first layer",
    "Adam step, lean (fused)": "Adam step, stock (foreach)",
    "evaluate_actions + backward, lean": "evaluate_actions + backward, stock",
    "rollout call (8 games), lean": "rollout call (8 games), stock",
    "soft imitation loss + backward, one pass": "soft imitation loss + backward, two passes",
}


def child_update_ms(threads: int, steps: int) -> float:
    """In a fresh process: ms of wall time per lean update minibatch step with ``threads``."""
    obs, masks, acts = sample_batch(BATCH)
    policy = policies()["lean"]
    torch.set_num_threads(threads)

    def step() -> None:
        values, log_prob, entropy = policy.evaluate_actions(obs, acts, action_masks=masks)
        loss = -log_prob.mean() - 0.01 * entropy.mean() + 0.5 * values.square().mean()
        policy.optimizer.zero_grad()
        loss.backward()
        policy.optimizer.step()

    step()
    start = time.perf_counter()
    for _ in range(steps):
        step()
    return 1e3 * (time.perf_counter() - start) / steps


def sleeping_after(spins: int) -> dict[str, str | None]:
    """The child's OpenMP environment: threads spin ``spins`` rounds, then sleep."""
    return {"OMP_WAIT_POLICY": "PASSIVE", "GOMP_SPINCOUNT": str(spins)}


DEFAULT_WAIT = f"a short spin (PASSIVE, GOMP_SPINCOUNT={training.SPIN_COUNT}; the default)"
WAITS = {  # how OpenMP's threads wait for each other: the environment of the child process
    "sleeping at once (PASSIVE, GOMP_SPINCOUNT=0)": sleeping_after(0),
    DEFAULT_WAIT: sleeping_after(training.SPIN_COUNT),
    "spinning (ACTIVE)": {"OMP_WAIT_POLICY": "ACTIVE", "GOMP_SPINCOUNT": None},
}


def in_process(threads: int, wait: dict[str, str | None], steps: int) -> Callable[[], float]:
    def run() -> float:
        env = {k: v for k, v in os.environ.items() if k not in wait}
        env.update({k: v for k, v in wait.items() if v is not None})
        argv = [sys.executable, __file__, "--child", str(threads), str(steps)]
        out = subprocess.run(argv, env=env, capture_output=True, text=True, check=True)
        return float(json.loads(out.stdout.strip().splitlines()[-1]))

    return run


def thread_cases(steps: int, spins: list[int] | None = None) -> dict[str, Callable[[], float]]:
    """One thread, and two waiting in each of :data:`WAITS` ways, or (``spins``) sleeping
    after each of these spin counts."""
    cases = {"1 thread": in_process(1, WAITS[DEFAULT_WAIT], steps)}
    waits = WAITS
    if spins:
        waits = {f"GOMP_SPINCOUNT={n}": sleeping_after(n) for n in spins}
    for name, wait in waits.items():
        cases[f"2 threads, {name}"] = in_process(2, wait, steps)
    return cases


def thread_rows(threads: Rounds) -> list[list[str]]:
    return [
        [name, threads.summary(name).format(1), threads.ratio(name, "1 thread").format(2)]
        for name in threads.values
    ]


def pieces_section(rounds: int) -> Rounds:
    """Every piece, stock beside lean, printed as a table."""
    obs, masks, acts = sample_batch(BATCH)
    density = float((obs != 0).float().mean())
    print(f"{BATCH} observations of random games: {100 * density:.1f} % of inputs nonzero")
    pieces = interleave(piece_cases(obs, masks, acts), rounds)
    rows = []
    for name in pieces.values:
        peer = PAIRS.get(name)
        rows.append(
            [
                name,
                pieces.summary(name).format(2),
                pieces.summary(name, cpu=True).format(2),
                pieces.ratio(name, peer, cpu=True).format(2) if peer else "",
            ]
        )
    print(table(["piece", "ms (wall)", "ms (CPU time)", "lean / stock (CPU)"], rows))
    footer(pieces)
    return pieces


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-threads", action="store_true", help="skip the wait-policy runs")
    ap.add_argument("--no-pieces", action="store_true", help="the wait-policy runs only")
    ap.add_argument(
        "--spins", help="comma-separated spin counts to time two threads with (PASSIVE after each)"
    )
    ap.add_argument("--steps", type=int, default=16, help="update steps per wait-policy run")
    ap.add_argument("--child", nargs=2, type=int, help=argparse.SUPPRESS)
    add_arguments(ap)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child_update_ms(*args.child)))
        return
    torch.set_num_threads(1)
    info = header("policy side of a PPO update on our spaces: ms per call, 1 thread", args.rounds)
    sections: dict[str, Rounds] = {}
    if not args.no_pieces:
        sections["pieces"] = pieces_section(args.rounds)
    if not args.no_threads:
        spins = [int(x) for x in args.spins.split(",")] if args.spins else None
        cases = thread_cases(args.steps, spins)
        for label, key in (("on free cores", "threads"), ("beside a busy process", "loaded")):
            print(f"\nlean update step (forward, backward, Adam), ms of wall time, {label}")
            with busy_process() if key == "loaded" else contextlib.nullcontext():
                threads = interleave(cases, args.rounds, warmup=False)
            print(table(["threads", "ms per step", "vs 1 thread"], thread_rows(threads)))
            footer(threads)
            sections[key] = threads
    write_json(args.json, info, **sections)


if __name__ == "__main__":
    main()
