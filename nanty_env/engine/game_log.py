"""The game log: lines that clones share until one of them writes.

A game's log only grows, and a copy of a game (``Game.clone``) starts with every line of the
original. :class:`GameLog` lets the two share one list: each knows how many of its lines are
its own (``_n``), and the first to append after the copy appends in place; the other, finding
the list longer than its own lines, copies its prefix before appending. So copying a game costs
the same whatever the length of its log, and a look-ahead that never logs never copies it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any, overload


class GameLog:
    """An append-only list of log lines (indexing, slicing, ``len``, iteration and ``==``
    with lists work as on a list; slices are lists)."""

    __slots__ = ("_lines", "_n")

    def __init__(self, lines: Iterable[str] = ()) -> None:
        self._lines = list(lines)
        self._n = len(self._lines)

    def append(self, line: str) -> None:
        if len(self._lines) != self._n:  # a copy has appended to the shared list
            self._lines = self._lines[: self._n]
        self._lines.append(line)
        self._n += 1

    def copy(self) -> GameLog:
        """A log with the same lines, sharing them until either appends."""
        # the class's own __new__ without __init__ (object's in the pure build); compiled, an
        # extension type's C slot (``game_log.pxd``), as ``GameRng.copy`` does
        cls = type(self)
        c = cls.__new__(cls)
        c._lines = self._lines
        c._n = self._n
        return c

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> list[str]: ...
    def __getitem__(self, i: int | slice) -> str | list[str]:
        if isinstance(i, slice):
            return self._lines[: self._n][i]
        if not -self._n <= i < self._n:
            raise IndexError("game log index out of range")
        return self._lines[i % self._n]

    def __iter__(self) -> Iterator[str]:
        return islice(self._lines, self._n)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, GameLog | list):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, like a list

    def __reduce__(self) -> tuple[Any, ...]:
        return (GameLog, (self._lines[: self._n],))  # only its own lines

    def __repr__(self) -> str:
        return f"GameLog({self._lines[: self._n]!r})"
