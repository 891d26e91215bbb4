"""The text of a dataclass's standard ``repr``, for the classes the compiled build makes
extension types (``nanty_env._build.C_CLASSES``).

Cython's own dataclass ``__repr__`` keeps its recursion guard in a thread-local object that
only the importing thread initialises, so it fails in any other thread (a web server's, a
worker's); those classes define ``__repr__`` with :func:`fields_repr` instead.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def fields_repr(obj: Any) -> str:
    """``Class(field=value, ...)`` over the fields shown in a repr, as ``dataclass`` writes it."""
    shown = [f"{f.name}={getattr(obj, f.name)!r}" for f in fields(obj) if f.repr]
    return f"{type(obj).__qualname__}({', '.join(shown)})"
