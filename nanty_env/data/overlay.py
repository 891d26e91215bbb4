"""A base-game content pack: the shipped content with a few items replaced.

A pack is a directory of TOML files named like the shipped ones (``cards.toml``,
``events.toml``, ``personalities.toml`` ...). Each lists items of that file's kinds
(``[[card]]``, ``[[event]]`` ...) in the shipped format; an item replaces the shipped item named
by its ``replaces`` key (its own id when absent) in place, so every index, deck size and the
action space stay as they are. The result is validated like the shipped content
(:func:`~nanty_env.data.loader.build_game_data`): a bad item fails with the shipped file's
messages. A ruleset builds its tables from it (``docs/rulesets.md``).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from nanty_env.data.loader import DATA_FILES, DataError, build_game_data, read_data_file
from nanty_env.data.model import GameData


def overlay(shipped: Mapping[str, Any], pack: Mapping[str, Any], file: str) -> dict[str, Any]:
    """``shipped`` (a parsed data file) with the items of ``pack`` laid over it by id."""
    out = dict(shipped)
    for key, items in pack.items():
        if not isinstance(items, list) or not isinstance(out.get(key), list):
            raise DataError(f"{file}: {key!r} is not a list of items of the shipped file")
        rows = list(out[key])
        index = {row.get("id"): i for i, row in enumerate(rows)}
        for item in items:
            item = dict(item)
            target = item.pop("replaces", item.get("id"))
            if target not in index:
                raise DataError(f"{file}: no shipped {key} {target!r} to replace")
            rows[index[target]] = item
        out[key] = rows
    return out


def load_game_data_with(pack: str | Path) -> GameData:
    """The shipped content with the content pack in directory ``pack`` laid over it."""
    root = Path(pack)
    docs: dict[str, Any] = {}
    for name in DATA_FILES:
        doc = read_data_file(name)
        path = root / name
        if path.is_file():
            try:
                doc = overlay(doc, tomllib.loads(path.read_text(encoding="utf-8")), str(path))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
                raise DataError(f"{path}: cannot read the content pack: {exc}") from exc
        docs[name] = doc
    unknown = sorted(p.name for p in root.glob("*.toml") if p.name not in DATA_FILES)
    if unknown:
        raise DataError(f"{root}: not files of the base game's content: {unknown}")
    return build_game_data(docs)
