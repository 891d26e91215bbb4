"""The vectorised faces' worker processes: faults injected (a killed worker, a stopped one)
are reported once and clearly, workers stay lean (no torch, no Stable-Baselines3), and
finished games carry SB3's episode summary so SB3 logs ``ep_rew_mean`` by itself."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable

import numpy as np
import pytest

from nanty_env.vector import make_vec_env
from nanty_env.vector.async_vector import make_async_vec_env
from nanty_env.vector.workers import VecEnvWorkerError


def first_legal(masks: np.ndarray) -> np.ndarray:
    return np.array([int(np.flatnonzero(m)[0]) for m in masks])


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        line = next(x for x in f if x.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


def maps(pid: int) -> str:
    with open(f"/proc/{pid}/maps") as f:
        return f.read()


def alive(pid: int) -> bool:
    """The process exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def sync_split(timeout: float = 120.0):
    venv = make_vec_env(4, num_workers=2, seed=0, num_players=2, worker_timeout=timeout)
    venv.reset()
    return venv, venv.worker_pids[0]


def step_sync(venv) -> None:
    venv.step(first_legal(venv.action_masks()))


def async_batch(timeout: float = 120.0):
    venv = make_async_vec_env(4, num_workers=2, seed=0, num_players=2, worker_timeout=timeout)
    venv.async_reset()
    return venv, venv.worker_pids[1]


def caller_batch(timeout: float = 120.0):
    """One worker and the calling process: the caller's chunk can always be played, so the
    caller never waits for the worker and must still notice when it fails."""
    venv = make_async_vec_env(
        4, num_workers=1, seed=0, num_players=2, worker_timeout=timeout, caller_games=2
    )
    venv.async_reset()
    return venv, venv.worker_pids[0]


def step_async(venv) -> None:
    for _ in range(4):  # worker 0 keeps answering; worker 1's chunks are owed
        _, _, _, _, masks, ids = venv.recv()
        venv.send(first_legal(masks), ids)


FACES: dict[str, tuple[Callable, Callable]] = {
    "sync": (sync_split, step_sync),
    "async": (async_batch, step_async),
    "async, caller plays": (caller_batch, step_async),
}


@pytest.mark.slow
@pytest.mark.parametrize("face", sorted(FACES))
def test_a_killed_worker_is_reported_once_clearly(face: str) -> None:
    make, step = FACES[face]
    venv, pid = make()
    os.kill(pid, signal.SIGKILL)
    dead_by = time.monotonic() + 10
    while alive(pid) and time.monotonic() < dead_by:  # SIGKILL takes effect when the
        time.sleep(0.01)  # process next runs: on a busy machine, a few ms after kill()
    t0 = time.monotonic()
    with pytest.raises(
        VecEnvWorkerError, match=r"worker \d \(pid \d+\) died: it was killed by SIGKILL"
    ):
        while time.monotonic() - t0 < 10:  # the caller's own games never wait: it plays
            step(venv)  # them until the kernel has closed the dead worker's pipe
    assert time.monotonic() - t0 < 10
    with pytest.raises(VecEnvWorkerError, match=r"unusable.*died"):  # never a bare BrokenPipeError
        venv.reset() if face == "sync" else venv.async_reset()
    if face == "sync":
        with pytest.raises(VecEnvWorkerError, match="unusable"):
            venv.get_attr("seat")
    venv.close()


def test_a_dead_worker_is_found_while_another_always_has_an_answer_ready() -> None:
    """The fast worker never hides the dead one: recv takes turns among the owing workers."""
    venv, pid = async_batch()
    time.sleep(1.0)  # both workers' reset answers are waiting in their pipes
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(VecEnvWorkerError, match=r"worker 1 \(pid \d+\) died"):
        for _ in range(12):
            _, _, _, _, masks, ids = venv.recv()
            venv.send(first_legal(masks), ids)
            time.sleep(0.2)  # worker 0's next answer is ready before the next recv
    venv.close()


