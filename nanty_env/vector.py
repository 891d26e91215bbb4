"""Vectorised faces of the single-learner env, compatible with Stable-Baselines3 ``VecEnv``.

``NantyVecEnv``: N games in one process stepping together (stacked observations, rewards and
action masks; auto-reset, with the last observation in ``infos[i]["terminal_observation"]``).
``SubprocNantyVecEnv``: the same split into chunks (one ``NantyVecEnv`` each) played by the
calling process and worker processes, for more cores. Both expose ``action_masks()`` -> bool array of shape (N, actions),
which sb3-contrib's ``MaskablePPO`` reads through ``env_method("action_masks")``.
"""

from __future__ import annotations

import multiprocessing as mp
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from nanty_env.single import NantySingleAgentEnv

EnvFactory = Callable[[], NantySingleAgentEnv]


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
        infos: list[dict[str, Any]] = []
        for i, e in enumerate(self.envs):
            o, r, term, trunc, info = e.step(int(self._actions[i]))
            done = term or trunc
            if done:
                info = dict(info)
                info["terminal_observation"] = o
                info["TimeLimit.truncated"] = trunc and not term
                o, _ = e.reset()
            obs[i], rewards[i], dones[i] = o, r, done
            infos.append(info)
        return obs, rewards, dones, infos

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
    """Carry out one command of the worker protocol on a chunk of games."""
    if cmd == "step":
        venv.step_async(data)
        return (*venv.step_wait(), venv.action_masks())
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


# How long a waiting side polls its pipe before blocking on it. An idle virtual CPU that is
# put to sleep and woken up every step costs more than the step itself on small machines.
SPIN_SECONDS = 0.002


def _poll_briefly(conn: Any) -> None:
    """Poll ``conn`` for up to ``SPIN_SECONDS`` (then a blocking ``recv`` takes over)."""
    deadline = time.perf_counter() + SPIN_SECONDS
    while not conn.poll() and time.perf_counter() < deadline:
        pass


def _worker(remote, env_fns: list[EnvFactory]) -> None:
    venv = NantyVecEnv(env_fns)
    while True:
        _poll_briefly(remote)
        cmd, data = remote.recv()
        if cmd == "close":
            remote.close()
            return
        remote.send(_handle(venv, cmd, data))


class _InProcess:
    """The calling process's own chunk of games, behind the pipe's ``send``/``recv``: a command
    runs when its answer is received, i.e. while the worker processes run theirs."""

    def __init__(self, env_fns: list[EnvFactory]) -> None:
        self.venv = NantyVecEnv(env_fns)
        self._pending: tuple[str, Any] | None = None

    def send(self, message: tuple[str, Any]) -> None:
        self._pending = None if message[0] == "close" else message

    def recv(self) -> Any:
        assert self._pending is not None, "recv() without a command"
        cmd, data = self._pending
        self._pending = None
        return _handle(self.venv, cmd, data)


class SubprocNantyVecEnv(VecEnv):
    """N games split over ``num_workers`` processes, the calling process included: it plays the
    first chunk itself while ``num_workers - 1`` worker processes play the others, so two
    workers keep two cores busy without a third process competing with them (env factories
    must be picklable)."""

    def __init__(self, env_fns: Sequence[EnvFactory], num_workers: int = 2) -> None:
        n = len(env_fns)
        num_workers = max(1, min(num_workers, n))
        bounds = np.linspace(0, n, num_workers + 1).astype(int)
        self._chunks = [list(range(bounds[k], bounds[k + 1])) for k in range(num_workers)]
        ctx = mp.get_context(
            "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"
        )
        self._remotes: list[Any] = [_InProcess([env_fns[i] for i in self._chunks[0]])]
        self._procs = []
        for chunk in self._chunks[1:]:
            parent, child = ctx.Pipe()
            proc = ctx.Process(
                target=_worker, args=(child, [env_fns[i] for i in chunk]), daemon=True
            )
            proc.start()
            child.close()
            self._remotes.append(parent)
            self._procs.append(proc)
        probe = env_fns[0]()
        super().__init__(n, probe.observation_space, probe.action_space)
        self._closed = False
        self._masks: np.ndarray | None = None

    def reset(self) -> np.ndarray:
        for r in self._remotes:
            r.send(("reset", None))
        results = [r.recv() for r in self._remotes]
        self._masks = np.concatenate([x[1] for x in results])
        return np.concatenate([x[0] for x in results])

    def step_async(self, actions: np.ndarray) -> None:
        for r, chunk in zip(self._remotes, self._chunks, strict=True):
            r.send(("step", np.asarray(actions)[chunk].tolist()))

    def step_wait(self):
        results = [self._remotes[0].recv()]  # the calling process's own chunk
        for r in self._remotes[1:]:
            _poll_briefly(r)
            results.append(r.recv())
        obs = np.concatenate([x[0] for x in results])
        rewards = np.concatenate([x[1] for x in results])
        dones = np.concatenate([x[2] for x in results])
        infos = [info for x in results for info in x[3]]
        self._masks = np.concatenate([x[4] for x in results])
        return obs, rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """Masks of the current decisions (sent along with every step and reset)."""
        if self._masks is None:
            for r in self._remotes:
                r.send(("masks", None))
            self._masks = np.concatenate([r.recv() for r in self._remotes])
        return self._masks

    def seed(self, seed: int | None = None) -> list[int | None]:
        out = []
        for r, chunk in zip(self._remotes, self._chunks, strict=True):
            r.send(("seed", None if seed is None else seed + chunk[0]))
            out += r.recv()
        return out

    def _by_worker(self, indices) -> list[tuple[Any, list[int]]]:
        wanted = set(self._get_indices(indices))
        out = []
        for r, chunk in zip(self._remotes, self._chunks, strict=True):
            local = [j for j, i in enumerate(chunk) if i in wanted]
            if local:
                out.append((r, local))
        return out

    def env_method(self, method_name: str, *args, indices=None, **kwargs) -> list[Any]:
        if method_name == "action_masks" and indices is None:
            return list(self.action_masks())
        self._masks = None  # a method may change a game
        targets = self._by_worker(indices)
        for r, local in targets:
            r.send(("call", (method_name, args, kwargs, local)))
        return [x for r, _ in targets for x in r.recv()]

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        targets = self._by_worker(indices)
        for r, local in targets:
            r.send(("get", (attr_name, local)))
        return [x for r, _ in targets for x in r.recv()]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        self._masks = None
        targets = self._by_worker(indices)
        for r, local in targets:
            r.send(("set", (attr_name, value, local)))
        for r, _ in targets:
            r.recv()

    def env_is_wrapped(self, wrapper_class: type, indices=None) -> list[bool]:
        return [False] * len(self._get_indices(indices))

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None] * self.num_envs

    def close(self) -> None:
        if self._closed:
            return
        for r in self._remotes:
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
