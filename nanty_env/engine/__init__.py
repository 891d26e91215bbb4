"""The Nanty Narking rules engine: pure Python, no gymnasium / pettingzoo / torch."""

from nanty_env.engine.actions import NUM_ACTIONS, decode, encode
from nanty_env.engine.config import GameConfig
from nanty_env.engine.errors import EngineError, IllegalActionError, InvalidStateError
from nanty_env.engine.game import Game, Outcome

__all__ = [
    "NUM_ACTIONS",
    "EngineError",
    "Game",
    "GameConfig",
    "IllegalActionError",
    "InvalidStateError",
    "Outcome",
    "decode",
    "encode",
]
