"""Bot speed on one core: milliseconds per decision of the bot and seconds per whole game.

    python benchmarks/bots.py                       # all bots, 2 and 4 players
    python benchmarks/bots.py --bots ismcts --players 2 --games 1

Each round plays ``--games`` seeded games per (bot, players) case; rounds interleaved
(``benchmarks/harness.py``). For ISMCTS this is the budget check of the targets: a whole
2-player game against HeuristicBot (both bots' thinking plus the engine) must take under a
minute on one core.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from harness import Measured, Summary, add_arguments, footer, header, interleave, table, write_json

from agents.base import bot_rngs, play_game
from agents.registry import make_bot
from nanty_env.engine import GameConfig

DEFAULT_OPPONENT = {"random": "random", "heuristic": "random"}


def case(spec: str, n: int, other: str, games: int, seed: int, per_decision: list[float]):
    """Seconds per game (wall, CPU); the bot's own ms per decision go to ``per_decision``."""

    def run() -> Measured:
        bot_time = 0.0
        decisions = 0
        start, cpu_start = time.perf_counter(), time.process_time()
        for i in range(games):
            bots = [make_bot(spec)] + [make_bot(other) for _ in range(n - 1)]
            counter = _Counting(bots[0])
            bots[0] = counter
            s = seed + i
            _, rec = play_game(bots, GameConfig(num_players=n, log=False), s, bot_rngs(s, n))
            bot_time += rec.seconds[0]
            decisions += counter.calls
        per_decision.append(1000 * bot_time / max(1, decisions))
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu_start
        return Measured(wall / games, cpu / games)

    return run


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bots", default="random,heuristic,ismcts")
    ap.add_argument("--players", default="2,4")
    ap.add_argument("--games", type=int, default=1, help="games per case and round")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--opponent", default=None, help="bot in the other seats (default: heuristic)")
    add_arguments(ap)
    args = ap.parse_args(argv)
    info = header("bots: speed on one core", args.rounds)
    cases: dict[str, Callable[[], Measured]] = {}
    per_decision: dict[str, list[float]] = {}
    for spec in args.bots.split(","):
        for n in (int(x) for x in args.players.split(",")):
            other = args.opponent or DEFAULT_OPPONENT.get(spec, "heuristic")
            name = f"{spec} {n}p vs {other}"
            per_decision[name] = []
            cases[name] = case(spec, n, other, args.games, args.seed, per_decision[name])
    result = interleave(cases, args.rounds, warmup=False)
    rows = [
        [
            name,
            Summary(tuple(per_decision[name])).format(2),
            result.summary(name).format(2),
            result.summary(name, cpu=True).format(2),
        ]
        for name in cases
    ]
    print(table(["bot", "bot ms/decision", "s/game (wall)", "s/game (CPU)"], rows))
    footer(result)
    write_json(args.json, info, bots=result)


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
