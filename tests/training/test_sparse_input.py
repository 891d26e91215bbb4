"""The sparse first layer computes what the dense one does, forwards and backwards."""

from __future__ import annotations

import copy

import pytest
import torch
from stable_baselines3.common.torch_layers import MlpExtractor
from torch import nn

from training.sparse_input import (
    InputMajorAdam,
    SparseInputMlpExtractor,
    _nonzero_if_sparse,
    _stable_order,
    match_state_layouts,
)


def _pair(features: int, net_arch) -> tuple[MlpExtractor, SparseInputMlpExtractor]:
    torch.manual_seed(0)
    stock = MlpExtractor(features, net_arch=net_arch, activation_fn=nn.Tanh, device="cpu")
    lean = SparseInputMlpExtractor(features, net_arch=net_arch, activation_fn=nn.Tanh, device="cpu")
    lean.load_state_dict(stock.state_dict())  # the same modules and parameter names
    return stock, lean


def _inputs(rows: int, features: int, density: float) -> torch.Tensor:
    g = torch.Generator().manual_seed(1)
    x = torch.rand(rows, features, generator=g)
    keep = torch.rand(rows, features, generator=g) < density
    x = torch.where(keep, torch.where(x < 0.5, 1.0, x), 0.0)  # ones and fractions, as ours
    x[3] = 0.0  # a row with no nonzero input at all
    return x


@pytest.mark.parametrize("density", [0.08, 0.6])  # the sparse path and the dense fallback
@pytest.mark.parametrize("net_arch", [[32, 16], {"pi": [24], "vf": [16, 8]}])
def test_outputs_and_gradients_equal_the_dense_layer(density: float, net_arch) -> None:
    stock, lean = _pair(300, net_arch)
    x = _inputs(64, 300, density)
    for name in ("forward", "forward_actor", "forward_critic"):
        out_s, out_l = getattr(stock, name)(x), getattr(lean, name)(x)
        out_s = out_s if isinstance(out_s, tuple) else (out_s,)
        out_l = out_l if isinstance(out_l, tuple) else (out_l,)
        stock.zero_grad()
        lean.zero_grad()
        sum(o.square().sum() for o in out_s).backward()
        sum(o.square().sum() for o in out_l).backward()
        for a, b in zip(out_s, out_l, strict=True):
            assert torch.allclose(a, b, atol=1e-6)
        for (n, p), q in zip(stock.named_parameters(), lean.parameters(), strict=True):
            assert (p.grad is None) == (q.grad is None), n
            if p.grad is not None:
                assert torch.allclose(p.grad, q.grad, atol=1e-5), n


def test_numpy_and_torch_find_the_same_nonzero_entries() -> None:
    x = (_inputs(64, 300, 0.08) * 64).ceil() / 64  # fractions that half precision holds exactly
    x[5, 7] = -0.0  # a negative zero is a zero
    found = _nonzero_if_sparse(x)  # float32 on the CPU: numpy's path
    in_torch = _nonzero_if_sparse(x.half())  # no numpy dtype: torch's path
    from_view = _nonzero_if_sparse(x.t().contiguous().t())  # not contiguous
    assert found is not None and in_torch is not None and from_view is not None
    rows, cols, vals, offsets = found
    assert torch.equal(x[rows, cols], vals) and bool((vals != 0).all())
    assert int((x != 0).sum()) == len(vals)
    assert torch.equal(offsets, torch.searchsorted(rows, torch.arange(64)))
    for other in (in_torch, from_view):
        for a, b in zip(found, other, strict=True):
            assert torch.equal(a, b.to(a.dtype))
    assert _nonzero_if_sparse(_inputs(64, 300, 0.6)) is None  # dense enough for the dense path


@pytest.mark.parametrize("bound", [300, 40_000])  # numpy's 16-bit radix sort, torch's sort
def test_stable_order_sorts_equal_keys_in_their_order(bound: int) -> None:
    keys = torch.randint(0, bound, (5_000,), generator=torch.Generator().manual_seed(2))
    keys[::7] = keys[0]  # many equal keys
    assert torch.equal(_stable_order(keys, bound), torch.argsort(keys, stable=True))


def test_rollouts_follow_parameter_changes() -> None:
    stock, lean = _pair(300, [32, 16])
    x = _inputs(8, 300, 0.08)
    with torch.no_grad():
        first = lean(x)[0].clone()
        assert torch.equal(lean(x)[0], first)
        for net in (stock, lean):
            net.policy_net[0].weight.add_(0.5)
        assert torch.allclose(lean(x)[0], stock(x)[0], atol=1e-6)
        assert not torch.allclose(lean(x)[0], first)


