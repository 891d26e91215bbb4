"""Build bots from short text specs, as used by the CLI and tournaments.

A spec is a bot name, optionally followed by ``:key=value`` options, e.g. ``random``,
``heuristic``, ``heuristic:depth=0``, ``ismcts:iters=300``, ``ismcts:time=0.2``,
``policy:path=checkpoints/best.zip``. Tournaments pass specs (not bot objects) to their worker
processes, which build the bots themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agents.base import Bot


def _random(**kw: Any) -> Bot:
    from agents.random_bot import RandomBot

    return RandomBot(**kw)


def _heuristic(**kw: Any) -> Bot:
    from agents.heuristic import HeuristicBot

    if kw.get("roles") in ("none", "prior"):
        kw.pop("roles")
        kw["role_model"] = None
    return HeuristicBot(**kw)


def _ismcts(**kw: Any) -> Bot:
    from agents.evaluation import Weights
    from agents.ismcts import ISMCTSBot

    # ``w_<name>=x`` sets one evaluation weight (e.g. ``ismcts:w_points=0.5``).
    weights = {k[2:]: float(kw.pop(k)) for k in list(kw) if k.startswith("w_")}
    if weights:
        kw["weights"] = Weights(**weights)
    return ISMCTSBot(**kw)


def _learned(**kw: Any) -> Bot:
    from agents.learned_bot import LearnedBot

    return LearnedBot(**kw)


def _policy(**kw: Any) -> Bot:
    from agents.policy import PolicyBot

    return PolicyBot(**kw)


BOTS: dict[str, Callable[..., Bot]] = {
    "random": _random,
    "heuristic": _heuristic,
    "ismcts": _ismcts,
    "learned": _learned,
    "policy": _policy,
}


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"ismcts:iters=300:c=0.7"`` -> ``("ismcts", {"iters": 300, "c": 0.7})``."""
    name, *opts = spec.strip().split(":")
    kwargs: dict[str, Any] = {}
    for opt in opts:
        if "=" not in opt:
            raise ValueError(f"bad option {opt!r} in bot spec {spec!r} (want key=value)")
        k, v = opt.split("=", 1)
        kwargs[k.strip()] = _value(v.strip())
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(sorted(BOTS))}")
    return name, kwargs


def _value(v: str) -> Any:
    for conv in (int, float):
        try:
            return conv(v)
        except ValueError:
            pass
    return v


def make_bot(spec: str) -> Bot:
    """A fresh bot from its spec; its ``name`` becomes the spec."""
    name, kwargs = parse_spec(spec)
    bot = BOTS[name](**kwargs)
    bot.name = spec.strip()
    return bot
