"""An action-masking RLModule for RLlib's PPO (new API stack) that reads our observation dict.

The env's observations are ``{"observation": vector, "action_mask": 0/1 vector}`` (the
PettingZoo keys); the module feeds ``observation`` to two plain MLPs (actor: one logit per
action; critic: one value) and pushes the logits of illegal actions to the float minimum, so
illegal actions get probability 0 in sampling, greedy play and the PPO loss alike. Keeping the
actor a plain ``Linear``/activation stack is what lets :mod:`training.rllib.export` write it as
a "nanty-policy" checkpoint that plays without torch or Ray.

``model_config``: ``hidden`` (layer widths, default ``[256, 256]``) and ``activation``
(``"tanh"`` or ``"relu"``, default ``"tanh"``).
"""

from __future__ import annotations

import itertools
from typing import Any

import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.torch import TorchRLModule
from torch import nn

ACTIVATIONS: dict[str, type[nn.Module]] = {"tanh": nn.Tanh, "relu": nn.ReLU}


def mlp(sizes: list[int], activation: str) -> nn.Sequential:
    """``Linear`` layers of ``sizes`` with ``activation`` between them (none after the last)."""
    layers: list[nn.Module] = []
    for i, (a, b) in enumerate(itertools.pairwise(sizes)):
        layers.append(nn.Linear(a, b))
        if i < len(sizes) - 2:
            layers.append(ACTIVATIONS[activation]())
    return nn.Sequential(*layers)


class MaskedMLPModule(TorchRLModule, ValueFunctionAPI):
    """Separate actor and critic MLPs over ``obs["observation"]``; logits masked by
    ``obs["action_mask"]``."""

    def setup(self) -> None:
        cfg = self.model_config or {}
        hidden = list(cfg.get("hidden", [256, 256]))
        self.activation = cfg.get("activation", "tanh")
        if self.activation not in ACTIVATIONS:
            raise ValueError(f"activation must be one of {list(ACTIVATIONS)}")
        size = int(self.observation_space["observation"].shape[0])
        actions = int(self.action_space.n)
        self.actor = mlp([size, *hidden, actions], self.activation)
        self.critic = mlp([size, *hidden, 1], self.activation)
        last = self.actor[-1]
        nn.init.orthogonal_(last.weight, gain=0.01)  # near-uniform over legal actions at first
        nn.init.zeros_(last.bias)

    def _logits(self, batch: dict[str, Any]) -> torch.Tensor:
        obs = batch[Columns.OBS]
        logits = self.actor(obs["observation"])
        illegal = obs["action_mask"] <= 0
        return logits.masked_fill(illegal, torch.finfo(logits.dtype).min)

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return {Columns.ACTION_DIST_INPUTS: self._logits(batch)}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return {Columns.ACTION_DIST_INPUTS: self._logits(batch)}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        return self.critic(batch[Columns.OBS]["observation"]).squeeze(-1)