@pytest.mark.slow
@pytest.mark.parametrize("face", sorted(FACES))
def test_a_stopped_worker_is_reported_within_the_timeout(face: str) -> None:
    make, step = FACES[face]
    venv, pid = make(timeout=1.5)
    step(venv)
    os.kill(pid, signal.SIGSTOP)
    try:
        t0 = time.monotonic()
        with pytest.raises(VecEnvWorkerError, match=r"has not answered for \d+ s; it is stopped"):
            while time.monotonic() - t0 < 10:  # the other worker may keep answering
                step(venv)
        assert 1.0 < time.monotonic() - t0 < 10
        venv.close()  # kills the stopped worker
        deadline = time.monotonic() + 10
        while alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(pid)
    finally:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)


def test_an_error_in_the_callers_own_games_keeps_the_workers_in_step() -> None:
    from nanty_env.engine import IllegalActionError

    venv = make_vec_env(4, num_workers=2, seed=0, num_players=2, illegal_action="raise")
    venv.reset()
    masks = venv.action_masks()
    actions = first_legal(masks)
    actions[0] = int(np.flatnonzero(~masks[0])[0])  # game 0 is the caller's own
    with pytest.raises(IllegalActionError):
        venv.step(actions)
    direct = [venv.env_method("action_masks", indices=[i])[0] for i in range(4)]
    assert np.array_equal(venv.action_masks(), np.stack(direct))  # fresh, not the stale ones
    for _ in range(20):
        _, _, _, infos = venv.step(first_legal(venv.action_masks()))
        assert len(infos) == 4
    venv.close()


def test_a_failing_command_is_reported_with_its_traceback() -> None:
    venv, _ = sync_split()
    with pytest.raises(VecEnvWorkerError, match=r"AttributeError.*no_such_method"):
        venv.env_method("no_such_method", indices=[3])
    venv.close()


@pytest.mark.slow
@pytest.mark.parametrize("face", sorted(FACES))
def test_workers_import_neither_torch_nor_stable_baselines3(face: str) -> None:
    import torch  # noqa: F401  (the caller has it; its workers must not)

    venv, _ = FACES[face][0]()
    try:
        FACES[face][1](venv)
        for pid in venv.worker_pids:
            assert "libtorch" not in maps(pid)
            assert rss_mb(pid) <= 60, f"worker RSS {rss_mb(pid):.0f} MB"
    finally:
        venv.close()


@pytest.mark.parametrize("workers", (1, 2))
def test_finished_games_carry_sb3_episode_summaries(workers: int) -> None:
    venv = make_vec_env(4, num_workers=workers, seed=5, num_players=2)
    venv.reset()
    rng = np.random.default_rng(0)
    returns, lengths, seen = np.zeros(4), np.zeros(4, dtype=int), 0
    for _ in range(4000):
        masks = venv.action_masks()
        _, rewards, dones, infos = venv.step(
            np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        )
        returns += rewards
        lengths += 1
        for i in np.flatnonzero(dones):
            ep = infos[i]["episode"]
            assert ep["r"] == pytest.approx(returns[i]) and ep["l"] == lengths[i] and ep["t"] >= 0
            returns[i], lengths[i] = 0.0, 0
            seen += 1
        assert all("episode" not in infos[i] for i in np.flatnonzero(~dones))
        if seen >= 6:
            break
    assert seen >= 6
    venv.close()


@pytest.mark.slow
def test_sb3_logs_ep_rew_mean_without_a_vec_monitor() -> None:
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import KVWriter, Logger

    class Capture(KVWriter):
        def __init__(self) -> None:
            self.rows: list[dict] = []

        def write(self, key_values, key_excluded, step=0) -> None:
            self.rows.append(dict(key_values))

    venv = make_vec_env(2, seed=0, num_players=2)  # two games of ~100 learner steps each
    model = MaskablePPO("MlpPolicy", venv, n_steps=256, batch_size=256, n_epochs=1, seed=0)
    capture = Capture()
    model.set_logger(Logger(folder=None, output_formats=[capture]))
    model.learn(total_timesteps=512)
    logged = [row for row in capture.rows if "rollout/ep_rew_mean" in row]
    assert logged, "SB3 logged no ep_rew_mean"
    assert all(-1.0 <= row["rollout/ep_rew_mean"] <= 1.0 for row in logged)
    assert all(row["rollout/ep_len_mean"] > 1 for row in logged)
