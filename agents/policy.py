"""Play a trained policy: a nanty-policy checkpoint (``agents/checkpoint.py``) behind the Bot
protocol, with numpy only.

The observation is the environment's own encoding of the seat's view
(``nanty_env.encoding.observation.encode_view``; for a policy trained on the expansion,
``nanty_env.encoding.cthulhu_observation.encode_view``; the checkpoint records which) and the
action mask is the view's legal actions over the ruleset's flat action space, so the bot sees
exactly what the policy saw in training. A residual policy (``hint`` in the checkpoint) also
gets its scripted bot's suggestion, from a copy of that bot seated in the same seat and seeing
the same view, as in training.

Masking follows sb3-contrib (illegal logits set to -1e8, then a float32 softmax), so greedy
choices and sampling probabilities are those of the torch policy the checkpoint came from.
An SB3 ``.zip`` is opened only with ``trust=True`` (``--trust-checkpoint``): SB3 unpickles it,
and a crafted file runs code.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import BaseBot, View
from agents.checkpoint import (
    TRUST_HINT,
    CheckpointError,
    PolicyCheckpoint,
    is_policy_checkpoint,
    load_policy,
)
from nanty_env.encoding.observation import encode_view, legal_mask, with_hint
from nanty_env.encoding.rulesets import ruleset_spec, spec_for_encoder
from nanty_env.engine import NUM_ACTIONS

MASKED_LOGIT = np.float32(-1e8)  # what sb3-contrib gives illegal actions


def action_mask(legal_actions: Sequence[int], num_actions: int = NUM_ACTIONS) -> np.ndarray:
    """The legal actions as a boolean mask over an action space of ``num_actions`` (the
    ruleset's; the env's own builder)."""
    return legal_mask(legal_actions, num_actions).astype(bool)


def masked_probabilities(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """sb3-contrib's masked categorical in float32: illegal logits -1e8, then softmax."""
    z = np.where(mask, logits.astype(np.float32, copy=False), MASKED_LOGIT)
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def policy_ruleset(policy: PolicyCheckpoint) -> str | None:
    """The ruleset a checkpoint was trained on (``None``: the base game): its observation's
    encoder names it (checkpoints from before the expansion name the base game's)."""
    obs = policy.meta["observation"]
    spec = spec_for_encoder(obs.get("encoder", "nanty_env.observation.encode_view"))
    if spec is None:
        raise CheckpointError(f"observations from {obs['encoder']!r}, which no ruleset encodes")
    return spec.expansion


def load_for_env(path: str | Path, *, trust: bool = False) -> PolicyCheckpoint:
    """A policy checkpoint checked against the observation (size, layout, hint) and action
    space of the ruleset it was trained on (the base game or an expansion); an SB3 ``.zip``
    only with ``trust``."""
    if not Path(path).exists() and not is_policy_checkpoint(path):
        raise CheckpointError(
            f"checkpoint {path} not found (give a run folder, NAME.json or NAME.safetensors)"
        )
    if Path(path).suffix == ".zip":
        if not trust:
            raise CheckpointError(f"{path}: refusing to open an SB3 .zip. {TRUST_HINT}")
        from agents.sb3_export import load_trusted_zip

        policy = load_trusted_zip(path)
    else:
        policy = load_policy(path)
    try:
        spec = ruleset_spec(policy_ruleset(policy))
    except CheckpointError as e:
        raise CheckpointError(f"{path}: {e}") from None
    if policy.num_actions != spec.num_actions:
        raise CheckpointError(
            f"{path}: the policy has {policy.num_actions} actions, {spec.name} has "
            f"{spec.num_actions}"
        )
    obs = policy.meta["observation"]
    want = spec.obs_size + (spec.num_actions if policy.hint_bot is not None else 0)
    if policy.observation_size != want:
        raise CheckpointError(
            f"{path}: the policy takes observations of size {policy.observation_size}, this "
            f"environment's encoder makes {want} (another observation layout or hint setting)"
        )
    layout = obs.get("layout")
    if layout is not None and layout != spec.layout_digest:
        raise CheckpointError(
            f"{path}: trained on another observation layout (digest {layout}, this "
            f"environment's is {spec.layout_digest})"
        )
    return policy


