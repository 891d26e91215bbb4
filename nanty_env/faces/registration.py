"""``gymnasium.make("NantyNarking-v0", ...)``: the single-learner env in Gymnasium's registry.

Importing ``nanty_env`` must not import Gymnasium (the rules engine stays free of RL frameworks,
and an import costs ~70 ms), so the registration is deferred: done at once if Gymnasium is
already imported, else right after Gymnasium's own import finishes, whichever comes first.
The entry point is a string, so ``nanty_env.faces.single`` itself is only imported by ``make``.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
import warnings
from types import ModuleType
from typing import Any

GYM_ID = "NantyNarking-v0"
ENTRY_POINT = "nanty_env.faces.single:NantySingleAgentEnv"


def register_gymnasium_env() -> None:
    """Put ``NantyNarking-v0`` in Gymnasium's registry now, or as soon as Gymnasium is
    imported (idempotent)."""
    gym = sys.modules.get("gymnasium")
    if gym is not None:
        if hasattr(gym, "registry"):  # not half-way through its own import
            _register(gym)
    elif not any(isinstance(f, _RegisterAfterImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _RegisterAfterImport())


def _register(gym: ModuleType) -> None:
    try:
        if GYM_ID not in gym.registry:
            gym.register(id=GYM_ID, entry_point=ENTRY_POINT)
    except Exception as exc:  # never break the user's import of gymnasium
        warnings.warn(f"could not register {GYM_ID} with gymnasium: {exc}", stacklevel=2)


class _RegisterAfterImport(importlib.abc.MetaPathFinder):
    """Finds nothing itself: when ``gymnasium`` is first imported it removes itself, lets the
    other finders find it, and has the module registered once it has run."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname != "gymnasium":
            return None
        if self in sys.meta_path:
            sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is not None and spec.loader is not None:
            spec.loader = _ThenRegister(spec.loader)
        return spec


class _ThenRegister(importlib.abc.Loader):
    """The real loader, then the registration; it puts the real loader back on the module."""

    def __init__(self, loader: Any) -> None:
        self._loader = loader

    def create_module(self, spec: Any) -> Any:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        module.__loader__ = module.__spec__.loader = self._loader
        self._loader.exec_module(module)
        _register(module)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)
