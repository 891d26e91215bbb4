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

import time
import traceback
from collections.abc import Sequence
from multiprocessing.connection import wait
from typing import Any

import numpy as np

from nanty_env.batch import EnvFactory, EnvMaker, GameBatch, process_context
from nanty_env.workers import DEFAULT_TIMEOUT, VecEnvWorkerError, Worker, _StepBuffers


def _async_worker(remote: Any, env_fns: list[EnvFactory], bufs: list[_StepBuffers]) -> None:
    """Block on the pipe; step (or reset) the named chunk into its shared memory, then answer
    with the chunk's index. Messages are handled in order, so a chunk posted while another is
    stepping is picked up at once, without the worker going to sleep."""
    chunks, start = [], 0
    for b in bufs:
        chunks.append(GameBatch(env_fns[start : start + b.n]))
        start += b.n
    while True:
        try:
            cmd, j, data = remote.recv()
        except (EOFError, OSError):  # the caller is gone
            return
        if cmd == "close":
            remote.close()
            return
        batch, b = chunks[j], bufs[j]
        try:
            if cmd == "step":
                infos = batch.step_into(b.actions, b.obs, b.rewards, b.dones, b.masks)
            elif cmd == "reset":
                b.obs[:] = batch.reset()
                b.masks[:] = batch.action_masks()
                b.rewards[:] = 0.0
                b.dones[:] = False
                infos = [{} for _ in batch.envs]
            elif cmd == "seed":
                batch.seed(data)
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
    returned for it before ``recv`` can return it again. A worker that dies, or owes an answer
    for ``worker_timeout`` seconds (even while the others keep answering), is reported by one
    ``VecEnvWorkerError``; the batch is then unusable.
    """

    def __init__(
        self,
        env_fns: Sequence[EnvFactory],
        num_workers: int = 2,
        chunks_per_worker: int = 2,
        worker_timeout: float = DEFAULT_TIMEOUT,
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
        self._workers: list[Worker] = []
        self._bufs: list[_StepBuffers] = []  # one per chunk
        self._busy: set[int] = set()  # chunks stepping (results not yet received)
        self._awaiting: set[int] = set()  # chunks received, waiting for their actions
        self._broken: str | None = None
        self._closed = False
        self._last_ready = -1  # the worker whose answer recv returned last
        try:
            for w in range(num_workers):
                chunks = self._ids[w * per_worker : (w + 1) * per_worker]
                bufs = [_StepBuffers.allocate(ctx, len(i), obs_dim, num_actions) for i in chunks]
                fns = [env_fns[i] for ids in chunks for i in ids]
                name = f"async vec-env worker {w}"
                self._workers.append(Worker(ctx, _async_worker, fns, bufs, name, worker_timeout))
                self._bufs += bufs
        except BaseException:
            self.close()
            raise

    @property
    def num_workers(self) -> int:
        return len(self._workers)

    @property
    def num_chunks(self) -> int:
        return len(self._ids)

    @property
    def worker_pids(self) -> list[int]:
        return [w.proc.pid for w in self._workers]

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
        w = self._next_ready()
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

    def _next_ready(self) -> int:
        """The next worker with an answer ready, taking turns (the one after the last returned
        goes first, so a fast worker cannot hide a dead or stopped one), sleeping until one
        is. Every worker owing an answer for longer than its timeout raises, even while the
        others keep answering; a dead one is reported when its turn comes."""
        self._check_usable()
        owing = sorted({c // self._per_worker for c in self._busy})
        turn = [w for w in owing if w > self._last_ready] + [
            w for w in owing if w <= self._last_ready
        ]
        while True:
            now = time.monotonic()
            for w in turn:
                worker = self._workers[w]
                if now - worker.pending_since >= worker.limit and not worker.conn.poll():
                    self._fail(worker.silent(now - worker.pending_since))
            for w in turn:
                if self._workers[w].conn.poll():
                    self._last_ready = w
                    return w
            first_due = min(self._workers[w].pending_since + self._workers[w].limit for w in owing)
            handles = [self._workers[w].conn for w in owing]
            handles += [self._workers[w].proc.sentinel for w in owing]
            wait(handles, max(first_due - now, 0.0))

    def _post(self, c: int, cmd: str, data: Any = None) -> None:
        """Send ``cmd`` for chunk ``c`` to its worker."""
        self._check_usable()
        w, j = divmod(c, self._per_worker)
        try:
            self._workers[w].send((cmd, j, data))
        except VecEnvWorkerError as exc:
            self._fail(exc)

    def _message(self, w: int) -> tuple[int, Any]:
        """Worker ``w``'s next answer: ``(chunk, payload)``; the chunk is no longer stepping,
        and a traceback from the worker is raised as a ``VecEnvWorkerError``."""
        worker = self._workers[w]
        try:
            j, payload = worker.recv()
        except VecEnvWorkerError as exc:
            self._fail(exc)
        c = w * self._per_worker + j
        self._busy.discard(c)
        if any(k // self._per_worker == w for k in self._busy):
            worker.answered()  # more is owed: its clock starts again
        else:
            worker.settled()
        if isinstance(payload, str):
            self._fail(VecEnvWorkerError(f"{worker.name} failed:\n{payload}"))
        return c, payload

    def _receive(self, w: int) -> tuple[int, list[dict]]:
        """The chunk worker ``w`` has just finished and its infos (from shared memory, or sent
        along when large)."""
        c, infos = self._message(w)
        if infos is not None:
            return c, infos
        try:
            return c, self._bufs[c].take_infos(self._workers[w])
        except VecEnvWorkerError as exc:
            self._fail(exc)

    def _fail(self, exc: VecEnvWorkerError) -> None:
        self._broken = str(exc).splitlines()[0]
        raise exc

    def _check_usable(self) -> None:
        if self._broken is not None:
            raise VecEnvWorkerError(f"this vec env is unusable: {self._broken}; close it")

    def _chunk_of(self, env_ids: np.ndarray) -> int:
        for k, ids in enumerate(self._ids):
            if len(ids) == len(env_ids) and np.array_equal(ids, env_ids):
                return k
        raise ValueError(f"{env_ids.tolist()} is not one chunk returned by recv()")

    def _require_idle(self, what: str) -> None:
        self._check_usable()
        if self._busy:
            raise RuntimeError(f"{what}() while chunks are still stepping: recv() them first")

    def close(self) -> None:
        """Collect the chunks still stepping (a worker could otherwise block writing large
        infos to a pipe nobody reads), then stop the workers (killing any that is stopped or
        hung)."""
        if self._closed:
            return
        if self._broken is None:
            for c in sorted(self._busy):
                try:
                    self._receive(c // self._per_worker)
                except VecEnvWorkerError:  # a dead, stopped or failed worker
                    break
        self._busy.clear()
        for worker in self._workers:
            worker.stop(("close", 0, None))
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
    worker_timeout: float = DEFAULT_TIMEOUT,
    **kwargs: Any,
) -> AsyncNantyVecEnv:
    """``num_envs`` single-learner games over ``num_workers`` worker processes
    (``chunks_per_worker`` chunks each); ``kwargs`` go to ``NantySingleAgentEnv``; game ``i``
    is seeded ``seed + i`` at the first reset."""
    venv = AsyncNantyVecEnv(
        [EnvMaker(**kwargs) for _ in range(num_envs)],
        num_workers,
        chunks_per_worker,
        worker_timeout,
    )
    if seed is not None:
        venv.seed(seed)
    return venv
