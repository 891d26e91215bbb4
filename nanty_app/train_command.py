"""``nanty train``: the training subcommand of the ``nanty`` command line."""

from __future__ import annotations

import argparse


def add_train_parser(sub: argparse._SubParsersAction) -> None:
    tr = sub.add_parser("train", help="self-play MaskablePPO training from a YAML config")
    tr.add_argument("--config", default="configs/quick.yaml", help="YAML config (or its name)")
    tr.add_argument("--total-timesteps", type=int, help="override ppo.total_timesteps")
    tr.add_argument("--out", help="output folder (default: the config's 'out')")
    tr.add_argument(
        "--resume",
        help="run folder or checkpoint to continue (DIR, or DIR/checkpoints/step_N)",
    )
    tr.add_argument(
        "--trust-checkpoint",
        action="store_true",
        help="allow --resume from an SB3 .zip (unpickled: runs any code in it; only your own)",
    )
    tr.add_argument("--seed", type=int, help="override the config's seed")
    tr.add_argument("--minutes", type=float, help="wall-time limit (then save and stop)")
    tr.add_argument("--no-progress", action="store_true")
    tr.set_defaults(func=cmd_train)


def cmd_train(args: argparse.Namespace) -> int:
    from agents.interrupts import Interrupted
    from training.config import ConfigError, load_config
    from training.train import RunFolderError, train

    try:
        cfg = load_config(args.config, seed=args.seed, time_limit_minutes=args.minutes)
        out = train(
            cfg,
            total_timesteps=args.total_timesteps,
            out=args.out,
            resume=args.resume,
            progress=not args.no_progress,
            trust_checkpoint=args.trust_checkpoint,
        )
    except (ConfigError, RunFolderError) as e:
        raise SystemExit(f"nanty train: {e}") from None
    except Interrupted as e:
        print(f"nanty train: {e}")
        return 128 + e.signum
    print(f"wrote {out} (model.json/.safetensors, checkpoints/, eval.csv, learning_curve.png)")
    return 0
