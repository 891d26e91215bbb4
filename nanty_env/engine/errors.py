"""Exceptions raised by the rules engine."""


class IllegalActionError(ValueError):
    """An action that is not legal in the current state; the state is left unchanged."""


class EngineError(RuntimeError):
    """An internal inconsistency (a bug in the engine, never the caller's fault)."""


class InvalidStateError(EngineError, ValueError):
    """A game state (``Game.from_dict`` input) that breaks the schema or a rule of the game;
    the message names the field. Raised before the state is used, so nothing is half-built."""
