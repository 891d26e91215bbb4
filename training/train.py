"""Self-play PPO with action masking (sb3-contrib ``MaskablePPO``) on the single-learner env.

``train(config)`` writes under ``config.out``: ``checkpoints/`` (``step_N.zip`` and
``last.zip``, each with a ``.json`` of the step count), ``snapshots/`` (frozen opponents),
``tb/`` (TensorBoard), ``eval.csv`` (periodic win rates with 95 % CIs), ``progress.csv``
(training episodes), ``model.zip`` and ``learning_curve.png``.
"""

from __future__ import annotations

import csv
import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback, CallbackList
from stable_baselines3.common.utils import set_random_seed

from agents.registry import make_bot
from nanty_env.vector import make_vec_env
from training.config import TrainConfig
from training.evaluate import evaluate_model
from training.masked_policy import (
    HintedMaskablePolicy,
    LeanMaskablePolicy,
    UpdateThreads,
    torch_threads,
)
from training.potentials import potential
from training.selfplay import OpponentPool


def env_kwargs(cfg: TrainConfig, pool: OpponentPool) -> dict[str, Any]:
    e = cfg.env
    return {
        "num_players": e.num_players,
        "personalities": e.personalities,
        "thresholds": e.thresholds,
        "reward_mode": e.reward_mode,
        "shaping": potential(e.shaping),
        "learner_seat": e.learner_seat,
        "opponents": pool,
        "hint": None if e.hint is None else make_bot(e.hint),
    }


def build_model(cfg: TrainConfig, venv, tb_dir: Path | None):
    from sb3_contrib import MaskablePPO

    p = cfg.ppo
    policy_kwargs: dict[str, Any] = {"net_arch": list(p.net_arch)}
    policy: type = LeanMaskablePolicy
    if cfg.env.hint is not None:
        policy = HintedMaskablePolicy
        policy_kwargs |= {"hint_bot": cfg.env.hint, "hint_weight": cfg.env.hint_weight}
    return MaskablePPO(
        policy,
        venv,
        n_steps=p.n_steps,
        batch_size=p.batch_size,
        n_epochs=p.n_epochs,
        learning_rate=p.learning_rate,
        gamma=p.gamma,
        gae_lambda=p.gae_lambda,
        ent_coef=p.ent_coef,
        clip_range=p.clip_range,
        target_kl=p.target_kl,
        policy_kwargs=policy_kwargs,
        tensorboard_log=None if tb_dir is None else str(tb_dir),
        seed=cfg.seed,
        device=cfg.device,
        verbose=0,
    )


class ProgressBar(BaseCallback):
    """A tqdm bar over timesteps with the recent training win rate."""

    def __init__(self, total: int, start: int) -> None:
        super().__init__()
        self.total, self.start = total, start

    def _on_training_start(self) -> None:
        from tqdm.auto import tqdm

        self.bar = tqdm(total=self.total, initial=self.start, unit="step", desc="training")

    def _on_step(self) -> bool:
        self.bar.n = self.num_timesteps
        self.bar.refresh() if self.n_calls % 50 == 0 else None
        return True

    def _on_training_end(self) -> None:
        self.bar.n = self.num_timesteps
        self.bar.close()


class TimeLimit(BaseCallback):
    """Stop learning after ``minutes`` of wall time since ``start`` (a ``time.monotonic()``
    value; default now); the run is then saved as usual."""

    def __init__(self, minutes: float, start: float | None = None) -> None:
        super().__init__()
        self.deadline = (time.monotonic() if start is None else start) + 60 * minutes

    def _on_step(self) -> bool:
        return time.monotonic() < self.deadline


class CPULimit(BaseCallback):
    """Stop learning once this process and its workers have used ``minutes`` of CPU time
    (counting ``offset`` seconds spent elsewhere, e.g. generating cached pretraining data)."""

    def __init__(self, minutes: float, offset: float = 0.0, every: int = 50) -> None:
        super().__init__()
        self.limit = 60 * minutes
        self.offset = offset
        self.every = every

    def used(self) -> float:
        from training.cputime import cpu_seconds

        return cpu_seconds() + self.offset

    def _on_step(self) -> bool:
        return self.n_calls % self.every != 0 or self.used() < self.limit


