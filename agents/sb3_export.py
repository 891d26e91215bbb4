"""SB3 ``MaskablePPO`` policies to and from the nanty-policy format (``agents/checkpoint.py``).

The exporter reads a policy's ``state_dict`` by name only (``mlp_extractor.policy_net.<i>``,
``action_net``, ``mlp_extractor.value_net.<i>``, ``value_net``, ``hint_weight``) plus its
``activation_fn``, observation space and ``hint_bot``, so it works for the stock
``MaskableActorCriticPolicy`` and for ``training.masked_policy``'s lean and residual policies
alike, however their forward passes are written. A policy whose parameters it cannot account
for (a features extractor with weights, shared layers, other heads) is refused by name rather
than exported wrongly.

:func:`load_trusted_zip` is the only place that opens an SB3 ``.zip``: SB3 unpickles parts of
it, which can run any code the file's author wrote, so callers reach it only behind an explicit
``--trust-checkpoint`` / ``trust=1``. torch and sb3-contrib are imported lazily.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from agents.checkpoint import CheckpointError, PolicyCheckpoint, build_policy, save_policy

ACTOR = "mlp_extractor.policy_net"
CRITIC = "mlp_extractor.value_net"
HEADS = {"action_net.weight", "action_net.bias", "value_net.weight", "value_net.bias"}
HINT = "hint_weight"
ACTIVATION_NAMES = {"Tanh": "tanh", "ReLU": "relu"}


def _ruleset(env: Mapping[str, Any], num_actions: int) -> str | None:
    """The ruleset a policy was trained on: its env settings say, else its action count."""
    if "expansion" in env:
        return env["expansion"]
    from nanty_env.engine import NUM_ACTIONS_CTHULHU

    return "cthulhu" if num_actions == NUM_ACTIONS_CTHULHU else None


def sb3_policy_checkpoint(
    policy: Any,
    *,
    env: Mapping[str, Any] | None = None,
    trained_with: Mapping[str, Any] | None = None,
) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The tensors and description of an SB3 (Maskable)ActorCriticPolicy (not yet written)."""
    state = {k: v.detach().cpu().numpy().copy() for k, v in policy.state_dict().items()}
    hidden = {k for k in state if _hidden(ACTOR).fullmatch(k) or _hidden(CRITIC).fullmatch(k)}
    unknown = sorted(set(state) - hidden - HEADS - {HINT})
    if unknown:
        raise CheckpointError(
            f"cannot export this policy: parameters {unknown[:4]} are not part of a plain "
            "MLP actor-critic (features extractor with weights, shared layers or other heads)"
        )
    activation = ACTIVATION_NAMES.get(getattr(policy, "activation_fn", type(None)).__name__)
    if activation is None:
        raise CheckpointError(
            f"cannot export activation {policy.activation_fn.__name__!r} "
            f"(supported: {sorted(ACTIVATION_NAMES)})"
        )
    size = int(np.prod(policy.observation_space.shape))
    hint_bot = getattr(policy, "hint_bot", None)
    from nanty_env.encoding.rulesets import ruleset_spec

    spec = ruleset_spec(_ruleset(env or {}, int(policy.action_space.n)))
    meta: dict[str, Any] = {
        "actor": _layers(state, ACTOR, activation, "action_net"),
        "value": _layers(state, CRITIC, activation, "value_net"),
        "observation": spec.checkpoint_observation(size, hint_bot is not None),
        "num_actions": int(policy.action_space.n),
        "env": dict(env or {}),
        "trained_with": {"library": "sb3", "policy": type(policy).__name__, **(trained_with or {})},
    }
    if hint_bot is not None:
        if HINT not in state:
            raise CheckpointError("a policy with a hint_bot but no hint_weight parameter")
        meta["hint"] = {"bot": str(hint_bot), "weight": HINT}
    elif HINT in state:
        raise CheckpointError("a policy with a hint_weight parameter but no hint_bot")
    return state, meta


def _hidden(prefix: str) -> re.Pattern:
    """The state_dict names of the hidden layers under ``prefix`` (index captured)."""
    return re.compile(re.escape(prefix) + r"\.(\d+)\.(weight|bias)")


def _layers(
    state: Mapping[str, np.ndarray], prefix: str, activation: str, head: str
) -> list[dict[str, str]]:
    """The hidden layers under ``prefix`` in index order, then the linear ``head``."""
    indices = sorted({int(m.group(1)) for k in state if (m := _hidden(prefix).fullmatch(k))})
    layers = [
        {"weight": f"{prefix}.{i}.weight", "bias": f"{prefix}.{i}.bias", "activation": activation}
        for i in indices
    ]
    layers.append({"weight": f"{head}.weight", "bias": f"{head}.bias", "activation": "none"})
    return layers


def export_sb3_policy(
    policy: Any,
    path: str | Path,
    *,
    env: Mapping[str, Any] | None = None,
    trained_with: Mapping[str, Any] | None = None,
) -> Path:
    """Write ``policy`` (an SB3 policy object, e.g. ``model.policy``) as a nanty-policy
    checkpoint at ``path`` (``NAME`` -> ``NAME.json`` + ``NAME.safetensors``); returns the
    JSON path."""
    tensors, meta = sb3_policy_checkpoint(policy, env=env, trained_with=trained_with)
    return save_policy(path, tensors, meta)


def policy_from_sb3(policy: Any, **kwargs: Any) -> PolicyCheckpoint:
    """A live SB3 policy as a (numpy) :class:`PolicyCheckpoint`, without writing files."""
    tensors, meta = sb3_policy_checkpoint(policy, **kwargs)
    return build_policy(
        {"format": "nanty-policy", "version": 1, **meta}, tensors, where=type(policy).__name__
    )


def load_trusted_zip(path: str | Path) -> PolicyCheckpoint:
    """Open an SB3 ``.zip`` **that you trust** (SB3 unpickles it: a crafted file runs code)
    and return its policy as a :class:`PolicyCheckpoint`."""
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(str(path), device="cpu")
    return policy_from_sb3(model.policy, trained_with={"converted_from": str(path)})
