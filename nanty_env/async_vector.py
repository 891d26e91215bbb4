"""An asynchronous batch of single-learner games (EnvPool-style ``send`` / ``recv``).

The games are split into chunks, each played by its own worker process. ``recv()`` returns
the results of whichever chunk is ready first (its observations, rewards, dones, infos, next
action masks and the global indices of its games) and ``send(actions, env_ids)`` hands that
chunk its next actions; meanwhile the other chunks keep stepping. Nobody waits for the slowest
chunk of a synchronous step, so with two workers on two cores throughput approaches that of
two independent processes. Each game's trajectory depends only on its own actions and seed,
never on the order in which chunks come back. Training loops built on it (asynchronous PPO,
actor-learner setups) compute actions for one chunk while the others play.

    venv = make_async_vec_env(64, num_workers=2, seed=0, num_players=4)
    venv.async_reset()
    while ...:
        obs, rewards, dones, infos, masks, ids = venv.recv()
        venv.send(policy(obs, masks), ids)
    venv.close()

Data crosses through shared memory; each worker is woken and answers through its pipe, so
idle processes sleep instead of spinning (the caller and the workers share the cores).
"""

from __future__ import annotations

import contextlib
import traceback
from collections.abc import Sequence
from multiprocessing.connection import wait
from typing import Any

import numpy as np

from nanty_env.vector import (
    INFO_BY_PIPE,
    INFO_LEN,
    EnvFactory,
    EnvMaker,
    NantyVecEnv,
    _StepBuffers,
    process_context,
    start_worker,
)


def _async_worker(remote: Any, env_fns: list[EnvFactory], bufs: _StepBuffers) -> None:
    """Block on the pipe; step (or reset) the chunk into shared memory, then answer."""
    venv = NantyVecEnv(env_fns)
    while True:
        try:
            cmd, data = remote.recv()
        except (EOFError, OSError):  # the caller is gone
            return
        if cmd == "close":
            remote.close()
            return
        try:
            if cmd == "step":
                infos = venv.step_into(bufs.actions, bufs.obs, bufs.rewards, bufs.dones, bufs.masks)
            elif cmd == "reset":
                bufs.obs[:] = venv.reset()
                bufs.masks[:] = venv.action_masks()
                bufs.rewards[:] = 0.0
                bufs.dones[:] = False
                infos = [{} for _ in venv.envs]
            elif cmd == "seed":
                venv.seed(data)
                remote.send(None)
                continue
            else:
                raise ValueError(f"unknown command {cmd!r}")
            bufs.put_infos(infos, remote)  # a list sent through the pipe if too large
        except Exception:
            remote.send(traceback.format_exc())
            continue
        if bufs.ctrl[INFO_LEN] != INFO_BY_PIPE:
            remote.send(None)  # done; the infos are in shared memory


