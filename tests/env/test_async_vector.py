"""The asynchronous batch env: chunks come back in any order, every game plays as it would
in the synchronous batch, and misuse is refused clearly."""

from __future__ import annotations

import array
import fcntl
import os
import pickle
import signal
import termios
import time
from collections.abc import Callable

import numpy as np
import pytest

from nanty_env.engine import IllegalActionError
from nanty_env.vector.async_vector import AsyncNantyVecEnv, make_async_vec_env
from nanty_env.vector.balance import FasterMode
from nanty_env.vector.batch import EnvMaker, GameBatch
from nanty_env.vector.workers import INFO_BY_PIPE, INFO_LEN, VecEnvWorkerError, _StepBuffers

from .test_balance import LockedEnvMaker

N, STEPS = 6, 40
ANSWER_BYTES = 4 + len(pickle.dumps((0, None)))  # a worker's answer: length header, message


def rule(env_id: int, t: int, mask: np.ndarray) -> int:
    """A deterministic legal action for game ``env_id`` at its ``t``-th step."""
    legal = np.flatnonzero(mask)
    return int(legal[(7 * env_id + 3 * t) % len(legal)])


def fingerprint(obs: np.ndarray, reward: float, done: bool) -> tuple:
    return (round(float(obs.sum()), 3), int(obs.argmax()), float(reward), bool(done))


def synchronous_trajectories(fns) -> list[list[tuple]]:
    venv = GameBatch(fns)
    venv.seed(0)
    obs = venv.reset()
    out = [[fingerprint(obs[i], 0.0, False)] for i in range(N)]
    for t in range(STEPS):
        masks = venv.action_masks()
        obs, rewards, dones, _ = venv.step(np.array([rule(i, t, masks[i]) for i in range(N)]))
        for i in range(N):
            out[i].append(fingerprint(obs[i], rewards[i], dones[i]))
    return out


def async_trajectories(
    venv: AsyncNantyVecEnv, check: Callable[[AsyncNantyVecEnv, np.ndarray], None]
) -> list[list[tuple]]:
    """Every game's fingerprints over ``STEPS`` steps of ``rule``, chunks answered in the
    order they come; ``check(venv, ids)`` after every ``recv``."""
    got: list[list[tuple]] = [[] for _ in range(N)]
    steps = [0] * N
    venv.seed(0)
    venv.async_reset()
    while min(len(g) for g in got) < STEPS + 1:
        obs, rewards, dones, infos, masks, ids = venv.recv()
        check(venv, ids)
        assert len(infos) == len(ids)
        for j, i in enumerate(ids):
            got[i].append(fingerprint(obs[j], rewards[j], dones[j]))
            if dones[j]:
                assert "terminal_observation" in infos[j]
        venv.send([rule(int(i), steps[i], masks[j]) for j, i in enumerate(ids)], ids)
        for i in ids:
            steps[i] += 1
    return got


def no_room_for_infos(cls, n: int, obs_dim: int, num_actions: int) -> int:
    """``_StepBuffers.nbytes`` without room for infos, so they all go through the pipe."""
    return cls.array_bytes(n, obs_dim, num_actions) + 8


