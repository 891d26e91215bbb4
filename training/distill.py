"""Distil a shipped bot into a small policy network (behaviour cloning only, no PPO).

    python -m training.distill --config configs/distill_heuristic_4p.yaml [--ship]

The config is an ordinary training config (``training/config.py``) whose ``pretrain`` section
says what to imitate (``teacher``, ``games``, ``vs``, ``dagger_*``, ``epochs``...) and whose
``ppo.net_arch`` is the student's hidden layers; everything else about PPO is unused. The steps
are ``training/pretrain.py``'s, reused as they are:

1. the teacher's decisions from ``games`` games (cached under ``pretrain.cache_dir``);
2. masked cross-entropy on them, keeping the epoch with the best agreement on a random 5 % of
   the rows (``pretrain.keep_best``, switched on here);
3. ``dagger_rounds`` of DAgger: the student plays, the teacher labels, the student is refitted;
4. the **test**: top-1 agreement with the teacher on the decisions of ``--test-games`` more
   games of the teacher in every seat, dealt from seeds that no training game used (the
   config's ``seed`` + :data:`TEST_SEED_OFFSET`), for the cloned and the final student.

It writes ``OUT/model`` (the final student, value head included), ``OUT/bc`` (before DAgger)
and ``OUT/distill.json`` (the statistics); ``--ship`` also writes the actor alone to
``agents/data/distilled_<teacher>_<N>p`` (``<teacher>`` the teacher's name in
``agents.distilled.TEACHERS``), which ``distilled:teacher=<teacher>`` plays.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

import training  # noqa: F401  before torch loads: the OpenMP wait policy
from agents.checkpoint import save_policy
from agents.distilled import shipped_stem, teacher_name
from nanty_env.storage.files import atomic_write_text
from training.config import ConfigError, TrainConfig, load_config
from training.cputime import cpu_seconds
from training.pretrain import accuracy, dagger, generate, generate_part, pretrain_policy

TEST_SEED_OFFSET = 1000  # test games' config seed: game seeds start 1000 x 1,000,003 later
DATA_DIR = Path(__file__).resolve().parents[1] / "agents" / "data"


def check(cfg: TrainConfig) -> TrainConfig:
    """The config with ``pretrain.keep_best`` on; refuses what distillation cannot do."""
    if not cfg.pretrain.enabled or not cfg.pretrain.fit_policy:
        raise ConfigError("distillation needs pretrain.enabled and pretrain.fit_policy true")
    if cfg.env.hint is not None or cfg.env.expansion is not None:
        raise ConfigError("distillation is for the base game, without env.hint")
    return replace(cfg, pretrain=replace(cfg.pretrain, keep_best=True))


def test_config(cfg: TrainConfig, games: int) -> TrainConfig:
    """The config of the test games: ``games`` teacher mirror games on other deal seeds."""
    return replace(
        cfg, seed=cfg.seed + TEST_SEED_OFFSET, pretrain=replace(cfg.pretrain, games=games, vs={})
    )


def student(cfg: TrainConfig) -> Any:
    """A fresh student: the MaskablePPO policy ``nanty train`` would build, without PPO (an
    object with ``policy`` and ``num_timesteps``, all that the pretraining steps use)."""
    import torch

    from nanty_env.faces.single import NantySingleAgentEnv
    from training.masked_policy import LeanMaskablePolicy

    torch.manual_seed(cfg.seed)
    probe = NantySingleAgentEnv(num_players=cfg.env.num_players)
    policy = LeanMaskablePolicy(
        probe.observation_space,
        probe.action_space,
        lambda _: cfg.pretrain.learning_rate,
        net_arch=list(cfg.ppo.net_arch),
    )
    return SimpleNamespace(policy=policy, num_timesteps=0)


def agreement(policy: Any, data: dict[str, np.ndarray]) -> float:
    """Top-1 agreement of the greedy student with the teacher on every row of ``data``."""
    return accuracy(policy, data, np.arange(len(data["action"])))[0]


def ship(model: Any, cfg: TrainConfig, stats: dict[str, Any], path: Path) -> Path:
    """The student's actor alone (no value head) as a nanty-policy checkpoint at ``path``."""
    from agents.sb3_export import CRITIC, sb3_policy_checkpoint
    from training.state import env_description, source_commit

    tensors, meta = sb3_policy_checkpoint(
        model.policy,
        env=env_description(cfg),
        trained_with={
            "distilled_from": cfg.pretrain.teacher,
            "commit": source_commit(),
            "net_arch": list(cfg.ppo.net_arch),
            **{k: stats[k] for k in ("decisions", "test_decisions", "test_agreement")},
        },
    )
    meta.pop("value")
    tensors = {k: v for k, v in tensors.items() if not k.startswith((CRITIC, "value_net"))}
    return save_policy(path, tensors, meta)


