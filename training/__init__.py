"""Training code: self-play PPO, leagues and evaluation."""
