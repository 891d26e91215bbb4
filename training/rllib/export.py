"""Export the actor (and critic) of a trained :class:`~training.rllib.module.MaskedMLPModule`
as a "nanty-policy" checkpoint (``NAME.json`` + ``NAME.safetensors``), which
``nanty eval --checkpoint NAME.json`` plays with numpy only (``agents.policy.PolicyBot``).

The module's networks are plain ``Linear``/activation stacks, so the export is a list of layers
read in order; masking stays in the bot, as in training.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from torch import nn

from nanty_env.observation import OBS_SIZE

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
    or ``NAME.json``); returns the JSON path."""
    actor, actor_tensors = mlp_layers(module.actor, "actor")
    value, value_tensors = mlp_layers(module.critic, "value")
    meta = {
        "actor": actor,
        "value": value,
        "observation": {"size": OBS_SIZE, "hint": False},
        "num_actions": int(module.action_space.n),
        "env": dict(env),
        "trained_with": {"library": "rllib", **trained_with},
    }
    return write_policy(path, actor_tensors | value_tensors, meta)


def write_policy(path: str | Path, tensors: Mapping[str, np.ndarray], meta: dict) -> Path:
    """Write a nanty-policy checkpoint through ``agents.checkpoint.save_policy`` (validated,
    atomic), adding the observation encoder's name and layout digest when that code has them.

    Until ``agents/checkpoint.py`` is on this branch, the same two files are written here
    (tensors first, each file by temp file + rename). Reconcile: keep only the first branch.
    """
    try:
        from agents.checkpoint import save_policy
    except ImportError:
        save_policy = None
    try:
        from agents.sb3_export import ENCODER, observation_layout_digest

        meta["observation"] |= {"encoder": ENCODER, "layout": observation_layout_digest()}
    except ImportError:
        pass
    if save_policy is not None:
        return save_policy(path, tensors, meta)
    from safetensors.numpy import save

    p = Path(path)
    p = p.with_suffix("") if p.suffix in (".json", ".safetensors") else p
    meta_path, tensor_path = p.with_name(p.name + ".json"), p.with_name(p.name + ".safetensors")
    meta_path.parent.mkdir(parents=True, exist_ok=True)
    for target, data in (
        (tensor_path, save({k: np.ascontiguousarray(v) for k, v in tensors.items()})),
        (
            meta_path,
            (
                json.dumps({"format": "nanty-policy", "version": 1, **meta}, indent=1) + "\n"
            ).encode(),
        ),
    ):
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_bytes(data)
        tmp.replace(target)
    return meta_path
