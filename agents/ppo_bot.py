"""``ppo``: the shipped PPO policy for the game's player count.

A policy network alone (the seat's encoded view in, a masked action out; no hint input, no
look-ahead, no search), trained by ``nanty train --config configs/ppo_<N>p.yaml`` (behaviour
cloning of the hint bot, then league PPO: docs/training.md) and shipped as
``agents/data/ppo_<N>p.json`` + ``.safetensors``. ``nanty eval --bots ppo`` plays it;
``--checkpoint PATH`` plays your own run instead.
"""

from __future__ import annotations

from agents.checkpoint import PolicyCheckpoint
from agents.shipped import ShippedPolicyBot, shipped_policy_file


def ppo_stem(players: int) -> str:
    """The shipped checkpoint's file stem (in ``agents/data``) for a player count."""
    return f"ppo_{players}p"


def shipped_ppo(players: int) -> PolicyCheckpoint:
    """The shipped PPO policy for ``players``, loaded and checked once per process."""
    return shipped_policy_file(
        ppo_stem(players),
        players,
        "PPO",
        f"Train one with nanty train --config configs/ppo_{players}p.yaml, then copy its "
        f"model.json and model.safetensors to agents/data/{ppo_stem(players)}.*",
    )


class PPOBot(ShippedPolicyBot):
    """The shipped PPO policy network for the game's player count.

    Args:
        deterministic: the most likely action (default); 0: sample from the policy.
    """

    name = "ppo"

    def policy_for(self, players: int) -> PolicyCheckpoint:
        return shipped_ppo(players)
