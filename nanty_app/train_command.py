"""``nanty train``: the training subcommand of the ``nanty`` command line."""

from __future__ import annotations

import argparse


def add_train_parser(sub: argparse._SubParsersAction) -> None:
    tr = sub.add_parser(
        "train", help="self-play MaskablePPO (or value-network rounds) from a YAML config"
    )
    tr.add_argument("--config", default="configs/quick.yaml", help="YAML config (or its name)")
    tr.add_argument("--total-timesteps", type=int, help="override ppo.total_timesteps")
    tr.add_argument("--out", help="output folder (default: the config's 'out')")
    tr.add_argument("--resume", help="checkpoint to resume from (e.g. DIR/checkpoints/last.zip)")
    tr.add_argument("--seed", type=int, help="override the config's seed")
    tr.add_argument("--minutes", type=float, help="wall-time limit (then save and stop)")
    tr.add_argument("--no-progress", action="store_true")
    tr.set_defaults(func=cmd_train)


def cmd_train(args: argparse.Namespace) -> int:
    from training.config import load_config
    from training.train import train

    cfg = load_config(args.config, seed=args.seed, time_limit_minutes=args.minutes)
    out = train(
        cfg,
        total_timesteps=args.total_timesteps,
        out=args.out,
        resume=args.resume,
        progress=not args.no_progress,
    )
    if cfg.value.enabled:
        n = cfg.env.num_players
        print(f"wrote {out} (value_net_{n}p.json/.safetensors, nets/, records/, train.json)")
    else:
        print(f"wrote {out} (model.zip, checkpoints/, eval.csv, learning_curve.png, tb/)")
    return 0
