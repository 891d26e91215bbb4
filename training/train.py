"""Self-play PPO with action masking (sb3-contrib ``MaskablePPO``) on the single-learner env.

``train(config)`` writes under ``config.out``: ``checkpoints/`` (``step_N`` and ``last``, each a
resumable training state, see ``training/state.py``), ``snapshots/`` (frozen opponents, as
nanty-policy checkpoints), ``tb/`` (TensorBoard), ``eval.csv`` (periodic win rates with 95 %
CIs), ``progress.csv`` (training episodes), ``model.json`` + ``model.safetensors`` (the final
policy, for ``nanty eval --checkpoint DIR``; with ``ppo.average_window`` the mean of the last
checkpoints, the last iterate being ``model_final``) and ``learning_curve.png``.

Nothing is lost to a typo or a signal: the config and the resume are checked before ``out`` is
touched, a fresh run refuses a folder that already holds files, a resume refuses a checkpoint
whose env or network differ from the config, and Ctrl-C / SIGTERM stop after the current step
with a checkpoint saved (a second signal stops at once).
"""

from __future__ import annotations

import csv
import io
import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback, CallbackList
from stable_baselines3.common.utils import set_random_seed

from agents.checkpoint import CheckpointError
from agents.interrupts import Interrupted, StopRequest
from agents.registry import make_bot
from nanty_env.storage.files import UnreadableFile, atomic_write_text
from nanty_env.vector import make_vec_env
from training.averaging import average_checkpoints, checkpoint_step, window_checkpoints
from training.config import TrainConfig, validate_config
from training.evaluate import evaluate_model
from training.league import (
    EPISODE_FIELDS,
    LEAGUE_FIELDS,
    LeagueScores,
    append_csv,
    payoff_heatmap,
    payoff_rows,
    replay_episodes,
)
from training.masked_policy import (
    HintedMaskablePolicy,
    LeanMaskablePolicy,
    UpdateThreads,
    torch_threads,
)
from training.potentials import potential
from training.selfplay import OpponentPool
from training.state import (
    SUMMARY,
    RunFolderError,
    env_description,
    export_policy,
    load_training_state,
    network_description,
    read_summary,
    read_training_state,
    resume_target,
    save_training_state,
)


