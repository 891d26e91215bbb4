"""One wrapper with the checks of PettingZoo's standard AEC stack, for ``nanty_env.env()``.

PettingZoo's ``OrderEnforcingWrapper(AssertOutOfBoundsWrapper(TerminateIllegalWrapper(env)))``
passes every call and attribute read through three levels (``__getattr__`` at each), encodes an
extra observation per step for the illegal-move check and calls ``Discrete.contains``: about a
third of a wrapped step here. :class:`NantyAECWrapper` does the same checks at one level:

- calls out of order: ``step``/``observe``/``state``/``render``/``agent_iter`` before ``reset``
  raise PettingZoo's ``AssertionError``, the per-step attributes an ``AttributeError``; a step
  after every agent is done only warns;
- actions that are not integers (a bool, a float, a string, an array that is not 0-d, ``None``
  from an agent that must act) raise ``TypeError``, as ``raw_env`` does, and change nothing
  (the stock stack's ``AssertOutOfBoundsWrapper`` raised ``AssertionError`` for most of them,
  and ``TypeError`` for ``True``);
- illegal actions: an integer the agent's mask forbids, out of the action space
  (``Discrete(405)``, the expansion's ``Discrete(428)``) included, ends the game; the offender
  gets ``illegal_reward``, the others 0, every agent is terminated and truncated, and the
  finished agents then step ``None`` as usual (the stock stack raised ``AssertionError`` for
  an integer out of the space).

Otherwise observations, rewards, terminations, truncations and infos are those of the stock
stack, step for step (``tests/env/test_wrapper.py`` replays recorded games through both).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from nanty_env.engine import IllegalActionError
from nanty_env.faces.options import as_action, check_number


def _passthrough(name: str) -> property:
    """An attribute of the wrapped env read at every step: served by a property (one level)
    instead of ``__getattr__``, and refused before ``reset()`` as ``OrderEnforcingWrapper``
    refuses it."""

    def get(self: NantyAECWrapper) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    def put(self: NantyAECWrapper, value: Any) -> None:
        setattr(self.env, name, value)

    return property(get, put)


def _cumulative_rewards() -> property:
    def get(self: NantyAECWrapper) -> Any:
        return self.env._cumulative_rewards

    def put(self: NantyAECWrapper, value: Any) -> None:
        self.env._cumulative_rewards = value

    return property(get, put)


class _PerStep:
    """The per-step attributes of the wrapped env, as properties."""

    agent_selection = _passthrough("agent_selection")
    agents = _passthrough("agents")
    terminations = _passthrough("terminations")
    truncations = _passthrough("truncations")
    rewards = _passthrough("rewards")
    infos = _passthrough("infos")
    _cumulative_rewards = _cumulative_rewards()


class NantyAECWrapper(_PerStep, OrderEnforcingWrapper):
    """``raw_env`` with PettingZoo's order, bounds and terminate-on-illegal checks in one level
    (see the module docstring). It is an ``OrderEnforcingWrapper``, so PettingZoo's iterator
    and ``isinstance`` checks treat it as one."""

    def __init__(self, env: Any, illegal_reward: float = -1.0) -> None:
        super().__init__(env)
        self.illegal_reward = check_number("illegal_reward", illegal_reward)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.env.reset(seed=seed, options=options)  # a bad seed raises; nothing changed
        self._has_reset = True
        self._has_updated = True

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.observe(agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        env = self.env
        agent = env.agent_selection
        return (
            env.observe(agent) if observe else None,
            env._cumulative_rewards[agent],
            env.terminations[agent],
            env.truncations[agent],
            env.infos[agent],
        )

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        env = self.env
        self._has_updated = True
        if not env.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = env.agent_selection
        if type(action) is not int and action is not None:
            action = as_action(action)  # a TypeError for anything but an integer
        try:  # raw_env checks the action (None from a live agent: TypeError; an illegal one:
            env.step(action)  # IllegalActionError) before it changes anything
        except IllegalActionError:
            self._end_on_illegal(agent)

    def _end_on_illegal(self, agent: str) -> None:
        """What ``TerminateIllegalWrapper`` does: the offender gets ``illegal_reward``, the
        others 0, every agent is terminated and truncated, the finished agents step first."""
        env = self.env
        EnvLogger.warn_on_illegal_move()
        env._cumulative_rewards[agent] = 0
        env.terminations = dict.fromkeys(env.agents, True)
        env.truncations = dict.fromkeys(env.agents, True)
        env.rewards = dict.fromkeys(env.truncations, 0)
        env.rewards[agent] = self.illegal_reward
        env._accumulate_rewards()
        env._deads_step_first()

    def __str__(self) -> str:
        return str(self.env)
