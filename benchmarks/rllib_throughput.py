"""RLlib throughput: env steps per second of ``nanty train --backend rllib`` with 1 and 2 env
runners (configs/rllib_quick.yaml otherwise), on one Ray started here.

Rounds are interleaved (1, 2, 1, 2, ...); each round builds the algorithm, runs one warm-up
iteration, then times ``--iterations`` iterations. Reported per runner count: the median and
min-max over rounds of

* ``train``: env steps / wall time of whole iterations (sampling + PPO update),
* ``sample``: env steps / RLlib's own sampling timer (the env runners' part),

plus the load average before and after (the machine may be shared).

    python benchmarks/rllib_throughput.py [--rounds 3] [--iterations 3] [--runners 1,2]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from dataclasses import replace

import ray

from training.rllib.config import load_rllib_config
from training.rllib.train import build_algorithm, start_ray


def one_round(cfg, iterations: int) -> dict[str, float]:
    algo = build_algorithm(cfg)
    try:
        algo.train()  # warm-up: actors started, first weights synced
        steps, wall, sample = 0, 0.0, 0.0
        for _ in range(iterations):
            t0 = time.perf_counter()
            result = algo.train()
            wall += time.perf_counter() - t0
            steps += int(result["env_runners"]["num_env_steps_sampled"])
            sample += float(result["timers"]["env_runner_sampling_timer"])
    finally:
        algo.stop()
    return {"steps": steps, "train": steps / wall, "sample": steps / sample}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--config", default="rllib_quick")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--iterations", type=int, default=3)
    ap.add_argument("--runners", default="1,2")
    ap.add_argument("--out", help="also write the numbers as JSON")
    args = ap.parse_args()

    base = load_rllib_config(args.config)
    runners = [int(x) for x in args.runners.split(",")]
    load_before = os.getloadavg()
    start_ray(base)  # on loopback, as nanty train starts it
    results: dict[int, list[dict[str, float]]] = {r: [] for r in runners}
    try:
        for i in range(args.rounds):
            for r in runners:
                cfg = replace(base, ray=replace(base.ray, num_env_runners=r))
                results[r].append(one_round(cfg, args.iterations))
                print(f"round {i + 1} runners {r}: {results[r][-1]}", flush=True)
    finally:
        ray.shutdown()
    load_after = os.getloadavg()
    report = {
        "config": args.config,
        "train_batch_size": base.ppo.train_batch_size,
        "iterations_per_round": args.iterations,
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in load_after],
        "cpus": os.cpu_count(),
    }
    for r, rows in results.items():
        for key in ("train", "sample"):
            xs = [row[key] for row in rows]
            report[f"{r}_runners_{key}"] = {
                "median": round(statistics.median(xs), 1),
                "min": round(min(xs), 1),
                "max": round(max(xs), 1),
            }
    print(json.dumps(report, indent=1))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
