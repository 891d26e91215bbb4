"""Export the actor (and critic) of a trained :class:`~training.rllib.module.MaskedMLPModule`
as a "nanty-policy" checkpoint (``NAME.json`` + ``NAME.safetensors``), which
``nanty eval --checkpoint NAME.json`` plays with numpy only (``agents.policy.PolicyBot``).

The module's networks are plain ``Linear``/activation stacks, so the export is a list of layers
read in order; masking stays in the bot, as in training.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from torch import nn

from nanty_env.encoding.rulesets import ruleset_spec

ACTIVATION_NAMES = {nn.Tanh: "tanh", nn.ReLU: "relu"}


def mlp_layers(net: nn.Sequential, prefix: str) -> tuple[list[dict[str, str]], dict[str, Any]]:
    """The checkpoint's layer list and tensors of ``net`` (Linear, activation, ..., Linear)."""
    layers: list[dict[str, str]] = []
    tensors: dict[str, np.ndarray] = {}
    modules = list(net)
    for i, m in enumerate(modules):
        if not isinstance(m, nn.Linear):
            if type(m) not in ACTIVATION_NAMES:
                raise ValueError(f"cannot export {type(m).__name__} (only Linear, Tanh, ReLU)")
            continue
        after = modules[i + 1] if i + 1 < len(modules) else None
        activation = "none" if after is None else ACTIVATION_NAMES[type(after)]
        w, b = f"{prefix}.{i}.weight", f"{prefix}.{i}.bias"
        tensors[w] = m.weight.detach().cpu().numpy().astype(np.float32)
        tensors[b] = m.bias.detach().cpu().numpy().astype(np.float32)
        layers.append({"weight": w, "bias": b, "activation": activation})
    return layers, tensors


def export_module(
    module: Any,
    path: str | Path,
    *,
    env: Mapping[str, Any],
    trained_with: Mapping[str, Any],
) -> Path:
    """Write ``module``'s actor and critic as a nanty-policy checkpoint at ``path`` (``NAME``,
    or ``NAME.json``); returns the JSON path. The observation is ``env["expansion"]``'s
    (the base game's without it): its encoder's name and layout digest are recorded, which
    ``PolicyBot`` checks."""
    actor, actor_tensors = mlp_layers(module.actor, "actor")
    value, value_tensors = mlp_layers(module.critic, "value")
    spec = ruleset_spec(env.get("expansion"))
    meta = {
        "actor": actor,
        "value": value,
        "observation": spec.checkpoint_observation(spec.obs_size, hint=False),
        "num_actions": int(module.action_space.n),
        "env": dict(env),
        "trained_with": {"library": "rllib", **trained_with},
    }
    from agents.checkpoint import save_policy

    return save_policy(path, actor_tensors | value_tensors, meta)
