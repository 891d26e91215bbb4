"""An observation layout from its field table: ``(name, size, meaning)`` rows in order give
each field's slice of the vector and the Markdown table the docs show (every ruleset's
observation module describes its fields this way)."""

from __future__ import annotations

from collections.abc import Sequence

Field = tuple[str, int, str]


def field_slices(fields: Sequence[Field]) -> dict[str, slice]:
    """Each field's slice of the observation vector, the fields laid end to end."""
    out, pos = {}, 0
    for name, size, _ in fields:
        out[name] = slice(pos, pos + size)
        pos += size
    return out


def fields_table(fields: Sequence[Field]) -> str:
    """The layout as a Markdown table: slice, name, size, meaning."""
    slices = field_slices(fields)
    rows = ["| slice | name | size | meaning |", "|---|---|---|---|"]
    for name, size, meaning in fields:
        s = slices[name]
        rows.append(f"| {s.start}:{s.stop} | `{name}` | {size} | {meaning} |")
    return "\n".join(rows)
