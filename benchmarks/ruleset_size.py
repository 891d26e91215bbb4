"""How much code a ruleset's own modules hold, at any commit: physical lines, and code lines
(non-blank lines that are not comments or docstrings, the convention of ``cloc``).

    python benchmarks/ruleset_size.py                     # the expansion at HEAD
    python benchmarks/ruleset_size.py ba38475 HEAD        # before and after, with the change

A ruleset's own modules are the tracked ``.py`` files whose path names it (``cthulhu``), outside
``tests/`` and ``benchmarks/``.
"""

from __future__ import annotations

import argparse
import ast
import io
import itertools
import subprocess
import tokenize

_SKIPPED = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}
_SKIPPED.add(tokenize.ENDMARKER)
_OUTSIDE = ("tests/", "benchmarks/")


def _is_string(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and (isinstance(node.value.value, str))
    )


def docstring_lines(tree: ast.Module) -> set[int]:
    """The lines of every docstring: a module's, class's or function's first statement, and
    an attribute's string right after its assignment."""
    out: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list) or not body:
            continue
        strings = [body[0]] if _is_string(body[0]) else []
        strings += [
            b for a, b in itertools.pairwise(body) if isinstance(a, ast.Assign | ast.AnnAssign)
        ]
        for s in strings:
            if _is_string(s):
                out.update(range(s.lineno, (s.end_lineno or s.lineno) + 1))
    return out


def code_lines(source: str) -> int:
    """Lines holding a token of code (not a comment, blank or docstring line)."""
    docs = docstring_lines(ast.parse(source))
    lines: set[int] = set()
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type not in _SKIPPED:
            lines.update(n for n in range(tok.start[0], tok.end[0] + 1) if n not in docs)
    return len(lines)


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], capture_output=True, text=True, check=True).stdout


def ruleset_files(rev: str, name: str) -> list[str]:
    files = _git("ls-tree", "-r", "--name-only", rev).split()
    return [f for f in files if name in f and f.endswith(".py") and not f.startswith(_OUTSIDE)]


def size(rev: str, name: str) -> tuple[int, int, int]:
    """(files, physical lines, code lines) of ruleset ``name``'s own modules at ``rev``."""
    files = ruleset_files(rev, name)
    sources = [_git("show", f"{rev}:{f}") for f in files]
    return len(files), sum(s.count("\n") for s in sources), sum(map(code_lines, sources))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("revs", nargs="*", default=["HEAD"], help="commits (default HEAD)")
    ap.add_argument("--ruleset", default="cthulhu", help="the name in the modules' paths")
    args = ap.parse_args(argv)
    first = None
    for rev in args.revs:
        files, physical, code = size(rev, args.ruleset)
        change = ""
        if first is not None:
            change = f"  ({physical / first[0] - 1:+.1%} physical, {code / first[1] - 1:+.1%} code)"
        first = first or (physical, code)
        print(f"{rev}: {files} files, {physical} physical lines, {code} code lines{change}")


if __name__ == "__main__":
    main()
