"""``nanty metagame``: the payoff table of a pool of bots, ranked by α-Rank, Nash averaging
and replicator dynamics beside openskill ratings (:mod:`arena.metagame`).

    nanty metagame --bots random,heuristic,learned --players 2 --games 20 --out runs/mg/2p.json
    nanty metagame --bots heuristic,heuristic:roles=none,heuristic:conceal=1 --players 4
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from nanty_app.arguments import (
    EXPANSION_HELP,
    RAY_HELP,
    UsageError,
    bot_list,
    check_content,
    make_folder,
    non_negative_int,
    player_count,
    positive_float,
    positive_int,
    ruleset_name,
)


def cmd_metagame(args: argparse.Namespace) -> int:
    from arena.metagame import format_metagame, lineups, metagame, write_metagame
    from nanty_app.leakage_command import _check_networks

    pool = bot_list(args.bots, args.checkpoint, args.trust_checkpoint)
    if len(pool) < 2 or len(set(pool)) != len(pool):
        raise UsageError(f"--bots {args.bots!r}: give at least two different bot specs")
    check_content(args)
    _check_networks(list(pool), args.players)
    try:
        from open_spiel.python.egt import alpharank  # noqa: F401
    except ImportError as e:
        raise UsageError(
            "nanty metagame ranks with OpenSpiel's egt package: pip install open_spiel "
            "(the project's [bench] extra)"
        ) from e
    if args.out:
        make_folder(Path(args.out).parent, "--out")
    n = len(lineups(len(pool), args.players))
    print(f"{n} line-ups of {args.games} games each at {args.players} players")
    report = metagame(
        pool,
        args.players,
        args.games,
        args.seed,
        alpha=args.alpha,
        population=args.population,
        workers=args.workers,
        progress=not args.no_progress,
        expansion=args.expansion,
        content=args.content,
        ray_address=args.ray_address,
    )
    print(format_metagame(report))
    if args.out:
        for path in write_metagame(report, args.out, plots=not args.no_plots):
            print(f"wrote {path}")
    return 0


def add_metagame_parser(sub: Any) -> None:
    p = sub.add_parser(
        "metagame",
        help="payoff table of a pool of bots with alpha-Rank, Nash averaging, replicator "
        "dynamics and openskill ratings",
        description=__doc__.split("\n")[0],
    )
    p.set_defaults(func=cmd_metagame)
    p.add_argument("--bots", required=True, help="comma-separated bot specs: the pool")
    p.add_argument("--checkpoint", help="trained policy that the bot name 'ppo' stands for")
    p.add_argument(
        "--trust-checkpoint", action="store_true", help="allow SB3 .zip checkpoints (your own)"
    )
    p.add_argument("--players", type=player_count, default=2, help="players per game")
    p.add_argument(
        "--games", type=positive_int, default=20, help="games per line-up (seats rotated)"
    )
    p.add_argument("--seed", type=non_negative_int, default=0, help="base seed of the deals")
    p.add_argument("--alpha", type=positive_float, default=10.0, help="alpha-Rank's intensity")
    p.add_argument(
        "--population", type=positive_int, default=50, help="alpha-Rank's population size"
    )
    p.add_argument("--expansion", type=ruleset_name, metavar="RULESET", help=EXPANSION_HELP)
    p.add_argument("--content", help="the expansion's content pack (with --expansion)")
    p.add_argument("--out", help="JSON report; OUT.md and OUT_payoffs.png beside it")
    p.add_argument("--workers", type=positive_int, default=2, help="worker processes")
    p.add_argument("--no-plots", action="store_true", help="write no PNG plot")
    p.add_argument("--no-progress", action="store_true", help="show no progress bar")
    p.add_argument("--ray-address", help=RAY_HELP)
