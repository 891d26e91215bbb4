"""``nanty train --backend rllib``: multi-agent PPO on Ray RLlib (new API stack), one shared
action-masking policy for every seat the bots do not play.

``train_rllib(config)`` writes under ``out``: ``model.json`` + ``model.safetensors`` (the
trained policy as a nanty-policy checkpoint, playable by ``nanty eval --checkpoint``),
``checkpoints/step_N.*`` and ``checkpoints/last.*`` (the same, every ``checkpoint_every``
iterations), ``progress.csv`` (one row per iteration: env steps, episodes, the policy seats' win
rate, throughput), ``eval.csv`` (the exported policy against ``eval.opponents`` at every
checkpoint), ``tb/`` (TensorBoard: the same and the learner's losses),
``learning_curve.png`` (the SB3 path's figure) and ``train.json`` (totals and the measured env
steps per second); see :mod:`training.rllib.logs`.

The same config runs on one machine (``ray.address: null``: Ray starts here) or on a cluster
(``ray.address: auto`` after ``ray start``, with more ``ray.num_env_runners``); see
``docs/use-from-your-code.md``.
"""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path
from typing import Any

import ray
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.tune.registry import register_env

from nanty_env.storage.files import atomic_write_text
from training.rllib.config import RLlibConfig
from training.rllib.env import NantyMultiAgentEnv
from training.rllib.export import export_module
from training.rllib.logs import RunLog
from training.rllib.module import MaskedMLPModule

ENV_NAME = "nanty_narking_v0"
POLICY = "shared"


def make_env(env_config: dict[str, Any]) -> NantyMultiAgentEnv:
    return NantyMultiAgentEnv(dict(env_config))


def shared_policy(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """Every seat maps to the one shared policy."""
    return POLICY


class WinRate(RLlibCallback):
    """Logs ``policy_seat_win_rate``: the share of the policy's seats that won (chance 1/n;
    against scripted bots it says how the policy fares against them)."""

    def on_episode_end(self, *, episode: Any, metrics_logger: Any = None, **kwargs: Any) -> None:
        infos = episode.get_infos(-1)
        won = [i["seat"] in i["winners"] for i in infos.values() if "winners" in i]
        if won and metrics_logger is not None:
            metrics_logger.log_value(
                "policy_seat_win_rate", sum(won) / len(won), reduce="mean", window=200
            )


def algorithm_config(cfg: RLlibConfig) -> PPOConfig:
    """The RLlib ``PPOConfig`` for ``cfg``."""
    p, r = cfg.ppo, cfg.ray
    module = RLModuleSpec(
        module_class=MaskedMLPModule,
        model_config={"hidden": list(p.hidden), "activation": p.activation},
    )
    return (
        PPOConfig()
        .environment(ENV_NAME, env_config=cfg.env_config())
        .env_runners(
            num_env_runners=r.num_env_runners,
            num_envs_per_env_runner=r.num_envs_per_env_runner,
            num_cpus_per_env_runner=1,
            rollout_fragment_length="auto",
        )
        .multi_agent(policies={POLICY}, policy_mapping_fn=shared_policy)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={POLICY: module}))
        .training(
            train_batch_size_per_learner=p.train_batch_size,
            minibatch_size=p.minibatch_size,
            num_epochs=p.num_epochs,
            lr=p.lr,
            gamma=p.gamma,
            lambda_=p.lambda_,
            entropy_coeff=p.entropy_coeff,
            clip_param=p.clip_param,
        )
        .callbacks(WinRate)
        .debugging(seed=cfg.seed, log_level="ERROR")
    )


def build_algorithm(cfg: RLlibConfig) -> Any:
    """The PPO algorithm of ``cfg`` (Ray must be running), with the driver's torch threads set."""
    import torch

    torch.set_num_threads(cfg.torch_threads)
    register_env(ENV_NAME, make_env)
    return algorithm_config(cfg).build_algo()


def start_ray(cfg: RLlibConfig) -> bool:
    """Connect to ``ray.address`` or start Ray here; True if this call started it."""
    if ray.is_initialized():
        return False
    os.environ.setdefault("RAY_DEDUP_LOGS", "0")
    kwargs: dict[str, Any] = {
        "include_dashboard": False,
        "log_to_driver": False,
        "logging_level": logging.ERROR,
    }
    if cfg.ray.address is None:
        _loopback_only()
        kwargs |= {"address": "local", "num_cpus": cfg.ray.num_cpus, "_node_ip_address": LOOPBACK}
    else:
        kwargs["address"] = cfg.ray.address
    ray.init(**kwargs)
    return True


