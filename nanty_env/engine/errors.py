"""Exceptions raised by the rules engine."""


class IllegalActionError(ValueError):
    """An action that is not legal in the current state; the state is left unchanged."""


class EngineError(RuntimeError):
    """An internal inconsistency (a bug in the engine, never the caller's fault)."""
