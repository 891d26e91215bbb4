"""N single-learner games stepped together in one process, without Stable-Baselines3.

:class:`GameBatch` is the engine room of every vectorised face: ``nanty_env.vector`` (SB3's
``VecEnv``) and ``nanty_env.vector.async_vector`` run one in the calling process and one in each
worker process. It imports neither torch nor Stable-Baselines3, so worker processes stay small and
start fast.

A step's actions are checked before any game moves (:meth:`GameBatch.check_actions`): a batch
that is not one integer per game raises :class:`~nanty_env.faces.options.ActionBatchError`, an
illegal action for a game whose ``illegal_action`` is ``"raise"`` raises ``IllegalActionError``, and
no game is ever half-stepped.
"""

from __future__ import annotations

import multiprocessing as mp
import pickle
import time
import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from nanty_env.engine import IllegalActionError
from nanty_env.faces.options import as_actions, check_seed
from nanty_env.faces.single import NantySingleAgentEnv

EnvFactory = Callable[[], NantySingleAgentEnv]
GameSlot = tuple[NantySingleAgentEnv, int | None, float, int]  # env, seed, return, length
Indices = None | int | Iterable[int]


def process_context() -> Any:
    """The multiprocessing context for worker processes: ``forkserver`` where available
    (workers start clean, without a copy of the parent's torch state), else ``spawn``."""
    return mp.get_context("forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn")


class EnvMaker:
    """A picklable factory of ``NantySingleAgentEnv`` (for worker processes)."""

    def __init__(self, **kwargs: Any) -> None:
        self.kwargs = kwargs

    def __call__(self) -> NantySingleAgentEnv:
        return NantySingleAgentEnv(**self.kwargs)


def warn_games_stay(stacklevel: int) -> None:
    """Warn that games could not be pickled, so they stay in their process (balancing off);
    ``stacklevel`` counts from the caller of this function."""
    warnings.warn(
        "these games cannot be pickled, so they cannot move between processes: they stay "
        "where they are (balance off)",
        RuntimeWarning,
        stacklevel=stacklevel + 1,
    )


class _Given:
    """A factory that hands back a game that already exists."""

    def __init__(self, env: NantySingleAgentEnv) -> None:
        self.env = env

    def __call__(self) -> NantySingleAgentEnv:
        return self.env


