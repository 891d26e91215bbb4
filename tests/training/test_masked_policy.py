"""The lean masked policy computes what sb3-contrib's does; update threads switch as promised."""

from __future__ import annotations

import os

import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.distributions import MaskableCategoricalDistribution
from stable_baselines3.common.vec_env import DummyVecEnv

from nanty_env.faces.single import NantySingleAgentEnv
from nanty_env.vector import make_vec_env
from training.masked_policy import (
    HintedMaskablePolicy,
    LeanMaskableCategoricalDistribution,
    LeanMaskablePolicy,
    UpdateThreads,
    torch_threads,
)

N = 405


def _pair(logits: torch.Tensor, masks: np.ndarray | None):
    stock = MaskableCategoricalDistribution(N).proba_distribution(logits)
    lean = LeanMaskableCategoricalDistribution(N).proba_distribution(logits)
    if masks is not None:
        stock.apply_masking(masks)
        lean.apply_masking(masks)
    return stock, lean


@pytest.mark.parametrize("masked", [True, False])
def test_lean_distribution_equals_stock(masked: bool) -> None:
    g = torch.Generator().manual_seed(0)
    logits = torch.randn(64, N, generator=g) * 3
    masks = None
    if masked:
        masks = np.random.default_rng(0).random((64, N)) < 0.03
        masks[np.arange(64), np.arange(64) * 5] = True  # at least one legal action per row
    stock, lean = _pair(logits, masks)
    assert torch.allclose(stock.distribution.probs, lean.distribution.probs, atol=1e-7)
    assert torch.allclose(stock.entropy(), lean.entropy(), atol=1e-5)
    assert torch.equal(stock.mode(), lean.mode())
    torch.manual_seed(1)
    a = stock.sample()
    torch.manual_seed(1)
    b = lean.sample()
    assert torch.equal(a, b)
    assert torch.allclose(stock.log_prob(a), lean.log_prob(a), atol=1e-5)
    if masked:
        assert lean.distribution.probs[torch.as_tensor(~masks)].max() == 0
        assert bool(torch.as_tensor(masks)[torch.arange(64), b].all())


def test_masks_can_be_changed_and_removed() -> None:
    logits = torch.randn(4, N)
    masks = np.zeros((4, N), dtype=bool)
    masks[:, 7] = True
    _, lean = _pair(logits, masks)
    assert torch.equal(lean.mode(), torch.full((4,), 7))
    lean.apply_masking(None)
    stock, _ = _pair(logits, None)
    assert torch.allclose(lean.distribution.probs, stock.distribution.probs)


def _model(policy, n_steps: int = 32) -> MaskablePPO:
    env = DummyVecEnv([lambda: NantySingleAgentEnv(num_players=2)])
    return MaskablePPO(
        policy, env, n_steps=n_steps, batch_size=32, policy_kwargs={"net_arch": [16]}, seed=0
    )


def test_lean_policy_matches_stock_policy_and_round_trips(tmp_path) -> None:
    lean, stock = _model(LeanMaskablePolicy), _model("MlpPolicy")
    stock.policy.load_state_dict(lean.policy.state_dict())  # the same networks
    env = NantySingleAgentEnv(num_players=2)
    obs, _ = env.reset(seed=3)
    o = torch.as_tensor(obs[None])
    masks = env.action_masks()[None]
    acts = torch.as_tensor([int(np.flatnonzero(masks[0])[0])])
    v1, lp1, e1 = lean.policy.evaluate_actions(o, acts, action_masks=masks)
    v2, lp2, e2 = stock.policy.evaluate_actions(o, acts, action_masks=masks)
    assert torch.allclose(v1, v2) and torch.allclose(lp1, lp2) and torch.allclose(e1, e2)
    lean.save(tmp_path / "m.zip")
    again = MaskablePPO.load(tmp_path / "m.zip", device="cpu")
    assert isinstance(again.policy, LeanMaskablePolicy)
    a, _ = again.predict(obs, action_masks=masks[0], deterministic=True)
    assert masks[0][int(a)]


def _random_decisions(n: int) -> tuple[torch.Tensor, np.ndarray, torch.Tensor]:
    venv = make_vec_env(4, seed=5, num_players=4)
    obs, rng, rows = venv.reset(), np.random.default_rng(5), []
    while len(rows) < n:
        masks = venv.action_masks()
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        rows += zip(obs, masks, acts, strict=True)
        obs, *_ = venv.step(acts)
    venv.close()
    obs, masks, acts = (np.stack(col) for col in zip(*rows[:n], strict=True))
    return torch.as_tensor(obs), masks, torch.as_tensor(acts, dtype=torch.float32)


