"""PettingZoo AEC environment ``nanty_narking_v0``.

``raw_env`` raises :class:`IllegalActionError` on an illegal action (the game is unchanged);
``env()`` wraps it in :class:`~nanty_env.faces.wrapper.NantyAECWrapper`, one wrapper with the checks
of PettingZoo's standard stack: an illegal action ends the game with ``illegal_reward`` (default
-1) for the offender and 0 for the others, out-of-space actions and calls out of order are
refused; nothing is ever silently replaced.

``agent_selection`` follows the engine's current player (``agent_order="engine"``, the default),
so out-of-turn decisions (interrupts, events, payments) are simply turns of the seat that owes
them. With ``agent_order="cycle"`` the agents instead take turns in seat order, every cycle, as
PettingZoo's ``aec_to_parallel`` requires (``metadata["is_parallelizable"]`` is then True): the
seat that decides answers its decision, every other seat answers the no-op
(:data:`~nanty_env.encoding.observation.NO_OP`, the only action its mask allows), and the decision
is applied when the cycle ends, as one step of ``parallel_env``.

Bad input changes nothing (``docs/env.md``, "Bad input"): an action that is not an integer
(a bool, a float, a string, an array that is not 0-d, ``None`` from an agent that must act)
raises ``TypeError`` here and in ``env()``; ``reset(seed=...)`` takes ``None`` or an integer
>= 0.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from nanty_env.encoding.observation import OBS_HIGH
from nanty_env.encoding.rulesets import RulesetSpec, config_spec, ruleset_spec
from nanty_env.engine import Game, GameConfig, IllegalActionError
from nanty_env.faces.options import (
    as_action,
    check_bool,
    check_choice,
    check_potential,
    check_render_mode,
    check_reward_mode,
    check_seed,
    game_config,
)
from nanty_env.faces.rewards import Potential, terminal_rewards
from nanty_env.presentation.render import render_text
from nanty_env.presentation.render_image import render_view_image

ENV_NAME = "nanty_narking_v0"
AGENT_ORDERS = ("engine", "cycle")


def make_spaces(spec: RulesetSpec | None = None) -> tuple[spaces.Dict, spaces.Discrete]:
    """The observation and action spaces shared by every seat, for ``spec``'s ruleset (default
    the base game's)."""
    spec = spec or ruleset_spec()
    obs = spaces.Dict(
        {
            "observation": spaces.Box(0.0, OBS_HIGH, (spec.obs_size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (spec.num_actions,), dtype=np.int8),
        }
    )
    return obs, spaces.Discrete(spec.num_actions)


def acting_infos(g: Game, agents: list[str]) -> dict[str, dict[str, Any]]:
    """The infos of the faces where every agent answers each decision (``parallel_env``, the
    cycle order): whether the agent decides now. Always this one key, never more (TorchRL
    builds a fixed info layout from the first infos); the outcome is ``game.outcome``."""
    cur = g.current_player
    return {a: {"acting": i == cur} for i, a in enumerate(agents)}


class raw_env(AECEnv):
    """Nanty Narking for 2-4 players as an AEC environment (see module docstring).

    Args:
        config: the game's setup (``GameConfig``); or, instead, the game keywords
            ``num_players``, ``personalities``, ``thresholds``, ``theme``, ``interrupt_windows``,
            ``expansion`` and ``content``. An expansion game has its own observation and
            action space (``nanty_env.encoding.rulesets``; ``docs/env.md``).
        render_mode: ``"ansi"`` (text of the current seat's view), ``"rgb_array"`` (a picture
            of the board as that seat sees it), ``"human"`` (that picture in a window, redrawn
            after every step; ``render()`` returns ``None``) or ``None``.
        reward_mode: ``"win_loss"`` or ``"zero_sum"`` (see ``nanty_env.faces.rewards``).
        shaping: optional potential ``phi(game, seat)`` for potential-based shaping.
        reveal_personalities: put the others' personalities into observations (oracle).
        log: keep the engine's readable log (slower).
        agent_order: ``"engine"`` (the seat that owes the decision acts) or ``"cycle"`` (seats
            in order every cycle, the others answering the no-op; see the module docstring).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": ENV_NAME,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        config: GameConfig | None = None,
        *,
        render_mode: str | None = None,
        reward_mode: str = "win_loss",
        shaping: Potential | None = None,
        reveal_personalities: bool = False,
        log: bool = False,
        agent_order: str = "engine",
        **game: Any,
    ) -> None:
        super().__init__()
        self.config = game_config(config, log=log, **game)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.reward_mode = check_reward_mode(reward_mode)
        self.shaping = check_potential(shaping)
        self.reveal_personalities = check_bool("reveal_personalities", reveal_personalities)
        self.agent_order = check_choice("agent_order", agent_order, AGENT_ORDERS)
        self._cycle = agent_order == "cycle"
        self.metadata = {**type(self).metadata, "is_parallelizable": self._cycle}
        n = self.config.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.ruleset = spec = config_spec(self.config)
        obs_space, act_space = make_spaces(spec)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, act_space)
        self.state_space = spaces.Box(0.0, OBS_HIGH, (spec.state_size,), dtype=np.float32)
        self._action_mask = spec.mask_with_no_op if self._cycle else spec.action_mask
        self._no_op = spec.no_op
        self._seeds = np.random.default_rng()
        self.game: Game | None = None
        self.game_seed = 0  # the seed of the current game (``Game.new``), for game records
        self._encode = spec.new_encoder()
        self._window = None
        self._pending: int | None = None  # cycle order: the decision given in this cycle
        # Before reset(): no agents and nothing to read (step, observe, last ... say so). No
        # __getattr__ here: it would keep CPython from specialising every attribute read.
        self.agents: list[str] = []
        self.agent_selection: str | None = None
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ AEC API
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        seed = check_seed(seed)  # before anything changes
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        self.game_seed = int(self._seeds.integers(2**63))
        self.game = Game.new(self.config, self.game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._potential = self._potentials()
        if self._cycle:
            self._pending = None
            self.infos = acting_infos(self.game, self.possible_agents)
            self.agent_selection = self.possible_agents[0]
        else:
            self.infos = {a: {} for a in self.agents}
            self.agent_selection = self.possible_agents[self.game.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        g = self.game
        if g is None:
            raise RuntimeError("call reset() before observe()")
        seat = self.agent_name_mapping[agent]
        return {
            "observation": self._encode(g, seat, reveal_personalities=self.reveal_personalities),
            "action_mask": self._action_mask(g, seat),
        }

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self.game is None:
            raise RuntimeError("call reset() before last()")
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def state(self) -> np.ndarray:
        if self.game is None:
            raise RuntimeError("call reset() before state()")
        return self.ruleset.encode_state(self.game)

    def step(self, action: int | None) -> None:
        g = self.game
        if g is None:
            raise RuntimeError("call reset() before step()")
        agent = self.agent_selection
        try:
            done = self.terminations[agent] or self.truncations[agent]
        except KeyError:
            raise RuntimeError(
                "the game is over and every agent has stepped: call reset() to play again"
            ) from None
        if done:
            if action is not None:
                as_action(action)  # a non-integer is a TypeError here too, as in env()
            self._was_dead_step(action)  # PettingZoo's: only None is accepted (ValueError)
            return
        if action is None:
            raise TypeError(f"{agent} must act now; None is only the action of a finished agent")
        if self._cycle:
            self._cycle_step(agent, action)
            return
        g.apply(action)  # TypeError or IllegalActionError leave everything as it was
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.shaping is None and g.outcome is None:
            self.agent_selection = self.possible_agents[g.stack[-1]["p"]]
            if self.render_mode == "human":
                self.render()
            return  # every reward is 0.0, and so is every cumulative one before the end
        self._reward_and_end(g)
        if g.outcome is None:
            self.agent_selection = self.possible_agents[g.stack[-1]["p"]]
        if self.render_mode == "human":
            self.render()

    def _cycle_step(self, agent: str, action: Any) -> None:
        """One agent's turn in ``agent_order="cycle"``: the decider's action is checked and
        kept, the others' must be the no-op; the last seat's turn applies the decision."""
        g = self.game
        action = as_action(action)
        seat = self.agent_name_mapping[agent]
        if seat == g.current_player:
            if action not in g.legal:
                g.apply(action)  # raises IllegalActionError with the engine's description
            self._pending = action
        elif action != self._no_op:
            raise IllegalActionError(
                f"{agent} is not deciding: its only legal action is the no-op {self._no_op}, "
                f"got {action}"
            )
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if seat + 1 < len(self.possible_agents):
            self.agent_selection = self.possible_agents[seat + 1]
            return
        g.apply(self._pending)  # checked when it was given; nothing else changed the game
        self._pending = None
        self._reward_and_end(g)
        self.infos = acting_infos(self.game, self.possible_agents)
        self.agent_selection = self.possible_agents[0]
        if self.render_mode == "human":
            self.render()

    def _reward_and_end(self, g: Game) -> None:
        """After a decision: the shaping and terminal rewards, accumulated; the end."""
        if self.shaping is not None:
            new = self._potentials()
            for i, a in enumerate(self.agents):
                self.rewards[a] += new[i] - self._potential[i]
            self._potential = new
        if g.outcome is not None:
            final = terminal_rewards(g, self.reward_mode)
            for i, a in enumerate(self.agents):
                self.rewards[a] += final[i]
                self.infos[a] = {"winners": list(g.outcome.winners), "reason": g.outcome.reason}
            self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            return None
        if self.game is None:
            raise RuntimeError("call reset() before render()")
        if self.render_mode == "rgb_array":
            return self.render_image_for(self.agent_selection)
        if self.render_mode == "human":
            from nanty_env.presentation.render_window import BoardWindow

            self._window = self._window or BoardWindow(self.metadata["name"])
            self._window.show(self.render_image_for(self.agent_selection))
            return None
        return self.render_for(self.agent_selection)

    def render_for(self, agent: str) -> str:
        """The ansi text of ``agent``'s view (only its own hand)."""
        return render_text(self.game, self.agent_name_mapping[agent])

    def render_image_for(self, agent: str) -> np.ndarray:
        """An RGB image of ``agent``'s view (only its own hand), drawn from its dict view."""
        return render_view_image(self.view(agent), self.config.theme, self.config)

    def close(self) -> None:
        if self._window is not None:
            self._window.close()
            self._window = None

    # ------------------------------------------------------------------ helpers
    def _potentials(self) -> list[float]:
        if self.shaping is None:
            return []
        g = self.game
        if g.is_terminal:  # a finished game's potential is 0 (see nanty_env.faces.rewards)
            return [0.0] * g.n
        return [self.shaping(g, s) for s in range(g.n)]

    def view(self, agent: str) -> dict[str, Any]:
        """The dict view of ``agent`` for scripted bots (``Game.view``)."""
        return self.game.view(self.agent_name_mapping[agent])


def env(config: GameConfig | None = None, *, illegal_reward: float = -1.0, **kwargs: Any) -> AECEnv:
    """The wrapped AEC env (``config`` and ``kwargs`` as for ``raw_env``): an illegal action ends
    the game with ``illegal_reward`` for the offender, and the usual bounds and order checks
    apply (one wrapper doing what PettingZoo's ``TerminateIllegalWrapper``,
    ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper`` do together)."""
    from nanty_env.faces.wrapper import NantyAECWrapper

    return NantyAECWrapper(raw_env(config, **kwargs), illegal_reward=illegal_reward)
