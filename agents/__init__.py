"""Bots that play Nanty Narking: random, heuristic, search and trained-policy adapters.

Every bot follows :class:`agents.base.Bot`: it sees only its seat's view, the legal actions and
a random generator. :func:`agents.base.play_game` seats bots at a game; :mod:`arena.tournament`
runs many games with ratings; :mod:`agents.roles` infers hidden personalities.
"""

import nanty_env  # noqa: F401  (first: its import hook picks compiled or pure modules)
from agents.base import BaseBot, Bot, GameRecord, play_game
from agents.heuristic import HeuristicBot
from agents.ismcts import ISMCTSBot
from agents.policy import PolicyBot
from agents.random_bot import RandomBot
from agents.registry import make_bot

__all__ = [
    "BaseBot",
    "Bot",
    "GameRecord",
    "HeuristicBot",
    "ISMCTSBot",
    "PolicyBot",
    "RandomBot",
    "make_bot",
    "play_game",
]
