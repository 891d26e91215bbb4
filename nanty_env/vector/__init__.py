"""Many games stepped together: the vectorised faces and their worker processes.

- ``sb3``: Stable-Baselines3's ``VecEnv`` (``make_vec_env``, ``NantyVecEnv``,
  ``SubprocNantyVecEnv``), the only module here that imports SB3;
- ``batch``: N single-learner games in one process; ``split_batch``: the same over the calling
  process and workers; ``async_vector``: EnvPool-style ``send`` / ``recv``;
- ``multi_batch``: N multi-agent games, every pending decision in one batch, ``multi_workers``
  the same in worker processes;
- ``workers``: starting and watching worker processes; ``balance``: measuring which way is faster.

``from nanty_env.vector import make_vec_env`` works as before; the SB3 names are imported on
first use, so the games and the workers stay free of SB3.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "EnvMaker",
    "NantyVecEnv",
    "SubprocNantyVecEnv",
    "VecEnvWorkerError",
    "make_vec_env",
    "process_context",
]


def __getattr__(name: str) -> Any:
    if name in ("EnvMaker", "process_context"):
        from nanty_env.vector import batch as module
    elif name == "VecEnvWorkerError":
        from nanty_env.vector import workers as module
    elif name in __all__:
        from nanty_env.vector import sb3 as module
    else:
        raise AttributeError(name)
    return getattr(module, name)