class EpisodeLog(BaseCallback):
    """Per finished training episode: the learner's return and whether it won (progress.csv,
    TensorBoard ``rollout/win_rate``)."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path
        self.returns: np.ndarray | None = None
        self.recent: list[float] = []

    def _on_training_start(self) -> None:
        self.returns = np.zeros(self.training_env.num_envs)
        new = not self.path.exists()
        self.file = self.path.open("a", newline="")
        self.writer = csv.writer(self.file)
        if new:
            self.writer.writerow(["timesteps", "return", "won", "seat", "reason"])

    def _on_step(self) -> bool:
        self.returns += self.locals["rewards"]
        for i, done in enumerate(self.locals["dones"]):
            if done:
                info = self.locals["infos"][i]
                won = int(info.get("seat") in info.get("winners", ()))
                self.writer.writerow(
                    [
                        self.num_timesteps,
                        round(float(self.returns[i]), 4),
                        won,
                        info.get("seat"),
                        info.get("reason", ""),
                    ]
                )
                self.recent = [*self.recent[-199:], won]
                self.returns[i] = 0.0
        if self.recent and self.n_calls % 200 == 0:
            self.logger.record("rollout/win_rate", float(np.mean(self.recent)))
        return True

    def _on_training_end(self) -> None:
        self.file.close()


class Periodic(BaseCallback):
    """Checkpoints, snapshots for the opponent pool, and evaluations on their own clocks."""

    def __init__(self, cfg: TrainConfig, out: Path, pool: OpponentPool) -> None:
        super().__init__()
        self.cfg, self.out, self.pool = cfg, out, pool
        self.next = {}

    def _on_training_start(self) -> None:
        t = self.num_timesteps
        c = self.cfg
        self.next = {
            "checkpoint": _next(t, c.checkpoint_every),
            "snapshot": _next(t, c.selfplay.snapshot_every),
            "eval": _next(t, c.eval.every),
        }

    def _on_step(self) -> bool:
        t = self.num_timesteps
        if t >= self.next["checkpoint"]:
            save_checkpoint(self.model, self.out, t)
            self.next["checkpoint"] = _next(t, self.cfg.checkpoint_every)
        if t >= self.next["snapshot"] and self.cfg.selfplay.weights.get("snapshots", 0) > 0:
            self._snapshot(t)
            self.next["snapshot"] = _next(t, self.cfg.selfplay.snapshot_every)
        if t >= self.next["eval"]:
            run_eval(self.model, self.cfg, self.out, t, self.logger)
            self.next["eval"] = _next(t, self.cfg.eval.every)
        return True

    def _snapshot(self, t: int) -> None:
        d = self.out / "snapshots"
        d.mkdir(parents=True, exist_ok=True)
        path = d / f"step_{t}.zip"
        self.model.save(path)
        paths = [*self.pool.snapshots, str(path)][-self.cfg.selfplay.pool_size :]
        self.pool = self.pool.with_snapshots(paths)
        self.training_env.set_attr("opponents", self.pool)


def _next(t: int, every: int) -> int:
    return (t // every + 1) * every


def save_checkpoint(model, out: Path, t: int) -> Path:
    d = out / "checkpoints"
    d.mkdir(parents=True, exist_ok=True)
    for name in (f"step_{t}", "last"):
        model.save(d / f"{name}.zip")
        (d / f"{name}.json").write_text(json.dumps({"timesteps": t}))
    return d / "last.zip"


def run_eval(model, cfg: TrainConfig, out: Path, t: int, logger=None) -> list[dict[str, Any]]:
    """Evaluate the current model against each configured opponent; append to eval.csv."""
    rows = []
    for opp in cfg.eval.opponents:
        res = evaluate_model(
            model,
            opp,
            cfg.env.num_players,
            cfg.eval.games,
            seed=cfg.seed + t,
            personalities=cfg.env.personalities,
            thresholds=cfg.env.thresholds,
            workers=cfg.eval.workers,
            scratch=out / "eval_model.zip",
        )
        row = {"timesteps": t, "opponent": opp, **res}
        rows.append(row)
        if logger is not None:
            logger.record(f"eval/win_rate_vs_{opp}", res["win_rate"])
    path = out / "eval.csv"
    new = not path.exists()
    with path.open("a", newline="") as f:
        w = csv.DictWriter(
            f,
            fieldnames=["timesteps", "opponent", "games", "wins", "win_rate", "ci_low", "ci_high"],
        )
        if new:
            w.writeheader()
        for r in rows:
            w.writerow({k: r[k] for k in w.fieldnames})
    return rows


def _pretrain(model, cfg: TrainConfig, out: Path) -> tuple[float, dict[str, Any]]:
    """Behaviour cloning (see ``training/pretrain.py``); returns the CPU seconds of cached
    data generation not seen by this process, and the fit's statistics."""
    from training.pretrain import dagger, generate, pretrain_policy

    data, gen_cpu, earlier = generate(cfg)
    with torch_threads(cfg.ppo.update_threads):  # the fits; DAgger's games are in workers
        stats = pretrain_policy(model, data, cfg)
        stats["data_cpu_seconds"] = round(gen_cpu, 1)
        stats["data_cpu_seconds_cached"] = round(earlier, 1)
        if cfg.pretrain.dagger_rounds > 0:
            model.save(out / "pretrained_bc.zip")  # before relabelling
            _, dagger_cpu, stats["dagger"] = dagger(model, data, cfg, out / "dagger_policy.zip")
            stats["dagger_cpu_seconds"] = round(dagger_cpu, 1)
    model.save(out / "pretrained.zip")
    return earlier, stats


