"""The run that shows the C compiler where the compiled build spends its time (profile-guided
optimisation, ``nanty_env._build``): what users run most, in small doses.

    python -m agents.pgo_workload            # what the build runs on its instrumented modules

Random play of both rulesets (``Game.new``, ``apply``, ``legal_actions``, a ``clone`` at every
decision with a choice), the observation encoders at every decision of some of those games, and
whole games of the heuristic bot and of a small ISMCTS against it (the bots' look-ahead).
Seeded: the same run every time. It takes some seconds on the instrumented build; what it plays
is never kept.
"""

from __future__ import annotations

import argparse
import random

from agents.base import bot_rngs, play_game
from agents.registry import make_bot
from nanty_env.encoding.cthulhu_observation import CthulhuEncoder
from nanty_env.encoding.observation import Encoder
from nanty_env.engine import Game, GameConfig

RULESETS = (None, "cthulhu")  # GameConfig.expansion of each ruleset


def random_games(expansion: str | None, games: int, encode: bool) -> int:
    """Play ``games`` seeded random 4-player games; returns the decisions played."""
    cfg = GameConfig(num_players=4, expansion=expansion, log=False)
    encoder = (CthulhuEncoder() if expansion else Encoder()) if encode else None
    decisions = 0
    for seed in range(games):
        g = Game.new(cfg, seed)
        choose = random.Random(seed).choice
        while not g.is_terminal:
            if len(g.legal) > 1:
                g.clone()
            if encoder is not None:
                encoder(g, g.current_player)
            g.apply(choose(g.legal_actions()))
            decisions += 1
    return decisions


def bot_games(expansion: str | None, spec: str, games: int) -> None:
    """Seeded 4-player games of bot ``spec`` in seat 0 against the heuristic bot."""
    cfg = GameConfig(num_players=4, expansion=expansion, log=False)
    for seed in range(games):
        bots = [make_bot(spec), *(make_bot("heuristic") for _ in range(3))]
        play_game(bots, cfg, seed, bot_rngs(seed, 4))


def run(scale: int = 1) -> int:
    """The whole workload (``scale`` times the games); returns the random decisions played."""
    decisions = 0
    for expansion in RULESETS:
        decisions += random_games(expansion, 60 * scale, encode=False)
        decisions += random_games(expansion, 8 * scale, encode=True)
        bot_games(expansion, "heuristic", scale)
        bot_games(expansion, "ismcts:iters=8", scale)
    return decisions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=1, help="times the default games")
    args = parser.parse_args(argv)
    print(f"pgo workload: {run(args.scale)} random decisions and the bots' games")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
