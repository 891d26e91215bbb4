"""PPO on the single-learner env learns: a short run beats its own untrained start.

Everything is seeded (the policy's initial weights, the games it trains on and the 60 evaluation
deals), so the numbers are the same on every run; the assertion fails if the learner stops
learning (broken rewards, masks, observations or training loop), not by chance.
"""

from __future__ import annotations

import pytest

EVAL_GAMES = 60
MARGIN = 8  # more wins than before training, out of EVAL_GAMES (measured: 8 -> 21)


@pytest.mark.slow
def test_short_training_run_beats_its_untrained_start() -> None:
    import torch
    from sb3_contrib import MaskablePPO

    from nanty_env.vector import make_vec_env
    from training.evaluate import evaluate_model

    torch.set_num_threads(1)
    venv = make_vec_env(8, seed=0, num_players=4)
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=256,
        batch_size=512,
        n_epochs=4,
        learning_rate=3e-4,
        gamma=0.995,
        ent_coef=0.01,
        seed=0,
        policy_kwargs={"net_arch": [256, 256]},
    )
    before = evaluate_model(model, "random", 4, EVAL_GAMES, seed=5)["wins"]
    model.learn(total_timesteps=20_480)
    after = evaluate_model(model, "random", 4, EVAL_GAMES, seed=5)["wins"]
    assert after >= before + MARGIN, f"won {after} of {EVAL_GAMES} after training, {before} before"
