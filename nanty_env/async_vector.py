"""An asynchronous batch of single-learner games (EnvPool-style ``send`` / ``recv``).

The games are split into chunks, played by worker processes (by default two chunks each: a
worker steps its second chunk while the caller chooses actions for its first). ``recv()`` returns
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
idle processes sleep instead of spinning (the caller and the workers share the cores). A worker
handles its messages in order, so a chunk posted while it is busy is stepped without a wake-up.
"""

from __future__ import annotations

import contextlib
import traceback
from collections.abc import Sequence
from multiprocessing.connection import wait
from typing import Any

import numpy as np

from nanty_env.vector import (
    EnvFactory,
    EnvMaker,
    NantyVecEnv,
    _StepBuffers,
    process_context,
    start_worker,
)


def _async_worker(remote: Any, env_fns: list[EnvFactory], bufs: list[_StepBuffers]) -> None:
    """Block on the pipe; step (or reset) the named chunk into its shared memory, then answer
    with the chunk's index. Messages are handled in order, so a chunk posted while another is
    stepping is picked up at once, without the worker going to sleep."""
    chunks, start = [], 0
    for b in bufs:
        chunks.append(NantyVecEnv(env_fns[start : start + b.n]))
        start += b.n
    while True:
        try:
            cmd, j, data = remote.recv()
        except (EOFError, OSError):  # the caller is gone
            return
        if cmd == "close":
            remote.close()
            return
        venv, b = chunks[j], bufs[j]
        try:
            if cmd == "step":
                infos = venv.step_into(b.actions, b.obs, b.rewards, b.dones, b.masks)
            elif cmd == "reset":
                b.obs[:] = venv.reset()
                b.masks[:] = venv.action_masks()
                b.rewards[:] = 0.0
                b.dones[:] = False
                infos = [{} for _ in venv.envs]
            elif cmd == "seed":
                venv.seed(data)
                remote.send((j, None))
                continue
            else:
                raise ValueError(f"unknown command {cmd!r}")
            stored = b.put_infos(infos)
        except Exception:
            remote.send((j, traceback.format_exc()))
            continue
        remote.send((j, None if stored else infos))  # done; the infos in shared memory or here


