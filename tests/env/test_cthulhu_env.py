"""The environment faces on the expansion: ``nanty_env.env(num_players=n, expansion="cthulhu")``
and the others pass PettingZoo's and Gymnasium's checks with the expansion's own spaces, hide
what each seat cannot see, render the track, Elder Ones and building types, and train."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test
from pettingzoo.utils.conversions import aec_to_parallel

import nanty_env
from nanty_env.encoding import cthulhu_observation as co
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


@pytest.mark.parametrize("n", PLAYERS)
def test_cycle_order_passes_pettingzoos_tests(n: int) -> None:
    api_test(nanty_env.raw_env(num_players=n, agent_order="cycle", **X), num_cycles=200)
    api_test(nanty_env.env(num_players=n, agent_order="cycle", **X), num_cycles=200)
    seed_test(lambda: nanty_env.env(num_players=n, agent_order="cycle", **X), num_cycles=200)


def same_obs(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(
        np.array_equal(a[k]["observation"], b[k]["observation"])
        and np.array_equal(a[k]["action_mask"], b[k]["action_mask"])
        for k in a
    )


@pytest.mark.parametrize("n", (2, 4))
def test_the_cycle_order_is_the_parallel_env_and_only_the_decider_has_choices(n: int) -> None:
    """Both agent orders of the expansion: the cycle-ordered AEC env through ``aec_to_parallel``
    plays step for step as ``parallel_env``; a seat that does not decide has the no-op alone,
    the decider the expansion's mask (428 actions)."""
    kw = {"num_players": n, **X}
    direct = nanty_env.parallel_env(**kw)
    converted = aec_to_parallel(nanty_env.env(agent_order="cycle", **kw))
    a_obs, a_info = converted.reset(seed=n)
    b_obs, b_info = direct.reset(seed=n)
    rng = random.Random(n)
    steps = 0
    while direct.agents:
        assert same_obs(a_obs, b_obs) and a_info == b_info, steps
        g = direct.game
        for i, agent in enumerate(direct.possible_agents):
            mask = b_obs[agent]["action_mask"]
            assert mask.shape == (A.NUM_ACTIONS_CTHULHU,)
            if i == g.current_player:
                assert np.array_equal(mask, co.action_mask(g, i)) and b_info[agent]["acting"]
            else:
                assert np.flatnonzero(mask).tolist() == [co.NO_OP]
        actions = {
            a: rng.choice(np.flatnonzero(o["action_mask"]).tolist()) for a, o in b_obs.items()
        }
        a_obs, a_rew, a_term, a_trunc, a_info = converted.step(actions)
        b_obs, b_rew, b_term, b_trunc, b_info = direct.step(actions)
        assert (dict(a_rew), a_term, a_trunc, a_info) == (b_rew, b_term, b_trunc, b_info)
        steps += 1
    assert not converted.agents and steps > 50 and direct.game.to_dict()["insanity"] >= 1


def test_the_parallel_env_is_seeded() -> None:
    def play(seed: int) -> list:
        e = nanty_env.parallel_env(num_players=3, **X)
        obs, _ = e.reset(seed=seed)
        rng = random.Random(0)
        out = []
        while e.agents and len(out) < 150:
            acts = {
                a: rng.choice(np.flatnonzero(o["action_mask"]).tolist()) for a, o in obs.items()
            }
            obs, rewards, _, _, _ = e.step(acts)
            out.append((float(obs["player_0"]["observation"].sum()), tuple(rewards.values())))
        return out

    assert play(5) == play(5) != play(6)


def test_the_faces_take_a_users_content_pack(tmp_path) -> None:
    from importlib import resources

    from nanty_env.faces.single import NantySingleAgentEnv

    pack = resources.files("nanty_env.data.cthulhu")
    text = (
        pack.joinpath("cards.toml")
        .read_text(encoding="utf-8")
        .replace('name = "Groat"', 'name = "My Groat"', 1)
    )
    (tmp_path / "cards.toml").write_text(text, encoding="utf-8")
    e = nanty_env.env(num_players=2, content=str(tmp_path), **X)
    e.reset(seed=1)
    g = e.unwrapped.game
    assert g.cfg.content == str(tmp_path)
    assert "My Groat" in [c.name() for c in g.t.data.cards]
    single = NantySingleAgentEnv(num_players=2, content=str(tmp_path), **X)
    assert single.reset(seed=0)[0].shape == (co.CTHULHU_OBS_SIZE,)
    with pytest.raises(ValueError, match="expansion"):
        nanty_env.env(num_players=2, content=str(tmp_path))


