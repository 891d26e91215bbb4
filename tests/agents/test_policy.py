"""PolicyBot plays a MaskablePPO checkpoint (needs the environment's observation encoder)."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from agents.base import play_game
from agents.random_bot import RandomBot
from nanty_env.engine import GameConfig
from nanty_env.engine.actions import NUM_ACTIONS

pytest.importorskip("sb3_contrib")
if importlib.util.find_spec("nanty_env.observation") is None:
    pytest.skip(
        "nanty_env.observation (encode_view) is not written yet; PolicyBot needs it",
        allow_module_level=True,
    )


def tiny_checkpoint(path, obs_size):
    """An untrained MaskablePPO with the right spaces, saved like a trained one."""
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    class Dummy(gym.Env):
        observation_space = gym.spaces.Box(-np.inf, np.inf, (obs_size,), np.float32)
        action_space = gym.spaces.Discrete(NUM_ACTIONS)

        def reset(self, *, seed=None, options=None):
            return np.zeros(obs_size, np.float32), {}

        def step(self, action):
            return np.zeros(obs_size, np.float32), 0.0, True, False, {}

        def action_masks(self):
            return np.ones(NUM_ACTIONS, bool)

    model = MaskablePPO(
        "MlpPolicy", Dummy(), n_steps=8, batch_size=8, policy_kwargs={"net_arch": [8]}
    )
    model.save(path)
    return path


@pytest.mark.slow
def test_policy_bot_plays_legal_actions(tmp_path):
    from agents.policy import PolicyBot
    from nanty_env.engine import Game
    from nanty_env.observation import encode_view

    g = Game.new(GameConfig(num_players=2, log=False), 0)
    size = int(np.asarray(encode_view(g.view(g.current_player))).size)
    ckpt = tiny_checkpoint(tmp_path / "tiny.zip", size)
    for deterministic in (True, False):
        bot = PolicyBot(path=ckpt, deterministic=deterministic)
        _, rec = play_game([bot, RandomBot()], GameConfig(num_players=2, log=False), seed=1)
        assert rec.turns > 0  # play_game raises on any illegal action
