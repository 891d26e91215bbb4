"""The single-learner Gymnasium wrapper and the vectorised envs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from nanty_env.engine import IllegalActionError
from nanty_env.faces.single import NantySingleAgentEnv, RandomOpponent
from nanty_env.vector import NantyVecEnv, SubprocNantyVecEnv, make_vec_env


@pytest.mark.parametrize("n", (2, 3, 4))
def test_env_checkers(n: int) -> None:
    gym_check_env(NantySingleAgentEnv(num_players=n), skip_render_check=True)
    sb3_check_env(NantySingleAgentEnv(num_players=n))


def play_episode(env: NantySingleAgentEnv, seed: int) -> tuple[float, dict]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = 0.0
    while True:
        g = env.game
        assert g.current_player == env.seat, "step returned while an opponent still owed a move"
        assert env.observation_space.contains(obs)
        mask = env.action_masks()
        assert mask.sum() == len(g.legal_actions())
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += r
        if term or trunc:
            return total, info


@pytest.mark.parametrize("n", (2, 3, 4))
def test_reward_goes_to_the_learner_for_every_seat(n: int) -> None:
    seats = set()
    for seed in range(12):
        env = NantySingleAgentEnv(num_players=n)
        total, info = play_episode(env, seed)
        seats.add(info["seat"])
        assert total == (1.0 if info["seat"] in info["winners"] else -1.0)
    assert len(seats) > 1, "random learner seat never changed"


def test_fixed_seat_and_learner_out_of_turn_decisions() -> None:
    out_of_turn = 0
    for seed in range(6):
        env = NantySingleAgentEnv(num_players=4, learner_seat=2)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        done = False
        while not done:
            assert env.seat == 2
            out_of_turn += env.game.active != 2
            mask = env.action_masks()
            _obs, _r, done, _, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
    assert out_of_turn > 0, "the learner never reacted out of turn"


def test_opponents_receive_views_not_games() -> None:
    seen = []

    class Spy(RandomOpponent):
        needs_view = True

        def act(self, view, legal_actions, rng):
            seen.append(view)
            assert isinstance(view, dict) and view["legal_actions"] == list(legal_actions)
            return super().act(view, legal_actions, rng)

    env = NantySingleAgentEnv(num_players=3, opponents=Spy())
    play_episode(env, 0)
    assert seen
    for v in seen:
        assert "hands" not in v and "deck" not in v


def test_illegal_action_terminate_or_raise() -> None:
    env = NantySingleAgentEnv(num_players=2)
    env.reset(seed=0)
    before = env.game.to_dict()
    bad = int(np.flatnonzero(~env.action_masks())[0])
    _obs, r, term, _, info = env.step(bad)
    assert term and r == -1.0 and info["illegal_action"] == bad
    assert env.game.to_dict() == before
    env = NantySingleAgentEnv(num_players=2, illegal_action="raise")
    env.reset(seed=0)
    with pytest.raises(IllegalActionError):
        env.step(bad)


def test_same_seed_same_episode() -> None:
    a = NantySingleAgentEnv(num_players=4)
    b = NantySingleAgentEnv(num_players=4)
    assert play_episode(a, 5) == play_episode(b, 5)
    assert a.game.to_dict() == b.game.to_dict()


@pytest.mark.parametrize("workers", (1, 2))
def test_vec_env_stacks_and_auto_resets(workers: int) -> None:
    venv = make_vec_env(4, num_workers=workers, seed=1, num_players=3)
    assert isinstance(venv, NantyVecEnv if workers == 1 else SubprocNantyVecEnv)
    obs = venv.reset()
    assert obs.shape == (4, venv.observation_space.shape[0])
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(3000):
        masks = venv.action_masks()
        assert masks.shape == (4, venv.action_space.n) and masks.any(axis=1).all()
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = venv.step(acts)
        for d, r, info in zip(dones, rewards, infos, strict=True):
            if d:
                finished += 1
                assert "terminal_observation" in info and abs(r) == 1.0
        if finished >= 4:
            break
    assert finished >= 4
    assert venv.env_method("action_masks")[0].shape == (venv.action_space.n,)
    venv.close()


def test_maskable_ppo_trains_and_predicts_legal_actions_on_the_env() -> None:
    """A smoke test: MaskablePPO runs on the vector env and its greedy actions respect the
    masks. Whether it learns is tests/training/test_learning.py's question."""
    from sb3_contrib import MaskablePPO

    venv = make_vec_env(2, seed=0, num_players=2)
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0)
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256
    obs = venv.reset()
    actions, _ = model.predict(obs, action_masks=venv.action_masks(), deterministic=True)
    masks = venv.action_masks()
    assert all(masks[i, a] for i, a in enumerate(actions))


def same_infos(a: list[dict], b: list[dict]) -> bool:
    """Infos equal key by key (arrays compared by value; of the episode summaries, the
    return and length: their ``t`` is a wall-clock time)."""

    def same(k: str, u: Any, v: Any) -> bool:
        if k == "episode":
            return (u["r"], u["l"]) == (v["r"], v["l"])
        return np.array_equal(u, v)

    return len(a) == len(b) and all(
        x.keys() == y.keys() and all(same(k, x[k], y[k]) for k in x)
        for x, y in zip(a, b, strict=True)
    )


def step_both_alike(one: Any, other: Any, rng: np.random.Generator) -> None:
    """One step of two vector envs with the same random legal actions: the masks before it
    and everything it returns must be equal."""
    masks = one.action_masks()
    assert np.array_equal(masks, other.action_masks())
    acts = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
    a, b = one.step(acts), other.step(acts)
    for x, y in zip(a[:3], b[:3], strict=True):
        assert np.array_equal(x, y)
    assert same_infos(a[3], b[3])


@pytest.mark.parametrize("workers", (2, 3))
def test_split_vec_env_matches_one_process(workers: int) -> None:
    """The calling process's chunk and the worker chunks together replay the one-process run."""
    one = make_vec_env(5, num_workers=1, seed=7, num_players=4)
    split = make_vec_env(5, num_workers=workers, seed=7, num_players=4)
    assert np.array_equal(one.reset(), split.reset())
    rng = np.random.default_rng(3)
    for _ in range(300):
        step_both_alike(one, split, rng)
    assert split.get_attr("seat") == one.get_attr("seat")
    split.set_attr("illegal_action", "raise", indices=[0, 4])
    assert split.get_attr("illegal_action", indices=[0, 4]) == ["raise", "raise"]
    assert split.env_method("action_masks", indices=[4])[0].shape == (split.action_space.n,)
    split.close()


def test_split_vec_env_worker_exits_quietly_when_the_caller_is_gone() -> None:
    split = make_vec_env(4, num_workers=2, seed=0, num_players=2)
    split.reset()
    worker = split._workers[0]
    worker.conn.close()  # as when the caller dies without close()
    worker.proc.join(timeout=10)
    assert worker.proc.exitcode == 0
