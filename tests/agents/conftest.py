"""Shared helpers for the bot tests: random reachable states at 2, 3 and 4 players."""

from __future__ import annotations

import random

import pytest

from nanty_env.engine import Game, GameConfig


def random_states(num_players: int, count: int, seed: int = 0) -> list[Game]:
    """``count`` states reached by random play (several games, various depths), each with a
    decision that has more than one legal action."""
    rnd = random.Random(seed)
    out: list[Game] = []
    game_seed = seed * 1000
    while len(out) < count:
        g = Game.new(GameConfig(num_players=num_players, log=False), game_seed)
        game_seed += 1
        stops = sorted(rnd.sample(range(1, 400), 6))
        step = 0
        while not g.is_terminal and stops:
            legal = g.legal_actions()
            if step >= stops[0] and len(legal) > 1:
                out.append(g.clone())
                stops.pop(0)
                if len(out) >= count:
                    break
            g.apply(rnd.choice(legal))
            step += 1
    return out


@pytest.fixture(scope="session")
def states() -> dict[int, list[Game]]:
    return {n: random_states(n, 14, seed=n) for n in (2, 3, 4)}
