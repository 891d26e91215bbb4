"""Speed of the rules engine under random play: decisions per second and games per second.

Each player count gets a short warm-up, then plays whole random games (uniform over the legal
actions, from a seeded ``random.Random``) until its time budget is spent. One process, one
core; rates are per second of the process's CPU time (the wall-clock rate is printed too, and
is lower on a busy machine). The game log is off unless ``--log`` is given, as in training.

    .venv/bin/python benchmarks/engine.py                 # 2, 3 and 4 players, 5 s each
    .venv/bin/python benchmarks/engine.py --seconds 20 --players 4
    .venv/bin/python benchmarks/engine.py --log           # with the human-readable log
    .venv/bin/python benchmarks/engine.py --strict        # exit 1 below the 4-player target
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from dataclasses import dataclass

from nanty_env.engine.config import GameConfig
from nanty_env.engine.game import Game

TARGET_PLAYERS = 4
TARGET_DECISIONS_PER_SECOND = 50_000


@dataclass
class Result:
    """Counts over the measured period; rates are per second of this process's CPU time
    (one core, so a busy machine does not distort them), with wall-clock time alongside."""

    players: int
    games: int
    decisions: int
    cpu_seconds: float
    wall_seconds: float

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.cpu_seconds

    @property
    def games_per_second(self) -> float:
        return self.games / self.cpu_seconds

    @property
    def wall_decisions_per_second(self) -> float:
        return self.decisions / self.wall_seconds


def play(n: int, seed: int, log: bool) -> int:
    """One random game; returns the number of decisions taken."""
    g = Game.new(GameConfig(num_players=n, log=log), seed)
    choose = random.Random(seed).choice
    decisions = 0
    while not g.is_terminal:
        g.apply(choose(g.legal_actions()))
        decisions += 1
    return decisions


def run(n: int, seconds: float, warmup: float, log: bool, seed: int) -> Result:
    """Warm up for ``warmup`` seconds, then play whole games for about ``seconds``."""
    stop = time.perf_counter() + warmup
    s = seed + 1_000_000
    while time.perf_counter() < stop:
        play(n, s, log)
        s += 1
    games = decisions = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    stop = start + seconds
    s = seed
    while True:
        decisions += play(n, s, log)
        games += 1
        s += 1
        now = time.perf_counter()
        if now >= stop:
            cpu = time.process_time() - cpu_start
            return Result(n, games, decisions, cpu, now - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="budget per player count")
    parser.add_argument("--warmup", type=float, default=1.0, help="warm-up seconds per count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], choices=[2, 3, 4])
    parser.add_argument("--log", action="store_true", help="keep the game log (off by default)")
    parser.add_argument("--seed", type=int, default=0, help="first game seed")
    parser.add_argument(
        "--strict", action="store_true", help="exit with status 1 when below the target"
    )
    args = parser.parse_args(argv)

    print(
        f"engine benchmark: random play, one core, log {'on' if args.log else 'off'}, "
        f"{args.seconds:g} s per player count after a {args.warmup:g} s warm-up "
        f"(Python {platform.python_version()}, {platform.machine()})"
    )
    print(
        f"{'players':>7} {'games':>7} {'decisions':>10} {'decisions/s':>12} {'games/s':>9}"
        f" {'(wall decisions/s)':>19}"
    )
    results = {}
    for n in args.players:
        r = run(n, args.seconds, args.warmup, args.log, args.seed)
        results[n] = r
        print(
            f"{n:>7} {r.games:>7} {r.decisions:>10} {r.decisions_per_second:>12,.0f} "
            f"{r.games_per_second:>9.1f} {r.wall_decisions_per_second:>19,.0f}"
        )
        sys.stdout.flush()

    ok = True
    if TARGET_PLAYERS in results:
        rate = results[TARGET_PLAYERS].decisions_per_second
        ok = rate >= TARGET_DECISIONS_PER_SECOND
        print(
            f"target: {TARGET_PLAYERS} players >= {TARGET_DECISIONS_PER_SECOND:,} decisions/s: "
            f"{'met' if ok else 'NOT met'} ({rate:,.0f})"
        )
    return 0 if ok or not args.strict else 1


if __name__ == "__main__":
    sys.exit(main())
