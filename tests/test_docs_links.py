"""The documentation's relative links and images resolve: every ``[text](path)`` and
``![alt](path)`` in README.md and docs/*.md names a file (or folder) that exists, and a
``#fragment`` names a heading of the page it points to (GitHub's anchor rules)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
CODE_SPAN = re.compile(r"`[^`\n]*`")
HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
IMG_TAG = re.compile(r"<img\b[^>]*\bsrc=\"([^\"]+)\"", re.I)
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.M)
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)  # http:, https:, mailto: ...


def prose(text: str) -> str:
    """The page without code blocks, code spans and comments (links there are not links)."""
    return CODE_SPAN.sub("", FENCE.sub("", HTML_COMMENT.sub("", text)))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: the rendered text, lower case, punctuation dropped,
    spaces as hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link shows its text
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for heading in HEADING.findall(FENCE.sub("", page.read_text(encoding="utf-8"))):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def targets(page: Path) -> list[str]:
    text = prose(page.read_text(encoding="utf-8"))
    return LINK.findall(text) + IMG_TAG.findall(text)


def broken(page: Path) -> list[str]:
    problems = []
    for target in targets(page):
        if EXTERNAL.match(target):
            continue
        path_part, _, fragment = target.partition("#")
        dest = (page.parent / path_part).resolve() if path_part else page
        if not dest.exists():
            problems.append(f"{target}: {os.path.relpath(dest, page.parent)} does not exist")
            continue
        if fragment and dest.suffix == ".md" and fragment.lower() not in anchors(dest):
            problems.append(f"{target}: no heading with anchor #{fragment} in {dest.name}")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_and_images_resolve(page: Path) -> None:
    assert broken(page) == []


def test_the_checker_sees_links_images_and_anchors(tmp_path: Path) -> None:
    (tmp_path / "img").mkdir()
    (tmp_path / "img" / "curve.png").write_bytes(b"png")
    (tmp_path / "other.md").write_text("# Other page\n\n## The `nanty eval` command · options\n")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n"
        "[ok](other.md) [ok](other.md#the-nanty-eval-command--options) [ok](#page)\n"
        "![ok](img/curve.png) [web](https://example.org/x.md)\n"
        "[missing](nowhere.md) ![missing](img/none.png) [bad anchor](other.md#nothing)\n"
        "`[not a link](code.md)`\n\n```sh\n[not a link](block.md)\n```\n"
    )
    problems = broken(page)
    assert len(problems) == 3
    assert any("nowhere.md" in p for p in problems)
    assert any("none.png" in p for p in problems)
    assert any("#nothing" in p for p in problems)


def test_the_docs_name_no_work_sessions() -> None:
    """Results are described by configuration, command and commit, never by work session."""
    pattern = re.compile(r"\bsessions?[ -]?\d", re.I)
    skip = {".git", ".venv", "runs", "__pycache__", ".ruff_cache", ".pytest_cache", "build", "dist"}
    suffixes = {".py", ".md", ".yaml", ".yml", ".toml", ".ipynb", ".cfg", ".txt"}
    hits = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in skip and not d.endswith(".egg-info")]
        for name in files:
            path = Path(folder, name)
            where = path.relative_to(ROOT)
            if pattern.search(name):
                hits.append(str(where))
            if path.suffix not in suffixes:
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if pattern.search(line):
                    hits.append(f"{where}:{n}: {line.strip()}")
    assert hits == []