class AsyncNantyVecEnv:
    """``len(env_fns)`` games in ``num_workers`` chunks, one worker process each (env factories
    must be picklable); see the module docstring for the protocol.

    Every chunk must be answered with ``send`` for exactly the ``env_ids`` that ``recv``
    returned for it before ``recv`` can return it again.
    """

    def __init__(self, env_fns: Sequence[EnvFactory], num_workers: int = 2) -> None:
        n = len(env_fns)
        num_workers = max(1, min(num_workers, n))
        probe = env_fns[0]()
        self.num_envs = n
        self.observation_space, self.action_space = probe.observation_space, probe.action_space
        obs_dim, num_actions = int(np.prod(self.observation_space.shape)), int(self.action_space.n)
        bounds = np.linspace(0, n, num_workers + 1).astype(int)
        self._ids = [np.arange(bounds[k], bounds[k + 1]) for k in range(num_workers)]
        ctx = process_context()
        self._remotes: list[Any] = []
        self._bufs: list[_StepBuffers] = []
        self._procs: list[Any] = []
        for ids in self._ids:
            fns = [env_fns[i] for i in ids]
            parent, bufs, proc = start_worker(ctx, _async_worker, fns, obs_dim, num_actions)
            self._remotes.append(parent)
            self._bufs.append(bufs)
            self._procs.append(proc)
        self._busy: set[int] = set()  # chunks stepping (results not yet received)
        self._awaiting: set[int] = set()  # chunks received, waiting for their actions
        self._closed = False

    @property
    def num_workers(self) -> int:
        return len(self._ids)

    def seed(self, seed: int | None = None) -> None:
        """Seed game ``i`` with ``seed + i`` at the next ``async_reset``."""
        self._require_idle("seed")
        for k, ids in enumerate(self._ids):
            self._post(k, ("seed", None if seed is None else seed + int(ids[0])))
        for k in range(self.num_workers):
            self._answer(k)

    def async_reset(self) -> None:
        """Reset every game; each chunk's first observations come back through ``recv``."""
        self._require_idle("async_reset")
        for k in range(self.num_workers):
            self._post(k, ("reset", None))
            self._busy.add(k)

    def send(
        self, actions: Sequence[int] | np.ndarray, env_ids: Sequence[int] | np.ndarray
    ) -> None:
        """Hand a received chunk its next actions (``actions[j]`` for game ``env_ids[j]``)."""
        env_ids = np.asarray(env_ids)
        k = self._chunk_of(env_ids)
        if k not in self._awaiting:
            raise ValueError(f"games {env_ids.tolist()} are not waiting for actions")
        actions = np.asarray(actions).reshape(-1)
        if len(actions) != len(env_ids):
            raise ValueError(f"{len(actions)} actions for {len(env_ids)} games")
        self._bufs[k].actions[:] = actions
        self._post(k, ("step", None))
        self._awaiting.discard(k)
        self._busy.add(k)

    def recv(
        self,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict], np.ndarray, np.ndarray]:
        """The next ready chunk: ``(obs, rewards, dones, infos, masks, env_ids)`` (copies;
        finished games are already reset, as in ``NantyVecEnv``). Blocks until one is ready."""
        if not self._busy:
            raise RuntimeError("nothing to receive: send actions (or async_reset) first")
        pending = {self._remotes[k]: k for k in self._busy}
        ready = wait(list(pending))
        k = min(pending[r] for r in ready)
        infos = self._receive(k)
        b = self._bufs[k]
        self._busy.discard(k)
        self._awaiting.add(k)
        return (
            b.obs.copy(),
            b.rewards.copy(),
            b.dones.copy(),
            infos,
            b.masks.copy(),
            self._ids[k].copy(),
        )

    def _post(self, k: int, message: tuple[str, Any]) -> None:
        try:
            self._remotes[k].send(message)
        except OSError:
            raise EOFError(f"async vec-env worker {k} died") from None

    def _answer(self, k: int) -> Any:
        """Worker ``k``'s next message (a traceback is raised as a ``RuntimeError``)."""
        try:
            answer = self._remotes[k].recv()
        except (EOFError, OSError):
            raise EOFError(f"async vec-env worker {k} died") from None
        if isinstance(answer, str):
            raise RuntimeError(f"an async vec-env worker failed:\n{answer}")
        return answer

    def _receive(self, k: int) -> list[dict]:
        """Chunk ``k``'s infos once it has stepped (from shared memory, or sent whole when
        large)."""
        answer = self._answer(k)
        return answer if answer is not None else self._bufs[k].take_infos(self._remotes[k])

    def _chunk_of(self, env_ids: np.ndarray) -> int:
        for k, ids in enumerate(self._ids):
            if len(ids) == len(env_ids) and np.array_equal(ids, env_ids):
                return k
        raise ValueError(f"{env_ids.tolist()} is not one chunk returned by recv()")

    def _require_idle(self, what: str) -> None:
        if self._busy:
            raise RuntimeError(f"{what}() while chunks are still stepping: recv() them first")

    def close(self) -> None:
        if self._closed:
            return
        for r in self._remotes:
            with contextlib.suppress(OSError):
                r.send(("close", None))
        for p in self._procs:
            p.join(timeout=5)
        self._closed = True

    def __enter__(self) -> AsyncNantyVecEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def make_async_vec_env(
    num_envs: int = 64, num_workers: int = 2, seed: int | None = None, **kwargs: Any
) -> AsyncNantyVecEnv:
    """``num_envs`` single-learner games over ``num_workers`` worker processes; ``kwargs`` go
    to ``NantySingleAgentEnv``; game ``i`` is seeded ``seed + i`` at the first reset."""
    venv = AsyncNantyVecEnv([EnvMaker(**kwargs) for _ in range(num_envs)], num_workers)
    if seed is not None:
        venv.seed(seed)
    return venv
