"""The YAML config of ``nanty train --backend rllib`` (e.g. ``configs/rllib_quick.yaml``).

Same rules as :mod:`training.config`: every key optional, unknown keys and wrongly typed values
are errors naming the key and the file. Needs no Ray: a config is checked before Ray starts.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from training.config import _bot_spec, _choice, _positive, check_ruleset, read_config
from training.potentials import SHAPINGS


@dataclass(frozen=True)
class RLlibEnvSection:
    num_players: int = 4
    # the ruleset: null (the base game) or "cthulhu", with ``content`` the expansion's content
    # pack (null: the shipped one), as in training/config.py
    expansion: str | None = None
    content: str | None = None
    personalities: str = "standard"
    thresholds: str = "rulebook"
    reward_mode: str = "win_loss"
    shaping: str = "none"

    def validate(self) -> None:
        _choice("num_players", self.num_players, (2, 3, 4))
        check_ruleset(self.expansion, self.content, self.shaping)
        _choice("personalities", self.personalities, ("standard", "variant", "classic"))
        _choice("thresholds", self.thresholds, ("rulebook", "player_aid"))
        _choice("reward_mode", self.reward_mode, ("win_loss", "zero_sum"))
        _choice("shaping", self.shaping, SHAPINGS)


@dataclass(frozen=True)
class OpponentsSection:
    """Frozen opponents: each game ``bot_seats`` seats (drawn at random) are played by scripted
    bots drawn by weight from ``pool`` (bot specs, see ``nanty bots``); the shared policy plays
    the others. ``bot_seats: 0`` is pure self-play."""

    bot_seats: int = 0
    pool: dict[str, float] = field(default_factory=lambda: {"random": 1.0})

    def validate(self) -> None:
        from agents.registry import parse_spec

        if self.bot_seats < 0:
            raise ValueError(f"bot_seats must be 0 or more, got {self.bot_seats!r}")
        for spec in self.pool:
            try:
                parse_spec(spec)
            except ValueError as e:
                raise ValueError(f"pool: {e}") from e
        if any(w < 0 for w in self.pool.values()):
            raise ValueError("pool weights must be non-negative")
        if self.bot_seats and not any(self.pool.values()):
            raise ValueError("bot_seats > 0 needs a pool with a positive weight")


@dataclass(frozen=True)
class RLlibPPOSection:
    total_timesteps: int = 20_000  # env steps (decisions of the learning seats)
    train_batch_size: int = 4000
    minibatch_size: int = 512
    num_epochs: int = 4
    lr: float = 3e-4
    gamma: float = 0.995
    lambda_: float = 0.95
    entropy_coeff: float = 0.01
    clip_param: float = 0.2
    hidden: list[int] = field(default_factory=lambda: [256, 256])
    activation: str = "tanh"

    def validate(self) -> None:
        for name in ("total_timesteps", "train_batch_size", "minibatch_size", "num_epochs"):
            _positive(name, getattr(self, name))
        if self.minibatch_size > self.train_batch_size:
            raise ValueError("minibatch_size must not exceed train_batch_size")
        if not 0 < self.lr < 1:
            raise ValueError("lr must be in (0, 1)")
        for name in ("gamma", "lambda_"):
            if not 0 < getattr(self, name) <= 1:
                raise ValueError(f"{name} must be in (0, 1]")
        if self.entropy_coeff < 0 or self.clip_param <= 0:
            raise ValueError("entropy_coeff must be >= 0 and clip_param > 0")
        if not self.hidden or any(w <= 0 for w in self.hidden):
            raise ValueError("hidden must be a non-empty list of positive layer widths")
        _choice("activation", self.activation, ("tanh", "relu"))


@dataclass(frozen=True)
class RaySection:
    """Where the work runs. ``address: null`` starts Ray on this machine with ``num_cpus``
    CPUs; ``"auto"`` joins the cluster this machine belongs to (``ray start``), ``"HOST:6379"``
    a given head node. ``num_env_runners: 0`` samples in the driver process (no actors)."""

    address: str | None = None
    num_cpus: int = 2
    num_env_runners: int = 1
    num_envs_per_env_runner: int = 1

    def validate(self) -> None:
        _positive("num_cpus", self.num_cpus)
        _positive("num_envs_per_env_runner", self.num_envs_per_env_runner)
        if self.num_env_runners < 0:
            raise ValueError(f"num_env_runners must be 0 or more, got {self.num_env_runners!r}")


@dataclass(frozen=True)
class RLlibEvalSection:
    """At every exported checkpoint and at the end: ``games`` games (seats rotated) of the
    exported policy against ``num_players - 1`` copies of each opponent, into ``eval.csv``
    and the learning curve (``games: 0``: no evaluation)."""

    games: int = 16
    opponents: list[str] = field(default_factory=lambda: ["random"])

    def validate(self) -> None:
        if self.games < 0:
            raise ValueError(f"games must be 0 or more, got {self.games!r}")
        for o in self.opponents:
            _bot_spec("opponents", o, allow=("random", "heuristic"))


@dataclass(frozen=True)
class RLlibConfig:
    seed: int = 0
    out: str = "runs/rllib_quick"
    checkpoint_every: int = 10  # training iterations between exported policies
    time_limit_minutes: float | None = None
    # torch threads of the driver, where PPO's update runs (small MLPs: one thread is fastest,
    # and far faster than two on a busy machine); env runners get one CPU each from Ray
    torch_threads: int = 1
    env: RLlibEnvSection = field(default_factory=RLlibEnvSection)
    opponents: OpponentsSection = field(default_factory=OpponentsSection)
    ppo: RLlibPPOSection = field(default_factory=RLlibPPOSection)
    ray: RaySection = field(default_factory=RaySection)
    eval: RLlibEvalSection = field(default_factory=RLlibEvalSection)

    def validate(self) -> None:
        _positive("checkpoint_every", self.checkpoint_every)
        _positive("torch_threads", self.torch_threads)
        if self.time_limit_minutes is not None and self.time_limit_minutes <= 0:
            raise ValueError("time_limit_minutes must be positive or null")
        if self.opponents.bot_seats >= self.env.num_players:
            raise ValueError(
                f"opponents.bot_seats ({self.opponents.bot_seats}) must leave a seat for the "
                f"policy: at most {self.env.num_players - 1} with {self.env.num_players} players"
            )

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def env_config(self) -> dict[str, Any]:
        """RLlib's ``env_config`` for :class:`training.rllib.env.NantyMultiAgentEnv`."""
        e = self.env
        return {
            "num_players": e.num_players,
            "expansion": e.expansion,
            "content": e.content,
            "personalities": e.personalities,
            "thresholds": e.thresholds,
            "reward_mode": e.reward_mode,
            "shaping": e.shaping,
            "bot_seats": self.opponents.bot_seats,
            "bot_pool": dict(self.opponents.pool),
        }


def load_rllib_config(path: str | Path, **overrides: Any) -> RLlibConfig:
    """Read and validate an RLlib config; ``overrides`` as in
    :func:`training.config.load_config` (``{"ray.num_env_runners": 2}``; ``None`` skipped)."""
    return read_config(RLlibConfig, path, overrides)
