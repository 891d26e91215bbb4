"""``nanty leakage``: how fast the best observer reads each bot's hidden role, beside the bot's
win rate, on the same games for every bot (:mod:`arena.leakage`).

    nanty leakage --bots random,heuristic,learned --players 4 --games 20 --out runs/leak/4p.json
    nanty leakage --bots ismcts --players 2 --games 10 --observer-kinds main
    nanty leakage --bots heuristic,heuristic:conceal=2 --opponent heuristic:roles=none
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from nanty_app.arguments import (
    RAY_HELP,
    UsageError,
    bot_list,
    make_folder,
    non_negative_int,
    player_count,
    positive_int,
)


def cmd_leakage(args: argparse.Namespace) -> int:
    from agents.registry import check_spec
    from arena.leakage import format_markdown, leakage_table, write_leakage

    bots = bot_list(args.bots, args.checkpoint, args.trust_checkpoint)
    check_spec(args.opponent)
    if args.observer_bot is not None:
        check_spec(args.observer_bot)
    _check_networks([*bots, args.opponent], args.players)
    if args.horizon < 1:
        raise UsageError(f"--horizon must be at least 1, got {args.horizon}")
    if args.out:
        make_folder(Path(args.out).parent, "--out")
    kinds = args.observer_kinds.split("+") if args.observer_kinds else None
    table = leakage_table(
        bots,
        args.players,
        args.games,
        args.seed,
        opponent=args.opponent,
        observer_bot=args.observer_bot,
        samples=args.samples,
        kinds=kinds,
        horizon=args.horizon,
        boot=args.boot,
        workers=args.workers,
        progress=not args.no_progress,
        ray_address=args.ray_address,
        observer=args.observer,
    )
    print(
        f"leakage: {args.games} games per bot at {args.players} players against "
        f"{args.opponent} (game seeds {args.seed * 100000}-{args.seed * 100000 + args.games - 1})"
    )
    print(format_markdown(table))
    if args.out:
        for path in write_leakage(table, args.out, plots=not args.no_plots):
            print(f"wrote {path}")
    return 0


def _check_networks(specs: list[str], players: int) -> None:
    """A bot whose shipped network is missing (``ppo`` before one ships) is a one-line usage
    error before any game."""
    from agents.checkpoint import CheckpointError
    from agents.shipped import check_shipped

    try:
        check_shipped(specs, players)
    except CheckpointError as e:
        raise UsageError(str(e).splitlines()[0]) from e


def add_leakage_parser(sub: Any) -> None:
    p = sub.add_parser(
        "leakage",
        help="how fast each bot's hidden role is read by its own policy model, and its win rate",
        description=__doc__.split("\n")[0],
    )
    p.set_defaults(func=cmd_leakage)
    p.add_argument("--bots", required=True, help="comma-separated bot specs, one row each")
    p.add_argument("--checkpoint", help="trained policy that the bot name 'ppo' stands for")
    p.add_argument(
        "--trust-checkpoint", action="store_true", help="allow SB3 .zip checkpoints (your own)"
    )
    p.add_argument("--players", type=player_count, default=4, help="players per game")
    p.add_argument("--games", type=positive_int, default=20, help="games per bot")
    p.add_argument("--seed", type=non_negative_int, default=1, help="base seed of the games")
    p.add_argument("--opponent", default="heuristic", help="bot spec of every seat but the bot's")
    p.add_argument(
        "--observer",
        choices=("policy", "fitted"),
        default="policy",
        help="who reads the bot: its policy model (the best observer) or the shipped fitted "
        "role model (what HeuristicBot opponents read)",
    )
    p.add_argument(
        "--observer-bot",
        help="the bot the observer's policy model assumes (default: each row's own bot)",
    )
    p.add_argument(
        "--observer-kinds",
        help="decision kinds the observer uses, e.g. main (card plays only; cheaper)",
    )
    p.add_argument(
        "--samples", type=positive_int, default=1, help="determinisations per observed action"
    )
    p.add_argument("--horizon", type=positive_int, default=6, help="own turns in the AUC (1..H)")
    p.add_argument(
        "--boot", type=positive_int, default=1000, help="bootstrap resamples of the games"
    )
    p.add_argument(
        "--out", help="JSON report; OUT.md, OUT_accuracy.png and OUT_tradeoff.png beside it"
    )
    p.add_argument("--workers", type=positive_int, default=2, help="worker processes")
    p.add_argument("--no-plots", action="store_true", help="write no PNG plots")
    p.add_argument("--no-progress", action="store_true", help="show no progress bar")
    p.add_argument("--ray-address", help=RAY_HELP)
