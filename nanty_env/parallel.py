"""A PettingZoo ``ParallelEnv`` face of the same game, for tools that want one.

Nanty Narking is sequential: at each parallel step exactly one agent (the engine's current
player, flagged ``infos[agent]["acting"]``, with a non-zero ``action_mask``) acts; the actions
of the others are ignored. An illegal action of the acting agent raises ``IllegalActionError``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from pettingzoo import ParallelEnv

from nanty_env.aec import ENV_NAME, game_config, make_spaces
from nanty_env.engine import Game
from nanty_env.observation import Encoder, action_mask, encode_state
from nanty_env.render import render_text
from nanty_env.rewards import terminal_rewards


class parallel_env(ParallelEnv):
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": ENV_NAME}

    def __init__(
        self,
        num_players: int = 4,
        personalities: str = "standard",
        thresholds: str = "rulebook",
        theme: str = "nanty",
        interrupt_windows: str = "public",
        render_mode: str | None = None,
        reward_mode: str = "win_loss",
        reveal_personalities: bool = False,
    ) -> None:
        self.config = game_config(num_players, personalities, thresholds, theme, interrupt_windows)
        self.render_mode = render_mode
        self.reward_mode = reward_mode
        self.reveal_personalities = reveal_personalities
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        obs_space, act_space = make_spaces()
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, act_space)
        self._seeds = np.random.default_rng()
        self.game: Game | None = None
        self.agents: list[str] = []
        self._encode = Encoder()

    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        return self.action_spaces[agent]

    def _obs(self) -> dict[str, dict[str, np.ndarray]]:
        g = self.game
        return {
            a: {
                "observation": self._encode(g, i, reveal_personalities=self.reveal_personalities),
                "action_mask": action_mask(g, i),
            }
            for i, a in enumerate(self.possible_agents)
        }

    def _infos(self) -> dict[str, dict[str, Any]]:
        cur = self.game.current_player
        return {a: {"acting": i == cur} for i, a in enumerate(self.possible_agents)}

    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        self.game = Game.new(self.config, int(self._seeds.integers(2**63)))
        self.agents = self.possible_agents[:]
        return self._obs(), self._infos()

    def step(self, actions: dict[str, int]):
        g = self.game
        acting = self.possible_agents[g.current_player]
        g.apply(int(actions[acting]))
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

    def state(self) -> np.ndarray:
        return encode_state(self.game)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_text(self.game, max(self.game.current_player, 0))

    def close(self) -> None:
        pass