class PolicyBot(BaseBot):
    """Chooses with a trained policy.

    Args:
        path: the checkpoint (``NAME``, ``NAME.json`` or a training run's folder; an SB3
            ``.zip`` only with ``trust``).
        deterministic: take the most likely action (default); otherwise sample from the
            masked policy distribution with the bot's ``rng`` (reproducible).
        policy: an already loaded :class:`PolicyCheckpoint` (then ``path`` is ignored).
        trust: allow opening an SB3 ``.zip`` (it can run code: only for files you trust).
    """

    name = "policy"

    def __init__(
        self,
        path: str | Path | None = None,
        deterministic: bool | int = True,
        policy: PolicyCheckpoint | None = None,
        trust: bool | int = False,
    ) -> None:
        super().__init__()
        if policy is None:
            if path is None:
                raise ValueError("PolicyBot needs a checkpoint path (policy:path=...)")
            policy = load_for_env(path, trust=bool(trust))
        self.policy = policy
        self.deterministic = bool(deterministic)
        self.expansion = policy_ruleset(policy)
        self.ruleset = ruleset_spec(self.expansion)
        self.num_actions = self.ruleset.num_actions
        self.encode = encode_view if self.expansion is None else self._encode_expansion
        self.hinter = None
        if policy.hint_bot is not None:  # text from a file: a shipped bot, bounded options
            from agents.registry import make_untrusted_bot

            self.hinter = make_untrusted_bot(policy.hint_bot)
        self.observes = bool(getattr(self.hinter, "observes", False))

    def reset(self, seat: int, config: Any) -> None:
        if config.expansion != self.expansion:
            raise ValueError(
                f"this policy was trained on {self.ruleset.name}; the game is "
                f"{'the ' + config.expansion + ' expansion' if config.expansion else 'the base game'}"
            )
        super().reset(seat, config)
        if self.hinter is not None:
            self.hinter.reset(seat, config)

    def _encode_expansion(self, view: View) -> np.ndarray:
        return self.ruleset.encode_view(view, self.config_for(view))

    def observe(self, view: View) -> None:
        if self.observes:
            self.hinter.observe(view)

    def observation(
        self, view: View, legal_actions: Sequence[int], rng: np.random.Generator
    ) -> np.ndarray:
        """The policy's input: the encoded view (and the hint bot's suggestion, one-hot)."""
        obs = self.encode(view)
        if self.hinter is None:
            return obs
        hint = int(self.hinter.act(view, legal_actions, rng))
        return with_hint(obs, hint, self.num_actions)

    def probabilities(
        self, view: View, legal_actions: Sequence[int], rng: np.random.Generator | None = None
    ) -> np.ndarray:
        """The masked policy's distribution over the whole action space (``rng`` is only
        used by a hint bot; default: a fixed one)."""
        rng = np.random.default_rng(0) if rng is None else rng
        return self._probabilities(self.observation(view, legal_actions, rng), legal_actions)

    def _probabilities(self, obs: np.ndarray, legal_actions: Sequence[int]) -> np.ndarray:
        mask = action_mask(legal_actions, self.num_actions)
        probs = masked_probabilities(self.policy.logits(obs), mask).astype(np.float64)
        probs = np.where(mask, probs, 0.0)
        total = probs.sum()
        return probs / total if total > 0 else mask / mask.sum()

    def greedy(self, obs: np.ndarray, legal_actions: Sequence[int]) -> int:
        """The most likely legal action (ties: the lowest index, as torch's argmax)."""
        mask = action_mask(legal_actions, self.num_actions)
        return int(np.argmax(masked_probabilities(self.policy.logits(obs), mask)))

    def act(self, view: View, legal_actions: Sequence[int], rng: np.random.Generator) -> int:
        if len(legal_actions) == 1:
            return int(legal_actions[0])
        obs = self.observation(view, legal_actions, rng)
        if self.deterministic:
            a = self.greedy(obs, legal_actions)
            if a in legal_actions:
                return a
        p = self._probabilities(obs, legal_actions)
        return int(rng.choice(self.num_actions, p=p))
