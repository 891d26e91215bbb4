"""``nanty_narking_v0`` as an RLlib ``MultiAgentEnv``, with scripted bots in some seats.

Only the seat that owes the pending decision gets an observation (its own information set and
action mask, keys ``observation`` / ``action_mask`` as in the PettingZoo env), so RLlib asks
exactly one agent per step and no seat ever sees another's view. Rewards (shaping differences,
or 0, then the terminal reward) go to every learning seat on every step; RLlib adds up the
rewards of a seat that is not acting until its next observation. At the end every learning seat
gets a last observation and ``terminated`` (RLlib ignores a seat that never acted).

Frozen opponents: each episode ``bot_seats`` seats (drawn at random) are played by scripted
bots drawn by weight from ``bot_pool`` (bot specs, ``agents.registry.make_bot``). They are
stepped inside the env and never appear as RLlib agents, so the shared policy learns from the
other seats only.

The ruleset is the base game unless ``expansion`` names one (``"cthulhu"``, with ``content``
an optional content pack): the spaces, the encoder and the mask are then the expansion's
(``nanty_env.encoding.rulesets``), as in every other face.

Seats with a single legal action are played for the learner (``auto_forced``), as in the
single-agent env: nothing is learnt from them.

An illegal action (only possible without the mask, e.g. RLlib's own env check, which steps
random actions) ends the episode with ``illegal_reward`` for the offender and 0 for the other
learning seats, the game left as it was (PettingZoo's ``TerminateIllegalWrapper`` rule);
``illegal_action="raise"`` raises ``IllegalActionError`` instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium as gym
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from nanty_env.encoding.rulesets import config_spec
from nanty_env.engine import Game, GameConfig
from nanty_env.faces.aec import make_spaces
from nanty_env.faces.rewards import REWARD_MODES, terminal_rewards
from training.config import check_ruleset
from training.potentials import SHAPINGS, potential

DEFAULTS: dict[str, Any] = {
    "num_players": 4,
    "expansion": None,
    "content": None,
    "personalities": "standard",
    "thresholds": "rulebook",
    "interrupt_windows": "public",
    "reward_mode": "win_loss",
    "shaping": "none",
    "bot_pool": {},
    "bot_seats": 0,
    "auto_forced": True,
    "illegal_action": "terminate",
    "illegal_reward": -1.0,
}


def agent_id(seat: int) -> str:
    return f"player_{seat}"


class NantyMultiAgentEnv(MultiAgentEnv):
    """See the module docstring. ``config`` (RLlib's ``env_config``) takes the keys of
    :data:`DEFAULTS`; unknown keys and bad values are refused at construction."""

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        cfg = check_env_config(config or {})
        self.cfg = cfg
        self.game_config = GameConfig(
            num_players=cfg["num_players"],
            personalities=cfg["personalities"],
            thresholds=cfg["thresholds"],
            interrupt_windows=cfg["interrupt_windows"],
            expansion=cfg["expansion"],
            content=cfg["content"],
            log=False,
        )
        self.ruleset = spec = config_spec(self.game_config)
        n = cfg["num_players"]
        self.possible_agents = [agent_id(s) for s in range(n)]
        self.agents = []
        obs_space, act_space = make_spaces(spec)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, act_space)
        self.observation_space = gym.spaces.Dict(self.observation_spaces)
        self.action_space = gym.spaces.Dict(self.action_spaces)
        self.shaping = potential(cfg["shaping"])
        pool = {k: float(w) for k, w in cfg["bot_pool"].items() if w > 0}
        self._pool_specs = list(pool)
        self._pool_p = np.array(list(pool.values())) / sum(pool.values()) if pool else None
        self._bot_cache: dict[str, Any] = {}
        self._rng = np.random.default_rng()
        self._encode = spec.new_encoder()
        self._action_mask = spec.action_mask
        self.game: Game | None = None
        self.bots: dict[int, Any] = {}
        self._phi: list[float] = []
        self._last_turn = -1

    # ------------------------------------------------------------------ RLlib API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        while True:
            self.game = Game.new(self.game_config, int(self._rng.integers(2**63)))
            self._seat_bots()
            self._phi = self._potentials()
            self._play_bots()
            if not self.game.is_terminal:
                break
        self.agents = [agent_id(s) for s in self._learners()]
        return self._observe_current(), {}

    def step(self, action_dict: Mapping[str, Any]):
        g = self.game
        seat = g.current_player
        me = agent_id(seat)
        if me not in action_dict:
            raise ValueError(f"{me} owes the decision but no action was given for it")
        action = int(action_dict[me])
        if action not in g.legal and self.cfg["illegal_action"] == "terminate":
            return self._illegal(seat, action)
        g.apply(action)  # IllegalActionError leaves the game as it was
        self._play_bots()
        rewards = self._step_rewards()
        if not g.is_terminal:
            return self._observe_current(), rewards, {"__all__": False}, {"__all__": False}, {}
        final = terminal_rewards(g, self.cfg["reward_mode"])
        obs, infos = {}, {}
        info = {"winners": list(g.outcome.winners), "reason": g.outcome.reason}
        for s in self._learners():
            a = agent_id(s)
            rewards[a] = rewards.get(a, 0.0) + float(final[s])
            obs[a] = self._observe(s)
            infos[a] = {**info, "seat": s}
        terminated = dict.fromkeys(obs, True) | {"__all__": True}
        return obs, rewards, terminated, {"__all__": False}, infos

    # ------------------------------------------------------------------ internals
    def _illegal(self, seat: int, action: int):
        """End the episode: ``illegal_reward`` to ``seat``, 0 to the other learners."""
        obs, rewards, infos = {}, {}, {}
        for s in self._learners():
            a = agent_id(s)
            obs[a] = self._observe(s)
            rewards[a] = float(self.cfg["illegal_reward"]) if s == seat else 0.0
            infos[a] = {"seat": s, "illegal_action": action, "offender": seat}
        return obs, rewards, dict.fromkeys(obs, True) | {"__all__": True}, {"__all__": False}, infos

    def _learners(self) -> list[int]:
        return [s for s in range(self.game.n) if s not in self.bots]

    def _seat_bots(self) -> None:
        n, k = self.game.n, self.cfg["bot_seats"]
        seats = self._rng.choice(n, size=k, replace=False) if k else []
        self.bots = {}
        for s in sorted(int(x) for x in seats):
            spec = self._pool_specs[int(self._rng.choice(len(self._pool_specs), p=self._pool_p))]
            bot = self._bot(spec, s)
            bot.reset(s, self.game_config)
            self.bots[s] = bot
        self._last_turn = -1

    def _bot(self, spec: str, seat: int) -> Any:
        """One bot object per (spec, seat), built once: bots are reset before each game."""
        key = f"{spec}@{seat}"
        if key not in self._bot_cache:
            from agents.registry import make_bot

            self._bot_cache[key] = make_bot(spec)
        return self._bot_cache[key]

    def _play_bots(self) -> None:
        """Play the bots' decisions (and the learners' forced ones) until a learning seat owes
        a real decision or the game ends; observing bots see each new turn."""
        g, rng = self.game, self._rng
        while True:
            if g.outcome is None and g.turn != self._last_turn:
                self._last_turn = g.turn
                self._show_bots()
            if g.outcome is not None:
                self._show_bots()
                return
            p = g.current_player
            legal = g.legal
            if len(legal) == 1 and (p in self.bots or self.cfg["auto_forced"]):
                g.apply(legal[0])
                continue
            if p not in self.bots:
                return
            view = g.view(p)
            g.apply(int(self.bots[p].act(view, view["legal_actions"], rng)))

    def _show_bots(self) -> None:
        for s, bot in self.bots.items():
            if getattr(bot, "observes", False):
                bot.observe(self.game.view(s))

    def _observe(self, seat: int) -> dict[str, np.ndarray]:
        return {
            "observation": self._encode(self.game, seat),
            "action_mask": self._action_mask(self.game, seat),
        }

    def _observe_current(self) -> dict[str, dict[str, np.ndarray]]:
        seat = self.game.current_player
        return {agent_id(seat): self._observe(seat)}

    def _potentials(self) -> list[float]:
        if self.shaping is None:
            return []
        return [self.shaping(self.game, s) for s in range(self.game.n)]

    def _step_rewards(self) -> dict[str, float]:
        """Every learning seat's reward for the step: ``phi(s') - phi(s)``, or 0 without
        shaping (RLlib wants a reward for each agent that acted and observes again)."""
        if self.shaping is None:
            return dict.fromkeys(map(agent_id, self._learners()), 0.0)
        new = self._potentials()
        out = {agent_id(s): float(new[s] - self._phi[s]) for s in self._learners()}
        self._phi = new
        return out


def check_env_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """``config`` over :data:`DEFAULTS`, validated (a ``ValueError`` names the bad key)."""
    unknown = sorted(set(config) - set(DEFAULTS))
    if unknown:
        raise ValueError(f"unknown env_config key {unknown[0]!r} (known: {', '.join(DEFAULTS)})")
    cfg = {**DEFAULTS, **config}
    n = cfg["num_players"]
    if n not in (2, 3, 4):
        raise ValueError(f"num_players must be 2, 3 or 4, got {n!r}")
    if cfg["reward_mode"] not in REWARD_MODES:
        raise ValueError(f"reward_mode must be one of {REWARD_MODES}, got {cfg['reward_mode']!r}")
    if cfg["shaping"] not in SHAPINGS:
        raise ValueError(f"shaping must be one of {SHAPINGS}, got {cfg['shaping']!r}")
    check_ruleset(cfg["expansion"], cfg["content"], cfg["shaping"])
    if cfg["illegal_action"] not in ("terminate", "raise"):
        raise ValueError(
            f"illegal_action must be 'terminate' or 'raise', got {cfg['illegal_action']!r}"
        )
    k = cfg["bot_seats"]
    if not isinstance(k, int) or not 0 <= k < n:
        raise ValueError(f"bot_seats must be an integer in [0, {n - 1}], got {k!r}")
    pool = cfg["bot_pool"]
    if k and not any(w > 0 for w in pool.values()):
        raise ValueError("bot_seats > 0 needs a bot_pool with at least one positive weight")
    if any(w < 0 for w in pool.values()):
        raise ValueError("bot_pool weights must be non-negative")
    from agents.registry import parse_spec

    for spec in pool:
        parse_spec(spec)
    return cfg
