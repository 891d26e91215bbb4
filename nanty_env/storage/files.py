"""Atomic file writes, and reads that stop at a size limit (for every file the project
writes or reads: records, checkpoints, models, journals).

A reader (or a run killed half-way) sees the old file or the new one, never a torn mixture:
the new content goes to a temporary file in the same folder, is flushed to disk and then
renamed over the target (``os.replace`` is atomic on POSIX and Windows within one file system).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


@contextlib.contextmanager
def atomic_path(path: str | Path, suffix: str = "") -> Iterator[Path]:
    """A temporary path beside ``path`` to write to; renamed over ``path`` when the block
    ends without an error, removed otherwise. ``suffix`` keeps writers that insist on an
    extension (``np.savez`` adds ``.npz``) from renaming the temporary file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=f".tmp{suffix}", dir=path.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        with open(tmp_path, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp_path, path)
    finally:
        tmp_path.unlink(missing_ok=True)


def atomic_write_bytes(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically; returns ``path``."""
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)
    return Path(path)


def atomic_write_text(path: str | Path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically; returns ``path``."""
    return atomic_write_bytes(path, text.encode())


MAX_MODEL_BYTES = 64 * 2**20  # a fitted value or role model is a few hundred kB


class UnreadableFile(ValueError):
    """A file that cannot be read as what it should be (one line naming the file)."""


class FileTooLarge(UnreadableFile):
    """A file bigger than its reader's limit (nothing of it was parsed)."""


def read_capped(path: str | Path, limit: int) -> bytes:
    """The bytes of ``path``, refused with :class:`FileTooLarge` before it is read whole if
    it holds more than ``limit`` (its size is checked first and again while reading, so a
    file that grows, or a device such as ``/dev/zero``, is refused too)."""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size > limit:
            raise FileTooLarge(f"{size:,} bytes, more than the {limit:,} allowed")
        data = f.read(limit + 1)
    if len(data) > limit:
        raise FileTooLarge(f"more than the {limit:,} bytes allowed")
    return data


class BadJSON(ValueError):
    """Text that is not strict JSON (one line saying why)."""


def strict_loads(text: str) -> Any:
    """The JSON value of ``text``, refusing what Python's parser would let through or turn
    into another error: NaN and infinities, nesting too deep for the parser, integers too long
    to convert. Every fault is one :class:`BadJSON` of one line."""
    try:
        return json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise BadJSON("nested too deeply") from None
    except ValueError as e:  # JSONDecodeError, NaN, an integer of more than 4300 digits
        raise BadJSON(str(e).splitlines()[0][:200]) from None


def read_json(path: str | Path, limit: int, what: str = "JSON file") -> Any:
    """The JSON value in ``path``: size-checked before it is read (:func:`read_capped`), UTF-8,
    no NaN or infinities, nesting within the parser's depth; any fault is one
    :class:`UnreadableFile` naming ``path`` and ``what`` it should have been."""
    try:
        return strict_loads(read_capped(path, limit).decode())
    except FileTooLarge as e:
        raise FileTooLarge(f"{path}: {e}; too large for a {what}") from None
    except ValueError as e:  # BadJSON, or bytes that are not UTF-8
        raise UnreadableFile(f"{path}: not valid JSON for a {what} ({str(e)[:200]})") from None
    except OSError as e:
        raise UnreadableFile(f"{path}: cannot be read ({e.strerror or e})") from None


def read_model(path: str | Path, what: str, build: Callable[[Any], T]) -> T:
    """``build`` applied to the JSON in ``path`` (a fitted model's file, at most
    :data:`MAX_MODEL_BYTES`); a file or content that does not fit is one
    :class:`UnreadableFile` naming the file and ``what`` it should have been."""
    d = read_json(path, MAX_MODEL_BYTES, f"{what} file")
    try:
        return build(d)
    except (KeyError, TypeError, AttributeError, ValueError) as e:
        raise UnreadableFile(f"{path}: not a {what} ({str(e)[:200]})") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")