class GameBatch:
    """``len(env_fns)`` single-learner games in this process, stepping together.

    Observations, rewards, dones and action masks are stacked; a finished game is reset at
    once, its last observation kept in ``infos[i]["terminal_observation"]`` and its episode
    summarised in ``infos[i]["episode"]`` as Stable-Baselines3's ``Monitor`` does (``r``: the
    learner's return, ``l``: its number of steps, ``t``: seconds since this batch was made), so
    SB3 logs ``ep_rew_mean`` / ``ep_len_mean`` without a ``VecMonitor``.
    """

    def __init__(self, env_fns: Sequence[EnvFactory]) -> None:
        self.envs = [fn() for fn in env_fns]
        self.num_envs = len(self.envs)
        e0 = self.envs[0]
        self.observation_space, self.action_space = e0.observation_space, e0.action_space
        self._seeds: list[int | None] = [None] * self.num_envs
        self._actions: Any = None
        self._returns = [0.0] * self.num_envs
        self._lengths = [0] * self.num_envs
        self._t0 = time.time()

    def reset(self) -> np.ndarray:
        obs = []
        for i, e in enumerate(self.envs):
            o, _ = e.reset(seed=self._seeds[i])
            self._seeds[i] = None
            obs.append(o)
        self._returns = [0.0] * self.num_envs
        self._lengths = [0] * self.num_envs
        return np.stack(obs)

    def step(self, actions: np.ndarray):
        """Step every game: ``(obs, rewards, dones, infos)`` (SB3's ``VecEnv.step``)."""
        self.step_async(actions)
        return self.step_wait()

    def step_async(self, actions: np.ndarray) -> None:
        """Check ``actions`` (:meth:`check_actions`) and keep them for :meth:`step_wait`."""
        self._actions = self.check_actions(actions)

    def check_actions(self, actions: Any) -> list[int]:
        """``actions`` as ints, one per game, if every game takes its own; else, before any
        game moves, :class:`~nanty_env.faces.options.ActionBatchError` for a batch that is not one
        integer per game, or what a game's ``check_action`` raises (``IllegalActionError``
        for an illegal action under ``illegal_action="raise"``, ``RuntimeError`` before
        ``reset()``)."""
        acts = as_actions(actions, self.num_envs).tolist()
        for i, (e, a) in enumerate(zip(self.envs, acts, strict=True)):
            try:
                e.check_action(a)
            except IllegalActionError as exc:
                raise IllegalActionError(f"game {i}: {exc}; no game has moved") from None
        return acts

    def raising(self) -> np.ndarray:
        """Whether each game raises on an illegal action (``illegal_action="raise"``)."""
        return np.array([e.illegal_action == "raise" for e in self.envs], dtype=bool)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        if self._actions is None:
            raise RuntimeError("call step_async(actions) before step_wait()")
        actions, self._actions = self._actions, None
        obs = np.empty((self.num_envs, *self.observation_space.shape), dtype=np.float32)
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        dones = np.zeros(self.num_envs, dtype=bool)
        infos = self._step_checked(actions, obs, rewards, dones)
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
        masks into ``masks`` if given); returns the infos. The actions are checked first
        (:meth:`check_actions`): if one is refused, no game moves."""
        return self._step_checked(self.check_actions(actions), obs, rewards, dones, masks)

    def _step_checked(
        self,
        actions: list[int],
        obs: np.ndarray,
        rewards: np.ndarray,
        dones: np.ndarray,
        masks: np.ndarray | None = None,
    ) -> list[dict[str, Any]]:
        infos: list[dict[str, Any]] = []
        returns, lengths = self._returns, self._lengths
        for i, e in enumerate(self.envs):
            o, r, term, trunc, info = e.step(actions[i])
            returns[i] += r
            lengths[i] += 1
            done = term or trunc
            if done:
                info = dict(info)
                info["terminal_observation"] = o
                info["TimeLimit.truncated"] = trunc and not term
                info["episode"] = {
                    "r": round(returns[i], 6),
                    "l": lengths[i],
                    "t": round(time.time() - self._t0, 6),
                }
                returns[i], lengths[i] = 0.0, 0
                o, _ = e.reset()
            obs[i], rewards[i], dones[i] = o, r, done
            if masks is not None:
                masks[i] = e.action_masks()
            infos.append(info)
        return infos

    def action_masks(self) -> np.ndarray:
        return np.stack([e.action_masks() for e in self.envs])

    def remove_games(self, k: int, front: bool) -> list[GameSlot]:
        """Take ``k`` games out of this batch (its first or last ones), each with what the
        batch keeps of it (pending seed, episode return and length so far), to hand to
        another batch with :meth:`insert_games`: it goes on exactly as it would have here."""
        if not 0 <= k <= self.num_envs:
            raise ValueError(f"cannot take {k} of {self.num_envs} games")
        part = slice(0, k) if front else slice(self.num_envs - k, self.num_envs)
        slots = list(
            zip(
                self.envs[part],
                self._seeds[part],
                self._returns[part],
                self._lengths[part],
                strict=True,
            )
        )
        for rows in (self.envs, self._seeds, self._returns, self._lengths):
            del rows[part]
        self.num_envs -= k
        return slots

    def remove_games_pickled(self, k: int, front: bool) -> bytes | None:
        """:meth:`remove_games` for another process: the games pickled once, to be sent as
        they are; None, and nothing removed, if they cannot be pickled (an env holding a
        lock, a socket, a lambda...)."""
        slots = self.remove_games(k, front)
        try:
            return pickle.dumps(slots, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:
            self.insert_games(slots, front)
            return None

    @classmethod
    def from_games(cls, slots: Sequence[GameSlot], t0: float | None = None) -> GameBatch:
        """A batch of games another batch gave up (:meth:`remove_games`), going on as there;
        ``t0``: when their episodes' clock started (``time.time()``; default now)."""
        if not slots:
            raise ValueError("a batch needs at least one game")
        batch = cls([_Given(slot[0]) for slot in slots])
        if t0 is not None:
            batch._t0 = t0
        batch._seeds = [slot[1] for slot in slots]
        batch._returns = [slot[2] for slot in slots]
        batch._lengths = [slot[3] for slot in slots]
        return batch

    def insert_games(self, slots: Sequence[GameSlot], front: bool) -> None:
        """Add games taken from another batch (:meth:`remove_games`) before the first game
        or after the last one."""
        at = 0 if front else self.num_envs
        for col, rows in enumerate((self.envs, self._seeds, self._returns, self._lengths)):
            rows[at:at] = [slot[col] for slot in slots]
        self.num_envs += len(slots)

    def seed(self, seed: int | None = None) -> list[int | None]:
        """Seed game ``i`` with ``seed + i`` at the next ``reset`` (``seed``: ``None`` or an
        integer >= 0)."""
        seed = check_seed(seed)
        self._seeds = [None if seed is None else seed + i for i in range(self.num_envs)]
        return self._seeds

    def close(self) -> None:
        pass

    def indices(self, indices: Indices = None) -> list[int]:
        return as_indices(indices, self.num_envs)

    def get_attr(self, attr_name: str, indices: Indices = None) -> list[Any]:
        return [getattr(self.envs[i], attr_name) for i in self.indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Indices = None) -> None:
        for i in self.indices(indices):
            setattr(self.envs[i], attr_name, value)

    def env_method(self, method_name: str, *args: Any, indices: Indices = None, **kwargs: Any):
        return [getattr(self.envs[i], method_name)(*args, **kwargs) for i in self.indices(indices)]

    def env_is_wrapped(self, wrapper_class: type, indices: Indices = None) -> list[bool]:
        return [isinstance(self.envs[i], wrapper_class) for i in self.indices(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None] * self.num_envs


def as_indices(indices: Indices, num_envs: int) -> list[int]:
    """SB3's ``indices`` argument (None: every game; one index; several) as a list."""
    if indices is None:
        return list(range(num_envs))
    if isinstance(indices, int | np.integer):
        return [int(indices)]
    return [int(i) for i in indices]


def handle(batch: GameBatch, cmd: str, data: Any) -> Any:
    """Carry out one command of the worker protocol (other than a step) on a batch."""
    if cmd == "reset":
        return batch.reset(), batch.action_masks()
    if cmd == "masks":
        return batch.action_masks()
    if cmd == "seed":
        return batch.seed(data)
    if cmd == "call":
        name, args, kwargs, idx = data
        return batch.env_method(name, *args, indices=idx, **kwargs)
    if cmd == "get":
        return batch.get_attr(data[0], data[1])
    if cmd == "set":
        return batch.set_attr(data[0], data[1], data[2])
    if cmd == "remove_front":
        return batch.remove_games_pickled(data, front=True)
    if cmd == "insert_front":  # games pickled by the caller's own batch
        return batch.insert_games(pickle.loads(data), front=True)
    raise ValueError(f"unknown worker command {cmd!r}")
