"""A leaner masked policy for ``MaskablePPO`` and a callback that gives the update more threads.

sb3-contrib's ``MaskableCategorical`` normalises its logits twice per forward pass (once
unmasked, then again after setting the masked logits to -1e8), each time with ``logsumexp``,
and lets torch validate the arguments. With 405 actions, most of them masked, that costs more
than the network: ``exp`` of -1e8 leaves the vectorised fast path (about 8x slower per element
on this CPU), in the forward pass and again in the backward one. The lean distribution here
computes the same probabilities, log-probabilities, entropies and samples from the same masked
logits, normalised once, lazily, by ``log_softmax`` (whose kernel stays fast), without argument
validation (the masks come from the environment and always allow at least one action).

In an update, :meth:`LeanMaskablePolicy.evaluate_actions` computes the action head and the
distribution only on the actions legal somewhere in the minibatch (about half of the 405 in a
minibatch of 512): the other logits are masked in every row, so they change no probability,
log-probability or entropy and receive no gradient.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import torch as th
import torch.nn.functional as F
from sb3_contrib.common.maskable.distributions import (
    MaskableCategorical,
    MaskableCategoricalDistribution,
)
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.callbacks import BaseCallback
from torch.distributions import Distribution
from torch.distributions.utils import lazy_property

from nanty_env.vector.balance import FasterMode
from training.sparse_input import InputMajorAdam, SparseInputMlpExtractor, match_state_layouts

MASKED_LOGIT = -1e8  # the value sb3-contrib gives masked logits


class LeanMaskableCategorical(MaskableCategorical):
    """``MaskableCategorical`` with the same results, normalised once and only when used."""

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
        for lazy in ("probs", "logits"):  # computed from the previous masks
            self.__dict__.pop(lazy, None)
        self._masked_logits = logits
        self._param = logits  # shape, dtype and device only (``Categorical._new``)
        self._num_events = logits.size(-1)
        Distribution.__init__(self, logits.shape[:-1], validate_args=False)

    @lazy_property
    def logits(self) -> th.Tensor:
        """The masked logits, normalised (log-probabilities)."""
        return self._masked_logits.log_softmax(-1)

    @lazy_property
    def probs(self) -> th.Tensor:
        return self._masked_logits.softmax(-1)


class LeanMaskableCategoricalDistribution(MaskableCategoricalDistribution):
    def proba_distribution(self, action_logits: th.Tensor) -> LeanMaskableCategoricalDistribution:
        self.distribution = LeanMaskableCategorical(action_logits.view(-1, self.action_dim))
        return self


class LeanMaskablePolicy(MaskableActorCriticPolicy):
    """``MaskableActorCriticPolicy`` ("MlpPolicy") with the lean masked distribution, a first
    layer that reads only the nonzero inputs (``training.sparse_input``), an update that
    computes the action head only on the minibatch's legal actions (``evaluate_actions``) and
    torch's fused Adam (one kernel for all parameters instead of a dozen per tensor; the same
    update rule and sb3's ``eps``), stepping the input-major first weights as their contiguous
    transposes (``InputMajorAdam``). The networks, their parameters and initialisation, the
    losses and the checkpoints are the same as the stock policy's."""

    def __init__(
        self,
        *args: Any,
        optimizer_class: type[th.optim.Optimizer] = InputMajorAdam,
        optimizer_kwargs: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        if optimizer_class is th.optim.Adam:  # the same rule, faster on input-major weights
            optimizer_class = InputMajorAdam
        if optimizer_kwargs is None and optimizer_class is InputMajorAdam:
            optimizer_kwargs = {"eps": 1e-5, "fused": True}  # sb3's default eps for Adam
        super().__init__(
            *args, optimizer_class=optimizer_class, optimizer_kwargs=optimizer_kwargs, **kwargs
        )
        self.action_dist = LeanMaskableCategoricalDistribution(int(self.action_space.n))

    def _action_logits(self, latent_pi: th.Tensor, columns: th.Tensor | None = None) -> th.Tensor:
        """The action head's logits: of every action, or of the actions ``columns`` only."""
        if columns is None:
            return self.action_net(latent_pi)
        weight, bias = self.action_net.weight, self.action_net.bias
        return F.linear(latent_pi, weight.index_select(0, columns), bias.index_select(0, columns))

    def _get_action_dist_from_latent(self, latent_pi: th.Tensor) -> Any:
        return self.action_dist.proba_distribution(action_logits=self._action_logits(latent_pi))

    def evaluate_actions(
        self, obs: th.Tensor, actions: th.Tensor, action_masks: np.ndarray | th.Tensor | None = None
    ) -> tuple[th.Tensor, th.Tensor, th.Tensor | None]:
        """sb3-contrib's ``evaluate_actions`` (values, log-probabilities of ``actions``,
        entropies), with the head and the distribution on the actions that ``action_masks``
        allow in some row, and on ``actions`` (see the module docstring)."""
        if action_masks is None:
            return super().evaluate_actions(obs, actions, action_masks)
        values, distribution, log_prob, _ = self._evaluate(obs, actions, action_masks)
        return values, log_prob, distribution.entropy()

    def evaluate_imitation(
        self, obs: th.Tensor, actions: th.Tensor, action_masks: np.ndarray, targets: np.ndarray
    ) -> tuple[th.Tensor, th.Tensor, th.Tensor]:
        """For behaviour cloning, from one forward pass: the values, the log-probabilities of
        ``actions`` and the mean cross-entropy of the masked policy against ``targets`` (rows
        of probabilities over every action, zero where the row's mask forbids)."""
        values, distribution, log_prob, columns = self._evaluate(obs, actions, action_masks)
        q = th.as_tensor(targets, device=self.device).index_select(1, columns)
        return values, log_prob, -(q * distribution.logits).sum(dim=1).mean()

    def _evaluate(
        self, obs: th.Tensor, actions: th.Tensor, action_masks: np.ndarray | th.Tensor
    ) -> tuple[th.Tensor, LeanMaskableCategorical, th.Tensor, th.Tensor]:
        """The values, the masked distribution on ``columns`` (the actions legal in some row,
        and ``actions``), the log-probabilities of ``actions`` and ``columns``."""
        masks = th.as_tensor(action_masks, dtype=th.bool, device=self.device)
        masks = masks.reshape(-1, int(self.action_space.n))
        features = self.extract_features(obs)
        if self.share_features_extractor:
            latent_pi, latent_vf = self.mlp_extractor(features)
        else:
            pi_features, vf_features = features
            latent_pi = self.mlp_extractor.forward_actor(pi_features)
            latent_vf = self.mlp_extractor.forward_critic(vf_features)
        actions = actions.long().reshape(-1)
        wanted = masks.any(0)
        wanted[actions] = True  # an action masked in its row keeps the stock result (about -1e8)
        columns = wanted.nonzero().squeeze(1)
        position = th.full((masks.shape[1],), -1, dtype=th.long, device=self.device)
        position[columns] = th.arange(len(columns), device=self.device)
        distribution = LeanMaskableCategorical(
            self._action_logits(latent_pi, columns), masks.index_select(1, columns)
        )
        log_prob = distribution.log_prob(position[actions])
        return self.value_net(latent_vf), distribution, log_prob, columns

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        self.optimizer.register_load_state_dict_post_hook(match_state_layouts)

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = SparseInputMlpExtractor(
            self.features_dim,
            net_arch=self.net_arch,
            activation_fn=self.activation_fn,
            device=self.device,
        )


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

    def _action_logits(self, latent_pi: th.Tensor, columns: th.Tensor | None = None) -> th.Tensor:
        hint = self._hint if columns is None else self._hint.index_select(-1, columns)
        return super()._action_logits(latent_pi, columns) + self.hint_weight * hint

    def forward(self, obs: th.Tensor, *args: Any, **kwargs: Any) -> Any:
        self._take_hint(obs)
        return super().forward(obs, *args, **kwargs)

    def evaluate_actions(self, obs: th.Tensor, *args: Any, **kwargs: Any) -> Any:
        self._take_hint(obs)
        return super().evaluate_actions(obs, *args, **kwargs)

    def evaluate_imitation(self, obs: th.Tensor, *args: Any, **kwargs: Any) -> Any:
        self._take_hint(obs)
        return super().evaluate_imitation(obs, *args, **kwargs)

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
    processes are idle then), ``rollout`` while it collects experience.

    With ``adapt`` (and more than one update thread), every update is timed and
    :class:`~nanty_env.vector.balance.FasterMode` keeps ``update`` threads or one, whichever is
    measured faster (several must win by 3 %; the other is timed again every 8 updates, or every 32
    when the two are far apart): on free cores two threads make an update about 1.5x faster, but
    beside another job they wait for each other's core and can make it slower than one. The
    threads in use are logged as ``train/update_threads``. Off by default: the thread count
    changes the float rounding of an update, so two runs of one seed stay bit-for-bit the same
    only while their choices are.
    """

    def __init__(self, update: int, rollout: int = 1, adapt: bool = False) -> None:
        super().__init__()
        self.update = _cap(update)
        self.rollout = rollout
        self.chooser = FasterMode("several", "one") if adapt and self.update > 1 else None
        self._update_started: float | None = None

    @property
    def update_threads(self) -> int:
        """The threads the next update runs on."""
        return 1 if self.chooser is not None and self.chooser.mode == "one" else self.update

    def _update_done(self) -> None:
        if self._update_started is not None and self.chooser is not None:
            self.chooser.record(time.perf_counter() - self._update_started)
        self._update_started = None

    def _on_rollout_start(self) -> None:
        self._update_done()
        th.set_num_threads(self.rollout)

    def _on_rollout_end(self) -> None:
        threads = self.update_threads
        th.set_num_threads(threads)
        self.logger.record("train/update_threads", threads)
        self._update_started = time.perf_counter()

    def _on_step(self) -> bool:
        return True

    def _on_training_end(self) -> None:
        self._update_done()  # the last update; a later learn() call times its own
        th.set_num_threads(self.rollout)