def env_kwargs(cfg: TrainConfig, pool: OpponentPool) -> dict[str, Any]:
    e = cfg.env
    ruleset = {} if e.expansion is None else {"expansion": e.expansion, "content": e.content}
    return {
        "num_players": e.num_players,
        **ruleset,
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
    """A tqdm bar over timesteps. PPO collects whole rollouts, so the last one may take the
    step count past ``total``; the bar stops at its total."""

    def __init__(self, total: int, start: int) -> None:
        super().__init__()
        self.total, self.start = total, start

    def _on_training_start(self) -> None:
        from tqdm.auto import tqdm

        self.bar = tqdm(
            total=self.total, initial=min(self.start, self.total), unit="step", desc="training"
        )

    def _on_step(self) -> bool:
        self.bar.n = min(self.num_timesteps, self.total)
        self.bar.refresh() if self.n_calls % 50 == 0 else None
        return True

    def _on_training_end(self) -> None:
        self.bar.n = min(self.num_timesteps, self.total)
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
                self.file.flush()  # on disk at once: a killed run keeps its log
        if self.recent and self.n_calls % 200 == 0:
            self.logger.record("rollout/win_rate", float(np.mean(self.recent)))
        return True

    def _on_training_end(self) -> None:
        self.file.close()


class PoolHolder:
    """The opponent pool of a run, shared by the callbacks that change it (snapshots, the
    league's priorities), which hand each new pool to every game."""

    def __init__(self, pool: OpponentPool) -> None:
        self.pool = pool


class LeagueLog(BaseCallback):
    """The league (``selfplay.pfsp``, training/league.py): scores each finished episode against
    the pool members it met (``league_episodes.csv``), re-weights the pool after every rollout,
    and writes a row of the payoff matrix (``league.csv``, ``league.png``) at each snapshot and
    at the end; TensorBoard ``league/score/<member>`` and ``league/p/<member>``."""

    def __init__(self, cfg: TrainConfig, out: Path, holder: PoolHolder) -> None:
        super().__init__()
        sp = cfg.selfplay
        self.cfg, self.out, self.holder = cfg, out, holder
        self.scores = LeagueScores(sp.score_decay, sp.min_games)
        replay_episodes(out / "league_episodes.csv", self.scores)
        self.last_row = -1

    def _on_training_start(self) -> None:
        self.reweigh()

    def _on_step(self) -> bool:
        rows = []
        for i, done in enumerate(self.locals["dones"]):
            if done:
                for member, score in self.scores.record(self.locals["infos"][i]):
                    rows.append({"timesteps": self.num_timesteps, "member": member, "score": score})
        if rows:
            append_csv(self.out / "league_episodes.csv", EPISODE_FIELDS, rows)
        return True

    def _on_rollout_end(self) -> None:
        self.reweigh()

    def reweigh(self) -> None:
        """Give every game the pool with the members' current priorities."""
        sp = self.cfg.selfplay
        pool = self.holder.pool
        prio = self.scores.priorities(pool.members(), sp.pfsp, sp.pfsp_power, sp.pfsp_epsilon)
        self.holder.pool = pool = pool.with_priorities(prio)
        self.training_env.set_attr("opponents", pool)
        for name, p in zip(*pool.distribution(), strict=True):
            self.logger.record(f"league/score/{name}", self.scores.score(name))
            self.logger.record(f"league/p/{name}", float(p))

    def payoffs(self, t: int) -> None:
        """Append the payoff matrix's row for step ``t`` (once) and redraw its heat map."""
        if t == self.last_row:
            return
        self.last_row = t
        names, p = self.holder.pool.distribution()
        append_csv(self.out / "league.csv", LEAGUE_FIELDS, payoff_rows(self.scores, t, names, p))
        try:
            payoff_heatmap(self.out / "league.csv", self.out / "league.png")
        except Exception as e:  # a plot must never stop a training run
            print(f"(league heat map not drawn: {e})")

    def _on_training_end(self) -> None:
        self.payoffs(self.num_timesteps)


class Periodic(BaseCallback):
    """Checkpoints, snapshots for the opponent pool, and evaluations on their own clocks."""

    def __init__(
        self, cfg: TrainConfig, out: Path, holder: PoolHolder, league: LeagueLog | None = None
    ) -> None:
        super().__init__()
        self.cfg, self.out, self.holder, self.league = cfg, out, holder, league
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
            save_checkpoint(self.model, self.out, self.cfg)
            self.next["checkpoint"] = _next(t, self.cfg.checkpoint_every)
        if t >= self.next["snapshot"] and self.cfg.selfplay.weights.get("snapshots", 0) > 0:
            self._snapshot(t)
            self.next["snapshot"] = _next(t, self.cfg.selfplay.snapshot_every)
        if t >= self.next["eval"]:
            run_eval(self.model, self.cfg, self.out, t, self.logger)
            self.next["eval"] = _next(t, self.cfg.eval.every)
        return True

    def _snapshot(self, t: int) -> None:
        path = self.out / "snapshots" / f"step_{t}"
        export_policy(self.model, path, self.cfg)
        if self.league is not None:  # the row of the learner that this snapshot freezes
            self.league.payoffs(t)
        pool = self.holder.pool
        paths = [*pool.snapshots, str(path)][-self.cfg.selfplay.pool_size :]
        self.holder.pool = pool.with_snapshots(paths)
        if self.league is not None:
            self.league.reweigh()
        else:
            self.training_env.set_attr("opponents", self.holder.pool)


def _next(t: int, every: int) -> int:
    return (t // every + 1) * every


class StopOnSignal(BaseCallback):
    """End ``learn`` after the current step once Ctrl-C / SIGTERM was received."""

    def __init__(self, stop: StopRequest) -> None:
        super().__init__()
        self.stop = stop

    def _on_step(self) -> bool:
        return not self.stop.requested


def save_checkpoint(model, out: Path, cfg: TrainConfig) -> Path:
    """``checkpoints/step_N`` and ``checkpoints/last`` (resumable training states); returns
    the latter's name."""
    d = out / "checkpoints"
    t = int(model.num_timesteps)
    for name in (f"step_{t}", "last"):
        save_training_state(model, d / name, cfg)
    return d / "last"


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
            scratch=out / "eval_model",
            expansion=cfg.env.expansion,
            content=cfg.env.content,
        )
        row = {"timesteps": t, "opponent": opp, **res}
        rows.append(row)
        if logger is not None:
            logger.record(f"eval/win_rate_vs_{opp}", res["win_rate"])
    fields = ["timesteps", "opponent", "games", "wins", "win_rate", "ci_low", "ci_high"]
    append_csv(out / "eval.csv", fields, rows)  # appended: a crash loses no old row
    return rows


def _pretrain(
    model, cfg: TrainConfig, out: Path, progress: bool = True
) -> tuple[float, dict[str, Any]]:
    """Behaviour cloning (see ``training/pretrain.py``); returns the CPU seconds of cached
    data generation not seen by this process, and the fit's statistics."""
    from training.pretrain import dagger, generate, pretrain_policy

    data, gen_cpu, earlier = generate(cfg, progress=progress)
    with torch_threads(cfg.ppo.update_threads):  # the fits; DAgger's games are in workers
        stats = pretrain_policy(model, data, cfg)
        stats["data_cpu_seconds"] = round(gen_cpu, 1)
        stats["data_cpu_seconds_cached"] = round(earlier, 1)
        if cfg.pretrain.dagger_rounds > 0:
            export_policy(model, out / "pretrained_bc", cfg, stage="behaviour cloning")
            _, dagger_cpu, stats["dagger"] = dagger(
                model, data, cfg, out / "dagger_policy", progress=progress
            )
            stats["dagger_cpu_seconds"] = round(dagger_cpu, 1)
    export_policy(model, out / "pretrained", cfg, stage="pretrained")
    return earlier, stats


def check_run_folder(cfg: TrainConfig, out: Path, resume: str | Path | None, trust: bool) -> Any:
    """Everything that can be refused, checked before ``out`` is touched: the config, the
    folder (a fresh run needs an empty one) and the resume (its files intact, its env and
    network those of ``cfg``). Returns the resume's state file content (or the trusted
    ``.zip`` path, or None)."""
    validate_config(cfg)
    held = sorted(p.name for p in out.iterdir()) if out.is_dir() else []
    if out.exists() and not out.is_dir():
        raise RunFolderError(f"--out {out} is a file, not a folder")
    if resume is None:
        if held:
            raise RunFolderError(
                f"{out} already holds a run ({', '.join(held[:5])}); pass --resume {out} to "
                "continue it, or choose an empty --out"
            )
        return None
    if Path(resume).suffix == ".zip":
        if not trust:
            raise RunFolderError(
                f"refusing to resume from {resume}: SB3 .zip files are unpickled and can run "
                "arbitrary code; pass --trust-checkpoint only for a file you made yourself"
            )
        if not Path(resume).is_file():
            raise RunFolderError(f"--resume {resume}: no such file")
        return Path(resume)
    target = resume_target(resume)
    legacy = target.with_name(target.name + ".zip")
    if not target.with_name(target.name + ".train.json").exists() and legacy.exists():
        raise RunFolderError(
            f"{target.parent} holds only SB3 .zip checkpoints (an older run): resume from "
            f"{legacy} with --trust-checkpoint if you trust it (loading it can run code)"
        )
    state = read_training_state(target)
    differences = _differences("env", state["env"], env_description(cfg))
    differences += _differences("network", state.get("network", {}), network_description(cfg))
    if differences:
        raise RunFolderError(
            f"cannot resume {target} with this config: " + "; ".join(differences) + " (a "
            "resume continues the same game settings and network; start a new run instead)"
        )
    if held and out.resolve() not in target.resolve().parents:
        raise RunFolderError(
            f"{out} already holds another run ({', '.join(held[:5])}); resume into the folder "
            f"the checkpoint belongs to, or into an empty one"
        )
    return state


def _differences(section: str, saved: dict[str, Any], now: dict[str, Any]) -> list[str]:
    return [
        f"{section}.{k} is {saved.get(k)!r} in the checkpoint but {now.get(k)!r} in the config"
        for k in sorted(set(saved) | set(now))
        if saved.get(k) != now.get(k)
    ]


def _cut_logs_at(out: Path, start: int) -> None:
    """After a resume from step ``start``, move the log rows of later steps (a timeline the
    checkpoint does not hold) to ``*_discarded.csv``, so that the logs' steps stay monotone."""
    for name in ("progress.csv", "eval.csv", "league.csv", "league_episodes.csv"):
        path = out / name
        if not path.exists():
            continue
        rows = list(csv.reader(path.open(newline="")))
        if not rows:
            continue
        head, body = rows[0], rows[1:]
        beyond = [bool(r) and r[0].isdigit() and int(r[0]) > start for r in body]
        later = [r for r, b in zip(body, beyond, strict=True) if b]
        keep = [r for r, b in zip(body, beyond, strict=True) if r and not b]
        if not later:
            continue
        gone = out / f"{path.stem}_discarded.csv"
        new = not gone.exists()
        with gone.open("a", newline="") as f:
            w = csv.writer(f)
            if new:
                w.writerow(head)
            w.writerows(later)
        buf = io.StringIO()
        csv.writer(buf).writerows([head, *keep])
        atomic_write_text(path, buf.getvalue())
        print(f"{name}: {len(later)} rows after step {start} moved to {gone.name}")


def _earlier_legs(out: Path, cpu_now: float) -> dict[str, Any]:
    """What a resumed run's ``train.json`` keeps of the one it replaces: that summary (with
    its own earlier legs) under ``earlier_legs``, and the CPU time of every leg together."""
    if not (out / SUMMARY).exists():
        return {}
    try:
        prior = read_summary(out)
    except UnreadableFile as e:
        print(f"(the earlier train.json is not kept: {e})")
        return {}
    if not isinstance(prior, dict):
        return {}
    earlier = prior.pop("earlier_legs", [])
    legs = [*(earlier if isinstance(earlier, list) else []), prior]
    cpu = [leg.get("cpu_seconds_total") for leg in legs if isinstance(leg, dict)]
    total = sum(c for c in cpu if isinstance(c, (int, float))) + cpu_now
    return {"earlier_legs": legs, "cpu_seconds_all_legs": round(total, 1)}


def _load_trusted_zip(model, path: Path, venv) -> None:
    """Continue from an SB3 ``.zip`` (the caller passed ``--trust-checkpoint``): its weights
    and optimizer go into ``model``, which the config built."""
    from sb3_contrib import MaskablePPO

    old = MaskablePPO.load(str(path), env=venv, device=model.device)
    try:
        model.policy.load_state_dict(old.policy.state_dict())
    except RuntimeError as e:
        raise RunFolderError(f"{path}: another network than the config builds ({e})") from e
    model.policy.optimizer.load_state_dict(old.policy.optimizer.state_dict())
    model.num_timesteps = old.num_timesteps


def train(
    cfg: TrainConfig,
    *,
    total_timesteps: int | None = None,
    out: str | Path | None = None,
    resume: str | Path | None = None,
    progress: bool = True,
    trust_checkpoint: bool = False,
) -> Path:
    """Train (or resume) and return the output folder.

    ``resume``: a run folder, a checkpoint (``DIR/checkpoints/last`` or ``step_N``) or, with
    ``trust_checkpoint``, an SB3 ``.zip``. Raises :class:`RunFolderError` /
    :class:`~training.config.ConfigError` before anything is written, and
    :class:`~agents.interrupts.Interrupted` after saving a checkpoint on Ctrl-C / SIGTERM."""
    t_start, mono_start = time.perf_counter(), time.monotonic()
    if total_timesteps is not None:
        cfg = replace(cfg, ppo=replace(cfg.ppo, total_timesteps=total_timesteps))
    out = Path(out or cfg.out)
    if cfg.value.enabled:  # value-network rounds instead of PPO (training/value_iteration.py)
        from training.value_iteration import train_value

        return train_value(cfg, out, resume, progress=progress)
    try:
        resumed = check_run_folder(cfg, out, resume, trust_checkpoint)
    except CheckpointError as e:
        raise RunFolderError(f"cannot resume: {e}") from e
    with StopRequest(soft=False) as stop:
        return _train(cfg, out, resume, resumed, progress, stop, t_start, mono_start)


def _train(
    cfg: TrainConfig,
    out: Path,
    resume: str | Path | None,
    resumed: Any,
    progress: bool,
    stop: StopRequest,
    t_start: float,
    mono_start: float,
) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out / "config.json", json.dumps(cfg.to_dict(), indent=2))
    import torch

    torch.set_num_threads(cfg.torch_threads)
    set_random_seed(cfg.seed)
    snaps: list[Path] = []
    if resume is not None:
        snaps = sorted((out / "snapshots").glob("step_*.json"), key=lambda p: int(p.stem[5:]))
    pool = OpponentPool(
        cfg.env.num_players - 1,
        cfg.selfplay.weights,
        [str(p.with_suffix("")) for p in snaps][-cfg.selfplay.pool_size :],
        cfg.selfplay.whole_table,
    )
    venv = make_vec_env(
        cfg.ppo.num_envs, num_workers=cfg.ppo.num_workers, seed=cfg.seed, **env_kwargs(cfg, pool)
    )
    try:
        return _learn(cfg, out, resume, resumed, progress, stop, venv, pool, t_start, mono_start)
    finally:
        try:
            venv.close()
        except Exception as e:  # workers killed by the same signal; nothing left to save
            print(f"(environment workers: {e!r} on close)")


