"""Vectorised faces of the single-learner env, compatible with Stable-Baselines3 ``VecEnv``.

``NantyVecEnv``: N games in one process stepping together (stacked observations, rewards and
action masks; auto-reset, with the last observation in ``infos[i]["terminal_observation"]``).
``SubprocNantyVecEnv``: the same split into chunks (one ``NantyVecEnv`` each) played by the
calling process and worker processes, for more cores; actions, observations, rewards and masks
cross through shared memory, each side spinning briefly on a step counter instead of paying a
pipe round trip per step (x86's ordered stores make the counter a valid publication flag).
Both expose ``action_masks()`` -> bool array of shape (N, actions),
which sb3-contrib's ``MaskablePPO`` reads through ``env_method("action_masks")``.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import pickle
import time
import traceback
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from nanty_env.single import NantySingleAgentEnv

EnvFactory = Callable[[], NantySingleAgentEnv]


def process_context() -> Any:
    """The multiprocessing context for worker processes: ``forkserver`` where available
    (workers start clean, without a copy of the parent's torch state), else ``spawn``."""
    return mp.get_context("forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn")


class NantyVecEnv(VecEnv):
    """N single-learner games in this process."""

    def __init__(self, env_fns: Sequence[EnvFactory]) -> None:
        self.envs = [fn() for fn in env_fns]
        e0 = self.envs[0]
        super().__init__(len(self.envs), e0.observation_space, e0.action_space)
        self._actions: np.ndarray | None = None
        self._seeds: list[int | None] = [None] * self.num_envs

    def reset(self) -> np.ndarray:
        obs = []
        for i, e in enumerate(self.envs):
            o, _ = e.reset(seed=self._seeds[i])
            self._seeds[i] = None
            obs.append(o)
        return np.stack(obs)

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self):
        obs = np.empty((self.num_envs, *self.observation_space.shape), dtype=np.float32)
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        dones = np.zeros(self.num_envs, dtype=bool)
        infos = self.step_into(self._actions, obs, rewards, dones)
        return obs, rewards, dones, infos

    def step_into(
        self,
        actions: Sequence[int] | np.ndarray,
        obs: np.ndarray,
        rewards: np.ndarray,
        dones: np.ndarray,
        masks: np.ndarray | None = None,
    ) -> list[dict[str, Any]]:
        """Step every game, writing the results into the given arrays (and the next action
        masks into ``masks`` if given); returns the infos."""
        infos: list[dict[str, Any]] = []
        for i, e in enumerate(self.envs):
            o, r, term, trunc, info = e.step(int(actions[i]))
            done = term or trunc
            if done:
                info = dict(info)
                info["terminal_observation"] = o
                info["TimeLimit.truncated"] = trunc and not term
                o, _ = e.reset()
            obs[i], rewards[i], dones[i] = o, r, done
            if masks is not None:
                masks[i] = e.action_masks()
            infos.append(info)
        return infos

    def action_masks(self) -> np.ndarray:
        return np.stack([e.action_masks() for e in self.envs])

    def seed(self, seed: int | None = None) -> list[int | None]:
        self._seeds = [None if seed is None else seed + i for i in range(self.num_envs)]
        return self._seeds

    def close(self) -> None:
        pass

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        return [getattr(self.envs[i], attr_name) for i in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        for i in self._get_indices(indices):
            setattr(self.envs[i], attr_name, value)

    def env_method(self, method_name: str, *args, indices=None, **kwargs) -> list[Any]:
        return [
            getattr(self.envs[i], method_name)(*args, **kwargs) for i in self._get_indices(indices)
        ]

    def env_is_wrapped(self, wrapper_class: type, indices=None) -> list[bool]:
        return [isinstance(self.envs[i], wrapper_class) for i in self._get_indices(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None] * self.num_envs


def _handle(venv: NantyVecEnv, cmd: str, data: Any) -> Any:
    """Carry out one pipe command of the worker protocol on a chunk of games."""
    if cmd == "reset":
        return venv.reset(), venv.action_masks()
    if cmd == "masks":
        return venv.action_masks()
    if cmd == "seed":
        return venv.seed(data)
    if cmd == "call":
        name, args, kwargs, idx = data
        return venv.env_method(name, *args, indices=idx, **kwargs)
    if cmd == "get":
        return venv.get_attr(data[0], data[1])
    if cmd == "set":
        return venv.set_attr(data[0], data[1], data[2])
    raise ValueError(f"unknown worker command {cmd!r}")


# How long a waiting side spins before it sleeps. An idle virtual CPU that is put to sleep and
# woken up every step costs more than the step itself on small machines (a pipe round trip
# measured ~150 us here), so steps are exchanged through shared memory and waited for by
# spinning on a counter; the pipe carries only the rare other commands.
SPIN_SECONDS = 0.005
SLEEP_POLL_SECONDS = 0.002

# ``_StepBuffers.ctrl`` slots.
POSTED, DONE, ASLEEP, INFO_LEN = range(4)
INFO_BY_PIPE, INFO_ERROR = -1, -2


def _nbytes(dtype: Any, shape: tuple[int, ...]) -> int:
    return int(np.prod(shape)) * np.dtype(dtype).itemsize


def _aligned(size: int) -> int:
    return -(-size // 8) * 8


class _StepBuffers:
    """One worker chunk's step exchange in shared memory: the caller writes ``actions`` and
    bumps ``ctrl[POSTED]``; the worker writes observations, rewards, dones, next masks and the
    pickled infos, then sets ``ctrl[DONE]`` to the same count."""

    ctrl: np.ndarray
    actions: np.ndarray
    rewards: np.ndarray
    dones: np.ndarray
    masks: np.ndarray
    obs: np.ndarray

    def __init__(self, raw: Any, n: int, obs_dim: int, num_actions: int) -> None:
        self.raw, self.n, self.obs_dim, self.num_actions = raw, n, obs_dim, num_actions
        buf = np.frombuffer(raw, dtype=np.uint8)
        offset = 0
        for name, dtype, shape in self.layout(n, obs_dim, num_actions):
            size = _nbytes(dtype, shape)
            setattr(self, name, buf[offset : offset + size].view(dtype).reshape(shape))
            offset += _aligned(size)
        self.infos = buf[offset:]

    @staticmethod
    def layout(n: int, obs_dim: int, num_actions: int) -> list[tuple[str, Any, tuple[int, ...]]]:
        """(attribute, dtype, shape) of each array, in buffer order (each 8-byte aligned)."""
        return [
            ("ctrl", np.int64, (4,)),
            ("actions", np.int64, (n,)),
            ("rewards", np.float32, (n,)),
            ("dones", np.bool_, (n,)),
            ("masks", np.bool_, (n, num_actions)),
            ("obs", np.float32, (n, obs_dim)),
        ]

    @classmethod
    def array_bytes(cls, n: int, obs_dim: int, num_actions: int) -> int:
        """Bytes for the arrays alone (each 8-byte aligned)."""
        return sum(_aligned(_nbytes(d, s)) for _, d, s in cls.layout(n, obs_dim, num_actions))

    @classmethod
    def nbytes(cls, n: int, obs_dim: int, num_actions: int) -> int:
        """Bytes for the arrays plus room for the pickled infos."""
        return cls.array_bytes(n, obs_dim, num_actions) + n * (4 * obs_dim + 1024) + 4096

    @classmethod
    def allocate(cls, ctx: Any, n: int, obs_dim: int, num_actions: int) -> _StepBuffers:
        return cls(ctx.RawArray("b", cls.nbytes(n, obs_dim, num_actions)), n, obs_dim, num_actions)

    def __reduce__(self):  # to a worker: the shared block and its shape
        return (_StepBuffers, (self.raw, self.n, self.obs_dim, self.num_actions))

    def put_infos(self, infos: list[dict[str, Any]]) -> bool:
        """Store the pickled infos in shared memory; False (and ``INFO_BY_PIPE`` recorded) if
        they do not fit, for the caller to send them through the pipe instead."""
        blob = pickle.dumps(infos, protocol=pickle.HIGHEST_PROTOCOL)
        if len(blob) <= len(self.infos):
            self.infos[: len(blob)] = np.frombuffer(blob, dtype=np.uint8)
            self.ctrl[INFO_LEN] = len(blob)
            return True
        self.ctrl[INFO_LEN] = INFO_BY_PIPE
        return False

    def take_infos(self, remote: Any) -> list[dict[str, Any]]:
        size = int(self.ctrl[INFO_LEN])
        if size == INFO_ERROR:
            raise RuntimeError(f"a vec-env worker failed to step:\n{remote.recv()}")
        if size == INFO_BY_PIPE:
            return remote.recv()
        return pickle.loads(self.infos[:size].tobytes())


def _next_command(remote: Any, ctrl: np.ndarray, seen: int) -> tuple[str, Any]:
    """The worker's next command: ``("step", None)`` once a step is posted in shared memory,
    else the pipe's next message. Spins for ``SPIN_SECONDS``, then sleeps in short polls."""
    deadline = time.perf_counter() + SPIN_SECONDS
    k = 0
    while True:
        if ctrl[POSTED] != seen:
            return "step", None
        k += 1
        if not k & 63:
            if remote.poll():
                return remote.recv()
            if time.perf_counter() > deadline:
                break
    ctrl[ASLEEP] = 1
    try:
        while True:
            if ctrl[POSTED] != seen:
                return "step", None
            if remote.poll(SLEEP_POLL_SECONDS):
                return remote.recv()
    finally:
        ctrl[ASLEEP] = 0


def start_worker(
    ctx: Any, target: Callable, env_fns: list[EnvFactory], bufs: Any
) -> tuple[Any, Any]:
    """Start ``target(pipe end, env_fns, bufs)`` in a daemon process (``bufs``: its shared
    step buffers); returns the caller's pipe end and the process."""
    parent, child = ctx.Pipe()
    proc = ctx.Process(target=target, args=(child, env_fns, bufs), daemon=True)
    proc.start()
    child.close()
    return parent, proc


def _worker(remote: Any, env_fns: list[EnvFactory], bufs: _StepBuffers) -> None:
    venv = NantyVecEnv(env_fns)
    ctrl, seen = bufs.ctrl, 0
    while True:
        try:
            cmd, data = _next_command(remote, ctrl, seen)
        except (EOFError, OSError):  # the caller is gone without closing: nothing left to do
            return
        if cmd == "step":
            seen += 1
            try:
                infos = venv.step_into(bufs.actions, bufs.obs, bufs.rewards, bufs.dones, bufs.masks)
                if not bufs.put_infos(infos):
                    remote.send(infos)
            except Exception:
                ctrl[INFO_LEN] = INFO_ERROR
                remote.send(traceback.format_exc())
            ctrl[DONE] = seen
        elif cmd == "close":
            remote.close()
            return
        elif cmd != "wake":
            remote.send(_handle(venv, cmd, data))


class SubprocNantyVecEnv(VecEnv):
    """N games split over ``num_workers`` processes, the calling process included: it plays the
    first chunk itself while ``num_workers - 1`` worker processes play the others, so two
    workers keep two cores busy without a third process competing with them (env factories
    must be picklable). Steps go through shared memory (see ``_StepBuffers``)."""

    def __init__(self, env_fns: Sequence[EnvFactory], num_workers: int = 2) -> None:
        n = len(env_fns)
        num_workers = max(1, min(num_workers, n))
        bounds = np.linspace(0, n, num_workers + 1).astype(int)
        self._slices = [slice(int(bounds[k]), int(bounds[k + 1])) for k in range(num_workers)]
        self._local = NantyVecEnv(list(env_fns[self._slices[0]]))
        probe = self._local.envs[0]
        super().__init__(n, probe.observation_space, probe.action_space)
        obs_dim, num_actions = int(np.prod(self.observation_space.shape)), int(self.action_space.n)
        ctx = process_context()
        self._remotes: list[Any] = []
        self._bufs: list[_StepBuffers] = []
        self._procs: list[Any] = []
        for sl in self._slices[1:]:
            bufs = _StepBuffers.allocate(ctx, sl.stop - sl.start, obs_dim, num_actions)
            parent, proc = start_worker(ctx, _worker, list(env_fns[sl]), bufs)
            self._remotes.append(parent)
            self._bufs.append(bufs)
            self._procs.append(proc)
        self._closed = False
        self._masks: np.ndarray | None = None
        self._local_actions: list[int] = []

    def _broadcast(self, cmd: str, data: Callable[[slice], Any]) -> list[Any]:
        """Send ``cmd`` to every worker, run it on the local chunk meanwhile, gather answers
        (local first); ``data(chunk)`` gives each chunk's argument."""
        for r, sl in zip(self._remotes, self._slices[1:], strict=True):
            r.send((cmd, data(sl)))
        local = _handle(self._local, cmd, data(self._slices[0]))
        return [local, *(r.recv() for r in self._remotes)]

    def reset(self) -> np.ndarray:
        results = self._broadcast("reset", lambda sl: None)
        self._masks = np.concatenate([x[1] for x in results])
        return np.concatenate([x[0] for x in results])

    def step_async(self, actions: np.ndarray) -> None:
        actions = np.asarray(actions)
        for r, bufs, sl in zip(self._remotes, self._bufs, self._slices[1:], strict=True):
            bufs.actions[:] = actions[sl]
            bufs.ctrl[POSTED] += 1
            if bufs.ctrl[ASLEEP]:
                with contextlib.suppress(OSError):  # a dead worker is reported by step_wait
                    r.send(("wake", None))
        self._local_actions = actions[self._slices[0]].tolist()

    def step_wait(self):
        n = self.num_envs
        obs = np.empty((n, *self.observation_space.shape), dtype=np.float32)
        rewards = np.zeros(n, dtype=np.float32)
        dones = np.zeros(n, dtype=bool)
        masks = np.empty((n, self.action_space.n), dtype=bool)
        sl = self._slices[0]
        infos = self._local.step_into(
            self._local_actions, obs[sl], rewards[sl], dones[sl], masks[sl]
        )
        for k, (r, bufs) in enumerate(zip(self._remotes, self._bufs, strict=True)):
            self._wait_done(k)
            sl = self._slices[k + 1]
            obs[sl], rewards[sl], masks[sl] = bufs.obs, bufs.rewards, bufs.masks
            dones[sl] = bufs.dones
            infos += bufs.take_infos(r)
        self._masks = masks
        return obs, rewards, dones, infos

    def _wait_done(self, k: int) -> None:
        """Spin until worker ``k`` has finished the posted step (then sleep-poll, checking
        that it is still alive)."""
        ctrl = self._bufs[k].ctrl
        target = ctrl[POSTED]
        deadline = time.perf_counter() + SPIN_SECONDS
        while ctrl[DONE] != target:
            if time.perf_counter() > deadline:
                if not self._procs[k].is_alive():
                    raise EOFError(f"vec-env worker {k + 1} died")
                time.sleep(SLEEP_POLL_SECONDS / 20)

    def action_masks(self) -> np.ndarray:
        """Masks of the current decisions (sent along with every step and reset)."""
        if self._masks is None:
            self._masks = np.concatenate(self._broadcast("masks", lambda sl: None))
        return self._masks

    def seed(self, seed: int | None = None) -> list[int | None]:
        results = self._broadcast("seed", lambda sl: None if seed is None else seed + sl.start)
        return [s for part in results for s in part]

    def _by_worker(self, indices) -> list[tuple[Any, list[int]]]:
        """(remote or the local chunk, local indices) of every chunk holding a wanted game."""
        wanted = set(self._get_indices(indices))
        out = []
        for r, sl in zip([self._local, *self._remotes], self._slices, strict=True):
            local = [j for j, i in enumerate(range(sl.start, sl.stop)) if i in wanted]
            if local:
                out.append((r, local))
        return out

    def _ask(self, indices, cmd: str, data: Callable[[list[int]], Any]) -> list[Any]:
        """Run ``cmd`` on the chunks holding the games ``indices``; answers in chunk order."""
        targets = self._by_worker(indices)
        for r, local in targets:
            if r is not self._local:
                r.send((cmd, data(local)))
        return [
            _handle(r, cmd, data(local)) if r is self._local else r.recv() for r, local in targets
        ]

    def env_method(self, method_name: str, *args, indices=None, **kwargs) -> list[Any]:
        if method_name == "action_masks" and indices is None:
            return list(self.action_masks())
        self._masks = None  # a method may change a game
        parts = self._ask(indices, "call", lambda local: (method_name, args, kwargs, local))
        return [x for part in parts for x in part]

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        parts = self._ask(indices, "get", lambda local: (attr_name, local))
        return [x for part in parts for x in part]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        self._masks = None
        self._ask(indices, "set", lambda local: (attr_name, value, local))

    def env_is_wrapped(self, wrapper_class: type, indices=None) -> list[bool]:
        return [False] * len(self._get_indices(indices))

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None] * self.num_envs

    def close(self) -> None:
        if self._closed:
            return
        for r in self._remotes:
            with contextlib.suppress(OSError):  # already gone
                r.send(("close", None))
        for p in self._procs:
            p.join(timeout=5)
        self._closed = True


class EnvMaker:
    """A picklable factory of ``NantySingleAgentEnv`` (for worker processes)."""

    def __init__(self, **kwargs: Any) -> None:
        self.kwargs = kwargs

    def __call__(self) -> NantySingleAgentEnv:
        return NantySingleAgentEnv(**self.kwargs)


def make_vec_env(
    num_envs: int = 8, num_workers: int = 1, seed: int | None = None, **kwargs: Any
) -> VecEnv:
    """``num_envs`` single-learner games, in this process (``num_workers=1``) or split over
    worker processes; ``kwargs`` go to ``NantySingleAgentEnv``."""
    fns = [EnvMaker(**kwargs) for _ in range(num_envs)]
    venv = NantyVecEnv(fns) if num_workers <= 1 else SubprocNantyVecEnv(fns, num_workers)
    if seed is not None:
        venv.seed(seed)
    return venv
