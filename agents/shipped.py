"""Policy networks shipped in ``agents/data``, found by name and player count, never by path.

A shipped policy is a nanty-policy checkpoint (``<stem>.json`` + ``.safetensors``, read with
numpy: nothing is unpickled). :class:`ShippedPolicyBot` picks its network at ``reset``, when the
game's player count is known, so one spec (``ppo``, ``distilled:teacher=hint``) plays at every
player count a network is shipped for. Such specs carry no path, so they are safe in specs read
from files and the web (``agents.spec_limits``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from agents.base import BaseBot, View
from agents.checkpoint import CheckpointError, PolicyCheckpoint
from agents.policy import PolicyBot


@cache
def shipped_policy_file(stem: str, players: int, what: str, remedy: str) -> PolicyCheckpoint:
    """The shipped checkpoint ``agents/data/<stem>``, loaded and checked once per process
    (the checkpoint loader's checks, then the environment's), and trained for ``players``;
    ``what`` names it and ``remedy`` says how to make a missing one."""
    from agents.policy import load_for_env

    base = resources.files("agents") / "data"
    if not ((base / f"{stem}.json").is_file() and (base / f"{stem}.safetensors").is_file()):
        prefix = stem.rsplit("_", 1)[0] + "_"
        shipped = sorted(
            p.name.removesuffix(".json")
            for p in base.iterdir()
            if p.name.startswith(prefix) and p.name.endswith(".json")
        )
        raise CheckpointError(
            f"no {what} policy for {players} players is shipped (agents/data/{stem}.json); "
            f"shipped: {', '.join(shipped) or 'none'}. {remedy}"
        )
    policy = load_for_env(str(base / stem))
    trained = policy.meta.get("env", {}).get("num_players")
    if trained != players:
        raise CheckpointError(f"{stem}: trained for {trained} players, not {players}")
    return policy


class ShippedPolicyBot(PolicyBot):
    """A :class:`PolicyBot` on the shipped network for the game's player count
    (:meth:`policy_for`); base game only."""

    name = "shipped"

    def __init__(self, deterministic: bool | int = True) -> None:
        # the network is chosen at reset, when the player count is known
        BaseBot.__init__(self)
        self._base_kwargs = {"deterministic": deterministic}
        self.deterministic = bool(deterministic)
        self.policy = None  # type: ignore[assignment]
        self.hinter = None

    def policy_for(self, players: int) -> PolicyCheckpoint:
        raise NotImplementedError

    def describe(self) -> str:
        return self.name

    def reset(self, seat: int, config: Any) -> None:
        if config.expansion is not None:
            raise ValueError(
                f"{self.describe()} plays the base game only, not the {config.expansion} expansion"
            )
        policy = self.policy_for(config.num_players)
        if policy is not self.policy:
            PolicyBot.__init__(self, policy=policy, **self._base_kwargs)
        super().reset(seat, config)

    def act(self, view: View, legal_actions: Sequence[int], rng: np.random.Generator) -> int:
        if self.policy is None:
            raise RuntimeError(
                f"{type(self).__name__}.act before reset (the player count picks the network)"
            )
        return super().act(view, legal_actions, rng)


def check_shipped(specs: Sequence[str], players: int) -> None:
    """Load the shipped network of every spec in ``specs`` that plays one, for ``players``:
    a missing one is a :class:`CheckpointError` here, before any game or worker starts."""
    from agents.registry import make_bot

    for spec in dict.fromkeys(specs):
        bot = make_bot(spec)
        if isinstance(bot, ShippedPolicyBot):
            bot.policy_for(players)
