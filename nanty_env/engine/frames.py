"""Pending work as explicit data: a stack of frames, each a small dict, and their handlers.

A frame is a ``dict`` whose values are ints, strings or tuples (never mutated in place, so a
shallow copy clones it). ``f["k"]`` names its kind; ``f["p"]`` is the seat that owes the
decision when the frame is waiting for one. A handler has two functions:

* ``options(g, f)`` either makes automatic progress (rolls, bookkeeping, pushing or popping
  frames) and returns ``None``, or returns the sorted legal actions of the pending decision
  without changing anything;
* ``act(g, f, action)`` applies a legal action.

Reactions write their verdict into the frame that asked for them (``f["r"]``), found by its
position ``f["up"]`` on the stack, so no callbacks or generators are needed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from nanty_env.engine.game import Game

Frame = dict[str, Any]
Options = Callable[["Game", Frame], "list[int] | None"]
Act = Callable[["Game", Frame, int], None]

OPTIONS: dict[str, Options] = {}
ACT: dict[str, Act] = {}
DESCRIPTIONS: dict[str, str] = {}


def handler(kind: str, description: str) -> Callable[[type], type]:
    """Register a class with static ``options`` and (for decisions) ``act`` for frame ``kind``."""

    def deco(cls: type) -> type:
        if kind in OPTIONS:
            raise ValueError(f"frame kind {kind!r} registered twice")
        OPTIONS[kind] = cls.options
        ACT[kind] = getattr(cls, "act", _no_act)
        DESCRIPTIONS[kind] = description
        return cls

    return deco


def _no_act(g: Game, f: Frame, action: int) -> None:
    raise AssertionError(f"frame {f['k']} takes no decision")


def push(g: Game, frame: Frame) -> Frame:
    g.stack.append(frame)
    return frame


def pop(g: Game) -> Frame:
    return g.stack.pop()


def choices_or_pop(g: Game, actions: list[int]) -> list[int] | None:
    """The sorted actions of a pending decision, or, when there is nothing to choose, pop the
    frame and return ``None`` (the usual ending of an ``options`` function)."""
    if not actions:
        g.stack.pop()
        return None
    actions.sort()
    return actions


def call(g: Game, frame: Frame) -> None:
    """Push ``frame`` as a child of the current top frame: the child records ``up``, the index
    of its parent, where it may write a verdict ``r``."""
    frame["up"] = len(g.stack) - 1
    g.stack.append(frame)


def reply(g: Game, f: Frame, verdict: int) -> None:
    """Write ``verdict`` into the parent frame of ``f``."""
    up = f.get("up", -1)
    if up >= 0:
        g.stack[up]["r"] = verdict


def frame_kinds() -> list[str]:
    """All registered frame kinds, sorted (a stable index for observations)."""
    return sorted(OPTIONS)
