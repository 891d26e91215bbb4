"""The first layer of the policy and value networks computed from the observation's nonzero
entries only.

Our observation has 1,162 inputs of which about 93 are nonzero (8 %): a dense first layer
multiplies mostly by zero, in the forward pass and again for the weight gradient, and that is
the largest single cost of a PPO update on our spaces. :class:`SparseInputMlpExtractor` is
stable-baselines3's ``MlpExtractor`` (the same modules, parameters, initialisation and
checkpoints) whose first ``Linear`` of the policy and of the value network reads only the
nonzero inputs: the rows of the (transposed) weight they select, summed with the inputs as
weights (``embedding_bag``), both networks in one pass; the weight gradient is the same sum the
other way round. The results equal the dense layer's up to float rounding (the terms are added
in another order; the zeros it skips add nothing). Batches that are not sparse (more than a
quarter of the entries nonzero) and inputs that need a gradient take the dense path.
"""

from __future__ import annotations

from typing import Any

import torch as th
import torch.nn.functional as F
from stable_baselines3.common.torch_layers import MlpExtractor
from torch import nn

MAX_DENSITY = 0.25  # above this share of nonzero inputs the dense product is as cheap


class _SparseRowsLinear(th.autograd.Function):
    """``x @ weight_t + bias`` from ``x``'s nonzero entries (``x`` needs no gradient)."""

    @staticmethod
    def forward(
        ctx: Any, x: th.Tensor, weight_t: th.Tensor, bias: th.Tensor, flat: th.Tensor
    ) -> th.Tensor:  # weight_t: (in, out), contiguous; flat: x's nonzero flat indices
        n_in = weight_t.shape[0]
        rows, cols = flat // n_in, flat % n_in  # row-major: one bag per row
        vals = x.reshape(-1).index_select(0, flat)
        counts = th.bincount(rows, minlength=x.shape[0])
        out = F.embedding_bag(
            cols, weight_t, counts.cumsum(0) - counts, mode="sum", per_sample_weights=vals
        )
        out += bias
        ctx.save_for_backward(rows, cols, vals)
        ctx.in_features = n_in
        return out

    @staticmethod
    def backward(ctx: Any, grad: th.Tensor) -> tuple[None, th.Tensor, th.Tensor, None]:
        rows, cols, vals = ctx.saved_tensors
        order = th.argsort(cols, stable=True)  # one bag per input: the rows where it is set
        counts = th.bincount(cols, minlength=ctx.in_features)
        grad_weight_t = F.embedding_bag(
            rows.index_select(0, order),
            grad.contiguous(),
            counts.cumsum(0) - counts,
            mode="sum",
            per_sample_weights=vals.index_select(0, order),
        )
        return None, grad_weight_t, grad.sum(0), None


def _nonzero_if_sparse(x: th.Tensor) -> th.Tensor | None:
    """``x``'s nonzero entries as flat indices, or None when ``x`` is not a sparse batch (or
    needs a gradient, which the sparse product does not give)."""
    if x.dim() != 2 or x.shape[0] == 0 or x.requires_grad:
        return None
    flat = (x != 0).reshape(-1).nonzero().squeeze(1)
    return flat if len(flat) <= MAX_DENSITY * x.numel() else None


class SparseInputMlpExtractor(MlpExtractor):
    """``MlpExtractor`` with a first layer that reads only the nonzero inputs (see the module
    docstring). Without a first ``Linear`` in both networks (an empty ``net_arch``) it is the
    stock extractor."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        pi, vf = list(self.policy_net), list(self.value_net)
        self._fused = bool(
            pi and vf and isinstance(pi[0], nn.Linear) and isinstance(vf[0], nn.Linear)
        )
        # the layers after the first (plain tuples: not registered twice)
        self._pi_rest, self._vf_rest = tuple(pi[1:]), tuple(vf[1:])
        self._cache: tuple[tuple[int, ...], th.Tensor, th.Tensor] | None = None

    def _first_weights(self, layers: tuple[nn.Linear, ...]) -> tuple[th.Tensor, th.Tensor]:
        """The layers' weights side by side, transposed (in, out), and their biases. Outside
        autograd (rollouts) they are reused until a parameter changes."""
        params = [p for layer in layers for p in (layer.weight, layer.bias)]
        if th.is_grad_enabled():
            self._cache = None
        else:
            key = tuple(x for p in params for x in (id(p), p._version, p.data_ptr()))
            if self._cache is not None and self._cache[0] == key:
                return self._cache[1], self._cache[2]
        weight_t = th.cat([layer.weight for layer in layers]).t().contiguous()
        bias = th.cat([layer.bias for layer in layers])
        if not th.is_grad_enabled():
            self._cache = (key, weight_t, bias)
        return weight_t, bias

    def _first(
        self, features: th.Tensor, flat: th.Tensor, layers: tuple[nn.Linear, ...]
    ) -> list[th.Tensor]:
        weight_t, bias = self._first_weights(layers)
        out = _SparseRowsLinear.apply(features, weight_t, bias, flat)
        return list(out.split([layer.out_features for layer in layers], dim=1))

    @staticmethod
    def _rest(h: th.Tensor, layers: tuple[nn.Module, ...]) -> th.Tensor:
        for layer in layers:
            h = layer(h)
        return h

    def forward(self, features: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        flat = _nonzero_if_sparse(features) if self._fused else None
        if flat is None:
            return super().forward(features)
        h_pi, h_vf = self._first(features, flat, (self.policy_net[0], self.value_net[0]))
        return self._rest(h_pi, self._pi_rest), self._rest(h_vf, self._vf_rest)

    def forward_actor(self, features: th.Tensor) -> th.Tensor:
        flat = _nonzero_if_sparse(features) if self._fused else None
        if flat is None:
            return super().forward_actor(features)
        (h,) = self._first(features, flat, (self.policy_net[0],))
        return self._rest(h, self._pi_rest)

    def forward_critic(self, features: th.Tensor) -> th.Tensor:
        flat = _nonzero_if_sparse(features) if self._fused else None
        if flat is None:
            return super().forward_critic(features)
        (h,) = self._first(features, flat, (self.value_net[0],))
        return self._rest(h, self._vf_rest)
