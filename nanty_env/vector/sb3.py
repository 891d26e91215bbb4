"""Vectorised faces of the single-learner env with Stable-Baselines3's ``VecEnv`` interface.

``NantyVecEnv``: N games in one process stepping together (stacked observations, rewards and
action masks; auto-reset, with the last observation in ``infos[i]["terminal_observation"]`` and
SB3's episode summary in ``infos[i]["episode"]``, so ``ep_rew_mean`` is logged without a
``VecMonitor``). ``SubprocNantyVecEnv``: the same split over the calling process and worker
processes (``nanty_env.vector.split_batch``), with blocking waits, worker faults reported as one
``VecEnvWorkerError`` and, with one worker process, the worker's games moved to the calling
process while that is measured faster (``nanty_env.vector.balance``). Both expose
``action_masks()`` -> bool array of shape (N, actions), which sb3-contrib's ``MaskablePPO``
reads through ``env_method("action_masks")``. Both check a step's actions before any game
moves: ``nanty_env.faces.options.ActionBatchError`` for a batch that is not one integer per game,
``IllegalActionError`` for an illegal action of a game under ``illegal_action="raise"``
(``docs/env.md``, "Bad input").

This module is the only one of the vectorised faces that imports SB3; the games and the worker
processes (``nanty_env.vector.batch``, ``nanty_env.vector.split_batch``,
``nanty_env.vector.workers``) do not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from nanty_env.vector.balance import SplitBalancer
from nanty_env.vector.batch import EnvFactory, EnvMaker, GameBatch
from nanty_env.vector.split_batch import SplitBatch
from nanty_env.vector.workers import DEFAULT_TIMEOUT


class NantyVecEnv(GameBatch, VecEnv):
    """N single-learner games in this process (a ``GameBatch`` as an SB3 ``VecEnv``)."""

    def __init__(self, env_fns: Sequence[EnvFactory]) -> None:
        GameBatch.__init__(self, env_fns)
        VecEnv.__init__(self, self.num_envs, self.observation_space, self.action_space)


class SubprocNantyVecEnv(SplitBatch, VecEnv):
    """N games split over ``num_workers`` processes, the calling process included (a
    ``SplitBatch`` as an SB3 ``VecEnv``); env factories must be picklable. With one worker
    process, ``balance`` (default on) moves its games to the caller while that is measured
    faster, and back; the games play exactly as without it."""

    def __init__(
        self,
        env_fns: Sequence[EnvFactory],
        num_workers: int = 2,
        worker_timeout: float = DEFAULT_TIMEOUT,
        balance: bool | SplitBalancer = True,
    ) -> None:
        SplitBatch.__init__(self, env_fns, num_workers, worker_timeout, balance)
        VecEnv.__init__(self, self.num_envs, self.observation_space, self.action_space)


def make_vec_env(
    num_envs: int = 8,
    num_workers: int = 1,
    seed: int | None = None,
    worker_timeout: float = DEFAULT_TIMEOUT,
    balance: bool = True,
    **kwargs: Any,
) -> VecEnv:
    """``num_envs`` single-learner games, in this process (``num_workers=1``) or split over
    worker processes (``balance``: see ``SubprocNantyVecEnv``); ``kwargs`` go to
    ``NantySingleAgentEnv`` (checked here, at once)."""
    fns = [EnvMaker(**kwargs) for _ in range(num_envs)]
    if num_workers <= 1:
        venv: VecEnv = NantyVecEnv(fns)
    else:
        venv = SubprocNantyVecEnv(fns, num_workers, worker_timeout, balance)
    if seed is not None:
        venv.seed(seed)
    return venv
