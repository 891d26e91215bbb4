"""Named shaping potentials: lookup, the learned win-probability potential, every potential 0
at the end of a game, and the shaped rewards of an episode adding up to the terminal reward
minus the starting potential (so trajectories with the same start and outcome earn the same)."""

from __future__ import annotations

import numpy as np
import pytest

from nanty_env.engine.config import GameConfig
from nanty_env.engine.game import Game
from nanty_env.faces.aec import raw_env
from nanty_env.faces.rewards import goal_progress
from nanty_env.faces.single import NantySingleAgentEnv
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


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("name", [s for s in SHAPINGS if s != "none"])
def test_every_shipped_potential_is_zero_at_the_end(name: str, num_players: int) -> None:
    phi = potential(name)
    for seed in range(3):
        g = _played(num_players, 5000, seed=seed)
        assert g.is_terminal
        assert [phi(g, s) for s in range(num_players)] == [0.0] * num_players


def _episode(shaping, seed: int, actions_seed: int) -> tuple[float, float, float]:
    """(sum of rewards, terminal reward, potential at the start) of one random episode."""
    env = NantySingleAgentEnv(num_players=3, learner_seat=1, shaping=shaping)
    env.reset(seed=seed)
    start = shaping(env.game, 1)
    rng = np.random.default_rng(actions_seed)
    total, done = 0.0, False
    while not done:
        _, r, done, _, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        total += r
    return total, (1.0 if 1 in info["winners"] else -1.0), start


def test_goal_progress_shaping_pays_nothing_for_where_the_game_stopped() -> None:
    """Same deal, different play: every episode earns its outcome minus the same starting
    potential, so a goal met just before losing is worth nothing at the end."""
    results = [_episode(goal_progress, 3, k) for k in range(6)]
    starts = {start for *_, start in results}
    assert len(starts) == 1 and starts != {0.0}  # seat 1 is no Holmes here
    for total, outcome, start in results:
        assert total == pytest.approx(outcome - start)
    assert len({outcome for _, outcome, _ in results}) == 2  # both outcomes were reached


def test_envs_take_a_finished_games_potential_as_zero_whatever_phi_says() -> None:
    def constant(g: Game, seat: int) -> float:
        return 1.0  # not 0 at the end: the envs must ignore it there

    total, outcome, _ = _episode(constant, 5, 0)
    assert total == pytest.approx(outcome - 1.0)
    env = raw_env(num_players=2, shaping=constant)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        for a, r in env.rewards.items():
            totals[a] += r
    winners = set(env.game.outcome.winners)
    for i, a in enumerate(env.possible_agents):
        assert totals[a] == pytest.approx((1.0 if i in winners else -1.0) - 1.0)