def test_update_on_the_legal_columns_equals_the_full_head() -> None:
    """evaluate_actions computes the head only on actions legal in some row: the same values,
    log-probabilities, entropies and gradients as sb3-contrib's policy on all 405."""
    lean, stock = _model(LeanMaskablePolicy), _model("MlpPolicy")
    stock.policy.load_state_dict(lean.policy.state_dict())
    obs, masks, acts = _random_decisions(96)
    assert masks.any(0).sum() < masks.shape[1]  # some actions are illegal in every row
    grads = []
    for model in (lean, stock):
        model.policy.zero_grad()
        values, log_prob, entropy = model.policy.evaluate_actions(obs, acts, action_masks=masks)
        (log_prob.mean() + 0.3 * entropy.mean() + values.square().mean()).backward()
        grads.append({n: p.grad for n, p in model.policy.named_parameters()})
        if model is lean:
            first = (values, log_prob, entropy)
    for a, b in zip(first, (values, log_prob, entropy), strict=True):
        assert torch.allclose(a, b, atol=1e-5)
    for name, grad in grads[1].items():
        assert torch.allclose(grads[0][name], grad, atol=1e-5), name
    never_legal = torch.as_tensor(~masks.any(0))
    assert grads[0]["action_net.weight"][never_legal].abs().max() == 0
    illegal = acts.clone()
    illegal[0] = float(np.flatnonzero(~masks.any(0))[0])  # masked in every row
    with torch.no_grad():
        _, lp_lean, _ = lean.policy.evaluate_actions(obs, illegal, action_masks=masks)
        _, lp_stock, _ = stock.policy.evaluate_actions(obs, illegal, action_masks=masks)
    assert torch.allclose(lp_lean, lp_stock, rtol=1e-5) and lp_lean[0] < -1e7


@pytest.mark.parametrize("policy_class", [LeanMaskablePolicy, HintedMaskablePolicy])
def test_imitation_in_one_pass_equals_two(policy_class: type) -> None:
    """evaluate_imitation: evaluate_actions' values and log-probabilities, and the
    cross-entropy against target rows of the full masked distribution, with its gradients
    (the residual policy reads its hint from the observation's last entries either way)."""
    model = _model(policy_class)
    obs, masks, acts = _random_decisions(64)
    rng = np.random.default_rng(3)
    targets = np.where(masks, rng.random(masks.shape), 0.0).astype(np.float32)
    targets /= targets.sum(axis=1, keepdims=True)
    policy = model.policy
    policy.zero_grad()
    values, log_prob, ce = policy.evaluate_imitation(obs, acts, masks, targets)
    (ce + log_prob.mean()).backward()
    one = {n: p.grad.clone() for n, p in policy.named_parameters() if p.grad is not None}
    policy.zero_grad()
    values2, log_prob2, _ = policy.evaluate_actions(obs, acts, action_masks=masks)
    full = policy.get_distribution(obs, action_masks=masks).distribution.logits
    ce2 = -(torch.as_tensor(targets) * torch.log_softmax(full, dim=1)).sum(dim=1).mean()
    (ce2 + log_prob2.mean()).backward()
    assert torch.allclose(values, values2) and torch.allclose(log_prob, log_prob2, atol=1e-6)
    assert torch.allclose(ce, ce2, atol=1e-5) and ce.item() > 0
    for name, p in policy.named_parameters():
        if name in one:
            assert torch.allclose(one[name], p.grad, atol=1e-6), name


def test_a_loaded_optimizer_state_takes_the_lean_parameters_layout() -> None:
    lean, stock = _model(LeanMaskablePolicy), _model("MlpPolicy")
    obs, masks, acts = _random_decisions(32)
    values, log_prob, _ = stock.policy.evaluate_actions(obs, acts, action_masks=masks)
    (log_prob.mean() + values.mean()).backward()
    stock.policy.optimizer.step()  # moments in the stock (contiguous) layout
    lean.policy.optimizer.load_state_dict(stock.policy.optimizer.state_dict())
    weight = lean.policy.mlp_extractor.policy_net[0].weight
    assert not weight.is_contiguous()
    for key in ("exp_avg", "exp_avg_sq"):
        assert lean.policy.optimizer.state[weight][key].stride() == weight.stride()


