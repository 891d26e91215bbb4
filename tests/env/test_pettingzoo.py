"""PettingZoo conformance of ``nanty_narking_v0``: API, seeding, parallel API, pickling."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test

import nanty_env
from nanty_env.engine import IllegalActionError
from nanty_env.engine import actions as A

PLAYERS = (2, 3, 4)


@pytest.mark.parametrize("n", PLAYERS)
def test_api_wrapped(n: int) -> None:
    api_test(nanty_env.env(num_players=n), num_cycles=400)


@pytest.mark.parametrize("n", PLAYERS)
def test_api_raw(n: int) -> None:
    api_test(nanty_env.raw_env(num_players=n), num_cycles=400)


@pytest.mark.parametrize("n", PLAYERS)
def test_seed(n: int) -> None:
    seed_test(lambda: nanty_env.env(num_players=n), num_cycles=400)


@pytest.mark.parametrize("n", PLAYERS)
def test_parallel_api(n: int) -> None:
    parallel_api_test(nanty_env.parallel_env(num_players=n), num_cycles=400)


@pytest.mark.parametrize("n", PLAYERS)
def test_pickle_round_trip_mid_game(n: int) -> None:
    e = nanty_env.env(num_players=n)
    e.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(40):
        obs = e.observe(e.agent_selection)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    copy = pickle.loads(pickle.dumps(e))
    assert copy.agent_selection == e.agent_selection
    a, b = e.observe(e.agent_selection), copy.observe(copy.agent_selection)
    assert np.array_equal(a["observation"], b["observation"])
    assert np.array_equal(a["action_mask"], b["action_mask"])
    # both continue identically
    for _ in range(60):
        if any(e.terminations.values()):
            break
        mask = e.observe(e.agent_selection)["action_mask"]
        act = int(rng.choice(np.flatnonzero(mask)))
        e.step(act)
        copy.step(act)
        assert copy.agent_selection == e.agent_selection
    assert copy.unwrapped.game.to_dict() == e.unwrapped.game.to_dict()


def test_agent_selection_follows_engine_including_out_of_turn() -> None:
    e = nanty_env.raw_env(num_players=4)
    e.reset(seed=11)
    rng = np.random.default_rng(1)
    out_of_turn = 0
    for _ in range(3000):
        if any(e.terminations.values()):
            break
        g = e.game
        assert e.agent_selection == f"player_{g.current_player}"
        out_of_turn += g.current_player != g.active
        for agent in e.agents:
            mask = e.observe(agent)["action_mask"]
            assert mask.any() == (agent == e.agent_selection)
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))
    assert out_of_turn > 0, "a whole game without a single out-of-turn decision"


def test_raw_env_raises_on_illegal_and_keeps_state() -> None:
    e = nanty_env.raw_env(num_players=3)
    e.reset(seed=5)
    before = e.game.to_dict()
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError):
        e.step(illegal)
    assert e.game.to_dict() == before


def test_wrapped_env_terminates_illegal_move_with_penalty() -> None:
    e = nanty_env.env(num_players=3)
    e.reset(seed=5)
    offender = e.agent_selection
    mask = e.observe(offender)["action_mask"]
    e.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(e.terminations.values())
    assert e.rewards[offender] == -1
    assert all(r == 0 for a, r in e.rewards.items() if a != offender)


def test_terminal_rewards_win_loss_and_infos() -> None:
    e = nanty_env.raw_env(num_players=4)
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _info = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    winners = e.game.outcome.winners
    assert winners
    for i, agent in enumerate(e.possible_agents):
        assert total[agent] == (1.0 if i in winners else -1.0)


def test_zero_sum_rewards_sum_to_zero() -> None:
    e = nanty_env.raw_env(num_players=3, reward_mode="zero_sum")
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert abs(sum(total.values())) < 1e-9


def test_state_and_spaces() -> None:
    e = nanty_env.raw_env(num_players=2)
    e.reset(seed=0)
    s = e.state()
    assert e.state_space.contains(s)
    obs = e.observe("player_0")
    assert e.observation_space("player_0").contains(obs)
    assert e.action_space("player_0").n == A.NUM_ACTIONS


def test_ansi_render_shows_only_own_hand() -> None:
    e = nanty_env.raw_env(num_players=3, render_mode="ansi")
    e.reset(seed=9)
    g = e.game
    from nanty_env.engine.tables import tables

    names = {c: tables().data.cards[c].name("nanty") for c in range(A.NUM_CARDS)}
    text = e.render_for("player_1")
    for c in g.hands[1]:
        assert names[c] in text
    for q in (0, 2):
        for c in g.hands[q]:
            if c not in g.hands[1]:
                assert f" {names[c]}," not in text and not text.endswith(names[c])


def test_wrapped_env_is_one_order_enforcing_wrapper_with_the_stacks_checks() -> None:
    from pettingzoo.utils import wrappers

    e = nanty_env.env(num_players=2)
    assert isinstance(e, wrappers.OrderEnforcingWrapper)
    assert isinstance(e.env, nanty_env.raw_env)  # one level
    with pytest.raises(AttributeError, match="before reset"):
        _ = e.agent_selection
    with pytest.raises(AssertionError, match="before step"):
        e.step(0)
    e.reset(seed=3)
    raw = e.unwrapped
    assert (e.agent_selection, e.agents, e.terminations) == (
        raw.agent_selection,
        raw.agents,
        raw.terminations,
    )
    with pytest.raises(TypeError, match="integer"):  # a non-integer changes nothing
        e.step(float(A.NUM_ACTIONS))
    assert not any(e.terminations.values())
    e.step(A.NUM_ACTIONS)  # an integer out of the space is an illegal action: the game ends
    assert all(e.terminations.values()) and all(e.truncations.values())


def test_rgb_array_render_is_an_image_of_the_viewers_own_view() -> None:
    from nanty_env.engine.determinize import determinize
    from nanty_env.presentation.render_image import render_view_image

    e = nanty_env.raw_env(num_players=4, render_mode="rgb_array")
    e.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(150):
        e.step(int(rng.choice(e.game.legal_actions())))
    img = e.render()
    assert img.shape == (760, 1280, 3) and img.dtype == np.uint8 and img.std() > 0
    seat = e.agent_name_mapping[e.agent_selection]
    for _ in range(2):  # resampling what this seat cannot see leaves its picture unchanged
        h = determinize(e.game, seat, rng)
        assert np.array_equal(img, render_view_image(h.view(seat), config=e.config))
    other = (seat + 1) % 4
    assert not np.array_equal(img, e.render_image_for(e.possible_agents[other]))
    with pytest.raises(ValueError, match="render_mode"):
        nanty_env.raw_env(render_mode="video")
