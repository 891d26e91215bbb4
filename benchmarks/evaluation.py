"""Speed of the static evaluation and of whole HeuristicBot games (one process, one core).

    python benchmarks/evaluation.py                  # per-call timings and 4 four-player games
    python benchmarks/evaluation.py --games 0        # per-call timings only

Per-call timings are the best of ``--repeat`` timeit runs (CPU time) over the turn starts of a
seeded game (each position valued for every seat); game times are the best of ``--repeat`` runs
of the same seeded all-HeuristicBot games, so a busy machine inflates them less.
"""

from __future__ import annotations

import argparse
import time
import timeit

import numpy as np

from agents import HeuristicBot
from agents.base import play_game
from agents.evaluation import NUM_PERSONALITIES, Evaluator, metrics, sampled_values
from nanty_env.engine import Game, GameConfig
from nanty_env.engine.setup import personality_deck


def positions(config: GameConfig, seed: int) -> list[Game]:
    """Every turn start of one seeded game between greedy heuristic bots."""
    out: list[Game] = []
    bots = [HeuristicBot(plan="greedy") for _ in range(config.num_players)]
    play_game(bots, config, seed, on_turn=lambda g: out.append(g.clone()))
    return out


def per_call(config: GameConfig, repeat: int, number: int = 10) -> None:
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
    calls = {"positions": len(games), "seat values": len(pairs)}
    table = {
        "metrics(g)": ("positions", lambda: [metrics(g) for g in games]),
        "value_from_metrics(m)": (
            "seat values",
            lambda: [ev.value_from_metrics(m) for ev, m in mets],
        ),
        "Evaluator.value": ("seat values", lambda: [ev.value(g) for ev, g in pairs]),
        # a board the evaluator has valued before (all but the first of timeit's runs)
        "value, cached board": ("seat values", lambda: [ev.value(g) for ev, g in cached]),
        "sampled_values(g)": ("positions", lambda: [sampled_values(g) for g in games]),
    }
    for name, (unit, fn) in table.items():
        best = (
            min(timeit.repeat(fn, number=number, repeat=repeat, timer=time.process_time)) / number
        )
        print(f"{name:<22} {1e6 * best / calls[unit]:8.2f} us/call  ({calls[unit]} {unit})")


def whole_games(n: int, games: int, repeat: int) -> None:
    config = GameConfig(num_players=n, log=False)
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for seed in range(games):
            play_game([HeuristicBot() for _ in range(n)], config, seed)
        best = min(best, time.perf_counter() - t0)
    print(f"{games} {n}-player HeuristicBot games: best {best:.2f} s ({best / games:.2f} s/game)")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    per_call(GameConfig(num_players=args.players, log=False), args.repeat)
    if args.games:
        whole_games(args.players, args.games, args.repeat)


if __name__ == "__main__":
    main()
