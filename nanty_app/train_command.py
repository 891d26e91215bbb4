"""``nanty train``: the training subcommand of the ``nanty`` command line.

Two backends read their own YAML config: ``sb3`` (default; self-play MaskablePPO on the
single-learner env, ``configs/quick.yaml``) and ``rllib`` (multi-agent PPO with one shared
policy on Ray RLlib, ``configs/rllib_quick.yaml``; the ``rllib`` extra).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from nanty_app.arguments import DefaultsFormatter, UsageError, positive_float, positive_int

DEFAULT_CONFIGS = {"sb3": "quick", "rllib": "rllib_quick"}


def add_train_parser(sub: argparse._SubParsersAction) -> None:
    help = (
        "train from a YAML config: a policy (MaskablePPO self-play, or RLlib multi-agent PPO) "
        "or, with value.enabled, the learned bot's value network"
    )
    tr = sub.add_parser("train", help=help, description=help, formatter_class=DefaultsFormatter)
    tr.add_argument(
        "--backend",
        choices=tuple(DEFAULT_CONFIGS),
        default="sb3",
        help="sb3: MaskablePPO on the single-learner env; rllib: Ray RLlib multi-agent PPO",
    )
    tr.add_argument(
        "--config",
        help="YAML config, a path or a shipped name (default: quick for sb3, rllib_quick "
        "for rllib)",
    )
    tr.add_argument(
        "--total-timesteps", type=positive_int, help="override the config's ppo.total_timesteps"
    )
    tr.add_argument("--out", help="output folder (default: the config's 'out')")
    tr.add_argument(
        "--resume",
        help="sb3: run folder or checkpoint to continue (DIR, or DIR/checkpoints/step_N)",
    )
    tr.add_argument(
        "--trust-checkpoint",
        action="store_true",
        help="sb3: allow --resume from an SB3 .zip (unpickled: runs any code in it; only your own)",
    )
    tr.add_argument("--seed", type=int, help="override the config's seed")
    tr.add_argument("--minutes", type=positive_float, help="wall-time limit (then save and stop)")
    tr.add_argument(
        "--ray-address",
        help="rllib only: a running Ray cluster to join ('auto' or HOST:PORT; default: the "
        "config's ray.address, null = start Ray here)",
    )
    tr.add_argument(
        "--env-runners",
        type=int,
        help="rllib only: override ray.num_env_runners (0 samples in the driver)",
    )
    tr.add_argument("--no-progress", action="store_true", help="show no progress bar")
    tr.set_defaults(func=cmd_train)


def cmd_train(args: argparse.Namespace) -> int:
    if args.backend == "rllib":
        return _train_rllib(args)
    for flag, value in (
        ("--ray-address", args.ray_address),
        ("--env-runners", args.env_runners),
    ):
        if value is not None:
            raise UsageError(f"{flag} is for --backend rllib; leave it out for sb3")
    try:
        from training.config import ConfigError, load_config
        from training.train import RunFolderError, train
    except ImportError as e:
        raise UsageError(
            f"training needs the train extra ({e}); pip install 'nanty-narking[train]'"
        ) from e
    from agents.interrupts import Interrupted

    try:
        cfg = _load(load_config, args)
        out = train(
            cfg,
            total_timesteps=args.total_timesteps,
            out=args.out,
            resume=args.resume,
            progress=not args.no_progress,
            trust_checkpoint=args.trust_checkpoint,
        )
    except (ConfigError, RunFolderError) as e:
        raise UsageError(str(e)) from e
    except Interrupted as e:
        print(f"nanty train: {e}")
        return 128 + e.signum
    if cfg.value.enabled:
        n = cfg.env.num_players
        print(f"wrote {out} (value_net_{n}p.json/.safetensors, nets/, records/, train.json)")
    else:
        print(f"wrote {out} (model.json/.safetensors, checkpoints/, eval.csv, learning_curve.png)")
    return 0


def _load(load_config: Any, args: argparse.Namespace) -> Any:
    """The training config, or one line saying why it cannot be read (a YAML file nested too
    deeply for the parser, bytes that are not UTF-8)."""
    path = _config(args)
    try:
        return load_config(path, seed=args.seed, time_limit_minutes=args.minutes)
    except RecursionError as e:
        raise UsageError(f"config {path}: nested too deeply to read") from e
    except UnicodeDecodeError as e:
        raise UsageError(f"config {path}: not a text (UTF-8) file ({e.reason})") from e


def _config(args: argparse.Namespace) -> Path:
    """The config file ``--config`` names (a path, or a shipped config's name)."""
    from training.config import CONFIG_DIR, config_path

    path = config_path(args.config or DEFAULT_CONFIGS[args.backend])
    if not path.is_file():
        shipped = ", ".join(sorted(p.stem for p in CONFIG_DIR.glob("*.yaml")))
        raise UsageError(f"config {args.config} not found; give a YAML path or one of: {shipped}")
    return path


def _train_rllib(args: argparse.Namespace) -> int:
    if args.resume is not None or args.trust_checkpoint:
        raise UsageError(
            "--resume is not supported with --backend rllib (RLlib's own checkpoints are "
            "pickles); start a new run"
        )
    try:
        from training.config import ConfigError
        from training.rllib.config import load_rllib_config
    except ImportError as e:
        raise UsageError(
            f"training needs the train extra ({e}); pip install 'nanty-narking[train]'"
        ) from e
    try:
        cfg = load_rllib_config(
            _config(args),
            seed=args.seed,
            time_limit_minutes=args.minutes,
            **{
                "ppo.total_timesteps": args.total_timesteps,
                "ray.address": args.ray_address,
                "ray.num_env_runners": args.env_runners,
            },
        )
    except ConfigError as e:
        raise UsageError(str(e)) from e
    try:
        from training.rllib.train import train_rllib
    except ImportError as e:
        raise UsageError(
            f"--backend rllib needs Ray RLlib ({e}); pip install 'nanty-narking[rllib]'"
        ) from e
    try:
        out = train_rllib(cfg, out=args.out, progress=not args.no_progress)
    except FileExistsError as e:
        raise UsageError(str(e)) from e
    print(f"wrote {out} (model.json + model.safetensors, checkpoints/, progress.csv, train.json)")
    seats = ",".join(["ppo"] + ["random"] * (cfg.env.num_players - 1))
    print(f"play it: nanty eval --bots {seats} --checkpoint {out / 'model.json'}")
    return 0