LOOPBACK = "127.0.0.1"


def _loopback_only() -> None:
    """Make a Ray started here listen and talk on loopback only (not the machine's network
    address): nothing outside needs to reach a single-machine run. Ray's switch for this is
    ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` (read by every Ray process it starts; the driver
    has read it already, so its copy is set too)."""
    from ray._private import ray_constants

    os.environ[ray_constants.ENABLE_RAY_CLUSTERS_ENV_VAR] = "0"
    ray_constants.ENABLE_RAY_CLUSTER = False


def train_rllib(cfg: RLlibConfig, *, out: str | Path | None = None, progress: bool = True) -> Path:
    """Train and export; returns the output folder. Refuses a folder that holds a run."""
    out = Path(out or cfg.out)
    if (out / "train.json").exists() or (out / "model.json").exists():
        raise FileExistsError(f"{out} already holds a training run; give another --out")
    out.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out / "config.json", json.dumps(cfg.to_dict(), indent=2) + "\n")
    started = start_ray(cfg)
    algo = build_algorithm(cfg)
    try:
        summary = _loop(algo, cfg, out, progress)
    finally:
        algo.stop()
        if started:
            ray.shutdown()
    atomic_write_text(out / "train.json", json.dumps(summary, indent=2) + "\n")
    return out


def _loop(algo: Any, cfg: RLlibConfig, out: Path, progress: bool) -> dict[str, Any]:
    total = cfg.ppo.total_timesteps
    deadline = None
    if cfg.time_limit_minutes is not None:
        deadline = time.monotonic() + 60 * cfg.time_limit_minutes
    bar = _bar(total, progress)
    t0 = time.perf_counter()
    steps, iteration, evaluating = 0, 0, 0.0
    with RunLog(out, POLICY) as log:
        while steps < total and (deadline is None or time.monotonic() < deadline):
            result = algo.train()
            iteration += 1
            steps = int(result.get("num_env_steps_sampled_lifetime", steps))
            log.round(iteration, steps, result)
            bar.n = min(steps, total)
            bar.refresh()
            if iteration % cfg.checkpoint_every == 0:
                _export(algo, cfg, out / "checkpoints", steps, iteration)
                if cfg.eval.games:
                    e0 = time.perf_counter()
                    log.evaluate(out / "checkpoints" / "last", cfg, steps)
                    evaluating += time.perf_counter() - e0
        bar.close()
        wall = time.perf_counter() - t0 - evaluating  # training alone
        _export(algo, cfg, out / "checkpoints", steps, iteration)
        _export(algo, cfg, out, steps, iteration, name="model")
        if cfg.eval.games and iteration % cfg.checkpoint_every:
            e0 = time.perf_counter()
            log.evaluate(out / "model", cfg, steps)
            evaluating += time.perf_counter() - e0
        log.curve()
    return {
        "timesteps": steps,
        "iterations": iteration,
        "seconds": round(wall, 1),
        "env_steps_per_second": round(steps / wall, 1) if wall else None,
        "eval_seconds": round(evaluating, 1),
        "num_env_runners": cfg.ray.num_env_runners,
        "ray_address": cfg.ray.address,
    }


def _export(
    algo: Any, cfg: RLlibConfig, folder: Path, steps: int, iteration: int, name: str = ""
) -> None:
    module = algo.get_module(POLICY)
    trained = {"timesteps": steps, "iterations": iteration, "commit": _commit()}
    env = cfg.to_dict()["env"] | {"opponents": cfg.to_dict()["opponents"]}
    names = [name] if name else [f"step_{steps}", "last"]
    for n in names:
        export_module(module, folder / n, env=env, trained_with=trained)


def _commit() -> str:
    """The project's git commit (empty outside a git checkout)."""
    import subprocess

    try:
        return subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


class _NoBar:
    n = 0

    def refresh(self) -> None:
        return None

    def close(self) -> None:
        return None


def _bar(total: int, enabled: bool) -> Any:
    if not enabled:
        return _NoBar()
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="step", desc="rllib training")
