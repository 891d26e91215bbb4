"""Nanty Narking: a multi-agent reinforcement-learning environment for the board game."""
