"""A PettingZoo ``ParallelEnv`` face of the same game, for tools that want one.

Nanty Narking is sequential: at each parallel step exactly one agent decides (the engine's
current player, flagged ``infos[agent]["acting"]``); its mask holds its legal actions. Every other
agent gets the documented no-op: a mask whose only legal action is
:data:`~nanty_env.encoding.observation.NO_OP` (``PASS``, action 0), which does nothing. So every
live agent always has exactly one or more legal actions, and generic loops that sample every agent's
action from its mask (PettingZoo's tests, TorchRL's ``PettingZooWrapper``) just work. Once the game
is over every mask is zero (nothing is left to decide).

A step needs the deciding agent's action; the others' may be the no-op or left out. An illegal
action (of the decider, or anything but the no-op from another agent) raises
``IllegalActionError`` and changes nothing. ``raw_env(agent_order="cycle")`` is the same game as
an AEC env (``pettingzoo.utils.conversions.aec_to_parallel`` turns it into this one).
``actions`` must be a dict; an action that is not an integer (``None`` included: every agent in
``actions`` is live) raises ``TypeError``; every action is checked before the game changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from pettingzoo import ParallelEnv

from nanty_env.encoding.rulesets import config_spec
from nanty_env.engine import Game, GameConfig, IllegalActionError
from nanty_env.faces.aec import ENV_NAME, acting_infos, make_spaces
from nanty_env.faces.options import (
    as_action,
    check_bool,
    check_render_mode,
    check_reward_mode,
    check_seed,
    game_config,
)
from nanty_env.faces.rewards import terminal_rewards
from nanty_env.presentation.render import render_text


class parallel_env(ParallelEnv):
    """Args: ``config`` (or the game keywords), ``render_mode`` (``"ansi"``), ``reward_mode``
    and ``reveal_personalities``, as for ``raw_env``."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": ENV_NAME}

    def __init__(
        self,
        config: GameConfig | None = None,
        *,
        render_mode: str | None = None,
        reward_mode: str = "win_loss",
        reveal_personalities: bool = False,
        **game: Any,
    ) -> None:
        self.config = game_config(config, **game)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.reward_mode = check_reward_mode(reward_mode)
        self.reveal_personalities = check_bool("reveal_personalities", reveal_personalities)
        self.possible_agents = [f"player_{i}" for i in range(self.config.num_players)]
        self.ruleset = spec = config_spec(self.config)
        obs_space, act_space = make_spaces(spec)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, act_space)
        self._seeds = np.random.default_rng()
        self.game: Game | None = None
        self.agents: list[str] = []
        self._encode = spec.new_encoder()
        self._mask = spec.mask_with_no_op
        self._no_op = spec.no_op

    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        return self.action_spaces[agent]

    def _obs(self) -> dict[str, dict[str, np.ndarray]]:
        g = self.game
        return {
            a: {
                "observation": self._encode(g, i, reveal_personalities=self.reveal_personalities),
                "action_mask": self._mask(g, i),
            }
            for i, a in enumerate(self.possible_agents)
        }

    def _infos(self) -> dict[str, dict[str, Any]]:
        return acting_infos(self.game, self.possible_agents)

    def reset(self, seed: int | None = None, options: dict | None = None):
        seed = check_seed(seed)  # before anything changes
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        self.game = Game.new(self.config, int(self._seeds.integers(2**63)))
        self.agents = self.possible_agents[:]
        return self._obs(), self._infos()

    def step(self, actions: dict[str, Any]):
        g = self.game
        if g is None:
            raise RuntimeError("call reset() before step()")
        if not self.agents:
            raise RuntimeError("the game is over: call reset() to play again")
        acting = self.possible_agents[g.current_player]
        decision = self._checked(actions, acting)
        g.apply(decision)  # checked: legal, so the game changes only here
        obs, infos = self._obs(), self._infos()
        rewards = dict.fromkeys(self.agents, 0.0)
        done = g.is_terminal
        if done:
            for i, r in enumerate(terminal_rewards(g, self.reward_mode)):
                rewards[self.possible_agents[i]] = r
        terminations = dict.fromkeys(self.agents, done)
        truncations = dict.fromkeys(self.agents, False)
        if done:
            self.agents = []
        return obs, rewards, terminations, truncations, infos

    def _checked(self, actions: dict[str, Any], acting: str) -> int:
        """The deciding agent's action, once every action is checked (nothing is applied):
        its type first (``TypeError``), then its legality (``IllegalActionError``)."""
        if not isinstance(actions, Mapping):
            raise TypeError(
                f"actions must be a dict agent -> action, got {type(actions).__name__} {actions!r}"
            )
        unknown = sorted(set(actions) - set(self.agents), key=str)
        if unknown:
            raise KeyError(f"actions for agents not in the game: {', '.join(map(str, unknown))}")
        if acting not in actions:
            raise KeyError(f"{acting} decides now: the actions must include it")
        given = {}
        for agent, action in actions.items():
            try:
                given[agent] = as_action(action)
            except TypeError as exc:
                raise TypeError(f"{agent}: {exc}") from None
        for agent, action in given.items():
            if agent != acting and action != self._no_op:
                raise IllegalActionError(
                    f"{agent} is not deciding: its only legal action is the no-op {self._no_op}, "
                    f"got {action!r}"
                )
        decision = given[acting]
        if decision not in self.game.legal:
            self.game.apply(decision)  # raises IllegalActionError with the engine's description
        return decision

    def state(self) -> np.ndarray:
        if self.game is None:
            raise RuntimeError("call reset() before state()")
        return self.ruleset.encode_state(self.game)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        if self.game is None:
            raise RuntimeError("call reset() before render()")
        return render_text(self.game, max(self.game.current_player, 0))

    def close(self) -> None:
        pass
