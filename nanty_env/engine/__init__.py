"""The Nanty Narking rules engine: pure Python, no gymnasium / pettingzoo / torch."""

from nanty_env.engine.actions import NUM_ACTIONS, NUM_ACTIONS_CTHULHU, decode, encode, space_for
from nanty_env.engine.config import GameConfig
from nanty_env.engine.errors import EngineError, IllegalActionError, InvalidStateError
from nanty_env.engine.game import Game, Outcome, Termination

__all__ = [
    "NUM_ACTIONS",
    "NUM_ACTIONS_CTHULHU",
    "EngineError",
    "Game",
    "GameConfig",
    "IllegalActionError",
    "InvalidStateError",
    "Outcome",
    "Termination",
    "decode",
    "encode",
    "space_for",
]
