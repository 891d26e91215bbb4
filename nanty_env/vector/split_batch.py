"""N single-learner games stepping together, split over the calling process and worker processes.

The caller plays the first chunk itself while each worker plays one other chunk, so two
"workers" (the caller and one process) keep two cores busy without a third process competing
with them. A step: the caller writes the workers' actions into shared memory and wakes each
worker with one byte on its pipe, steps its own chunk, then sleeps on each worker's pipe until
that worker's byte says its results are in shared memory. Nobody spins: a process that waits
gives its core to the one it waits for (see ``nanty_env.vector.workers``). No Stable-Baselines3
here; ``nanty_env.vector.SubprocNantyVecEnv`` is this with SB3's ``VecEnv`` interface.

With one worker process, ``balance=True`` (the default) measures while the games play whether
the split is faster than the caller playing every game (``nanty_env.vector.balance.SplitBalancer``)
and moves the worker's games to the caller when it is not (a small batch, or a machine whose
other core is busy), and back when it is again: the worker then sleeps and a step costs what
one process pays. A game moved keeps its place in the batch and goes on exactly as it would
have (same observations, rewards and episodes), so balancing changes the speed only.

A step's actions are checked in the calling process before any game moves, the workers'
included: :class:`~nanty_env.faces.options.ActionBatchError` for a batch that is not one integer per
game, ``IllegalActionError`` for an illegal action of a game whose ``illegal_action`` is
``"raise"`` (checked against the masks of the current decisions).
"""

from __future__ import annotations

import pickle
import time
import traceback
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from nanty_env.faces.options import as_actions, check_legal, check_seed
from nanty_env.vector.balance import SplitBalancer
from nanty_env.vector.batch import (
    EnvFactory,
    GameBatch,
    Indices,
    as_indices,
    handle,
    process_context,
    warn_games_stay,
)
from nanty_env.vector.workers import (
    DEFAULT_TIMEOUT,
    DONE,
    FAILED,
    INFO_BY_PIPE,
    INFO_LEN,
    STEP,
    VecEnvWorkerError,
    Worker,
    _StepBuffers,
)


def _sync_worker(remote: Any, env_fns: list[EnvFactory], bufs: _StepBuffers) -> None:
    """Sleep on the pipe; on a step byte, step the chunk into shared memory and answer with a
    byte; on a command, answer ``(ok, result or traceback)``."""
    batch = GameBatch(env_fns)
    while True:
        try:
            msg = remote.recv_bytes()
        except (EOFError, OSError):  # the caller is gone without closing: nothing left to do
            return
        if msg == STEP:
            try:
                actions = bufs.actions[: batch.num_envs]  # checked by the caller
                infos = batch.step_into(actions, bufs.obs, bufs.rewards, bufs.dones, bufs.masks)
                stored = bufs.put_infos(infos)
            except Exception:
                remote.send_bytes(FAILED)
                remote.send(traceback.format_exc())
                continue
            remote.send_bytes(DONE)
            if not stored:
                remote.send(infos)
            continue
        cmd, data = pickle.loads(msg)
        if cmd == "close":
            remote.close()
            return
        try:
            answer = (True, handle(batch, cmd, data))
            bufs.raising[: batch.num_envs] = batch.raising()  # a command may change them
        except Exception:
            answer = (False, traceback.format_exc())
        remote.send(answer)


