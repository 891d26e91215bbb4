"""Code blocks of the docs, so that tests run what the docs show (and the docs cannot rot)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1] / "docs"
_FENCE = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```", re.S | re.M)


@dataclass(frozen=True)
class Snippet:
    lang: str
    title: str  # the fence's title="..." (a file name), or ""
    code: str


def snippets(page: str, lang: str | None = None) -> list[Snippet]:
    """The fenced code blocks of ``docs/<page>`` (of language ``lang``), in order."""
    out = []
    for m in _FENCE.finditer((DOCS / page).read_text()):
        title = re.search(r'title="([^"]+)"', m.group(2))
        s = Snippet(m.group(1), title.group(1) if title else "", m.group(3))
        if lang is None or s.lang == lang:
            out.append(s)
    return out


def titled(page: str, title: str) -> str:
    """The code of the one block titled ``title``."""
    found = [s.code for s in snippets(page) if s.title == title]
    assert len(found) == 1, f"docs/{page} has {len(found)} blocks titled {title!r}"
    return found[0]
