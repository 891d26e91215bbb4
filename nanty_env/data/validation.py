"""Checked access to parsed TOML tables, raising errors that name the file and the entry.

Why a helper class rather than a schema library: the checks are few and simple, the project
keeps its core dependencies to numpy, and every message should read like
``cards.toml: card 'hex': money must be an integer, got '2'``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, NoReturn

__all__ = ["DataError", "Entry", "entries_of", "unique_ids"]


class DataError(ValueError):
    """Game content is missing, malformed or inconsistent."""


_ID_RE = re.compile(r"[a-z][a-z0-9_]*\Z")


class Entry:
    """Typed, error-reporting access to one TOML table (an area, a card, ...)."""

    def __init__(self, file: str, label: str, table: Any) -> None:
        self.file = file
        self.label = label
        if not isinstance(table, dict):
            self.fail(f"expected a table, got {type(table).__name__}")
        self.table: dict[str, Any] = table

    def fail(self, message: str) -> NoReturn:
        raise DataError(f"{self.file}: {self.label}: {message}")

    def check_keys(self, required: Sequence[str], optional: Sequence[str] = ()) -> None:
        missing = [k for k in required if k not in self.table]
        if missing:
            self.fail(f"missing key(s) {', '.join(missing)}")
        unknown = sorted(set(self.table) - set(required) - set(optional))
        if unknown:
            self.fail(f"unknown key(s) {', '.join(unknown)}")

    def text(self, key: str, *, empty: bool = False, choices: Sequence[str] = ()) -> str:
        value = self.table[key]
        if not isinstance(value, str):
            self.fail(f"{key} must be a string, got {value!r}")
        if not value and not empty:
            self.fail(f"{key} must not be empty")
        if choices and value not in choices:
            self.fail(f"{key} = {value!r} is not one of {tuple(choices)}")
        return value

    def ident(self, key: str = "id") -> str:
        value = self.text(key)
        if not _ID_RE.match(value):
            self.fail(f"{key} = {value!r} is not a lower_snake_case identifier")
        return value

    def integer(self, key: str, *, low: int | None = None, high: int | None = None) -> int:
        value = self.table[key]
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(f"{key} must be an integer, got {value!r}")
        if low is not None and value < low:
            self.fail(f"{key} = {value} is below the minimum {low}")
        if high is not None and value > high:
            self.fail(f"{key} = {value} is above the maximum {high}")
        return value

    def flag(self, key: str) -> bool:
        value = self.table[key]
        if not isinstance(value, bool):
            self.fail(f"{key} must be true or false, got {value!r}")
        return value

    def array(self, key: str) -> list[Any]:
        value = self.table[key]
        if not isinstance(value, list):
            self.fail(f"{key} must be an array, got {value!r}")
        return value

    def subtable(self, key: str) -> dict[str, Any]:
        value = self.table[key]
        if not isinstance(value, dict):
            self.fail(f"{key} must be a table, got {value!r}")
        return value


def entries_of(doc: Mapping[str, Any], file: str, key: str, count: int | None) -> list[Any]:
    """The array of tables ``[[key]]`` of a document, checking the document has nothing else."""
    if not isinstance(doc, Mapping):
        raise DataError(f"{file}: expected a TOML document, got {type(doc).__name__}")
    extra = sorted(set(doc) - {key})
    if extra:
        raise DataError(f"{file}: unknown top-level key(s) {', '.join(extra)}")
    items = doc.get(key)
    if not isinstance(items, list):
        raise DataError(f"{file}: expected an array of [[{key}]] tables")
    if count is not None and len(items) != count:
        raise DataError(f"{file}: expected {count} [[{key}]] entries, found {len(items)}")
    return items


def unique_ids(file: str, kind: str, ids: Sequence[str]) -> Mapping[str, int]:
    """Map each id to its position, failing on the first duplicate."""
    index: dict[str, int] = {}
    for i, ident in enumerate(ids):
        if ident in index:
            raise DataError(
                f"{file}: duplicate {kind} id {ident!r} (entries #{index[ident] + 1} and #{i + 1})"
            )
        index[ident] = i
    return MappingProxyType(index)