class AsyncNantyVecEnv:
    """``len(env_fns)`` games in ``num_workers * chunks_per_worker`` chunks; each worker process
    plays ``chunks_per_worker`` of them (env factories must be picklable). See the module
    docstring for the protocol. With two or more chunks per worker, a worker steps its next
    chunk while the caller is choosing the actions of the one just returned.

    Every chunk must be answered with ``send`` for exactly the ``env_ids`` that ``recv``
    returned for it before ``recv`` can return it again.
    """

    def __init__(
        self, env_fns: Sequence[EnvFactory], num_workers: int = 2, chunks_per_worker: int = 2
    ) -> None:
        n = len(env_fns)
        num_workers = max(1, min(num_workers, n))
        per_worker = max(1, min(chunks_per_worker, n // num_workers))
        probe = env_fns[0]()
        self.num_envs = n
        self.observation_space, self.action_space = probe.observation_space, probe.action_space
        obs_dim, num_actions = int(np.prod(self.observation_space.shape)), int(self.action_space.n)
        bounds = np.linspace(0, n, num_workers * per_worker + 1).astype(int)
        self._ids = [np.arange(bounds[c], bounds[c + 1]) for c in range(len(bounds) - 1)]
        self._per_worker = per_worker
        ctx = process_context()
        self._remotes: list[Any] = []
        self._bufs: list[_StepBuffers] = []  # one per chunk
        self._procs: list[Any] = []
        for w in range(num_workers):
            chunks = self._ids[w * per_worker : (w + 1) * per_worker]
            bufs = [_StepBuffers.allocate(ctx, len(ids), obs_dim, num_actions) for ids in chunks]
            fns = [env_fns[i] for ids in chunks for i in ids]
            parent, proc = start_worker(ctx, _async_worker, fns, bufs)
            self._remotes.append(parent)
            self._bufs += bufs
            self._procs.append(proc)
        self._busy: set[int] = set()  # chunks stepping (results not yet received)
        self._awaiting: set[int] = set()  # chunks received, waiting for their actions
        self._closed = False

    @property
    def num_workers(self) -> int:
        return len(self._remotes)

    @property
    def num_chunks(self) -> int:
        return len(self._ids)

    def seed(self, seed: int | None = None) -> None:
        """Seed game ``i`` with ``seed + i`` at the next ``async_reset``."""
        self._require_idle("seed")
        for c, ids in enumerate(self._ids):
            self._post(c, "seed", None if seed is None else seed + int(ids[0]))
        for c in range(self.num_chunks):
            self._message(c // self._per_worker)

    def async_reset(self) -> None:
        """Reset every game; each chunk's first observations come back through ``recv``."""
        self._require_idle("async_reset")
        for c in range(self.num_chunks):
            self._post(c, "reset")
            self._busy.add(c)

    def send(
        self, actions: Sequence[int] | np.ndarray, env_ids: Sequence[int] | np.ndarray
    ) -> None:
        """Hand a received chunk its next actions (``actions[j]`` for game ``env_ids[j]``)."""
        env_ids = np.asarray(env_ids)
        c = self._chunk_of(env_ids)
        if c not in self._awaiting:
            raise ValueError(f"games {env_ids.tolist()} are not waiting for actions")
        actions = np.asarray(actions).reshape(-1)
        if len(actions) != len(env_ids):
            raise ValueError(f"{len(actions)} actions for {len(env_ids)} games")
        self._bufs[c].actions[:] = actions
        self._post(c, "step")
        self._awaiting.discard(c)
        self._busy.add(c)

    def recv(
        self,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict], np.ndarray, np.ndarray]:
        """The next ready chunk: ``(obs, rewards, dones, infos, masks, env_ids)`` (copies;
        finished games are already reset, as in ``NantyVecEnv``). Blocks until one is ready."""
        if not self._busy:
            raise RuntimeError("nothing to receive: send actions (or async_reset) first")
        pending = {self._remotes[c // self._per_worker]: c // self._per_worker for c in self._busy}
        ready = wait(list(pending))
        w = min(pending[r] for r in ready)
        c, infos = self._receive(w)
        b = self._bufs[c]
        self._awaiting.add(c)
        return (
            b.obs.copy(),
            b.rewards.copy(),
            b.dones.copy(),
            infos,
            b.masks.copy(),
            self._ids[c].copy(),
        )

    def _post(self, c: int, cmd: str, data: Any = None) -> None:
        """Send ``cmd`` for chunk ``c`` to its worker."""
        w, j = divmod(c, self._per_worker)
        try:
            self._remotes[w].send((cmd, j, data))
        except OSError:
            raise EOFError(f"async vec-env worker {w} died") from None

    def _message(self, w: int) -> tuple[int, Any]:
        """Worker ``w``'s next answer: ``(chunk, payload)``; the chunk is no longer stepping,
        and a traceback from the worker is raised as a ``RuntimeError``."""
        try:
            j, payload = self._remotes[w].recv()
        except (EOFError, OSError):
            raise EOFError(f"async vec-env worker {w} died") from None
        c = w * self._per_worker + j
        self._busy.discard(c)
        if isinstance(payload, str):
            raise RuntimeError(f"an async vec-env worker failed:\n{payload}")
        return c, payload

    def _receive(self, w: int) -> tuple[int, list[dict]]:
        """The chunk worker ``w`` has just finished and its infos (from shared memory, or sent
        along when large)."""
        c, infos = self._message(w)
        return c, infos if infos is not None else self._bufs[c].take_infos(self._remotes[w])

    def _chunk_of(self, env_ids: np.ndarray) -> int:
        for k, ids in enumerate(self._ids):
            if len(ids) == len(env_ids) and np.array_equal(ids, env_ids):
                return k
        raise ValueError(f"{env_ids.tolist()} is not one chunk returned by recv()")

    def _require_idle(self, what: str) -> None:
        if self._busy:
            raise RuntimeError(f"{what}() while chunks are still stepping: recv() them first")

    def close(self) -> None:
        """Collect the chunks still stepping (a worker could otherwise block writing large
        infos to a pipe nobody reads), then stop the workers."""
        if self._closed:
            return
        for c in sorted(self._busy):
            with contextlib.suppress(EOFError, RuntimeError):  # a dead or failed worker
                self._receive(c // self._per_worker)
        self._busy.clear()
        for r in self._remotes:
            with contextlib.suppress(OSError):
                r.send(("close", 0, None))
        for p in self._procs:
            p.join(timeout=5)
        self._closed = True

    def __enter__(self) -> AsyncNantyVecEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def make_async_vec_env(
    num_envs: int = 64,
    num_workers: int = 2,
    seed: int | None = None,
    chunks_per_worker: int = 2,
    **kwargs: Any,
) -> AsyncNantyVecEnv:
    """``num_envs`` single-learner games over ``num_workers`` worker processes
    (``chunks_per_worker`` chunks each); ``kwargs`` go to ``NantySingleAgentEnv``; game ``i``
    is seeded ``seed + i`` at the first reset."""
    venv = AsyncNantyVecEnv(
        [EnvMaker(**kwargs) for _ in range(num_envs)], num_workers, chunks_per_worker
    )
    if seed is not None:
        venv.seed(seed)
    return venv