def test_the_rllib_env_plays_the_expansion_and_its_policy_exports_playable(tmp_path) -> None:
    """RLlib's multi-agent env serves the expansion's spaces, observations and masks (a bot in
    one seat), and an exported module plays expansion games as ``PolicyBot`` (and refuses the
    base game)."""
    pytest.importorskip("ray.rllib")
    torch = pytest.importorskip("torch")
    from agents.base import play_game
    from agents.policy import PolicyBot
    from training.rllib.env import NantyMultiAgentEnv, agent_id
    from training.rllib.export import export_module
    from training.rllib.module import MaskedMLPModule

    env = NantyMultiAgentEnv(
        {"num_players": 3, "bot_seats": 1, "bot_pool": {"heuristic": 1.0}, **X}
    )
    space = env.observation_spaces["player_0"]
    assert space["observation"].shape == (co.CTHULHU_OBS_SIZE,)
    assert env.action_spaces["player_0"].n == A.NUM_ACTIONS_CTHULHU
    obs, _ = env.reset(seed=3)
    steps = 0
    while True:
        ((agent, o),) = obs.items()
        seat = env.game.current_player
        assert agent == agent_id(seat) and seat not in env.bots
        assert np.array_equal(o["observation"], co.encode(env.game, seat))
        assert np.array_equal(o["action_mask"], co.action_mask(env.game, seat))
        assert space.contains(o)
        legal = np.flatnonzero(o["action_mask"])
        obs, _, term, _, infos = env.step({agent: int(legal[steps % len(legal)])})
        steps += 1
        if term["__all__"]:
            break
    assert env.game.cfg.expansion == "cthulhu" and env.game.outcome is not None
    assert {i["reason"] for i in infos.values()} == {env.game.outcome.reason}

    module = MaskedMLPModule(
        observation_space=space,
        action_space=env.action_spaces["player_0"],
        model_config={"hidden": [16], "activation": "tanh"},
    )
    path = export_module(module, tmp_path / "model", env=env.cfg, trained_with={})
    bot = PolicyBot(str(path))
    assert bot.expansion == "cthulhu"
    o = co.encode(env.game, 0)
    raw = module.actor(torch.as_tensor(o[None]).float())[0].detach().numpy()
    assert np.allclose(bot.policy.logits(o), raw, atol=1e-5)
    game, _ = play_game([bot, PolicyBot(str(path))], GameConfig(num_players=2, **X), seed=5)
    assert game.outcome is not None and game.cfg.expansion == "cthulhu"
    with pytest.raises(ValueError, match="base game"):
        bot.reset(0, GameConfig(num_players=2))


def test_the_rllib_config_takes_the_expansion(tmp_path) -> None:
    pytest.importorskip("ray.rllib")
    from training.config import ConfigError
    from training.rllib.config import load_rllib_config
    from training.rllib.env import NantyMultiAgentEnv

    path = tmp_path / "x.yaml"
    path.write_text("env:\n  num_players: 2\n  expansion: cthulhu\n  shaping: goal_progress\n")
    cfg = load_rllib_config(path)
    assert cfg.env_config()["expansion"] == "cthulhu"
    assert NantyMultiAgentEnv(cfg.env_config()).game_config.expansion == "cthulhu"
    path.write_text("env:\n  expansion: cthulhu\n  shaping: win_probability\n")
    with pytest.raises(ConfigError, match="win_probability"):
        load_rllib_config(path)
    with pytest.raises(ValueError, match="content"):
        NantyMultiAgentEnv({"content": str(tmp_path)})


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

    from nanty_env.faces.single import NantySingleAgentEnv
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
    from nanty_env.vector import make_vec_env
    from nanty_env.vector.async_vector import make_async_vec_env

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


@pytest.mark.slow
def test_torchrl_random_rollouts_on_the_expansion(caplog) -> None:
    """TorchRL's ``PettingZooWrapper`` on the expansion's parallel face: every sampled action
    is legal for its agent (the decider's or the no-op) over the 428 actions; games end."""
    import logging
    import warnings

    pytest.importorskip("torchrl", reason="TorchRL is an optional extra ([torchrl])")
    from torchrl.envs.libs.pettingzoo import PettingZooWrapper

    caplog.set_level(logging.ERROR)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # TorchRL warns that it tests another PettingZoo version
        env = PettingZooWrapper(
            nanty_env.parallel_env(num_players=2, **X),
            use_mask=True,
            categorical_actions=True,
            seed=0,
        )
        rollout = env.rollout(1500, break_when_any_done=False)
    masks = rollout["player", "action_mask"]
    assert masks.shape[-1] == A.NUM_ACTIONS_CTHULHU
    taken = masks.gather(-1, rollout["player", "action"].unsqueeze(-1)).squeeze(-1)
    assert taken.all()
    assert rollout["next", "done"].sum() >= 1, "no game finished"


def test_the_expansions_observation_table_is_documented() -> None:
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "env.md").read_text(encoding="utf-8")
    assert co.layout_table() in page
    assert f"Box(float32, ({co.CTHULHU_OBS_SIZE},))" in page.replace("\n  ", " ")