def test_empty_net_arch_is_the_stock_extractor() -> None:
    stock, lean = _pair(30, [])
    x = _inputs(4, 30, 0.1)
    assert all(torch.equal(a, b) for a, b in zip(stock(x), lean(x), strict=True))


def test_inputs_that_need_a_gradient_get_it() -> None:
    stock, lean = _pair(300, [32, 16])
    xs = _inputs(16, 300, 0.08).requires_grad_()
    xl = xs.detach().clone().requires_grad_()
    sum(o.sum() for o in stock(xs)).backward()
    sum(o.sum() for o in lean(xl)).backward()
    assert xl.grad is not None and torch.allclose(xs.grad, xl.grad, atol=1e-6)


def _adam_steps(
    net: nn.Module,
    x: torch.Tensor,
    steps: int = 3,
    state=None,
    adam: type[torch.optim.Adam] = torch.optim.Adam,
    closure: bool = False,
) -> torch.optim.Adam:
    opt = adam(net.parameters(), lr=1e-2, eps=1e-5, fused=True)
    if state is not None:
        opt.register_load_state_dict_post_hook(match_state_layouts)
        opt.load_state_dict(copy.deepcopy(state))  # a load may keep the tensors it is given

    def loss() -> torch.Tensor:
        opt.zero_grad()
        value = sum(o.square().sum() for o in net(x))
        value.backward()
        return value

    for _ in range(steps):
        if closure:
            opt.step(loss)
        else:
            loss()
            opt.step()
    return opt


def test_first_weights_are_input_major_and_train_like_contiguous_ones() -> None:
    stock, lean = _pair(300, [32, 16])
    for layer in (lean.policy_net[0], lean.value_net[0]):
        assert layer.weight.shape == (32, 300) and layer.weight.t().is_contiguous()
    x = _inputs(64, 300, 0.08)
    opt = _adam_steps(lean, x)
    _adam_steps(stock, x)
    for layer in (lean.policy_net[0], lean.value_net[0]):  # gradient and moments in its layout
        assert layer.weight.grad.stride() == layer.weight.stride()
        assert opt.state[layer.weight]["exp_avg"].stride() == layer.weight.stride()
    for (name, p), q in zip(stock.named_parameters(), lean.parameters(), strict=True):
        assert torch.allclose(p, q, atol=1e-5), name


@pytest.mark.parametrize("adam", [torch.optim.Adam, InputMajorAdam])
def test_loaded_optimizer_state_takes_the_parameters_layout(adam) -> None:
    """A state saved from contiguous weights (the stock extractor's, or an older run's) must
    be read element by element, not in the input-major weights' memory order."""
    stock, lean = _pair(300, [32, 16])
    x = _inputs(64, 300, 0.08)
    saved = _adam_steps(stock, x).state_dict()  # contiguous moments
    lean.load_state_dict(stock.state_dict())
    opt = _adam_steps(lean, x, steps=2, state=saved, adam=adam)
    _adam_steps(stock, x, steps=2, state=saved)
    weight = lean.policy_net[0].weight
    assert opt.state[weight]["exp_avg_sq"].stride() == weight.stride()
    for (name, p), q in zip(stock.named_parameters(), lean.parameters(), strict=True):
        assert torch.allclose(p, q, atol=1e-5), name


@pytest.mark.parametrize("closure", [False, True])
def test_input_major_adam_steps_exactly_as_adam(closure: bool) -> None:
    """Stepping the input-major weights as their contiguous transposes changes nothing: the
    same parameters and moments, bit for bit, in the same layouts (a step with a closure runs
    as plain Adam)."""
    _, plain = _pair(300, [32, 16])
    _, flipped = _pair(300, [32, 16])
    x = _inputs(64, 300, 0.08)
    expected = _adam_steps(plain, x, steps=4, closure=closure)
    opt = _adam_steps(flipped, x, steps=4, adam=InputMajorAdam, closure=closure)
    for (name, p), q in zip(plain.named_parameters(), flipped.parameters(), strict=True):
        assert torch.equal(p, q) and p.stride() == q.stride(), name
        assert q.grad is not None and q.grad.stride() == q.stride(), name
        for key in ("exp_avg", "exp_avg_sq"):
            want, got = expected.state[p][key], opt.state[q][key]
            assert torch.equal(want, got) and got.stride() == q.stride(), (name, key)
