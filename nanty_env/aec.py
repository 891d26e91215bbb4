"""PettingZoo AEC environment ``nanty_narking_v0``.

``raw_env`` raises :class:`IllegalActionError` on an illegal action (the game is unchanged);
``env()`` wraps it in PettingZoo's standard wrappers, where an illegal action ends the game with
``illegal_reward`` (default -1) for the offender and 0 for the others (PettingZoo's
``TerminateIllegalWrapper``); nothing is ever silently replaced.

``agent_selection`` follows the engine's current player, so out-of-turn decisions (interrupts,
events, payments) are simply turns of the seat that owes them.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from nanty_env.engine import Game, GameConfig
from nanty_env.engine import actions as A
from nanty_env.observation import OBS_SIZE, STATE_SIZE, Encoder, action_mask, encode_state
from nanty_env.render import render_text
from nanty_env.render_image import render_view_image
from nanty_env.rewards import Potential, terminal_rewards

ENV_NAME = "nanty_narking_v0"
OBS_HIGH = 100.0


def make_spaces() -> tuple[spaces.Dict, spaces.Discrete]:
    """The observation and action spaces shared by every seat."""
    obs = spaces.Dict(
        {
            "observation": spaces.Box(0.0, OBS_HIGH, (OBS_SIZE,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (A.NUM_ACTIONS,), dtype=np.int8),
        }
    )
    return obs, spaces.Discrete(A.NUM_ACTIONS)


def game_config(
    num_players: int = 4,
    personalities: str = "standard",
    thresholds: str = "rulebook",
    theme: str = "nanty",
    interrupt_windows: str = "public",
    log: bool = False,
) -> GameConfig:
    return GameConfig(num_players, personalities, thresholds, theme, interrupt_windows, log)


class raw_env(AECEnv):
    """Nanty Narking for 2-4 players as an AEC environment (see module docstring).

    Args:
        num_players, personalities, thresholds, theme, interrupt_windows: see ``GameConfig``.
        render_mode: ``"ansi"`` (text of the current seat's view), ``"rgb_array"`` (a picture
            of the board as that seat sees it), ``"human"`` (that picture in a window, redrawn
            after every step; ``render()`` returns ``None``) or ``None``.
        reward_mode: ``"win_loss"`` or ``"zero_sum"`` (see ``nanty_env.rewards``).
        shaping: optional potential ``phi(game, seat)`` for potential-based shaping.
        reveal_personalities: put the others' personalities into observations (oracle).
        log: keep the engine's readable log (slower).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": ENV_NAME,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        num_players: int = 4,
        personalities: str = "standard",
        thresholds: str = "rulebook",
        theme: str = "nanty",
        interrupt_windows: str = "public",
        render_mode: str | None = None,
        reward_mode: str = "win_loss",
        shaping: Potential | None = None,
        reveal_personalities: bool = False,
        log: bool = False,
    ) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(
                f"render_mode must be None or one of {self.metadata['render_modes']}, "
                f"got {render_mode!r}"
            )
        self.config = game_config(
            num_players, personalities, thresholds, theme, interrupt_windows, log
        )
        self.render_mode = render_mode
        self.reward_mode = reward_mode
        self.shaping = shaping
        self.reveal_personalities = reveal_personalities
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space, act_space = make_spaces()
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, act_space)
        self.state_space = spaces.Box(0.0, OBS_HIGH, (STATE_SIZE,), dtype=np.float32)
        self._seeds = np.random.default_rng()
        self.game: Game | None = None
        self.game_seed = 0  # the seed of the current game (``Game.new``), for game records
        self._encode = Encoder()
        self._window = None

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ AEC API
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        self.game_seed = int(self._seeds.integers(2**63))
        self.game = Game.new(self.config, self.game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._potential = self._potentials()
        self.agent_selection = self.possible_agents[self.game.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.agent_name_mapping[agent]
        g = self.game
        return {
            "observation": self._encode(g, seat, reveal_personalities=self.reveal_personalities),
            "action_mask": action_mask(g, seat),
        }

    def state(self) -> np.ndarray:
        return encode_state(self.game)

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        g = self.game
        g.apply(int(action))  # IllegalActionError leaves everything as it was
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
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
            if self.render_mode == "human":
                self.render()
        else:
            self.agent_selection = self.possible_agents[g.stack[-1]["p"]]
            if self.render_mode == "human":
                self.render()
            if self.shaping is None:
                return  # every reward is 0.0, and so is every cumulative one before the end
        self._accumulate_rewards()

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            return self.render_image_for(self.agent_selection)
        if self.render_mode == "human":
            from nanty_env.render_window import BoardWindow

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
        if g.is_terminal:  # a finished game's potential is 0 (see nanty_env.rewards)
            return [0.0] * g.n
        return [self.shaping(g, s) for s in range(g.n)]

    def view(self, agent: str) -> dict[str, Any]:
        """The dict view of ``agent`` for scripted bots (``Game.view``)."""
        return self.game.view(self.agent_name_mapping[agent])


# The AEC attributes read on every step. PettingZoo's wrappers reach them through
# ``__getattr__`` (a failed normal lookup, then a Python call, at every wrapper level); the
# subclasses below read them through plain properties instead. Behaviour is PettingZoo's.
_PER_STEP = ("agent_selection", "agents", "terminations", "truncations", "rewards", "infos")


def _passthrough(name: str, guarded: bool) -> property:
    def get(self: wrappers.BaseWrapper) -> Any:
        if guarded and not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    def put(self: wrappers.BaseWrapper, value: Any) -> None:
        setattr(self.env, name, value)

    return property(get, put)


def _passthrough_mixin(guarded: bool) -> type:
    """A mixin of properties reading the per-step attributes from the wrapped env (``guarded``:
    refused before ``reset()``, as ``OrderEnforcingWrapper`` does)."""
    props = {n: _passthrough(n, guarded) for n in _PER_STEP}
    props["_cumulative_rewards"] = _passthrough("_cumulative_rewards", False)
    return type("PerStepPassthrough", (), props)


_Passthrough = _passthrough_mixin(guarded=False)
_GuardedPassthrough = _passthrough_mixin(guarded=True)


class TerminateIllegalWrapper(_Passthrough, wrappers.TerminateIllegalWrapper):
    """PettingZoo's wrapper, reading per-step attributes directly."""


class AssertOutOfBoundsWrapper(_Passthrough, wrappers.AssertOutOfBoundsWrapper):
    """PettingZoo's wrapper, reading per-step attributes directly."""


class OrderEnforcingWrapper(_GuardedPassthrough, wrappers.OrderEnforcingWrapper):
    """PettingZoo's wrapper, reading per-step attributes directly (still refused before
    ``reset()``)."""


def env(illegal_reward: float = -1.0, **kwargs: Any) -> AECEnv:
    """The wrapped AEC env: an illegal action ends the game with ``illegal_reward`` for the
    offender (PettingZoo's TerminateIllegalWrapper), then the usual order and bounds checks
    (PettingZoo's wrappers, subclassed only to read per-step attributes faster)."""
    e = raw_env(**kwargs)
    e = TerminateIllegalWrapper(e, illegal_reward=illegal_reward)
    e = AssertOutOfBoundsWrapper(e)
    return OrderEnforcingWrapper(e)
