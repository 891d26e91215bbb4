"""Balancing a split vector env: the balancer's choices on made-up timings, and games moved
between the caller and its worker going on exactly as in one process."""

from __future__ import annotations

import os
import signal
import threading

import numpy as np
import pytest

from nanty_env.vector import SubprocNantyVecEnv, make_vec_env
from nanty_env.vector.balance import FasterMode, SplitBalancer
from nanty_env.vector.batch import EnvMaker, GameBatch

from .test_single_agent import step_both_alike


def run_windows(bal: SplitBalancer, windows: int, local_s: float, split_s: float) -> list[int]:
    """Feed ``windows`` windows of steps timed as a machine where a step costs ``local_s``
    with every game in the caller and ``split_s`` split; the worker's share in each window."""
    shares = []
    for _ in range(windows):
        shares.append(bal.worker_games)
        for _ in range(bal.window_steps):
            bal.record(split_s if bal.worker_games else local_s)
    return shares


def test_faster_mode_with_one_step_windows_keeps_the_faster_mode() -> None:
    chooser = FasterMode("several", "one")  # a window is one step (e.g. one PPO update)
    modes = []
    for _ in range(40):
        modes.append(chooser.mode)
        chooser.record(0.3 if chooser.mode == "several" else 0.2)
    assert modes[:4] == ["several", "several", "one", "one"]  # warm-up, timed, other timed
    assert modes[4:].count("several") <= 2  # 1.5x slower: probed every 4 * 8 windows
    with pytest.raises(ValueError, match="at least 1"):
        FasterMode("a", "b", window_steps=0)


def test_the_window_is_about_4096_game_steps() -> None:
    assert SplitBalancer(total=16, max_worker=8).window_steps == 256
    assert SplitBalancer(total=1024, max_worker=512).window_steps == 16


def test_a_faster_split_is_kept_and_local_mode_probed_rarely() -> None:
    bal = SplitBalancer(total=64, max_worker=32, window_steps=10)
    shares = run_windows(bal, 60, local_s=3.6e-3, split_s=2.4e-3)
    assert shares[:4] == [32, 32, 0, 32]  # warm-up, split measured, local measured, split won
    late = shares[4:]
    # local mode measured 1.5x slower: probed once every 4 * probe_every windows
    assert late.count(0) <= len(late) // (4 * bal.probe_every) + 1
    assert 0 in late  # but probed


def test_a_slower_split_leaves_every_game_to_the_caller() -> None:
    bal = SplitBalancer(total=16, max_worker=8, window_steps=10)
    shares = run_windows(bal, 60, local_s=0.9e-3, split_s=1.3e-3)
    late = shares[3:]
    assert late.count(8) <= len(late) // (4 * bal.probe_every) + 1
    assert 8 in late


def test_close_modes_are_probed_often_and_a_tie_goes_to_local_mode() -> None:
    bal = SplitBalancer(total=16, max_worker=8, window_steps=10)
    shares = run_windows(bal, 60, local_s=0.9e-3, split_s=0.89e-3)  # within the margin
    late = shares[3:]
    assert late.count(8) >= len(late) // (bal.probe_every + 1) - 1
    assert late.count(0) > late.count(8)


def test_the_balancer_follows_a_machine_that_gets_busy_then_quiet_again() -> None:
    bal = SplitBalancer(total=64, max_worker=32, window_steps=10)
    run_windows(bal, 10, local_s=3.6e-3, split_s=2.4e-3)
    assert bal.worker_games == 32
    busy = run_windows(bal, 5 * bal.probe_every, local_s=3.6e-3, split_s=5.0e-3)
    assert busy[-1] == 0 and busy[-3 * bal.probe_every :].count(32) <= 1
    quiet = run_windows(bal, 5 * bal.probe_every, local_s=3.6e-3, split_s=2.4e-3)
    assert quiet[-1] == 32 and quiet[-3 * bal.probe_every :].count(0) <= 1


def test_games_removed_from_one_batch_go_on_in_another() -> None:
    a = GameBatch([EnvMaker(num_players=2) for _ in range(3)])
    b = GameBatch([EnvMaker(num_players=2) for _ in range(2)])
    a.seed(10)
    a._returns[2], a._lengths[2] = 1.5, 7
    moved = a.remove_games(1, front=False)
    assert a.num_envs == 2 and len(a.envs) == 2
    b.insert_games(moved, front=True)
    assert b.num_envs == 3
    assert b._seeds[0] == 12 and b._returns[0] == 1.5 and b._lengths[0] == 7
    with pytest.raises(ValueError):
        a.remove_games(3, front=True)


def play_and_compare(one, split, steps: int, moves: dict[int, int], seed: int = 3) -> None:
    """Step both with the same random actions; before step ``k`` in ``moves`` the split's
    worker is given ``moves[k]`` games. Everything must match, step by step."""
    assert np.array_equal(one.reset(), split.reset())
    rng = np.random.default_rng(seed)
    for k in range(steps):
        if k in moves:
            split._move_games(moves[k])
            assert split.worker_games == [moves[k]]
        step_both_alike(one, split, rng)


