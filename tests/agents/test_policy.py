"""PolicyBot plays nanty-policy checkpoints with numpy only, exactly as the torch policy they were
exported from: the same logits (to float tolerance), probabilities and greedy choices."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from agents.base import play_game
from agents.random_bot import RandomBot
from nanty_env.engine import Game, GameConfig
from nanty_env.engine.actions import NUM_ACTIONS

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")
pytest.importorskip("safetensors")

from nanty_env.encoding.observation import OBS_SIZE, encode_view, with_hint  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def sb3_model(policy: str = "lean", net_arch=(32, 16), activation: str = "tanh"):
    """An untrained MaskablePPO with the env's spaces and weights scaled up, so that its
    logits are far apart (fresh SB3 action heads start with near-equal logits)."""
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    from training.masked_policy import HintedMaskablePolicy, LeanMaskablePolicy

    size = OBS_SIZE + (NUM_ACTIONS if policy == "hinted" else 0)

    class Dummy(gym.Env):
        observation_space = gym.spaces.Box(-np.inf, np.inf, (size,), np.float32)
        action_space = gym.spaces.Discrete(NUM_ACTIONS)

        def reset(self, *, seed=None, options=None):
            return np.zeros(size, np.float32), {}

        def step(self, action):
            return np.zeros(size, np.float32), 0.0, True, False, {}

        def action_masks(self):
            return np.ones(NUM_ACTIONS, bool)

    kwargs: dict = {
        "net_arch": list(net_arch),
        "activation_fn": {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[activation],
    }
    cls = {"stock": "MlpPolicy", "lean": LeanMaskablePolicy, "hinted": HintedMaskablePolicy}
    if policy == "hinted":
        kwargs |= {"hint_bot": "heuristic", "hint_weight": 1.5}
    model = MaskablePPO(cls[policy], Dummy(), n_steps=8, batch_size=8, policy_kwargs=kwargs, seed=3)
    with torch.no_grad():
        for p in model.policy.parameters():
            p.mul_(3.0)
    return model


def decisions(n: int = 3, seeds=range(4), per_game: int = 40):
    """(view, legal actions) of real decisions from random games."""
    rng = np.random.default_rng(0)
    out = []
    for seed in seeds:
        g = Game.new(GameConfig(num_players=n, log=False), seed)
        for _ in range(per_game):
            if g.is_terminal:
                break
            legal = g.legal_actions()
            if len(legal) > 1:
                out.append((g.view(g.current_player), legal))
            g.apply(int(rng.choice(legal)))
    return out


@pytest.mark.parametrize(
    "kind, activation", [("stock", "tanh"), ("lean", "tanh"), ("lean", "relu"), ("hinted", "tanh")]
)
def test_exported_policy_matches_the_torch_policy(tmp_path, kind: str, activation: str) -> None:
    from agents.policy import PolicyBot, action_mask
    from agents.sb3_export import export_sb3_policy

    model = sb3_model(kind, activation=activation)
    export_sb3_policy(model.policy, tmp_path / "p", env={"num_players": 3})
    bot = PolicyBot(path=tmp_path / "p")
    rng = np.random.default_rng(5)
    rows = decisions()
    assert len(rows) > 100
    same = 0
    for view, legal in rows:
        obs = encode_view(view)
        if kind == "hinted":
            obs = with_hint(obs, int(rng.choice(legal)))
        mask = action_mask(legal)
        obs_t = torch.as_tensor(obs[None, :])
        with torch.no_grad():
            dist = model.policy.get_distribution(obs_t)
            raw = dist.distribution.logits[0].numpy()  # normalised: up to a constant
            dist.apply_masking(mask[None, :])
            probs = dist.distribution.probs[0].numpy()
        ours = bot.policy.logits(obs)
        np.testing.assert_allclose(ours - ours.max(), raw - raw.max(), atol=2e-4)
        np.testing.assert_allclose(bot._probabilities(obs, legal), probs, atol=1e-5)
        want, _ = model.predict(obs, action_masks=mask, deterministic=True)
        assert bot.greedy(obs, legal) == int(want)
        same += 1
    assert same == len(rows)
    assert bot.hinter is not None if kind == "hinted" else bot.hinter is None


def test_value_head_matches(tmp_path) -> None:
    from agents.checkpoint import load_policy
    from agents.sb3_export import export_sb3_policy

    model = sb3_model("lean")
    export_sb3_policy(model.policy, tmp_path / "p")
    policy = load_policy(tmp_path / "p")
    obs = np.stack([encode_view(v) for v, _ in decisions(seeds=[1], per_game=10)])
    with torch.no_grad():
        want = model.policy.predict_values(torch.as_tensor(obs)).numpy()[:, 0]
    np.testing.assert_allclose(policy.values(obs), want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("deterministic", [True, False])
def test_policy_bot_plays_legal_and_reproducible_games(tmp_path, deterministic: bool) -> None:
    from agents.policy import PolicyBot
    from agents.sb3_export import export_sb3_policy

    export_sb3_policy(sb3_model("lean").policy, tmp_path / "p")
    records = []
    for _ in range(2):
        bot = PolicyBot(path=tmp_path / "p", deterministic=deterministic)
        _, rec = play_game([bot, RandomBot()], GameConfig(num_players=2, log=False), seed=1)
        records.append((rec.winners, rec.decisions))  # play_game raises on an illegal action
    assert records[0] == records[1]


@pytest.mark.slow
def test_policy_bot_loads_and_plays_without_torch(tmp_path) -> None:
    """A worker process that only plays needs numpy and safetensors: torch is blocked."""
    from agents.sb3_export import export_sb3_policy

    export_sb3_policy(sb3_model("hinted").policy, tmp_path / "p")
    code = f"""
