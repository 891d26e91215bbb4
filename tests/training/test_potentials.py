"""Named shaping potentials: lookup, the learned win-probability potential, and the shaped
rewards of an episode adding up to the terminal reward minus the starting potential."""

from __future__ import annotations

import numpy as np
import pytest

from nanty_env.engine.config import GameConfig
from nanty_env.engine.game import Game
from nanty_env.rewards import goal_progress
from nanty_env.single import NantySingleAgentEnv
from training.potentials import SHAPINGS, potential, win_probability


def _played(num_players: int, steps: int, seed: int = 1) -> Game:
    g = Game.new(GameConfig(num_players=num_players, log=False), seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if g.is_terminal:
            break
        g.apply(int(rng.choice(g.legal_actions())))
    return g


def test_names_resolve_and_unknown_names_are_refused() -> None:
    assert potential("none") is None
    assert potential("goal_progress") is goal_progress
    assert potential("win_probability") is win_probability
    assert set(SHAPINGS) == {"none", "goal_progress", "win_probability"}
    with pytest.raises(ValueError, match="shaping must be one of"):
        potential("lots")


@pytest.mark.parametrize("num_players", [2, 4])
def test_win_probability_is_a_distribution_over_the_seats(num_players: int) -> None:
    g = _played(num_players, 60)
    assert not g.is_terminal
    phis = [win_probability(g, s) for s in range(num_players)]
    assert all(-1.0 < x < 1.0 for x in phis)
    # 2 P - 1 summed over the seats: the probabilities add up to 1
    assert sum(phis) == pytest.approx(2.0 - num_players)


def test_win_probability_reads_the_true_personalities() -> None:
    g = _played(4, 120)
    assert not g.is_terminal
    before = [win_probability(g, s) for s in range(4)]
    h = g.clone()
    h.persona = [h.persona[1], h.persona[0], *h.persona[2:]]
    after = [win_probability(h, s) for s in range(4)]
    assert before != pytest.approx(after)


def test_win_probability_is_zero_once_the_game_is_over() -> None:
    g = _played(2, 5000)
    assert g.is_terminal
    assert [win_probability(g, s) for s in range(2)] == [0.0, 0.0]


def test_shaped_episode_adds_up_to_outcome_minus_start_potential() -> None:
    env = NantySingleAgentEnv(num_players=4, learner_seat=0, shaping=win_probability)
    env.reset(seed=3)
    start = win_probability(env.game, 0)
    assert start != 0.0
    rng = np.random.default_rng(3)
    total, done = 0.0, False
    while not done:
        legal = np.flatnonzero(env.action_masks())
        _, r, done, _, info = env.step(int(rng.choice(legal)))
        total += r
    outcome = 1.0 if 0 in info["winners"] else -1.0
    assert total == pytest.approx(outcome - start)
