"""Speed of the static evaluation and of whole HeuristicBot games (one process, one core).

    python benchmarks/evaluation.py                  # per-call timings and 4 four-player games
    python benchmarks/evaluation.py --games 0        # per-call timings only

Per-call timings are taken over the turn starts of a seeded game (each position valued for
every seat); game times over the same seeded all-HeuristicBot games. Every case runs once per
round, rounds interleaved (``benchmarks/harness.py``); wall clock and CPU time.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

import numpy as np
from harness import (
    Measured,
    add_arguments,
    footer,
    header,
    interleave,
    per_call_seconds,
    table,
    write_json,
)

from agents import HeuristicBot
from agents.base import play_game
from agents.evaluation import NUM_PERSONALITIES, Evaluator, metrics, sampled_values
from nanty_env.engine import Game, GameConfig, personality_deck


def positions(config: GameConfig, seed: int) -> list[Game]:
    """Every turn start of one seeded game between greedy heuristic bots."""
    out: list[Game] = []
    bots = [HeuristicBot(plan="greedy") for _ in range(config.num_players)]
    play_game(bots, config, seed, on_turn=lambda g: out.append(g.clone()))
    return out


def per_call(config: GameConfig, number: int = 10) -> dict[str, Callable[[], Measured]]:
    """Microseconds per call of each evaluation piece."""
    games = positions(config, seed=0)
    n = config.num_players
    uniform = np.zeros(NUM_PERSONALITIES)
    uniform[personality_deck(config)] = 1.0 / len(personality_deck(config))
    pairs = [
        (Evaluator(config, s, g.persona[s], [uniform] * n), g) for g in games for s in range(n)
    ]
    cached = [
        (Evaluator(config, s, g.persona[s], [uniform] * n, cache_values=True), g)
        for g in games
        for s in range(n)
    ]
    mets = [(ev, metrics(g)) for ev, g in pairs]
    pieces = {
        "metrics(g)": (len(games), lambda: [metrics(g) for g in games]),
        "value_from_metrics(m)": (len(pairs), lambda: [ev.value_from_metrics(m) for ev, m in mets]),
        "Evaluator.value": (len(pairs), lambda: [ev.value(g) for ev, g in pairs]),
        # a board the evaluator has valued before (all but the first call)
        "value, cached board": (len(pairs), lambda: [ev.value(g) for ev, g in cached]),
        "sampled_values(g)": (len(games), lambda: [sampled_values(g) for g in games]),
    }

    def micros(calls: int, fn: Callable[[], object]) -> Callable[[], Measured]:
        def measure() -> Measured:
            wall, cpu = per_call_seconds(fn, number)
            return Measured(1e6 * wall / calls, 1e6 * cpu / calls)

        return measure

    return {f"{name}, us/call": micros(calls, fn) for name, (calls, fn) in pieces.items()}


def whole_games(n: int, games: int) -> Callable[[], Measured]:
    """Seconds per game of ``games`` seeded all-HeuristicBot games."""
    config = GameConfig(num_players=n, log=False)

    def play() -> None:
        for seed in range(games):
            play_game([HeuristicBot() for _ in range(n)], config, seed)

    def measure() -> Measured:
        wall, cpu = per_call_seconds(play, 1)
        return Measured(wall / games, cpu / games)

    return measure


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=4)
    add_arguments(ap)
    args = ap.parse_args(argv)
    info = header(f"evaluation: {args.players} players", args.rounds)
    cases = per_call(GameConfig(num_players=args.players, log=False))
    if args.games:
        cases[f"{args.players}-player HeuristicBot game, s/game"] = whole_games(
            args.players, args.games
        )
    result = interleave(cases, args.rounds)
    rows = [
        [name, result.summary(name).format(2), result.summary(name, cpu=True).format(2)]
        for name in cases
    ]
    print(table(["piece", "wall clock", "CPU time"], rows))
    footer(result)
    write_json(args.json, info, evaluation=result)


if __name__ == "__main__":
    main()
