"""``nanty coverage``: how often every card, symbol, event, ability, interrupt and ending occurs
over many games, for the base game or the expansion (a table, and a plot with ``--plot``).

    nanty coverage --games 500                          # random play, 2-4 players, base game
    nanty coverage --games 500 --expansion cthulhu --plot coverage.png
    nanty coverage --games 200 --bots heuristic,random,random,random
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from nanty_app.arguments import (
    EXPANSION_HELP,
    UsageError,
    check_content,
    make_folder,
    non_negative_int,
    player_counts,
    positive_int,
    ruleset_name,
)


def cmd_coverage(args: argparse.Namespace) -> int:
    from nanty_env.engine import Coverage, count_coverage

    check_content(args)
    if args.plot:
        make_folder(Path(args.plot).parent, "--plot")
    players = args.players
    if args.bots:
        cov = _bot_coverage(args)
    else:
        cov = count_coverage(
            args.games,
            expansion=args.expansion,
            players=players,
            seed=args.seed,
            content=args.content,
        )
    assert isinstance(cov, Coverage)
    print(cov.table())
    if args.plot:
        print(f"wrote {cov.plot(args.plot)}")
    return 0


def _bot_coverage(args: argparse.Namespace) -> Any:
    """Seat the ``--bots`` (one spec per seat) with the tournament harness and count."""
    from agents.base import play_game
    from agents.registry import make_bot
    from nanty_env.engine import Coverage, GameConfig

    specs = [b.strip() for b in args.bots.split(",") if b.strip()]
    if len(specs) not in (2, 3, 4):
        raise UsageError(f"--bots names {len(specs)} bots; give 2, 3 or 4 (one per seat)")
    cfg = GameConfig(
        num_players=len(specs), log=False, expansion=args.expansion, content=args.content
    )
    cov = Coverage(args.games, args.expansion)
    for i in range(args.games):
        bots = [make_bot(s) for s in specs]
        g, _ = play_game(bots, cfg, args.seed + i, on_action=cov.record)
        cov.end(g)
    return cov


def add_coverage_parser(sub: Any) -> None:
    co = sub.add_parser(
        "coverage",
        help="how often every card, symbol, event, ability, interrupt and ending occurs",
    )
    co.add_argument("--games", type=positive_int, default=300, help="games to play")
    co.add_argument("--expansion", type=ruleset_name, metavar="RULESET", help=EXPANSION_HELP)
    co.add_argument("--content", help="the expansion's content pack (a TOML file or directory)")
    co.add_argument(
        "--players",
        type=player_counts,
        default="2,3,4",
        help="player counts, in turn (random play)",
    )
    co.add_argument("--bots", help="comma-separated bot specs, one per seat (instead of random)")
    co.add_argument("--seed", type=non_negative_int, default=0, help="seed of the first game")
    co.add_argument("--plot", metavar="PNG", help="also draw the counts as bar charts")
    co.set_defaults(func=cmd_coverage)
