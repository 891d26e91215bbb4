"""Speed of the rules engine under random play: decisions per second and games per second,
for the base game and the Rise of Cthulhu expansion side by side.

Each ruleset and player count gets a short warm-up, then plays whole random games (uniform over
the legal actions, from a seeded ``random.Random``) until its time budget is spent. The
rulesets alternate round by round (``--rounds``), and the table gives each one's median rate
over the rounds with the min-max. One process, one core; rates are per second of the process's
CPU time (the wall-clock rate is printed too, and is lower on a busy machine). The game log is
off unless ``--log`` is given, as in training.

    .venv/bin/python benchmarks/engine.py                 # both rulesets, 2-4 players
    .venv/bin/python benchmarks/engine.py --rulesets base --seconds 20 --players 4
    .venv/bin/python benchmarks/engine.py --log           # with the human-readable log
    .venv/bin/python benchmarks/engine.py --strict        # exit 1 below the targets
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from dataclasses import dataclass

from nanty_env.engine.config import GameConfig
from nanty_env.engine.game import Game

TARGET_PLAYERS = 4
TARGET_DECISIONS_PER_SECOND = 50_000
TARGET_EXPANSION_RATIO = 0.7  # expansion decisions/s over the base game's, 4 players
RULESETS = {"base": None, "cthulhu": "cthulhu"}


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


def play(n: int, seed: int, log: bool, expansion: str | None = None) -> int:
    """One random game; returns the number of decisions taken."""
    g = Game.new(GameConfig(num_players=n, log=log, expansion=expansion), seed)
    choose = random.Random(seed).choice
    decisions = 0
    while not g.is_terminal:
        g.apply(choose(g.legal_actions()))
        decisions += 1
    return decisions


def run(
    n: int, seconds: float, warmup: float, log: bool, seed: int, expansion: str | None = None
) -> Result:
    """Warm up for ``warmup`` seconds, then play whole games for about ``seconds``."""
    stop = time.perf_counter() + warmup
    s = seed + 1_000_000
    while time.perf_counter() < stop:
        play(n, s, log, expansion)
        s += 1
    games = decisions = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    stop = start + seconds
    s = seed
    while True:
        decisions += play(n, s, log, expansion)
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
        "--rulesets",
        nargs="+",
        default=list(RULESETS),
        choices=list(RULESETS),
        help="base game and/or expansion",
    )
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds per ruleset")
    parser.add_argument(
        "--strict", action="store_true", help="exit with status 1 when below a target"
    )
    args = parser.parse_args(argv)

    print(
        f"engine benchmark: random play, one core, log {'on' if args.log else 'off'}, "
        f"{args.rounds} interleaved round(s) of {args.seconds:g} s per ruleset and player count "
        f"after a {args.warmup:g} s warm-up (Python {platform.python_version()}, "
        f"{platform.machine()})"
    )
    runs: dict[tuple[str, int], list[Result]] = {}
    for rnd in range(args.rounds):
        for n in args.players:
            for name in args.rulesets:
                warm = args.warmup if rnd == 0 else 0.0
                r = run(n, args.seconds, warm, args.log, args.seed + rnd, RULESETS[name])
                runs.setdefault((name, n), []).append(r)
    print(
        f"{'ruleset':>8} {'players':>7} {'games':>7} {'decisions':>10} {'decisions/s':>12}"
        f" {'(min-max)':>19} {'games/s':>9} {'(wall decisions/s)':>19}"
    )
    median: dict[tuple[str, int], float] = {}
    for (name, n), rs in runs.items():
        rates = [r.decisions_per_second for r in rs]
        median[name, n] = statistics.median(rates)
        games, decisions = sum(r.games for r in rs), sum(r.decisions for r in rs)
        cpu = sum(r.cpu_seconds for r in rs)
        wall = sum(r.wall_seconds for r in rs)
        spread = f"{min(rates):,.0f}-{max(rates):,.0f}"
        print(
            f"{name:>8} {n:>7} {games:>7} {decisions:>10} {median[name, n]:>12,.0f} "
            f"{spread:>19} {games / cpu:>9.1f} {decisions / wall:>19,.0f}"
        )
    sys.stdout.flush()

    ok = True
    if ("base", TARGET_PLAYERS) in median:
        rate = median["base", TARGET_PLAYERS]
        ok = rate >= TARGET_DECISIONS_PER_SECOND
        print(
            f"target: {TARGET_PLAYERS} players >= {TARGET_DECISIONS_PER_SECOND:,} decisions/s: "
            f"{'met' if ok else 'NOT met'} ({rate:,.0f})"
        )
    if ("base", TARGET_PLAYERS) in median and ("cthulhu", TARGET_PLAYERS) in median:
        ratios = [median["cthulhu", n] / median["base", n] for n in args.players]
        ratio = median["cthulhu", TARGET_PLAYERS] / median["base", TARGET_PLAYERS]
        met = ratio >= TARGET_EXPANSION_RATIO
        ok = ok and met
        print(
            "expansion / base decisions/s by player count: "
            + ", ".join(f"{n}p {r:.2f}" for n, r in zip(args.players, ratios, strict=True))
            + f"; target {TARGET_PLAYERS}p >= {TARGET_EXPANSION_RATIO}: "
            f"{'met' if met else 'NOT met'}"
        )
    return 0 if ok or not args.strict else 1


if __name__ == "__main__":
    sys.exit(main())