class SplitBatch:
    """``len(env_fns)`` games over ``num_workers`` processes, the calling process included
    (env factories must be picklable); ``worker_timeout``: seconds a worker may take to
    answer before it is reported (``VecEnvWorkerError``); ``balance``: move the worker's games
    to the caller while that is measured faster, and back (True, or a ``SplitBalancer`` to
    tune; ignored with more than one worker process)."""

    def __init__(
        self,
        env_fns: Sequence[EnvFactory],
        num_workers: int = 2,
        worker_timeout: float = DEFAULT_TIMEOUT,
        balance: bool | SplitBalancer = True,
    ) -> None:
        n = len(env_fns)
        num_workers = max(1, min(num_workers, n))
        bounds = np.linspace(0, n, num_workers + 1).astype(int)
        self._slices = [slice(int(bounds[k]), int(bounds[k + 1])) for k in range(num_workers)]
        self._local = GameBatch(list(env_fns[self._slices[0]]))
        self.num_envs = n
        self.observation_space = self._local.observation_space
        self.action_space = self._local.action_space
        obs_dim, num_actions = int(np.prod(self.observation_space.shape)), int(self.action_space.n)
        ctx = process_context()
        self._workers: list[Worker] = []
        self._broken: str | None = None
        self._closed = False
        try:
            for k, sl in enumerate(self._slices[1:], start=1):
                bufs = _StepBuffers.allocate(ctx, sl.stop - sl.start, obs_dim, num_actions)
                name = f"vec-env worker {k}"
                worker = Worker(ctx, _sync_worker, list(env_fns[sl]), bufs, name, worker_timeout)
                self._workers.append(worker)
        except BaseException:
            self.close()
            raise
        self._masks: np.ndarray | None = None
        self._has_reset = False
        self._local_actions: list[int] = []
        self._balancer: SplitBalancer | None = None
        if balance is not False and len(self._workers) == 1:
            share = self._slices[1].stop - self._slices[1].start
            self._balancer = (
                balance
                if isinstance(balance, SplitBalancer)
                else SplitBalancer(total=n, max_worker=share)
            )
            if (self._balancer.total, self._balancer.max_worker) != (n, share):
                raise ValueError(f"the balancer must be for {n} games, {share} on the worker")
        self._step_started = 0.0

    # ------------------------------------------------------------------ faults
    def _guarded(self, run: Callable[[], Any]) -> Any:
        """Run ``run``; a worker fault marks the env unusable (and every later call says so)."""
        if self._broken is not None:
            raise VecEnvWorkerError(f"this vec env is unusable: {self._broken}; close it")
        try:
            return run()
        except VecEnvWorkerError as exc:
            self._broken = str(exc).splitlines()[0]
            raise

    # ------------------------------------------------------------------ commands
    def _broadcast(self, cmd: str, data: Callable[[slice], Any]) -> list[Any]:
        """Send ``cmd`` to every worker, run it on the local chunk meanwhile, gather answers
        (local first); ``data(chunk)`` gives each chunk's argument."""

        def run() -> list[Any]:
            busy = self._busy_workers()
            for w, sl in busy:
                w.send((cmd, data(sl)))
            local = handle(self._local, cmd, data(self._slices[0]))
            return [local, *(w.result() for w, _ in busy)]

        return self._guarded(run)

    def reset(self) -> np.ndarray:
        results = self._broadcast("reset", lambda sl: None)
        self._has_reset = True
        self._masks = np.concatenate([x[1] for x in results])
        return np.concatenate([x[0] for x in results])

    def step_async(self, actions: np.ndarray) -> None:
        """Check ``actions`` (one integer per game; legal for the games that raise on an
        illegal action), then start the step: nothing moves if they are refused."""
        actions = as_actions(actions, self.num_envs)
        if not self._has_reset:
            raise RuntimeError("call reset() before step()")
        raising = self._raising()
        if raising.any():  # the masks may cost a round trip: only then
            check_legal(actions, self.action_masks(), raising)

        def run() -> None:
            self._step_started = time.perf_counter()
            for w, sl in self._busy_workers():
                w.bufs.actions[: sl.stop - sl.start] = actions[sl]
                w.send_bytes(STEP)

        self._guarded(run)
        self._local_actions = actions[self._slices[0]].tolist()

    def _raising(self) -> np.ndarray:
        """Whether each game raises on an illegal action: the caller's games asked, the
        workers' as they last wrote them (after every reset and command)."""
        parts = [self._local.raising()]
        parts += [w.bufs.raising[: sl.stop - sl.start] for w, sl in self._busy_workers()]
        return np.concatenate(parts)

    def _busy_workers(self) -> list[tuple[Worker, slice]]:
        """The workers that hold games at present, each with its games' slice of the batch."""
        return [
            (w, sl)
            for w, sl in zip(self._workers, self._slices[1:], strict=True)
            if sl.stop > sl.start
        ]

    def step_wait(self):
        return self._guarded(self._step_wait)

    def _step_wait(self):
        n = self.num_envs
        obs = np.empty((n, *self.observation_space.shape), dtype=np.float32)
        rewards = np.zeros(n, dtype=np.float32)
        dones = np.zeros(n, dtype=bool)
        masks = np.empty((n, self.action_space.n), dtype=bool)
        sl = self._slices[0]
        busy = self._busy_workers()
        try:
            infos = self._local.step_into(
                self._local_actions, obs[sl], rewards[sl], dones[sl], masks[sl]
            )
        except Exception:  # e.g. illegal_action="raise": take the workers' answers, then raise
            for w, _ in busy:
                if w.recv_bytes() == FAILED or w.bufs.ctrl[INFO_LEN] == INFO_BY_PIPE:
                    w.recv()
                w.settled()
            self._masks = None  # some games moved on: ask for their masks afresh
            raise
        for w, sl in busy:
            if w.recv_bytes() != DONE:
                raise VecEnvWorkerError(f"{w.name} failed to step:\n{w.recv()}")
            b, m = w.bufs, sl.stop - sl.start
            obs[sl], rewards[sl], masks[sl], dones[sl] = (
                b.obs[:m],
                b.rewards[:m],
                b.masks[:m],
                b.dones[:m],
            )
            infos += b.take_infos(w)
            w.settled()
        self._masks = masks
        if self._balancer is not None:
            share = self._balancer.record(time.perf_counter() - self._step_started)
            if share is not None:
                self._move_games(share)
        return obs, rewards, dones, infos

    def _move_games(self, share: int) -> None:
        """Give the (one) worker ``share`` games: the caller's last games go to the front of
        the worker's, or the worker's first ones to the end of the caller's; every game keeps
        its index in the batch. Games that cannot be pickled stay where they are, and
        balancing stops (with a warning)."""
        (w,), n = self._workers, self.num_envs
        if not 0 <= share <= w.bufs.n:  # its shared buffers hold its first share at most
            raise ValueError(f"the worker can hold 0 to {w.bufs.n} games, not {share}")
        held = self._slices[1].stop - self._slices[1].start
        if share < held:
            w.send(("remove_front", held - share))
            games = w.result()
        elif share > held:
            games = self._local.remove_games_pickled(share - held, front=False)
            if games is not None:
                w.send(("insert_front", games))
                w.result()
        else:
            return
        if games is None:
            self._balancer = None
            warn_games_stay(stacklevel=3)
            return
        if share < held:
            self._local.insert_games(pickle.loads(games), front=False)
        self._slices = [slice(0, n - share), slice(n - share, n)]

    @property
    def worker_games(self) -> list[int]:
        """How many games each worker process plays at present (the caller plays the rest)."""
        return [sl.stop - sl.start for sl in self._slices[1:]]

    def action_masks(self) -> np.ndarray:
        """Masks of the current decisions (sent along with every step and reset)."""
        if self._masks is None:
            self._masks = np.concatenate(self._broadcast("masks", lambda sl: None))
        return self._masks

    def seed(self, seed: int | None = None) -> list[int | None]:
        """Seed game ``i`` with ``seed + i`` at the next ``reset`` (``seed``: ``None`` or an
        integer >= 0, checked here)."""
        seed = check_seed(seed)
        results = self._broadcast("seed", lambda sl: None if seed is None else seed + sl.start)
        return [s for part in results for s in part]

    def indices(self, indices: Indices = None) -> list[int]:
        return as_indices(indices, self.num_envs)

    def _ask(self, indices: Indices, cmd: str, data: Callable[[list[int]], Any]) -> list[Any]:
        """Run ``cmd`` on the chunks holding the games ``indices``; answers in chunk order."""
        wanted = set(self.indices(indices))
        targets = []
        for who, sl in zip([self._local, *self._workers], self._slices, strict=True):
            local = [j for j, i in enumerate(range(sl.start, sl.stop)) if i in wanted]
            if local:
                targets.append((who, local))

        def run() -> list[Any]:
            for who, local in targets:
                if who is not self._local:
                    who.send((cmd, data(local)))
            return [
                handle(who, cmd, data(local)) if who is self._local else who.result()
                for who, local in targets
            ]

        return self._guarded(run)

    def env_method(self, method_name: str, *args: Any, indices: Indices = None, **kwargs: Any):
        if method_name == "action_masks" and indices is None:
            return list(self.action_masks())
        self._masks = None  # a method may change a game
        parts = self._ask(indices, "call", lambda local: (method_name, args, kwargs, local))
        return [x for part in parts for x in part]

    def get_attr(self, attr_name: str, indices: Indices = None) -> list[Any]:
        parts = self._ask(indices, "get", lambda local: (attr_name, local))
        return [x for part in parts for x in part]

    def set_attr(self, attr_name: str, value: Any, indices: Indices = None) -> None:
        self._masks = None
        self._ask(indices, "set", lambda local: (attr_name, value, local))

    def env_is_wrapped(self, wrapper_class: type, indices: Indices = None) -> list[bool]:
        return [False] * len(self.indices(indices))

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None] * self.num_envs

    @property
    def worker_pids(self) -> list[int]:
        """The worker processes' ids (the caller's own chunk is not among them)."""
        return [w.proc.pid for w in self._workers]

    def close(self) -> None:
        """Stop every worker (a stopped or hung one is killed); safe to call twice."""
        if self._closed:
            return
        for w in self._workers:
            w.stop(("close", None))
        self._closed = True
