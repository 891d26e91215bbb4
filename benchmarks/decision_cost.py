"""CPU time per decision of each bot, and of the learned bot's network alone.

    python benchmarks/decision_cost.py                      # the ladder's bots, 4 players
    python benchmarks/decision_cost.py --players 2 --rounds 5 --bots learned,ismcts:budget=25

Each round plays one game per bot (the bot in seat 0 against ``--opponent`` in the others; the
same deal for every bot within a round), the bots interleaved round by round, and measures the
process CPU time (``time.process_time``, so other jobs on a shared machine do not inflate it)
spent in the bot's ``act``. For ``learned`` it also measures the part spent in the value
network (features and forward pass, :meth:`agents.learned_bot.NetEvaluator.win_probability`).
Reported: the median over rounds of the per-round mean, with min and max.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

from agents.base import bot_rngs, play_game
from agents.learned_bot import NetEvaluator
from agents.registry import make_bot
from nanty_env.engine import GameConfig

LADDER = "random,heuristic,heuristic:learned=1:robust=1:durable=1,learned"


class _Timed:
    """Wraps a bot: counts its decisions and the CPU time spent in them."""

    def __init__(self, bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.observes = getattr(bot, "observes", False)
        self.calls = 0
        self.cpu = 0.0

    def reset(self, seat, config) -> None:
        self.bot.reset(seat, config)

    def observe(self, view) -> None:
        self.bot.observe(view)

    def act(self, view, legal, rng):
        t = time.process_time()
        a = self.bot.act(view, legal, rng)
        self.cpu += time.process_time() - t
        self.calls += 1
        return a


class _NetClock:
    """Adds up the CPU time spent in the value network while installed."""

    def __init__(self) -> None:
        self.cpu = 0.0
        self._orig = NetEvaluator.win_probability

    def __enter__(self) -> _NetClock:
        orig, clock = self._orig, self

        def timed(ev, g, *args):
            t = time.process_time()
            p = orig(ev, g, *args)
            clock.cpu += time.process_time() - t
            return p

        NetEvaluator.win_probability = timed
        return self

    def __exit__(self, *exc) -> None:
        NetEvaluator.win_probability = self._orig


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bots", default=LADDER)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--opponent", default="heuristic")
    args = ap.parse_args(argv)
    specs = args.bots.split(",")
    n = args.players
    per: dict[str, list[float]] = {s: [] for s in specs}
    net: dict[str, list[float]] = {s: [] for s in specs}
    for r in range(args.rounds):
        seed = args.seed * 100_000 + r
        for spec in specs:
            timed = _Timed(make_bot(spec))
            bots = [timed, *[make_bot(args.opponent) for _ in range(n - 1)]]
            with _NetClock() as clock:
                play_game(bots, GameConfig(num_players=n, log=False), seed, bot_rngs(seed, n))
            per[spec].append(1000 * timed.cpu / max(1, timed.calls))
            net[spec].append(1000 * clock.cpu / max(1, timed.calls))
    print(f"{n} players, {args.rounds} rounds, opponents {args.opponent}; CPU ms per decision")
    print(f"{'bot':<42} {'median':>8} {'min':>8} {'max':>8} {'network':>8}")
    for spec in specs:
        xs = per[spec]
        nets = statistics.median(net[spec])
        net_col = f"{nets:>8.2f}" if nets > 0 else f"{'-':>8}"
        print(f"{spec:<42} {statistics.median(xs):>8.2f} {min(xs):>8.2f} {max(xs):>8.2f} {net_col}")


if __name__ == "__main__":
    main()
