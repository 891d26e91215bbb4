"""The multi-agent batch plays the games of N AEC envs stepped one by one (same seeds, same
random policy): the same observations, masks, deciding seats, rewards, ends and next games;
its worker-process face returns exactly what it returns; bad actions move no game."""

from __future__ import annotations

import gc
import os
import signal
import time

import numpy as np
import pytest

import nanty_env
from nanty_env.engine import IllegalActionError
from nanty_env.faces.options import ActionBatchError
from nanty_env.faces.rewards import goal_progress
from nanty_env.vector.multi_batch import Decisions, MultiAgentBatch
from nanty_env.vector.multi_workers import MultiAgentWorkers
from nanty_env.vector.workers import VecEnvWorkerError


def policy_rngs(n: int, seed: int = 100) -> list[np.random.Generator]:
    """One generator per game: a game's actions depend only on its own decisions."""
    return [np.random.default_rng(seed + k) for k in range(n)]


def choose(rngs: list[np.random.Generator], d: Decisions) -> np.ndarray:
    return np.array(
        [rngs[g].choice(np.flatnonzero(m)) for g, m in zip(d.game.tolist(), d.mask, strict=True)]
    )


def finish(env) -> dict:
    """Step every agent of a finished AEC game off, collecting what each one sees."""
    final = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        assert term and not trunc
        final[agent] = (obs["observation"], reward, info)
        env.step(None)
    return final


CASES = [  # (AEC face, options): the wrapped env() once, raw_env otherwise
    pytest.param(nanty_env.env, dict(num_players=2), id="base-2p-env"),
    pytest.param(
        nanty_env.raw_env,
        dict(num_players=4, shaping=goal_progress, reveal_personalities=True),
        id="base-4p-shaped-oracle",
    ),
    pytest.param(
        nanty_env.raw_env,
        dict(num_players=2, expansion="cthulhu", shaping=goal_progress),
        id="cth-2p-shaped",
    ),
    pytest.param(
        nanty_env.raw_env,
        dict(num_players=4, expansion="cthulhu", reward_mode="zero_sum"),
        id="cth-4p",
    ),
]


@pytest.mark.parametrize(("face", "opts"), CASES)
def test_plays_the_games_of_aec_envs_stepped_one_by_one(face, opts: dict) -> None:
    n, seed = 3, 7
    batch = MultiAgentBatch(n, **opts)
    envs = [face(**opts) for _ in range(n)]
    for k, e in enumerate(envs):
        e.reset(seed=seed + k)
    rngs = policy_rngs(n)
    d = batch.reset(seed=seed)
    ends, lengths = [0] * n, [0] * n
    steps = 0
    while min(ends) < 2 and steps < 5000:
        assert d.game.tolist() == list(range(n))
        row_rewards = d.row_rewards()
        for k, e in enumerate(envs):
            agent = e.agent_selection
            assert d.agents[k] == agent and batch.possible_agents[d.seat[k]] == agent
            obs, reward, term, trunc, _ = e.last()
            assert not term and not trunc
            np.testing.assert_array_equal(d.obs[k], obs["observation"])
            np.testing.assert_array_equal(d.mask[k], obs["action_mask"].astype(bool))
            assert row_rewards[k] == np.float32(reward)
        assert d.mask.dtype == bool and d.obs.dtype == np.float32 and d.seat.dtype == np.int64
        actions = choose(rngs, d)
        d = batch.step(actions)
        steps += 1
        for k, e in enumerate(envs):
            e.step(int(actions[k]))
            lengths[k] += 1
            u = e.unwrapped
            cum = np.array([u._cumulative_rewards[a] for a in e.possible_agents], np.float32)
            np.testing.assert_array_equal(d.rewards[k], cum)
            ended = all(u.terminations.values())
            assert bool(d.done[k]) == ended
            if not ended:
                assert k not in d.infos
                continue
            ends[k] += 1
            info, final = d.infos[k], finish(e)
            assert set(final) == set(e.possible_agents)
            for s, a in enumerate(e.possible_agents):
                fobs, freward, finfo = final[a]
                np.testing.assert_array_equal(info["final_observation"][s], fobs)
                assert info["rewards"][s] == np.float32(freward) == d.rewards[k, s]
                assert info["winners"] == finfo["winners"] and info["reason"] == finfo["reason"]
            assert info["seed"] == u.game_seed and info["length"] == lengths[k]
            lengths[k] = 0
            e.reset()  # the AEC env's next game: what the batch dealt by itself
            assert batch.game_seeds[k] == u.game_seed
    assert min(ends) >= 2, ends


