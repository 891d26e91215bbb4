"""The first layer of the policy and value networks computed from the observation's nonzero
entries only.

Our observation has 1,162 inputs of which about 93 are nonzero (8 %): a dense first layer
multiplies mostly by zero, in the forward pass and again for the weight gradient, and that is
the largest single cost of a PPO update on our spaces. :class:`SparseInputMlpExtractor` is
stable-baselines3's ``MlpExtractor`` (the same modules, parameters, initialisation and
checkpoints) whose first ``Linear`` of the policy and of the value network reads only the
nonzero inputs: the rows of the transposed weight they select, summed with the inputs as
weights (``embedding_bag``); the weight gradient is the same sum the other way round. The
results equal the dense layer's up to float rounding (the terms are added in another order; the
zeros it skips add nothing). Batches that are not sparse (more than a quarter of the entries
nonzero) and inputs that need a gradient take the dense path.

The two first weights are kept input-major: each ``weight`` is the transpose of a contiguous
``(in, out)`` tensor, so that the rows the sparse product reads are contiguous without a copy,
and its gradient comes out in the same layout (autograd keeps a gradient in its parameter's
layout, and so do Adam's moments). Shape, values, names and checkpoints are the ``Linear``'s;
only the memory order differs, which ``F.linear`` reads as it is. torch's fused Adam walks a
parameter, its gradient and its moments as flat memory, which is right only while all four have
the same layout: :func:`match_state_layouts` gives an optimiser's loaded state its parameters'
layouts (a state saved from a contiguous weight, by the stock policy or an older run, would
otherwise be read in the wrong order). The fused kernel is also about twice as slow on a
transposed tensor as on a contiguous one, so :class:`InputMajorAdam` steps each input-major
weight through its contiguous transpose (the same elements, the same update).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch as th
import torch.nn.functional as F
from stable_baselines3.common.torch_layers import MlpExtractor
from torch import nn

MAX_DENSITY = 0.25  # above this share of nonzero inputs the dense product is as cheap


def make_input_major(layer: nn.Linear) -> None:
    """Store ``layer.weight`` as the transpose of a contiguous ``(in, out)`` tensor (the same
    values, a new ``Parameter``: call it before an optimiser is given the parameters)."""
    weight = layer.weight
    if not weight.t().is_contiguous():
        layer.weight = nn.Parameter(
            weight.detach().t().contiguous().t(), requires_grad=weight.requires_grad
        )


def match_state_layouts(optimizer: th.optim.Optimizer) -> None:
    """Copy every state tensor shaped like its parameter into the parameter's memory layout
    (``optimizer.register_load_state_dict_post_hook`` calls it after a load)."""
    for group in optimizer.param_groups:
        for param in group["params"]:
            state = optimizer.state.get(param, {})
            for key, value in state.items():
                if (
                    isinstance(value, th.Tensor)
                    and value.shape == param.shape
                    and value.stride() != param.stride()
                ):
                    state[key] = th.empty_like(param, dtype=value.dtype).copy_(value)


def _input_major(param: th.Tensor) -> bool:
    return param.dim() == 2 and not param.is_contiguous() and param.t().is_contiguous()


def _transpose_in_place(optimizer: th.optim.Optimizer, params: list[th.Tensor]) -> None:
    """Transpose ``params``, their gradients and their optimiser state (views: no copy)."""
    for param in params:
        param.data = param.data.t()
        if param.grad is not None:
            param.grad = param.grad.t()
        state = optimizer.state.get(param, {})
        for key, value in state.items():
            if isinstance(value, th.Tensor) and value.dim() == 2:
                state[key] = value.t()


class InputMajorAdam(th.optim.Adam):
    """torch's ``Adam`` that steps the input-major weights (:func:`make_input_major`) as their
    contiguous transposes: the update is elementwise, so it is the same, bit for bit, and the
    fused kernel runs about twice as fast on contiguous memory. The parameters, gradients
    and moments keep their layout outside :meth:`step`; a step with a ``closure`` (which would
    see the transposes) runs as plain ``Adam``."""

    @th.no_grad()
    def step(self, closure: Any = None) -> Any:
        if closure is not None:
            return super().step(closure)
        flipped = [p for group in self.param_groups for p in group["params"] if _input_major(p)]
        _transpose_in_place(self, flipped)
        try:
            return super().step()
        finally:
            _transpose_in_place(self, flipped)


def _rows(weight: th.Tensor) -> th.Tensor:
    """``weight`` ``(out, in)`` as ``(in, out)`` rows, contiguous (a view when input-major)."""
    return weight.t().contiguous()


class _SparseRowsLinear(th.autograd.Function):
    """``x @ weight.T + bias`` for each ``(weight, bias)`` pair, from ``x``'s nonzero entries
    (:func:`_nonzero_if_sparse`; ``x`` needs no gradient)."""

    @staticmethod
    def forward(
        ctx: Any,
        rows: th.Tensor,
        cols: th.Tensor,
        vals: th.Tensor,
        offsets: th.Tensor,
        *params: th.Tensor,
    ) -> tuple[th.Tensor, ...]:
        # rows, cols, vals: the nonzero entries, row-major; offsets: where each row's bag starts;
        # params: weight, bias, weight, bias, ...
        outs = []
        for weight, bias in zip(params[::2], params[1::2], strict=True):
            out = F.embedding_bag(cols, _rows(weight), offsets, mode="sum", per_sample_weights=vals)
            out += bias
            outs.append(out)
        ctx.save_for_backward(rows, cols, vals)
        ctx.in_features = params[0].shape[1]
        return tuple(outs)

    @staticmethod
    def backward(ctx: Any, *grads: th.Tensor) -> tuple[th.Tensor | None, ...]:
        rows, cols, vals = ctx.saved_tensors
        order = _stable_order(cols, ctx.in_features)  # one bag per input: the rows where it is set
        counts = th.bincount(cols, minlength=ctx.in_features)
        offsets = counts.cumsum(0) - counts
        bag_rows, bag_vals = rows.index_select(0, order), vals.index_select(0, order)
        out: list[th.Tensor | None] = [None, None, None, None]
        for grad in grads:
            grad_rows = F.embedding_bag(
                bag_rows, grad.contiguous(), offsets, mode="sum", per_sample_weights=bag_vals
            )
            out += [grad_rows.t(), grad.sum(0)]  # the weight's gradient, input-major
        return tuple(out)


def _stable_order(keys: th.Tensor, bound: int) -> th.Tensor:
    """The permutation that sorts ``keys`` (integers in ``[0, bound)``), equal keys in their
    order. On the CPU numpy's radix sort of 16-bit keys is about three times torch's sort."""
    if keys.device.type == "cpu" and bound <= np.iinfo(np.int16).max:
        return th.from_numpy(np.argsort(keys.numpy().astype(np.int16), kind="stable"))
    return th.argsort(keys, stable=True)


SparseBatch = tuple[th.Tensor, th.Tensor, th.Tensor, th.Tensor]  # rows, cols, vals, offsets


def _nonzero_if_sparse(x: th.Tensor) -> SparseBatch | None:
    """``x``'s nonzero entries, row-major (their rows, columns and values, and where each row's
    entries start), or None when ``x`` is not a sparse batch (or needs a gradient, which the
    sparse product does not give)."""
    if x.dim() != 2 or x.shape[0] == 0 or x.requires_grad:
        return None
    n_rows, n_in = x.shape
    if x.device.type == "cpu" and x.dtype in (th.float32, th.float64):
        # numpy finds a boolean array's nonzeros about three times as fast as torch a float's
        values = x.numpy().reshape(-1)
        flat = np.flatnonzero(values != 0)
        if len(flat) > MAX_DENSITY * x.numel():
            return None
        rows, cols = np.divmod(flat, n_in)
        counts = np.bincount(rows, minlength=n_rows)
        batch = rows, cols, values[flat], np.cumsum(counts) - counts
        return tuple(th.from_numpy(a) for a in batch)  # type: ignore[return-value]
    flat = x.reshape(-1).nonzero().squeeze(1)
    if len(flat) > MAX_DENSITY * x.numel():
        return None
    rows, cols = flat // n_in, flat % n_in
    counts = th.bincount(rows, minlength=n_rows)
    return rows, cols, x.reshape(-1).index_select(0, flat), counts.cumsum(0) - counts


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
        if self._fused:
            make_input_major(pi[0])
            make_input_major(vf[0])
        # the layers after the first (plain tuples: not registered twice)
        self._pi_rest, self._vf_rest = tuple(pi[1:]), tuple(vf[1:])

    @staticmethod
    def _first(batch: SparseBatch, layers: tuple[nn.Linear, ...]) -> tuple:
        params = [p for layer in layers for p in (layer.weight, layer.bias)]
        return _SparseRowsLinear.apply(*batch, *params)

    @staticmethod
    def _rest(h: th.Tensor, layers: tuple[nn.Module, ...]) -> th.Tensor:
        for layer in layers:
            h = layer(h)
        return h

    def forward(self, features: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        batch = _nonzero_if_sparse(features) if self._fused else None
        if batch is None:
            return super().forward(features)
        h_pi, h_vf = self._first(batch, (self.policy_net[0], self.value_net[0]))
        return self._rest(h_pi, self._pi_rest), self._rest(h_vf, self._vf_rest)

    def forward_actor(self, features: th.Tensor) -> th.Tensor:
        batch = _nonzero_if_sparse(features) if self._fused else None
        if batch is None:
            return super().forward_actor(features)
        (h,) = self._first(batch, (self.policy_net[0],))
        return self._rest(h, self._pi_rest)

    def forward_critic(self, features: th.Tensor) -> th.Tensor:
        batch = _nonzero_if_sparse(features) if self._fused else None
        if batch is None:
            return super().forward_critic(features)
        (h,) = self._first(batch, (self.value_net[0],))
        return self._rest(h, self._vf_rest)
