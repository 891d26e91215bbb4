"""Bot speed on one core: seconds per decision and per game for each bot.

    python benchmarks/bots.py                       # all bots, 2 and 4 players
    python benchmarks/bots.py --bots ismcts --players 2 --games 3

For ISMCTS this is the budget check of the targets: a whole 2-player game against
HeuristicBot (both bots' thinking plus the engine) must take under a minute on one core.
"""

from __future__ import annotations

import argparse
import time

from agents.base import bot_rngs, play_game
from agents.registry import make_bot
from nanty_env.engine import GameConfig

DEFAULT_OPPONENT = {"random": "random", "heuristic": "random"}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bots", default="random,heuristic,ismcts")
    ap.add_argument("--players", default="2,4")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--opponent", default=None, help="bot in the other seats (default: heuristic)")
    args = ap.parse_args(argv)

    print(
        f"{'bot':<24} {'players':>7} {'games':>5} {'decisions':>9} {'ms/decision':>11} "
        f"{'s/game (bot)':>12} {'s/game (all)':>12}"
    )
    for spec in args.bots.split(","):
        for n in (int(x) for x in args.players.split(",")):
            other = args.opponent or DEFAULT_OPPONENT.get(spec, "heuristic")
            bot_time = wall = 0.0
            decisions = 0
            for i in range(args.games):
                bots = [make_bot(spec)] + [make_bot(other) for _ in range(n - 1)]
                counter = _Counting(bots[0])
                bots[0] = counter
                seed = args.seed + i
                t0 = time.perf_counter()
                _, rec = play_game(
                    bots, GameConfig(num_players=n, log=False), seed, bot_rngs(seed, n)
                )
                wall += time.perf_counter() - t0
                bot_time += rec.seconds[0]
                decisions += counter.calls
            print(
                f"{spec:<24} {n:>7} {args.games:>5} {decisions / args.games:>9.0f} "
                f"{1000 * bot_time / max(1, decisions):>11.2f} {bot_time / args.games:>12.2f} "
                f"{wall / args.games:>12.2f}",
                flush=True,
            )


class _Counting:
    """Wraps a bot and counts the decisions it is asked (forced ones are not asked)."""

    def __init__(self, bot):
        self.bot, self.calls = bot, 0
        self.name, self.observes = bot.name, bot.observes

    def reset(self, seat, config):
        self.bot.reset(seat, config)

    def observe(self, view):
        self.bot.observe(view)

    def act(self, view, legal_actions, rng):
        self.calls += 1
        return self.bot.act(view, legal_actions, rng)


if __name__ == "__main__":
    main()