def test_reset_seeds_and_the_constructor_seed() -> None:
    a = MultiAgentBatch(3, num_players=3, seed=5).reset()
    b = MultiAgentBatch(3, num_players=3).reset(seed=5)
    c = MultiAgentBatch(3, num_players=3).reset(seed=6)
    assert_same(a, b)
    np.testing.assert_array_equal(a.obs[1:], c.obs[:2])  # game k of seed s = game k-1 of s+1
    batch = MultiAgentBatch(2, num_players=2, seed=1)
    first, second = batch.reset(), batch.reset()  # the next games, as raw_env.reset()
    e = nanty_env.raw_env(num_players=2)
    e.reset(seed=2)
    e.reset()
    np.testing.assert_array_equal(second.obs[1], e.observe(e.agent_selection)["observation"])
    assert not np.array_equal(first.obs, second.obs)


def test_split_rows_by_controller() -> None:
    batch = MultiAgentBatch(8, num_players=4, seed=3)
    d = batch.reset()
    rngs = policy_rngs(8)
    for _ in range(20):
        d = batch.step(choose(rngs, d))
    mine, others = d.split(0)
    assert sorted([*mine, *others]) == list(range(8))
    assert (d.seat[mine] == 0).all() and (d.seat[others] != 0).all()
    learner = np.array([0, 1, 2, 3, 0, 1, 2, 3])  # a different learner seat per game
    mine, others = d.split(learner)
    assert (d.seat[mine] == learner[d.game[mine]]).all()
    assert (d.seat[others] != learner[d.game[others]]).all()
    np.testing.assert_array_equal(d.rows_for([1, 2]), np.flatnonzero(np.isin(d.seat, [1, 2])))
    np.testing.assert_array_equal(d.rows_for(3), np.flatnonzero(d.seat == 3))
    # answering the two halves from two "networks" and stepping on
    actions = np.empty(len(d), dtype=np.int64)
    actions[mine] = d.mask[mine].argmax(1)
    actions[others] = d.mask.shape[1] - 1 - d.mask[others][:, ::-1].argmax(1)
    batch.step(actions)