@pytest.mark.slow
def test_update_threads_during_updates_only() -> None:
    model = _model(LeanMaskablePolicy)
    seen: dict[str, set[int]] = {"update": set(), "rollout": set()}
    train = model.train

    def recording_train() -> None:
        seen["update"].add(torch.get_num_threads())
        train()

    model.train = recording_train

    class Rollout(UpdateThreads):
        def _on_step(self) -> bool:
            seen["rollout"].add(torch.get_num_threads())
            return True

    with torch_threads(1):
        model.learn(64, callback=Rollout(update=2, rollout=1))
        assert torch.get_num_threads() == 1
    assert seen["rollout"] == {1}
    assert seen["update"] == {min(2, os.cpu_count() or 1)}


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one core: one update thread anyway")
def test_update_threads_follow_the_faster_count(monkeypatch) -> None:
    """Updates timed as on a machine where two threads are slower than one (another job holds
    the other core): after timing both, the updates run on one thread, and the second is
    only probed now and then; the threads used are logged."""
    import training.masked_policy as mp

    model = _model(LeanMaskablePolicy, n_steps=8)
    clock = [0.0]
    monkeypatch.setattr(mp.time, "perf_counter", lambda: clock[0])
    threads, logged = [], []
    train = model.train

    def timed_train() -> None:
        threads.append(torch.get_num_threads())
        logged.append(model.logger.name_to_value["train/update_threads"])
        clock[0] += 3.0 if threads[-1] > 1 else 1.0
        train()

    model.train = timed_train
    with torch_threads(1):
        # no log dump before an update, so the logged value is still there when it runs
        callback = UpdateThreads(update=2, rollout=1, adapt=True)
        model.learn(8 * 30, callback=callback, log_interval=1000)
    assert threads[:4] == [2, 2, 1, 1]  # warm-up, two threads timed, one timed, one kept
    assert threads[4:].count(2) <= 1 and len(threads) == 30
    assert logged == threads


def _trained(policy) -> MaskablePPO:
    env = make_vec_env(2, seed=0, num_players=4)
    model = MaskablePPO(
        policy,
        env,
        n_steps=64,
        batch_size=64,
        n_epochs=2,
        policy_kwargs={"net_arch": [64, 64]},
        seed=0,
    )
    model.learn(384)  # three rollouts and updates
    return model


@pytest.mark.slow
def test_lean_training_learns_what_stock_learns_on_a_fixed_seed() -> None:
    """Before/after: the stock policy and the lean one (lean distribution, sparse first layer,
    fused Adam) trained from the same seed take the same actions and end with the same
    parameters, up to float rounding."""
    stock, lean = _trained("MlpPolicy"), _trained(LeanMaskablePolicy)
    assert np.array_equal(stock.rollout_buffer.actions, lean.rollout_buffer.actions)
    assert np.allclose(stock.rollout_buffer.log_probs, lean.rollout_buffer.log_probs, atol=1e-4)
    assert np.allclose(stock.rollout_buffer.values, lean.rollout_buffer.values, atol=1e-4)
    moved = 0.0
    fresh = MaskablePPO(
        "MlpPolicy", stock.env, policy_kwargs={"net_arch": [64, 64]}, seed=0
    ).policy.state_dict()
    for (name, a), b in zip(
        stock.policy.state_dict().items(), lean.policy.state_dict().values(), strict=True
    ):
        assert torch.allclose(a, b, atol=1e-5), name
        moved = max(moved, float((a - fresh[name]).abs().max()))
    assert moved > 1e-3  # the parameters did train


@pytest.mark.slow
def test_importing_training_first_sets_how_openmp_waits() -> None:
    import subprocess
    import sys

    names = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")
    env = {k: v for k, v in os.environ.items() if k not in names}
    code = f"import os, training, torch; print(*(os.environ.get(k) for k in {names!r}))"

    def seen() -> str:
        run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        return run.stdout.strip()

    assert seen() == "PASSIVE 1000"  # sleep after a short spin
    env["OMP_WAIT_POLICY"] = "ACTIVE"  # an explicit choice is kept whole
    assert seen() == "ACTIVE None"
    env.update(OMP_WAIT_POLICY="PASSIVE", GOMP_SPINCOUNT="0")
    assert seen() == "PASSIVE 0"