def test_games_moved_between_caller_and_worker_play_exactly_as_in_one_process() -> None:
    one = make_vec_env(6, num_workers=1, seed=5, num_players=3)
    split = make_vec_env(6, num_workers=2, seed=5, num_players=3, balance=False)
    try:
        assert split.worker_games == [3]
        play_and_compare(one, split, 400, {40: 1, 90: 0, 150: 3, 200: 2, 260: 0, 330: 3})
        assert split.seed(9) == one.seed(9)  # seeds go by a game's place, wherever it plays
        with pytest.raises(ValueError, match="0 to 3 games"):
            split._move_games(4)
        split._move_games(0)  # commands reach every game wherever it plays, none the idle worker
        assert split.get_attr("seat") == one.get_attr("seat")
        split.set_attr("illegal_action", "raise", indices=[1, 5])
        assert split.get_attr("illegal_action", indices=[1, 5]) == ["raise", "raise"]
        split.set_attr("illegal_action", "terminate", indices=[1, 5])
        play_and_compare(one, split, 60, {10: 0, 30: 2})
    finally:
        split.close()


def test_a_balanced_split_plays_exactly_as_one_process_while_it_moves_games() -> None:
    bal = SplitBalancer(total=6, max_worker=3, window_steps=5, probe_every=1)
    one = make_vec_env(6, num_workers=1, seed=11, num_players=4)
    split = SubprocNantyVecEnv([EnvMaker(num_players=4) for _ in range(6)], 2, balance=bal)
    split.seed(11)
    try:
        seen = set()
        assert np.array_equal(one.reset(), split.reset())
        rng = np.random.default_rng(1)
        for _ in range(300):
            step_both_alike(one, split, rng)
            seen.add(split.worker_games[0])
        assert 0 in seen and len(seen) >= 2  # it did move games, both ways
    finally:
        split.close()


def test_a_worker_without_games_is_not_woken() -> None:
    """With every game in the caller a step never touches the worker: stopped, it is not
    missed (a worker with games would be reported after the timeout)."""
    split = make_vec_env(4, num_workers=2, seed=0, num_players=2, balance=False, worker_timeout=2)
    try:
        split.reset()
        split._move_games(0)
        pid = split.worker_pids[0]
        os.kill(pid, signal.SIGSTOP)
        try:
            for _ in range(50):
                masks = split.action_masks()
                split.step(np.array([int(np.flatnonzero(m)[0]) for m in masks]))
        finally:
            os.kill(pid, signal.SIGCONT)
        split._move_games(2)
        masks = split.action_masks()
        split.step(np.array([int(np.flatnonzero(m)[0]) for m in masks]))
    finally:
        split.close()


def test_maskable_ppo_trains_on_a_split_that_moves_its_games() -> None:
    """SB3's loop (reset, env_method("action_masks"), step, episode infos) on a balanced split
    moving the worker's games every few steps: it trains, and its actions stay legal."""
    from sb3_contrib import MaskablePPO

    bal = SplitBalancer(total=4, max_worker=2, window_steps=16, probe_every=1)
    venv = SubprocNantyVecEnv([EnvMaker(num_players=2) for _ in range(4)], 2, balance=bal)
    try:
        venv.seed(0)
        model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0)
        model.learn(total_timesteps=512)
        assert model.num_timesteps >= 512
        assert len(bal.measured) == 2  # both modes were played and timed
        assert len(model.ep_info_buffer) > 0  # episodes summarised through the moves
        obs = venv.reset()
        masks = venv.action_masks()
        actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
        assert all(masks[i, a] for i, a in enumerate(actions))
    finally:
        venv.close()


class LockedEnvMaker(EnvMaker):
    """Envs holding something that cannot be pickled (a lock), as a user's env might."""

    def __call__(self):
        env = super().__call__()
        env.lock = threading.Lock()
        return env


def test_games_that_cannot_be_pickled_stay_put_and_balancing_stops() -> None:
    one = make_vec_env(6, num_workers=1, seed=2, num_players=2)
    split = SubprocNantyVecEnv([LockedEnvMaker(num_players=2) for _ in range(6)], 2, balance=False)
    try:
        split.seed(2)
        assert np.array_equal(one.reset(), split.reset())
        split._balancer = SplitBalancer(total=6, max_worker=3, window_steps=4)
        rng = np.random.default_rng(0)
        with pytest.warns(RuntimeWarning, match="cannot be pickled"):
            for _ in range(20):  # after a warm-up and a split window it tries local mode
                step_both_alike(one, split, rng)
        assert split._balancer is None and split.worker_games == [3]
        for _ in range(40):
            step_both_alike(one, split, rng)
    finally:
        split.close()


def test_a_game_that_became_unpicklable_stays_in_the_caller() -> None:
    one = make_vec_env(6, num_workers=1, seed=4, num_players=2)
    split = make_vec_env(6, num_workers=2, seed=4, num_players=2)
    try:
        rng = np.random.default_rng(0)
        assert np.array_equal(one.reset(), split.reset())
        split._move_games(0)
        split._local.envs[-1].lock = threading.Lock()  # as an env might, while it plays
        with pytest.warns(RuntimeWarning, match="cannot be pickled"):
            split._move_games(3)
        assert split._balancer is None and split.worker_games == [0]
        assert len(split._local.envs) == 6
        for _ in range(40):
            step_both_alike(one, split, rng)
    finally:
        split.close()
