"""A leaner masked policy for ``MaskablePPO`` and a callback that gives the update more threads.

sb3-contrib's ``MaskableCategorical`` normalises its logits three times per forward pass (once
unmasked, once to clear the mask, once masked) and lets torch validate the arguments each time;
with 405 actions that costs more than the network itself in a rollout step. The lean
distribution here computes exactly the same probabilities, log-probabilities, entropies and
samples, normalising once unmasked and once masked, without argument validation (the masks come
from the environment and always allow at least one action).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

import numpy as np
import torch as th
from sb3_contrib.common.maskable.distributions import (
    MaskableCategorical,
    MaskableCategoricalDistribution,
)
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.callbacks import BaseCallback
from torch.distributions import Categorical

MASKED_LOGIT = -1e8  # the value sb3-contrib gives masked logits


class LeanMaskableCategorical(MaskableCategorical):
    """``MaskableCategorical`` with the same results and fewer normalisations."""

    def __init__(self, logits: th.Tensor, masks: np.ndarray | th.Tensor | None = None) -> None:
        self._original_logits = logits
        self.apply_masking(masks)

    def apply_masking(self, masks: np.ndarray | th.Tensor | None) -> None:
        logits = self._original_logits
        if masks is None:
            self.masks = None
        else:
            self.masks = th.as_tensor(masks, dtype=th.bool, device=logits.device).reshape(
                logits.shape
            )
            logits = logits.masked_fill(~self.masks, MASKED_LOGIT)
        self.__dict__.pop("probs", None)  # a lazily computed property of the old logits
        Categorical.__init__(self, logits=logits, validate_args=False)


class LeanMaskableCategoricalDistribution(MaskableCategoricalDistribution):
    def proba_distribution(self, action_logits: th.Tensor) -> LeanMaskableCategoricalDistribution:
        self.distribution = LeanMaskableCategorical(action_logits.view(-1, self.action_dim))
        return self


class LeanMaskablePolicy(MaskableActorCriticPolicy):
    """``MaskableActorCriticPolicy`` ("MlpPolicy") with the lean masked distribution; the
    networks and their parameters are the same."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.action_dist = LeanMaskableCategoricalDistribution(int(self.action_space.n))


class HintedMaskablePolicy(LeanMaskablePolicy):
    """A residual policy on top of a scripted bot: the last ``action_space.n`` observation
    entries are the bot's suggested action, one-hot (``NantySingleAgentEnv(hint=...)``,
    ``PolicyBot`` builds them the same way), and ``hint_weight`` (learned, starting at
    ``hint_weight``) times that one-hot is added to the network's action logits. The network
    sees the suggestion too, so it can learn where to deviate from it.

    Args:
        hint_bot: the bot spec that makes the suggestions (kept with the checkpoint, so a
            loaded model knows which bot to consult).
        hint_weight: the initial weight of the suggestion in the logits.
    """

    def __init__(
        self, *args: Any, hint_bot: str = "heuristic", hint_weight: float = 3.0, **kwargs: Any
    ) -> None:
        self.hint_bot = hint_bot
        self.hint_weight_init = float(hint_weight)
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule: Any) -> None:
        # before the optimiser is made, so that it trains the weight too
        self.hint_weight = th.nn.Parameter(th.tensor(self.hint_weight_init))
        super()._build(lr_schedule)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        return super()._get_constructor_parameters() | {
            "hint_bot": self.hint_bot,
            "hint_weight": self.hint_weight_init,
        }

    def _take_hint(self, obs: th.Tensor) -> None:
        self._hint = obs[..., -int(self.action_space.n) :].float()

    def _get_action_dist_from_latent(self, latent_pi: th.Tensor) -> Any:
        logits = self.action_net(latent_pi) + self.hint_weight * self._hint
        return self.action_dist.proba_distribution(action_logits=logits)

    def forward(self, obs: th.Tensor, *args: Any, **kwargs: Any) -> Any:
        self._take_hint(obs)
        return super().forward(obs, *args, **kwargs)

    def evaluate_actions(self, obs: th.Tensor, *args: Any, **kwargs: Any) -> Any:
        self._take_hint(obs)
        return super().evaluate_actions(obs, *args, **kwargs)

    def get_distribution(self, obs: th.Tensor, *args: Any, **kwargs: Any) -> Any:
        self._take_hint(obs)
        return super().get_distribution(obs, *args, **kwargs)


def _cap(threads: int) -> int:
    return max(1, min(threads, os.cpu_count() or 1))


@contextlib.contextmanager
def torch_threads(threads: int) -> Iterator[None]:
    """Run the block with ``threads`` torch threads (capped at the machine's cores)."""
    before = th.get_num_threads()
    th.set_num_threads(_cap(threads))
    try:
        yield
    finally:
        th.set_num_threads(before)


class UpdateThreads(BaseCallback):
    """Torch threads: ``update`` while PPO updates the networks (the environment's worker
    processes are idle then), ``rollout`` while it collects experience."""

    def __init__(self, update: int, rollout: int = 1) -> None:
        super().__init__()
        self.update = _cap(update)
        self.rollout = rollout

    def _on_rollout_start(self) -> None:
        th.set_num_threads(self.rollout)

    def _on_rollout_end(self) -> None:
        th.set_num_threads(self.update)

    def _on_step(self) -> bool:
        return True

    def _on_training_end(self) -> None:
        th.set_num_threads(self.rollout)