def _learn(cfg, out, resume, resumed, progress, stop, venv, pool, t_start, mono_start) -> Path:
    tb = out / "tb"
    offset = 0.0  # CPU seconds spent outside this process's accounting (cached data)
    info: dict[str, Any] = {}
    model = build_model(cfg, venv, tb)
    if resume is not None:
        if isinstance(resumed, Path):
            _load_trusted_zip(model, resumed, venv)
        else:
            load_training_state(model, resume_target(resume))
        start = model.num_timesteps
        _cut_logs_at(out, start)
    else:
        start = 0
        if cfg.pretrain.enabled:
            offset, info["pretrain"] = _pretrain(model, cfg, out, progress)
        if cfg.eval.at_start:
            run_eval(model, cfg, out, 0)
    total = cfg.ppo.total_timesteps
    holder = PoolHolder(pool)
    league = LeagueLog(cfg, out, holder) if cfg.selfplay.pfsp != "off" else None
    callbacks = [
        EpisodeLog(out / "progress.csv"),
        *([] if league is None else [league]),
        Periodic(cfg, out, holder, league),
        UpdateThreads(cfg.ppo.update_threads, cfg.torch_threads, cfg.ppo.adapt_update_threads),
        StopOnSignal(stop),
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
        stop.soft = True  # from here a signal ends the step, then everything is saved
        try:
            model.learn(
                total_timesteps=total - start,
                callback=CallbackList(callbacks),
                reset_num_timesteps=resume is None,
                tb_log_name="ppo",
            )
        except Exception:
            if not stop.requested:
                raise
            print(f"(the environment failed after {stop.name}; saving what was learnt)")
    if stop.requested:
        stop.soft = False
    last = save_checkpoint(model, out, cfg)
    if cfg.ppo.average_window:
        export_policy(model, out / "model_final", cfg)
        window = window_checkpoints(
            out / "checkpoints", model.num_timesteps, cfg.ppo.average_window
        )
        average_checkpoints(window, out / "model")
        info["averaged_steps"] = [checkpoint_step(p) for p in window]
    else:
        export_policy(model, out / "model", cfg)
    cpu_used = cpu.used()  # before the workers exit: their CPU time is read while they live
    summary = {
        "timesteps": model.num_timesteps,
        "seconds": round(time.perf_counter() - t0, 1),
        "wall_seconds_total": round(time.perf_counter() - t_start, 1),
        "cpu_seconds_total": round(cpu_used, 1),
        **info,
    }
    if stop.requested:
        summary["stopped_by"] = stop.name
    if resume is not None:
        summary.update(_earlier_legs(out, summary["cpu_seconds_total"]))
    atomic_write_text(out / SUMMARY, json.dumps(summary, indent=2))
    try:
        from training.plots import learning_curve

        learning_curve(out)
    except Exception as e:  # a plot must never lose a finished training run
        print(f"(learning curve not drawn: {e})")
    if stop.requested:
        raise Interrupted(
            stop.signum,
            f"stopped by {stop.name} at step {model.num_timesteps}: saved {last} "
            f"(resume with --resume {out})",
        )
    return out
