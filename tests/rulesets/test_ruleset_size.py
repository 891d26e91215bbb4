"""The size measure of a ruleset's own code (``benchmarks/ruleset_size.py``): code lines leave
out blank lines, comments and docstrings, and count every line of a multi-line statement."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("ruleset_size", ROOT / "benchmarks/ruleset_size.py")
assert _spec is not None and _spec.loader is not None
ruleset_size = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ruleset_size)

SAMPLE = '''"""A module docstring
over two lines."""

X = 1  # a comment after code counts
"""X's attribute docstring."""

# a comment line


def f(a: int) -> int:
    """One line."""
    return (
        a
        + 1
    )


class C:
    """Doc."""

    y = "a string value is code"
'''


def test_code_lines_leave_out_docs_comments_and_blanks() -> None:
    # X = 1, def f, return (, a, + 1, ), class C, y = ...
    assert ruleset_size.code_lines(SAMPLE) == 8
    assert ruleset_size.code_lines("") == 0


def test_the_expansion_is_measured_from_git() -> None:
    files, physical, code = ruleset_size.size("HEAD", "cthulhu")
    listed = ruleset_size.ruleset_files("HEAD", "cthulhu")
    assert files == len(listed) > 20 and 0 < code < physical
    assert not any(f.startswith(("tests/", "benchmarks/")) for f in listed)
