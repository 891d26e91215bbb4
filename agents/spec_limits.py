"""What a bot spec from outside the user's own command line may ask for.

A checkpoint's hint bot, a journal's or a record's players and a web request's bots are text
that somebody else may have written. Such a spec may name only a shipped bot, with options
from an allow-list, each of a known type and within bounds, so that it can never import,
call or open anything by name (no ``package.module:Class``, no plug-in, no ``path=``, no
model file) and never asks for unbounded work (``ismcts:iters=100000000``).
:func:`agents.registry.untrusted_spec` applies a :class:`SpecLimits`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from agents.evaluation import Weights


@dataclass(frozen=True)
class Bound:
    """One option's type and range (``choices``: the only values a text option may take)."""

    kind: type  # int, float or str
    low: float = -math.inf
    high: float = math.inf
    choices: tuple[Any, ...] = ()
    pattern: str = ""  # a text option: the regular expression it must match whole

    def check(self, value: Any) -> str | None:
        """Why ``value`` is refused (``None``: accepted)."""
        if self.choices:
            return None if value in self.choices else f"must be one of {list(self.choices)}"
        if self.kind is str:
            ok = isinstance(value, str) and re.fullmatch(self.pattern, value) is not None
            return None if ok else f"must match {self.pattern}"
        if self.kind is int and (not isinstance(value, int) or isinstance(value, bool)):
            return "must be an integer"
        if self.kind is float and (isinstance(value, bool) or not isinstance(value, int | float)):
            return "must be a number"
        if not math.isfinite(value) or not self.low <= value <= self.high:
            return f"must be from {_number(self.low)} to {_number(self.high)}"
        return None


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


@dataclass(frozen=True)
class SpecLimits:
    """The bots a spec from ``source`` may name and the options each may set."""

    source: str  # for messages: "a checkpoint's hint bot", "the web"
    bots: Mapping[str, Mapping[str, Bound]]


def _share(low: float = 0.0, high: float = 1.0) -> Bound:
    return Bound(float, low, high)


_MIXTURE = Bound(str, choices=("mean", "deals"))
_WEIGHTS = {f"w_{f.name}": Bound(float, -100.0, 100.0) for f in fields(Weights)}

_HEURISTIC = {
    "depth": Bound(int, 0, 3),
    "plan": Bound(str, choices=("turn", "greedy")),
    "learned": _share(),
    "mixture": _MIXTURE,
    "robust": _share(0.0, 10.0),
    "durable": _share(0.0, 10.0),
    "samples": Bound(int, 1, 16),
    "roles": Bound(str, choices=("default", "none", "prior")),
    "conceal": _share(0.0, 10.0),  # a penalty weight; costs one tracker update per candidate
}
_LEARNED = {
    "players": Bound(int, 2, 4),
    "depth": Bound(int, 0, 3),
    "robust": _share(0.0, 10.0),
    "durable": _share(0.0, 10.0),
    "samples": Bound(int, 1, 16),
    "mixture": _MIXTURE,
    "hint": _share(),
    "adapt": Bound(int, 0, 1),
    "switch": Bound(int, 0, 1),
}

# a shipped network found by the teacher's name (agents/distilled.py), never a path
_DISTILLED = {"teacher": Bound(str, choices=("heuristic", "hint"))}


def _ismcts(iters: int, seconds: float, budget: float) -> dict[str, Bound]:
    """ISMCTS's options with its work per decision (and per game) bounded."""
    return {
        "iters": Bound(int, 1, iters),
        "time": Bound(float, 0.001, seconds),
        "budget": Bound(float, 0.01, budget),
        "min_time": Bound(float, 0.0, seconds),
        "dets": Bound(int, 0, 64),
        "c": _share(0.0, 10.0),
        "prior": _share(0.0, 10.0),
        "horizon": Bound(str, choices=("round", "turn")),
        "skip": _share(),
        "temperature": Bound(float, 0.001, 10.0),
        "widen": _share(0.0, 10.0),
        "prior_depth": Bound(int, 0, 3),
        "root": Bound(str, choices=("ucb", "rr")),
        "top": Bound(int, 1, 16),
        "margin": _share(-10.0, 10.0),
        "only": Bound(str, pattern=r"([a-z_]{1,20}(\+[a-z_]{1,20}){0,7})?"),
        "learned": _share(),
        "prior_learned": _share(),
        "net": Bound(int, 0, 1),
        **_WEIGHTS,
    }


FILE_LIMITS = SpecLimits(
    "a file",
    {
        "random": {},
        "heuristic": _HEURISTIC,
        "learned": _LEARNED,
        "ismcts": _ismcts(iters=5_000, seconds=10.0, budget=600.0),
        "distilled": _DISTILLED,
        "ppo": {},
    },
)
"""Specs read from checkpoints (the hint bot), journals and records: every shipped bot but
``policy`` (which names a file), a few seconds of thinking a decision at most."""

WEB_LIMITS = SpecLimits(
    "the web",
    {
        "random": {},
        "heuristic": _HEURISTIC,
        "ismcts": _ismcts(iters=2_000, seconds=2.0, budget=120.0),
        "distilled": _DISTILLED,
        "ppo": {},
    },
)
"""Specs a browser may send to ``nanty serve``: the bots offered there, at most about two
seconds of thinking a decision."""
