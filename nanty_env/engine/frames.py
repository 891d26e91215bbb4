"""Pending work as explicit data: a stack of frames, each a small dict, and their handlers.

A frame is a ``dict`` whose values are ints, strings or tuples (never mutated in place, so a
shallow copy clones it). ``f["k"]`` names its kind; ``f["p"]`` is the seat that owes the
decision when the frame is waiting for one. A handler has two functions:

* ``options(g, f)`` either makes automatic progress (rolls, bookkeeping, pushing or popping
  frames) and returns ``None``, or returns the legal actions of the pending decision without
  changing anything: a new list, sorted and without repeats (the game keeps it as it is, so
  the order is the handler's to get right; ``tests/engine/test_state.py`` checks it);
* ``act(g, f, action)`` applies a legal action.

Reactions write their verdict into the frame that asked for them (``f["r"]``), found by its
position ``f["up"]`` on the stack, so no callbacks or generators are needed.

Handlers live in registries, one per ruleset (``Ruleset.handlers``): the base game's
(``BASE``: ``OPTIONS``/``ACT``) and each derived ruleset's (the expansion's ``CTHULHU``), which
add new kinds or replace their parent's of the same name for that ruleset's games only.
``frame_kinds(expansion)`` lists a ruleset's kinds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from nanty_env.engine.actions import PASS
from nanty_env.engine.ruleset import find_ruleset
from nanty_env.engine.state import Act, Frame, GameState, Options

OPTIONS: dict[str, Options] = {}
ACT: dict[str, Act] = {}
DESCRIPTIONS: dict[str, str] = {}


@dataclass(frozen=True)
class Registry:
    """The frame handlers of one ruleset (an expansion's add to or replace the base game's)."""

    name: str
    options: dict[str, Options]
    act: dict[str, Act]
    descriptions: dict[str, str]


BASE = Registry("base", OPTIONS, ACT, DESCRIPTIONS)
CTHULHU = Registry("cthulhu", {}, {}, {})  # filled by ``nanty_env.engine.cthulhu``


def handler(kind: str, description: str, registry: Registry = BASE) -> Callable[[type], type]:
    """Register a class with static ``options`` and (for decisions) ``act`` for frame ``kind``
    in ``registry`` (the base game's by default)."""

    def deco(cls: type) -> type:
        if kind in registry.options:
            raise ValueError(f"frame kind {kind!r} registered twice")
        registry.options[kind] = cls.options
        registry.act[kind] = getattr(cls, "act", _no_act)
        registry.descriptions[kind] = description
        return cls

    return deco


def ruleset_handlers(
    expansion: str | None = None,
) -> tuple[dict[str, Options], dict[str, Act], dict[str, str]]:
    """The handlers in force for a ruleset: the base game's, overlaid with its descendants'."""
    return find_ruleset(expansion).frame_handlers()


def _no_act(g: GameState, f: Frame, action: int) -> None:
    raise AssertionError(f"frame {f['k']} takes no decision")


def push(g: GameState, frame: Frame) -> Frame:
    g.stack.append(frame)
    return frame


def pop(g: GameState) -> Frame:
    return g.stack.pop()


def choices_or_pop(g: GameState, actions: list[int]) -> list[int] | None:
    """The sorted actions of a pending decision, or, when there is nothing to choose, pop the
    frame and return ``None`` (the usual ending of an ``options`` function)."""
    if not actions:
        g.stack.pop()
        return None
    actions.sort()
    return actions


def pass_or_pop(g: GameState, actions: list[int]) -> list[int] | None:
    """An optional decision: PASS, then ``actions`` (in their order); or, when there is
    nothing to choose, pop the frame and return ``None``."""
    if not actions:
        g.stack.pop()
        return None
    return [PASS, *actions]


def call(g: GameState, frame: Frame) -> None:
    """Push ``frame`` as a child of the current top frame: the child records ``up``, the index
    of its parent, where it may write a verdict ``r``."""
    frame["up"] = len(g.stack) - 1
    g.stack.append(frame)


def reply(g: GameState, f: Frame, verdict: int) -> None:
    """Write ``verdict`` into the parent frame of ``f``."""
    up = f.get("up", -1)
    if up >= 0:
        g.stack[up]["r"] = verdict


def frame_kinds(expansion: str | None = None) -> list[str]:
    """The frame kinds of the base game (default) or of another ruleset, sorted (a stable
    index for observations)."""
    return sorted(ruleset_handlers(expansion)[0])