def assert_same(a: Decisions, b: Decisions) -> None:
    for name in ("obs", "mask", "game", "seat", "rewards", "done"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.shape == y.shape, name
        np.testing.assert_array_equal(x, y, err_msg=name)
    assert a.infos.keys() == b.infos.keys()
    for k, info in a.infos.items():
        other = b.infos[k]
        assert info.keys() == other.keys()
        for key, value in info.items():
            np.testing.assert_array_equal(value, other[key], err_msg=key)


def test_bad_actions_move_no_game() -> None:
    batch = MultiAgentBatch(3, num_players=2, seed=0)
    twin = MultiAgentBatch(3, num_players=2, seed=0)
    with pytest.raises(RuntimeError, match="reset"):
        batch.step([0, 0, 0])
    d = batch.reset()
    twin.reset()
    good = d.mask.argmax(1)
    illegal = good.copy()
    illegal[2] = int(np.flatnonzero(~d.mask[2])[0])
    for bad, error in [
        (good[:2], ActionBatchError),
        (good.astype(float), ActionBatchError),
        ([*good[:2].tolist(), None], ActionBatchError),
        (illegal, IllegalActionError),
        (np.array([good[0], good[1], 10**6]), IllegalActionError),
        (np.array([good[0], -1, good[2]]), IllegalActionError),
    ]:
        with pytest.raises(error):
            batch.step(bad)
    with pytest.raises(IllegalActionError, match=r"row 2 .*no game has moved"):
        batch.step(illegal)
    assert_same(batch.step(good), twin.step(good))


@pytest.mark.slow
def test_workers_return_what_the_batch_returns() -> None:
    opts = dict(num_players=3, shaping=goal_progress, seed=11)
    batch = MultiAgentBatch(5, **opts)
    # game 0 in the calling process, 1-2 and 3-4 in the workers
    with MultiAgentWorkers(5, num_workers=2, caller_games=1, **opts) as workers:
        rngs = policy_rngs(5)
        a, b = batch.reset(), workers.reset()
        assert_same(a, b)
        ended = set()
        for _ in range(800):
            actions = choose(rngs, a)
            a, b = batch.step(actions), workers.step(actions)
            assert_same(a, b)
            ended.update(a.infos)
        assert ended == set(range(5))
        a, b = batch.reset(seed=4), workers.reset(seed=4)
        assert_same(a, b)
        illegal = a.mask.argmax(1)
        illegal[4] = int(np.flatnonzero(~a.mask[4])[0])
        with pytest.raises(IllegalActionError, match="row 4"):
            workers.step(illegal)
        with pytest.raises(ActionBatchError):
            workers.step([1, 2])
        good = a.mask.argmax(1)
        assert_same(batch.step(good), workers.step(good))  # nothing moved, still usable
        pids = workers.pids
    assert not any(alive(p) for p in pids)
    with pytest.raises(RuntimeError, match="closed"):
        workers.step(good)
    workers.close()  # twice is fine


@pytest.mark.slow
def test_workers_and_caller_play_the_expansion_in_uneven_chunks() -> None:
    opts = dict(num_players=4, expansion="cthulhu", reward_mode="zero_sum")
    batch = MultiAgentBatch(5, **opts)
    # the caller plays games 0-1, the workers 2-3 and 4
    with MultiAgentWorkers(5, num_workers=2, caller_games=2, **opts) as workers:
        rngs = policy_rngs(5)
        a, b = batch.reset(seed=3), workers.reset(seed=3)
        assert_same(a, b)
        assert b.obs.shape == (5, batch.obs_size) and b.mask.shape == (5, batch.num_actions)
        for _ in range(150):
            actions = choose(rngs, a)
            a, b = batch.step(actions), workers.step(actions)
            assert_same(a, b)


def test_worker_options_are_checked_before_any_worker_starts() -> None:
    with pytest.raises(ValueError, match="reward_mode"):
        MultiAgentWorkers(2, num_workers=2, reward_mode="zerosum")
    with pytest.raises(ValueError, match="must not exceed"):
        MultiAgentWorkers(2, num_workers=3)
    with pytest.raises(ValueError, match="must not exceed"):
        MultiAgentWorkers(4, num_workers=2, caller_games=3)
    with pytest.raises(TypeError, match="unknown option"):
        MultiAgentBatch(2, num_player=3)


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.slow
def test_a_killed_worker_is_reported_at_once() -> None:
    workers = MultiAgentWorkers(4, num_workers=2, num_players=2, seed=0)
    d = workers.reset()
    pids = workers.pids
    os.kill(pids[1], signal.SIGKILL)
    t = time.monotonic()
    with pytest.raises(VecEnvWorkerError, match=r"multi-agent worker 1 \(pid \d+\) died.*SIGKILL"):
        workers.step(d.mask.argmax(1))
    assert time.monotonic() - t < 10
    with pytest.raises(VecEnvWorkerError, match=r"unusable since a step failed.*SIGKILL"):
        workers.step(d.mask.argmax(1))
    workers.close()
    assert not alive(pids[0])


@pytest.mark.slow
def test_a_stopped_worker_is_reported_after_the_timeout_and_killed_on_close() -> None:
    workers = MultiAgentWorkers(2, num_workers=2, num_players=2, seed=0, worker_timeout=1.0)
    d = workers.reset()
    os.kill(workers.pids[0], signal.SIGSTOP)
    with pytest.raises(VecEnvWorkerError, match="has not answered for 1 s; it is stopped"):
        workers.step(d.mask.argmax(1))
    pids = workers.pids
    workers.close()
    assert not any(alive(p) for p in pids)


@pytest.mark.slow
def test_a_failing_worker_sends_its_traceback() -> None:
    with MultiAgentWorkers(2, num_workers=2, num_players=2, shaping=failing_potential) as w:
        with pytest.raises(VecEnvWorkerError, match=r"(?s)worker 0 failed.*potential says no"):
            w.reset(seed=0)
        with pytest.raises(VecEnvWorkerError, match=r"unusable.*potential says no"):
            w.reset(seed=0)


def failing_potential(g, seat: int) -> float:
    raise RuntimeError("potential says no")


@pytest.mark.slow
def test_a_dropped_batch_stops_its_workers() -> None:
    workers = MultiAgentWorkers(2, num_workers=2, num_players=2)
    workers.reset(seed=1)
    pids = workers.pids
    del workers
    gc.collect()
    assert not any(alive(p) for p in pids)
