"""nanty-narking: Nanty Narking (Discworld: Ankh-Morpork re-themed) for reinforcement learning.

``nanty_env.env()`` / ``raw_env`` / ``parallel_env`` are the PettingZoo faces; the single-learner
Gymnasium env is ``gymnasium.make("NantyNarking-v0", ...)``. Gymnasium and PettingZoo are
imported lazily, so the rules engine in ``nanty_env.engine`` works without them.

The package by concern (each imports only the ones before it, and nothing of ``agents`` and
above; ``tests/test_architecture.py`` checks it): ``data`` (the content) and ``engine`` (the
rules); ``encoding`` (observations, masks, each ruleset's spaces); ``presentation`` (words, text
and pictures); ``storage`` (game records, files); ``faces`` (the AEC, parallel and
single-learner envs); ``vector`` (many games at once, worker processes).

The engine runs compiled where ``python -m nanty_env._build`` built it (``make`` does), and as
its pure-Python source otherwise or with ``NANTY_PURE=1`` (``nanty_env._compiled``).
"""

from __future__ import annotations

from typing import Any

from nanty_env import _compiled  # noqa: F401  (first: picks compiled or pure modules)
from nanty_env.faces.registration import GYM_ID, register_gymnasium_env

__all__ = ["GYM_ID", "env", "parallel_env", "raw_env"]

register_gymnasium_env()


def __getattr__(name: str) -> Any:
    if name in ("env", "raw_env"):
        from nanty_env.faces import aec as module

        return getattr(module, name)
    if name == "parallel_env":
        from nanty_env.faces.parallel import parallel_env

        return parallel_env
    raise AttributeError(name)
