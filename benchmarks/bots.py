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

from harness import (
    PURE,
    Measured,
    PureBuild,
    Summary,
    add_arguments,
    engine_build,
    footer,
    header,
    interleave,
    table,
    write_json,
)

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


def all_cases(
    specs: list[str], players: list[int], opponent: str | None, games: int, seed: int
) -> tuple[dict[str, Callable[[], Measured]], dict[str, list[float]]]:
    """Every (bot, players) case, and the lists its bot's ms per decision go to."""
    cases: dict[str, Callable[[], Measured]] = {}
    per_decision: dict[str, list[float]] = {}
    for spec in specs:
        for n in players:
            other = opponent or DEFAULT_OPPONENT.get(spec, "heuristic")
            name = f"{spec} {n}p vs {other}"
            per_decision[name] = []
            cases[name] = case(spec, n, other, games, seed, per_decision[name])
    return cases, per_decision


def pure_cases(
    specs: list[str], players: list[int], opponent: str | None, games: int, seed: int
) -> dict[str, Callable[[], Measured]]:
    """The same cases for the pure-Python build (``harness.PureBuild``'s child process), and
    beside each a case ``"NAME ms"`` that returns, in its wall field, the bot's milliseconds
    per decision of the last run of ``NAME`` (a ``Measured`` is all the child sends back)."""
    cases, per_decision = all_cases(specs, players, opponent, games, seed)
    out: dict[str, Callable[[], Measured]] = dict(cases)
    for name in cases:
        out[name + " ms"] = lambda name=name: Measured(per_decision[name][-1], 0.0)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bots", default="random,heuristic,ismcts")
    ap.add_argument("--players", default="2,4")
    ap.add_argument("--games", type=int, default=1, help="games per case and round")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--opponent", default=None, help="bot in the other seats (default: heuristic)")
    ap.add_argument(
        "--no-pure",
        action="store_true",
        help="on the compiled build, skip timing the pure-Python build beside it",
    )
    add_arguments(ap)
    args = ap.parse_args(argv)
    info = header("bots: speed on one core", args.rounds)
    specs, players = args.bots.split(","), [int(x) for x in args.players.split(",")]
    cases, per_decision = all_cases(specs, players, args.opponent, args.games, args.seed)
    pure = None
    if not args.no_pure and engine_build() != "pure Python":
        pure = PureBuild(pure_cases, specs, players, args.opponent, args.games, args.seed)
        for name in list(cases):
            per_decision[name + PURE] = []
            cases[name + PURE] = _with_ms(pure, name, per_decision[name + PURE])
    result = interleave(cases, args.rounds, warmup=False)
    if pure is not None:
        pure.close()
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
    if pure is not None:
        print(f"(a{PURE} row: the pure-Python build in a child process, same rounds)")
        for name in per_decision:
            if name + PURE in per_decision:
                ms = Summary(
                    tuple(
                        p / c
                        for p, c in zip(per_decision[name + PURE], per_decision[name], strict=True)
                    )
                )
                cpu = result.ratio(name + PURE, name, cpu=True)
                print(
                    f"{name}: compiled faster by {ms.format(2)} per bot decision, "
                    f"{cpu.format(2)} per game (CPU time)"
                )
    footer(result)
    write_json(args.json, info, bots=result)


def _with_ms(pure: PureBuild, name: str, per_decision: list[float]) -> Callable[[], Measured]:
    """The pure build's case ``name``; its bot's ms per decision go to ``per_decision``."""
    run, ms = pure.case(name), pure.case(name + " ms")

    def measure() -> Measured:
        out = run()
        per_decision.append(ms().wall)
        return out

    return measure


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
