"""The training progress bar stops at its total although PPO's last rollout may overshoot."""

from __future__ import annotations

from training.train import ProgressBar


def test_bar_never_runs_past_its_total():
    bar = ProgressBar(total=100, start=0)
    bar._on_training_start()
    for steps in (64, 128, 192):  # whole rollouts of 64 steps: the last one passes 100
        bar.num_timesteps, bar.n_calls = steps, 50
        bar._on_step()
        assert bar.bar.n == min(steps, 100)
    bar._on_training_end()
    assert bar.bar.n == 100 == bar.bar.total
    resumed = ProgressBar(total=100, start=150)  # a resume of a finished run
    resumed._on_training_start()
    assert resumed.bar.n == 100
    resumed.bar.close()
