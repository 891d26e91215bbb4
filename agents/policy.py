"""Play a trained policy: a MaskablePPO (sb3-contrib) checkpoint behind the Bot protocol.

The observation is the environment's own encoding of the seat's view
(``nanty_env.observation.encode_view``) and the action mask is the view's legal actions over
the flat action space, so the bot sees exactly what the policy saw in training. A residual
policy (``HintedMaskablePolicy``) also gets its scripted bot's suggestion, from a copy of that
bot seated in the same seat and seeing the same view, as in training. Both torch and the
observation module are imported lazily: the rest of ``agents`` works without them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import BaseBot, View
from nanty_env.engine.actions import NUM_ACTIONS


def _encoder() -> Callable[[View], np.ndarray]:
    try:
        from nanty_env.observation import encode_view
    except ImportError as e:  # pragma: no cover - depends on the env package being present
        raise ImportError(
            "PolicyBot needs nanty_env.observation.encode_view (the environment's encoder)"
        ) from e
    return encode_view


def action_mask(legal_actions: Sequence[int]) -> np.ndarray:
    mask = np.zeros(NUM_ACTIONS, dtype=bool)
    mask[list(legal_actions)] = True
    return mask


class PolicyBot(BaseBot):
    """Chooses with a trained MaskablePPO policy.

    Args:
        path: the checkpoint (``.zip`` written by ``model.save``).
        deterministic: take the most likely action (default); otherwise sample from the
            masked policy distribution with the bot's ``rng`` (reproducible).
        model: an already loaded model (then ``path`` is ignored).
        device: torch device for loading.
    """

    name = "policy"

    def __init__(
        self,
        path: str | Path | None = None,
        deterministic: bool | int = True,
        model: Any = None,
        device: str = "cpu",
    ) -> None:
        super().__init__()
        if model is None:
            if path is None:
                raise ValueError("PolicyBot needs a checkpoint path (policy:path=...)")
            path = Path(path)
            if not path.is_file() and not path.with_name(path.name + ".zip").is_file():
                raise FileNotFoundError(f"checkpoint {path} not found")
            from sb3_contrib import MaskablePPO

            model = MaskablePPO.load(str(path), device=device)
        self.model = model
        self.deterministic = bool(deterministic)
        self.encode = _encoder()
        hint_bot = getattr(model.policy, "hint_bot", None)
        self.hinter = None
        if hint_bot is not None:
            from agents.registry import make_bot

            self.hinter = make_bot(hint_bot)
        self.observes = bool(getattr(self.hinter, "observes", False))

    def reset(self, seat: int, config: Any) -> None:
        super().reset(seat, config)
        if self.hinter is not None:
            self.hinter.reset(seat, config)

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
        from nanty_env.observation import with_hint

        return with_hint(obs, int(self.hinter.act(view, legal_actions, rng)))

    def probabilities(
        self, view: View, legal_actions: Sequence[int], rng: np.random.Generator | None = None
    ) -> np.ndarray:
        """The masked policy's distribution over the whole action space (``rng`` is only
        used by a hint bot; default: a fixed one)."""
        rng = np.random.default_rng(0) if rng is None else rng
        return self._probabilities(self.observation(view, legal_actions, rng), legal_actions)

    def _probabilities(self, obs: np.ndarray, legal_actions: Sequence[int]) -> np.ndarray:
        import torch

        mask = action_mask(legal_actions)
        policy = self.model.policy
        obs_t, _ = policy.obs_to_tensor(obs)
        with torch.no_grad():
            dist = policy.get_distribution(obs_t, action_masks=mask[None, :])
            probs = dist.distribution.probs[0].cpu().numpy().astype(np.float64)
        probs = np.where(mask, probs, 0.0)
        total = probs.sum()
        return probs / total if total > 0 else mask / mask.sum()

    def act(self, view: View, legal_actions: Sequence[int], rng: np.random.Generator) -> int:
        if len(legal_actions) == 1:
            return int(legal_actions[0])
        obs = self.observation(view, legal_actions, rng)
        if self.deterministic:
            action, _ = self.model.predict(
                obs, action_masks=action_mask(legal_actions), deterministic=True
            )
            a = int(np.asarray(action).reshape(-1)[0])
            if a in legal_actions:
                return a
        p = self._probabilities(obs, legal_actions)
        return int(rng.choice(NUM_ACTIONS, p=p))
