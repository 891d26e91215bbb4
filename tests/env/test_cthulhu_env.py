"""The environment faces on the expansion: ``nanty_env.env(num_players=n, expansion="cthulhu")``
and the others pass PettingZoo's and Gymnasium's checks with the expansion's own spaces, hide
what each seat cannot see, render the track, Elder Ones and building types, and train."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test

import nanty_env
from nanty_env import cthulhu_observation as co
from nanty_env.engine import GameConfig
from nanty_env.engine import actions as A
from nanty_env.engine.determinize import determinize

PLAYERS = (2, 3, 4)
X = {"expansion": "cthulhu"}


@pytest.mark.parametrize("n", PLAYERS)
def test_api_wrapped_and_raw(n: int) -> None:
    api_test(nanty_env.env(num_players=n, **X), num_cycles=300)
    api_test(nanty_env.raw_env(num_players=n, **X), num_cycles=300)


@pytest.mark.parametrize("n", PLAYERS)
def test_seed(n: int) -> None:
    seed_test(lambda: nanty_env.env(num_players=n, **X), num_cycles=300)


@pytest.mark.parametrize("n", PLAYERS)
def test_parallel_api(n: int) -> None:
    parallel_api_test(nanty_env.parallel_env(num_players=n, **X), num_cycles=300)


def test_spaces_are_the_expansions_and_the_base_game_keeps_its_own() -> None:
    e = nanty_env.raw_env(config=GameConfig(num_players=3, expansion="cthulhu"))
    space = e.observation_space("player_0")
    assert space["observation"].shape == (co.CTHULHU_OBS_SIZE,)
    assert space["action_mask"].shape == (A.NUM_ACTIONS_CTHULHU,)
    assert e.action_space("player_0").n == A.NUM_ACTIONS_CTHULHU == 428
    assert e.state_space.shape == (co.CTHULHU_STATE_SIZE,)
    base = nanty_env.raw_env(num_players=3)
    assert base.observation_space("player_0")["observation"].shape == (1162,)
    assert base.action_space("player_0").n == 405
    e.reset(seed=1)
    assert e.state().shape == (co.CTHULHU_STATE_SIZE,)


@pytest.mark.parametrize("n", PLAYERS)
def test_observations_and_masks_depend_only_on_what_each_seat_knows(n: int) -> None:
    """Resample the others' hands and objectives, the draw pile and the order of the events
    never drawn: every seat's observation and mask from the env are unchanged."""
    e = nanty_env.raw_env(num_players=n, **X)
    e.reset(seed=10 * n)
    rng = np.random.default_rng(n)
    checked = 0
    for step in range(400):
        if any(e.terminations.values()):
            break
        if step % 40 == 7:
            for agent in e.agents:
                seat = e.agent_name_mapping[agent]
                obs = e.observe(agent)
                h = determinize(e.game, seat, rng)
                assert np.array_equal(obs["observation"], co.encode(h, seat))
                assert np.array_equal(obs["action_mask"], co.action_mask(h, seat))
                checked += 1
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))
    assert checked >= 2 * n


def test_renders_show_the_track_elder_ones_and_building_types() -> None:
    e = nanty_env.raw_env(num_players=3, render_mode="ansi", **X)
    e.reset(seed=4)
    rng = np.random.default_rng(2)
    while not any(e.terminations.values()):
        g = e.game
        if any(a >= 0 for a in g.elder_area) and any(b >= 0 for b in g.building):
            break
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))
    g = e.game
    text = e.render()
    assert f"Insanity {g.insanity}/13" in text and "Elder Ones:" in text
    elder = next(i for i, a in enumerate(g.elder_area) if a >= 0)
    assert g.t.data.elder_ones[elder].title in text
    area = next(a for a, b in enumerate(g.building) if b >= 0)
    assert g.t.data.buildings[g.btype[area]].title in text
    img = e.render_image_for(e.agent_selection)
    assert img.ndim == 3 and img.shape[2] == 3 and img.dtype == np.uint8


def test_single_agent_env_and_vector_env_on_the_expansion() -> None:
    from gymnasium.utils.env_checker import check_env

    from nanty_env.single import NantySingleAgentEnv
    from nanty_env.vector import make_vec_env

    env = NantySingleAgentEnv(num_players=3, **X)
    check_env(env, skip_render_check=True)
    obs, _ = env.reset(seed=0)
    assert obs.shape == (co.CTHULHU_OBS_SIZE,) and env.action_masks().shape == (428,)
    venv = make_vec_env(4, num_players=2, seed=1, **X)
    obs = venv.reset()
    assert obs.shape == (4, co.CTHULHU_OBS_SIZE)
    finished = 0
    rng = np.random.default_rng(0)
    for _ in range(600):
        masks = venv.env_method("action_masks")
        acts = np.array([int(rng.choice(np.flatnonzero(m))) for m in masks])
        obs, _, dones, _ = venv.step(acts)
        finished += int(dones.sum())
        if finished >= 2:
            break
    assert finished >= 2
    venv.close()


def test_games_split_over_worker_processes_play_as_in_one_process() -> None:
    """The split vector env (a worker process) and the asynchronous batch carry the
    expansion's observations and masks through their shared buffers unchanged."""
    from nanty_env.async_vector import make_async_vec_env
    from nanty_env.vector import make_vec_env

    def run(venv, steps: int = 30) -> list[float]:
        obs = venv.reset()
        out = [float(obs.sum())]
        for t in range(steps):
            masks = venv.env_method("action_masks")
            acts = np.array([int(np.flatnonzero(m)[t % int(m.sum())]) for m in masks])
            obs, rewards, _, _ = venv.step(acts)
            assert obs.shape[1] == co.CTHULHU_OBS_SIZE
            out.append(round(float(obs.sum()) + float(rewards.sum()), 3))
        venv.close()
        return out

    one = run(make_vec_env(4, num_players=3, seed=2, **X))
    split = run(make_vec_env(4, num_workers=2, num_players=3, seed=2, **X))
    assert one == split
    avenv = make_async_vec_env(4, num_workers=1, num_players=3, seed=0, **X)
    try:
        avenv.async_reset()
        obs, _, _, _, masks, ids = avenv.recv()
        assert obs.shape[1] == co.CTHULHU_OBS_SIZE and masks.shape[1] == A.NUM_ACTIONS_CTHULHU
        for _ in range(20):
            acts = np.array([int(np.flatnonzero(m)[0]) for m in masks])
            avenv.send(acts, ids)
            obs, _, _, _, masks, ids = avenv.recv()
            assert all(m.any() for m in masks)
    finally:
        avenv.close()


def test_an_expansion_env_pickles_mid_game_and_plays_on_identically() -> None:
    import pickle

    e = nanty_env.env(num_players=3, **X)
    e.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(60):
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    twin = pickle.loads(pickle.dumps(e))
    for _ in range(60):
        if any(e.terminations.values()):
            break
        act = int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])))
        e.step(act)
        twin.step(act)
        a, b = e.observe(e.agent_selection), twin.observe(twin.agent_selection)
        assert np.array_equal(a["observation"], b["observation"])
    assert twin.unwrapped.game.to_dict() == e.unwrapped.game.to_dict()
