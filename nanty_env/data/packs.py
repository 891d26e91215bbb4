"""Reading a ruleset's content pack of sections: the shipped files, or a user's own in their place.

A pack holds sections, one TOML file each (``files``: file name -> section key). A user's pack
is a directory holding some of those files or a single TOML file holding some of the sections
as top-level arrays; every section it does not give comes from the shipped files. The raw bytes
are kept, so a pack can be cached and identified by the SHA-256 of its contents.
"""

from __future__ import annotations

import functools
import hashlib
import os
import tomllib
from collections.abc import Callable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from nanty_env.data.validation import DataError

__all__ = ["Source", "cached_by_pack", "pack_digest", "read_pack", "section_docs"]

T = TypeVar("T")

Source = tuple[str, str, bytes]
"""One section of a pack: (section key, label used in error messages, raw TOML)."""


def read_pack(
    files: Mapping[str, str], package: str, shipped: str, content: str | None = None
) -> tuple[Source, ...]:
    """The raw TOML of every section of the pack at ``content`` (``None``: the shipped files of
    ``package``, labelled ``shipped`` + file name), in ``files`` order."""
    sections = {section: name for name, section in files.items()}
    given: dict[str, tuple[str, bytes]] = {}
    if content is not None:
        path = Path(content)
        if path.is_dir():
            unknown = sorted(p.name for p in path.glob("*.toml") if p.name not in files)
            if unknown:
                raise DataError(
                    f"{path}: unknown file(s) {', '.join(unknown)}; a pack may hold "
                    f"{', '.join(files)}"
                )
            for name, section in files.items():
                if (path / name).is_file():
                    given[section] = (str(path / name), _read_bytes(path / name))
        elif path.is_file():
            raw = _read_bytes(path)
            doc = _parse(str(path), raw)
            unknown = sorted(set(doc) - set(sections))
            if unknown:
                raise DataError(
                    f"{path}: unknown top-level key(s) {', '.join(unknown)}; expected some of "
                    f"{', '.join(sections)}"
                )
            for section in doc:
                given[section] = (f"{path} [{section}]", raw)
        else:
            raise DataError(f"{path}: no such content pack (a TOML file or a directory)")
    out = []
    for name, section in files.items():
        label, raw = given.get(section, (f"{shipped}{name}", b""))
        out.append((section, label, raw or resources.files(package).joinpath(name).read_bytes()))
    return tuple(out)


def section_docs(sources: tuple[Source, ...]) -> dict[str, tuple[str, dict[str, Any]]]:
    """Each section's label and parsed document (a single-file pack's section cut out)."""
    docs = {}
    for section, label, raw in sources:
        doc = _parse(label, raw)
        if label.endswith("]"):  # one section of a single-file pack
            doc = {section: doc.get(section)}
        docs[section] = (label, doc)
    return docs


def pack_digest(sources: tuple[Source, ...]) -> str:
    """The SHA-256 identifying a pack's contents."""
    digest = hashlib.sha256()
    for section, _, raw in sources:
        digest.update(section.encode() + b"\0" + raw + b"\0")
    return digest.hexdigest()


def cached_by_pack(
    load: Callable[[str | None], Any], build: Callable[[Any, str | None], T]
) -> Callable[[str | None], T]:
    """``build(load(content), content)`` for the shipped pack (``content`` None, built once) or
    the user's pack at ``content``, cached by the SHA-256 of its files (``load(content).digest``;
    re-read only when a file's size or modification time changes)."""

    @functools.cache
    def shipped() -> T:
        return build(load(None), None)

    @functools.lru_cache(maxsize=16)
    def by_digest(digest: str, content: str) -> T:
        return build(load(content), content)

    @functools.lru_cache(maxsize=64)
    def digest_by_stat(content: str, stamp: tuple[Any, ...]) -> str:
        """The digest of a user's pack as it is on disk at ``stamp`` (file sizes and times)."""
        return str(load(content).digest)

    def cached(content: str | None = None) -> T:
        if content is None:
            return shipped()
        return by_digest(digest_by_stat(content, _stamp(content)), content)

    return cached


def _stamp(content: str) -> tuple[Any, ...]:
    """Size and modification time of the pack's files: a cheap test that it is unchanged."""
    paths = [content]
    if os.path.isdir(content):
        paths = sorted(os.path.join(content, x) for x in os.listdir(content))
    out = []
    for p in paths:
        try:
            st = os.stat(p)
        except OSError:
            continue
        out.append((p, st.st_size, st.st_mtime_ns))
    return tuple(out)


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise DataError(f"{path}: cannot read content pack: {exc}") from exc


def _parse(label: str, raw: bytes) -> dict[str, Any]:
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise DataError(f"{label}: cannot parse TOML: {exc}") from exc