@pytest.mark.parametrize(
    "workers, per_worker, caller_games, chunks, infos_by_pipe",
    [
        (2, 1, 0, {(0, 1, 2), (3, 4, 5)}, False),
        (2, 2, 0, {(0,), (1, 2), (3,), (4, 5)}, False),
        (2, 2, 0, {(0,), (1, 2), (3,), (4, 5)}, True),
        (1, 2, 2, {(0, 1), (2, 3), (4, 5)}, False),
        (2, 1, 1, {(0, 1), (2, 3, 4), (5,)}, False),
    ],
)
def test_every_game_plays_as_in_the_synchronous_batch(
    workers: int,
    per_worker: int,
    caller_games: int,
    chunks: set,
    infos_by_pipe: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if infos_by_pipe:  # the caller sizes the shared blocks; the workers just map them
        monkeypatch.setattr(_StepBuffers, "nbytes", classmethod(no_room_for_infos))
    fns = [EnvMaker(num_players=3) for _ in range(N)]
    expected = synchronous_trajectories(fns)
    with AsyncNantyVecEnv(
        fns, num_workers=workers, chunks_per_worker=per_worker, caller_games=caller_games
    ) as venv:
        assert venv.num_chunks == len(chunks)
        assert venv.num_workers == workers
        seen_chunks: set[tuple] = set()

        def check(venv: AsyncNantyVecEnv, ids: np.ndarray) -> None:
            seen_chunks.add(tuple(int(i) for i in ids))
            piped = any(
                b.ctrl[INFO_LEN] == INFO_BY_PIPE for b in venv._bufs[: workers * per_worker]
            )
            assert piped == infos_by_pipe

        got = async_trajectories(venv, check)
    assert seen_chunks == chunks
    assert [g[: STEPS + 1] for g in got] == expected
    assert any(fp[3] for g in expected for fp in g)  # some game ended and was reset


def test_misuse_is_refused() -> None:
    with make_async_vec_env(8, num_workers=2, num_players=2) as venv:  # chunks of 2 games
        with pytest.raises(RuntimeError, match="nothing to receive"):
            venv.recv()
        venv.async_reset()
        with pytest.raises(RuntimeError, match="still stepping"):
            venv.seed(1)
        obs, _, _, _, masks, ids = venv.recv()
        with pytest.raises(ValueError, match="not one chunk"):
            venv.send([0], ids[:1])
        other = next(c for c in ([0, 1], [2, 3], [4, 5], [6, 7]) if c != ids.tolist())
        with pytest.raises(ValueError, match="not waiting for actions"):
            venv.send([0, 0], other)
        with pytest.raises(ValueError, match="actions for"):
            venv.send([0, 0, 0], ids)
        venv.send([int(np.flatnonzero(m)[0]) for m in masks], ids)
        assert obs.shape == (2, *venv.observation_space.shape)


def without_the_callers_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """``send`` no longer checks actions against the masks, so an illegal action reaches its
    game, which raises there: a game failing on its own."""
    monkeypatch.setattr("nanty_env.vector.async_vector.check_legal", lambda *args, **kwargs: None)


def test_a_failing_game_reports_its_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    fns = [EnvMaker(num_players=2, illegal_action="raise") for _ in range(4)]
    with AsyncNantyVecEnv(fns, num_workers=2) as venv:  # two chunks of one game a worker
        venv.async_reset()
        _, _, _, _, masks, ids = venv.recv()
        illegal = [int(np.flatnonzero(~masks[0])[0])]
        with pytest.raises(IllegalActionError, match="no game has moved"):
            venv.send(illegal, ids)  # refused by the caller: the batch goes on
        without_the_callers_check(monkeypatch)
        venv.send(illegal, ids)
        with pytest.raises(VecEnvWorkerError, match="IllegalActionError"):
            for _ in range(4):
                venv.recv()


def test_a_dead_worker_is_reported() -> None:
    with make_async_vec_env(4, num_workers=2, num_players=2) as venv:
        venv._workers[1].proc.kill()
        venv._workers[1].proc.join()
        with pytest.raises(VecEnvWorkerError, match=r"worker 1 .* died: it was killed by SIGKILL"):
            venv.async_reset()
            for _ in range(2):
                venv.recv()


def answered(venv: AsyncNantyVecEnv, count: int) -> None:
    """Sleep until the only worker has ``count`` answers waiting in its pipe (each answer is
    a short message: the pipe's byte count tells how many have come)."""
    fd = venv._workers[0].conn.fileno()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        waiting = array.array("i", [0])
        fcntl.ioctl(fd, termios.FIONREAD, waiting)
        if waiting[0] >= count * ANSWER_BYTES:
            return
        time.sleep(0.01)
    raise AssertionError(f"the worker did not give {count} answers")


def test_the_chunk_posted_first_comes_first_of_those_ready() -> None:
    """The caller's own chunk can always be played: it comes back when it has waited longest
    of the chunks ready, or when no worker's chunk is ready, so no chunk is starved and the
    caller never sleeps while it has games to play."""
    with make_async_vec_env(6, num_workers=1, seed=0, num_players=2, caller_games=2) as venv:
        a, b, caller = (0, 1), (2, 3), (4, 5)
        masks: dict[tuple, np.ndarray] = {}

        def recv() -> tuple:
            *_, m, ids = venv.recv()
            masks[tuple(ids.tolist())] = m
            return tuple(ids.tolist())

        def send(chunk: tuple) -> None:
            venv.send([int(np.flatnonzero(m)[0]) for m in masks[chunk]], list(chunk))

        venv.async_reset()  # posted in this order: a, b (to the worker), then the caller's
        answered(venv, 2)
        assert [recv(), recv(), recv()] == [a, b, caller]
        send(caller)
        send(a)
        answered(venv, 1)  # a is ready, but the caller's chunk was posted first
        assert [recv(), recv()] == [caller, a]
        send(a)
        send(caller)
        answered(venv, 1)
        assert [recv(), recv()] == [a, caller]
        pid = venv.worker_pids[0]
        os.kill(pid, signal.SIGSTOP)
        try:
            send(b)  # posted first, but the stopped worker cannot answer
            send(caller)
            assert recv() == caller  # played here rather than waiting
        finally:
            os.kill(pid, signal.SIGCONT)
        assert recv() == b


def test_caller_games_are_checked_and_count_as_stepping() -> None:
    for bad in (-1, 4):
        with pytest.raises(ValueError, match="caller_games must be 0 to 3"):
            make_async_vec_env(4, num_workers=1, num_players=2, caller_games=bad)
    with make_async_vec_env(4, num_workers=1, num_players=2, caller_games=3) as venv:
        assert venv.num_chunks == 2  # the one worker's game and the caller's three
        venv.async_reset()
        got = [venv.recv() for _ in range(2)]
        *_, masks, ids = next(g for g in got if len(g[-1]) == 3)  # the caller's games
        venv.send([int(np.flatnonzero(m)[0]) for m in masks], ids)
        with pytest.raises(RuntimeError, match="still stepping"):
            venv.seed(1)  # the caller's chunk is owed, though nothing runs yet


def test_a_game_that_raises_in_the_caller_raises_there_and_breaks_the_batch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fns = [EnvMaker(num_players=2, illegal_action="raise") for _ in range(3)]
    with AsyncNantyVecEnv(fns, num_workers=1, chunks_per_worker=1, caller_games=1) as venv:
        venv.async_reset()
        got = [venv.recv() for _ in range(2)]
        *_, masks, ids = next(g for g in got if g[-1].tolist() == [2])  # the caller's game
        without_the_callers_check(monkeypatch)
        venv.send([int(np.flatnonzero(~masks[0])[0])], ids)  # an illegal action
        with pytest.raises(IllegalActionError):
            venv.recv()
        with pytest.raises(VecEnvWorkerError, match="unusable: a game in the calling process"):
            venv.recv()


def test_balanced_chunks_move_both_ways_and_every_game_plays_as_in_one_process() -> None:
    """With windows of two chunks and probes after every window, the balancer moves the
    worker's chunks to the caller and back many times; no game notices."""
    fns = [EnvMaker(num_players=3) for _ in range(N)]
    expected = synchronous_trajectories(fns)
    chooser = FasterMode("split", "local", window_steps=2, probe_every=1)
    moved_here: set[int] = set()
    moved_back: set[int] = set()

    def check(venv: AsyncNantyVecEnv, ids: np.ndarray) -> None:
        here = {c for c in venv._here if c < 2}  # the worker's chunks now played here
        moved_back.update(moved_here - here)
        moved_here.update(here)

    with AsyncNantyVecEnv(fns, num_workers=1, caller_games=2, balance=chooser) as venv:
        got = async_trajectories(venv, check)
    assert moved_here == moved_back == {0, 1}
    assert [g[: STEPS + 1] for g in got] == expected


def test_balanced_games_that_cannot_be_pickled_stay_with_their_worker() -> None:
    fns = [LockedEnvMaker(num_players=2) for _ in range(4)]
    chooser = FasterMode("split", "local", window_steps=1, probe_every=1)
    with AsyncNantyVecEnv(
        fns, num_workers=1, chunks_per_worker=1, caller_games=2, balance=chooser
    ) as venv:
        venv.async_reset()
        deadline = time.monotonic() + 60  # the worker starts while the caller plays
        with pytest.warns(RuntimeWarning, match="cannot be pickled"):
            while venv._balancer is not None and time.monotonic() < deadline:
                *_, masks, ids = venv.recv()  # after the warm-up and a split window, local
                venv.send([int(np.flatnonzero(m)[0]) for m in masks], ids)  # mode is tried
        assert venv._balancer is None and set(venv._here) == {1}
        for _ in range(20):  # and the games go on where they were
            *_, masks, ids = venv.recv()
            venv.send([int(np.flatnonzero(m)[0]) for m in masks], ids)
    with pytest.raises(ValueError, match='between "split" and "local"'):
        AsyncNantyVecEnv(fns, num_workers=1, balance=FasterMode("a", "b"))