def distill(
    cfg: TrainConfig,
    out: Path,
    test_games: int = 40,
    ship_to: Path | None = None,
    log=print,
    progress: bool = True,
) -> dict[str, Any]:
    """Run the steps of the module docstring; returns (and writes) the statistics."""
    import torch

    from training.masked_policy import torch_threads
    from training.state import export_policy

    cfg = check(cfg)
    out.mkdir(parents=True, exist_ok=True)
    t0, c0 = time.perf_counter(), cpu_seconds()
    data, data_cpu, _ = generate(cfg, log, progress)
    test, test_cpu, _ = generate_part(test_config(cfg, test_games), None, log, progress)
    torch.set_num_threads(cfg.torch_threads)
    model = student(cfg)
    stats: dict[str, Any] = {
        "teacher": cfg.pretrain.teacher,
        "players": cfg.env.num_players,
        "decisions": len(data["action"]),
        "test_games": test_games,
        "test_decisions": len(test["action"]),
        "data_cpu_seconds": round(data_cpu, 1),
        "test_cpu_seconds": round(test_cpu, 1),
    }
    with torch_threads(cfg.ppo.update_threads):
        stats["fit"] = pretrain_policy(model, data, cfg, log)
        stats["test_agreement_bc"] = agreement(model.policy, test)
        log(f"distill: test agreement after cloning {stats['test_agreement_bc']:.3f}")
        export_policy(model, out / "bc", cfg, stage="behaviour cloning")
        if cfg.pretrain.dagger_rounds > 0:
            _, dagger_cpu, stats["dagger"] = dagger(
                model, data, cfg, out / "dagger_policy", log, progress=progress
            )
            stats["dagger_cpu_seconds"] = round(dagger_cpu, 1)
        stats["test_agreement"] = agreement(model.policy, test)
    log(f"distill: test agreement {stats['test_agreement']:.3f} on {len(test['action'])} decisions")
    export_policy(model, out / "model", cfg, stage="distilled")
    stats["seconds"] = round(time.perf_counter() - t0, 1)
    stats["cpu_seconds_here"] = round(cpu_seconds() - c0, 1)
    if ship_to is not None:
        stats["shipped"] = str(ship(model, cfg, stats, ship_to))
        log(f"distill: shipped {stats['shipped']}")
    atomic_write_text(out / "distill.json", json.dumps(stats, indent=2, default=float) + "\n")
    return stats


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", required=True, help="a configs/distill_*.yaml file")
    ap.add_argument("--out", help="output folder (default: the config's out)")
    ap.add_argument("--test-games", type=int, default=40, help="teacher games on unseen deals")
    ap.add_argument("--ship", action="store_true", help="write agents/data/distilled_*")
    ap.add_argument("--no-progress", action="store_true", help="show no progress bar")
    args = ap.parse_args(argv)
    try:
        cfg = load_config(args.config)
        target = None
        if args.ship:
            name = teacher_name(cfg.pretrain.teacher)
            target = DATA_DIR / shipped_stem(name, cfg.env.num_players)
    except (ConfigError, ValueError) as e:
        raise SystemExit(f"error: {e}") from None
    distill(cfg, Path(args.out or cfg.out), args.test_games, target, progress=not args.no_progress)


if __name__ == "__main__":
    main()
