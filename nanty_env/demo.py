"""``python -m nanty_env.demo``: play a few seeded random games and summarise them.

The quick end-to-end check behind ``make run`` until the training pipeline takes over.
"""

from __future__ import annotations

import argparse
import collections
import random
import time

from nanty_env.engine import Game, GameConfig
from nanty_env.engine.tables import tables


def play_random(cfg: GameConfig, seed: int) -> tuple[Game, int]:
    """One game of uniformly random legal play; returns the finished game and its length."""
    g = Game.new(cfg, seed)
    rng = random.Random(seed)
    steps = 0
    while not g.is_terminal:
        g.apply(rng.choice(g.legal_actions()))
        steps += 1
    return g, steps


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    cfg = GameConfig(num_players=args.players)
    names = tables().data.personalities
    reasons: collections.Counter[str] = collections.Counter()
    winners: collections.Counter[str] = collections.Counter()
    total_steps = 0
    t0 = time.perf_counter()
    first = None
    for i in range(args.games):
        g, steps = play_random(cfg, args.seed + i)
        first = first or g
        total_steps += steps
        reasons[g.outcome.reason] += 1
        for w in g.outcome.winners:
            winners[names[g.persona[w]].name(cfg.theme)] += 1
    dt = time.perf_counter() - t0

    print("Last lines of the first game's log:")
    for line in first.log[-12:]:
        print("   ", line)
    print(
        f"\n{args.games} random {args.players}-player games, {total_steps} decisions "
        f"in {dt:.1f}s ({total_steps / dt:,.0f} decisions/s)"
    )
    print("How games ended:")
    for reason, k in reasons.most_common():
        print(f"  {reason:<32} {k:>5}")
    print("Winning personalities:")
    for name, k in winners.most_common():
        print(f"  {name:<32} {k:>5}")


if __name__ == "__main__":
    main()