def train(
    cfg: TrainConfig,
    *,
    total_timesteps: int | None = None,
    out: str | Path | None = None,
    resume: str | Path | None = None,
    progress: bool = True,
) -> Path:
    """Train (or resume) and return the output folder."""
    t_start, mono_start = time.perf_counter(), time.monotonic()
    if total_timesteps is not None:
        cfg = replace(cfg, ppo=replace(cfg.ppo, total_timesteps=total_timesteps))
    out = Path(out or cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(json.dumps(cfg.to_dict(), indent=2))
    if cfg.value.enabled:  # value-network rounds instead of PPO (resumable by rerunning)
        from training.value_iteration import run

        return run(cfg, out, progress=progress)
    import torch

    torch.set_num_threads(cfg.torch_threads)
    set_random_seed(cfg.seed)
    if resume is None:  # a fresh run: its logs and opponent pool start empty, even in an old folder
        for log in ("eval.csv", "progress.csv"):
            (out / log).unlink(missing_ok=True)
        snaps: list[Path] = []
    else:
        snaps = sorted((out / "snapshots").glob("step_*.zip"), key=lambda p: int(p.stem[5:]))
    pool = OpponentPool(
        cfg.env.num_players - 1,
        cfg.selfplay.weights,
        [str(p) for p in snaps][-cfg.selfplay.pool_size :],
        cfg.selfplay.whole_table,
    )
    venv = make_vec_env(
        cfg.ppo.num_envs, num_workers=cfg.ppo.num_workers, seed=cfg.seed, **env_kwargs(cfg, pool)
    )
    tb = out / "tb"
    offset = 0.0  # CPU seconds spent outside this process's accounting (cached data)
    info: dict[str, Any] = {}
    if resume is not None:
        from sb3_contrib import MaskablePPO

        model = MaskablePPO.load(resume, env=venv, device=cfg.device, tensorboard_log=str(tb))
        start = model.num_timesteps
    else:
        model = build_model(cfg, venv, tb)
        start = 0
        if cfg.pretrain.enabled:
            offset, info["pretrain"] = _pretrain(model, cfg, out)
        if cfg.eval.at_start:
            run_eval(model, cfg, out, 0)
    total = cfg.ppo.total_timesteps
    callbacks = [
        EpisodeLog(out / "progress.csv"),
        Periodic(cfg, out, pool),
        UpdateThreads(cfg.ppo.update_threads, cfg.torch_threads),
    ]
    if progress:
        callbacks.insert(0, ProgressBar(total, start))
    if cfg.time_limit_minutes is not None:
        callbacks.append(TimeLimit(cfg.time_limit_minutes, mono_start))
    cpu = CPULimit(cfg.cpu_limit_minutes or 1e12, offset)
    if cfg.cpu_limit_minutes is not None:
        callbacks.append(cpu)
    t0 = time.perf_counter()
    if total > start:
        model.learn(
            total_timesteps=total - start,
            callback=CallbackList(callbacks),
            reset_num_timesteps=resume is None,
            tb_log_name="ppo",
        )
    save_checkpoint(model, out, model.num_timesteps)
    model.save(out / "model.zip")
    cpu_used = cpu.used()  # before the workers exit: their CPU time is read while they live
    venv.close()
    (out / "train.json").write_text(
        json.dumps(
            {
                "timesteps": model.num_timesteps,
                "seconds": round(time.perf_counter() - t0, 1),
                "wall_seconds_total": round(time.perf_counter() - t_start, 1),
                "cpu_seconds_total": round(cpu_used, 1),
                **info,
            },
            indent=2,
        )
    )
    try:
        from training.plots import learning_curve

        learning_curve(out)
    except Exception as e:  # a plot must never lose a finished training run
        print(f"(learning curve not drawn: {e})")
    return out