import sys
sys.modules["torch"] = None  # any import of torch now fails
from agents.base import play_game
from agents.registry import make_bot
from nanty_env.engine import GameConfig
bots = [make_bot("policy:path={tmp_path / "p"}"), make_bot("random"), make_bot("random")]
_, rec = play_game(bots, GameConfig(num_players=3, log=False), seed=4)
assert rec.turns > 0 and sys.modules["torch"] is None
print("ok", rec.decisions)
"""
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ok")


def test_zip_needs_trust(tmp_path) -> None:
    from agents.checkpoint import CheckpointError
    from agents.policy import PolicyBot

    model = sb3_model("lean")
    model.save(tmp_path / "m.zip")
    with pytest.raises(CheckpointError, match=r"refusing to open an SB3 \.zip"):
        PolicyBot(path=tmp_path / "m.zip")
    trusted = PolicyBot(path=tmp_path / "m.zip", trust=1)
    view, legal = decisions(seeds=[0], per_game=5)[-1]
    obs = encode_view(view)
    want, _ = model.predict(
        obs, action_masks=np.isin(np.arange(NUM_ACTIONS), legal), deterministic=True
    )
    assert trusted.greedy(obs, legal) == int(want)


def test_checkpoint_for_another_observation_size_is_refused(tmp_path) -> None:
    from agents.checkpoint import CheckpointError, save_policy
    from agents.policy import PolicyBot

    size = OBS_SIZE + 1
    tensors = {
        "w": np.zeros((NUM_ACTIONS, size), np.float32),
        "b": np.zeros(NUM_ACTIONS, np.float32),
    }
    meta = {
        "actor": [{"weight": "w", "bias": "b", "activation": "none"}],
        "observation": {"size": size, "hint": False},
        "num_actions": NUM_ACTIONS,
    }
    save_policy(tmp_path / "p", tensors, meta)
    with pytest.raises(CheckpointError, match=f"size {size}, this environment's encoder makes"):
        PolicyBot(path=tmp_path / "p")
