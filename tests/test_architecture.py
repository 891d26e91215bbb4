"""The architecture, pinned: no two modules import each other, imports run only downward through
the layers, and ``nanty_env/`` shows its concerns as folders.

Every project ``.py`` file is parsed (nothing is imported) and every ``import`` statement in it
counts, at module level and inside functions alike: a function-level import is a dependency
too, only a later one. What does not count:

- Python importing a module's parent packages first: a package's ``__init__`` may import its own
  submodules (``nanty_env/__init__.py`` imports ``nanty_env.faces``), but a submodule that
  imports from its package's ``__init__`` makes an edge like any other import, and with it a
  cycle;
- imports under ``if TYPE_CHECKING:``, which never run, for the cycles: they must still go
  downward, and outside :data:`TYPE_ONLY_BACK_EDGES` they may not close a cycle either;
- a module named by a string (``importlib.import_module``, a bot spec, an entry point), which
  is how plug-ins and the registry's built-in bots are loaded.

The layers, lowest first, are :data:`LAYERS`: ``engine`` <- the rest of ``nanty_env`` <-
``agents`` <- ``arena`` <- ``training`` <- ``nanty_app`` <- the tools (``lab``, then
benchmarks, tests, docs and notebooks). A module may import from its own group and from lower
layers; two groups of one layer (``encoding`` and ``presentation``) do not import each other.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOP_FOLDERS = (
    "nanty_env",
    "agents",
    "arena",
    "training",
    "nanty_app",
    "lab",
    "benchmarks",
    "tests",
    "docs",
    "notebooks",
)

# Lowest first; each entry one layer of groups (module-name prefixes).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("nanty_env._compiled",),  # which build of a module loads (imports nothing)
    ("nanty_env.data",),  # the content: cards, board, themes, their schema
    ("nanty_env.engine",),  # the rules
    ("nanty_env.encoding", "nanty_env.presentation"),  # what learners see; what people read
    ("nanty_env.storage",),  # game records and files
    ("nanty_env._build",),  # compiling the engine (its outputs written by storage's atomic writes)
    ("nanty_env.faces",),  # the AEC, parallel and single-learner envs
    ("nanty_env.vector",),  # many games at once, worker processes
    ("nanty_env",),  # the package's own ``__init__``: its public names
    ("agents",),
    ("arena",),
    ("training",),
    ("nanty_app",),
    ("lab",),
    ("benchmarks", "tests", "docs", "notebooks"),
)
EXACT_GROUPS = {"nanty_env"}  # the package itself, not everything under it

# What ``nanty_env/`` may hold at its top level: the package, the build helpers, the concerns.
NANTY_ENV_MODULES = {"__init__.py", "_build.py", "_compiled.py"}
NANTY_ENV_FOLDERS = {"data", "engine", "encoding", "presentation", "storage", "faces", "vector"}

# Type-only imports that close a cycle, allowed: a ruleset's hooks are typed with the state,
# frames, config and tables they receive (and the state holds its ruleset), while at run time
# ``engine.ruleset`` imports nothing of the engine, so that every engine module may ask it;
# ``determinize`` annotates the ``Game`` it resamples, and ``game`` imports it through the
# base ruleset.
TYPE_ONLY_BACK_EDGES = {
    ("nanty_env.engine.ruleset", "nanty_env.engine.config"),
    ("nanty_env.engine.ruleset", "nanty_env.engine.frames"),
    ("nanty_env.engine.ruleset", "nanty_env.engine.state"),
    ("nanty_env.engine.ruleset", "nanty_env.engine.tables"),
    ("nanty_env.engine.determinize", "nanty_env.engine.game"),
}


@dataclass(frozen=True)
class Edge:
    """One import statement from ``source`` (a module) of ``target`` (a project module)."""

    source: str
    target: str
    path: str
    line: int
    type_only: bool

    def __str__(self) -> str:
        kind = " (type-only)" if self.type_only else ""
        return f"{self.path}:{self.line}: {self.source} imports {self.target}{kind}"


def project_modules(root: Path, folders: Iterable[str] = TOP_FOLDERS) -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` file under ``folders`` of ``root``."""
    modules = {}
    for folder in folders:
        for path in sorted((root / folder).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if "__pycache__" in parts or any(p.startswith(".") for p in parts):
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """The ids of every node under an ``if TYPE_CHECKING:`` (not its ``else``)."""
    inside = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", None)
            if name == "TYPE_CHECKING":
                for stmt in node.body:
                    inside.update(id(n) for n in ast.walk(stmt))
    return inside


def _resolve(name: str, modules: Mapping[str, Path]) -> str | None:
    """The project module that an import of ``name`` loads last (its longest known prefix)."""
    parts = name.split(".")
    while parts:
        if ".".join(parts) in modules:
            return ".".join(parts)
        parts.pop()
    return None


def import_edges(root: Path, modules: Mapping[str, Path]) -> list[Edge]:
    """Every import of a project module by a project module (not of itself)."""
    edges = []
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        type_only = _type_checking_nodes(tree)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: from the package, up level - 1
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                # ``from pkg import sub`` imports the module ``pkg.sub``; else names of ``pkg``
                names = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                    for a in node.names
                ]
            else:
                continue
            for name in names:
                target = _resolve(name, modules)
                if target is not None and target != module:
                    rel = path.relative_to(root).as_posix()
                    edges.append(Edge(module, target, rel, node.lineno, id(node) in type_only))
    return list(dict.fromkeys(edges))  # one per statement and module imported


def cycles(edges: Iterable[Edge]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    graph: dict[str, set[str]] = {}
    for e in edges:
        graph.setdefault(e.source, set()).add(e.target)
        graph.setdefault(e.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def cycle_report(edges: list[Edge]) -> str:
    """Each cycle with the imports that close it, one per line ("" if there is none)."""
    lines = []
    for component in cycles(edges):
        members = set(component)
        lines.append("cycle: " + " <-> ".join(component))
        lines += [f"  {e}" for e in edges if e.source in members and e.target in members]
    return "\n".join(lines)


def group_of(module: str) -> tuple[int, str] | None:
    """(layer, group) of ``module``: its longest matching group in :data:`LAYERS`."""
    best = None
    for level, groups in enumerate(LAYERS):
        for group in groups:
            under = group not in EXACT_GROUPS and module.startswith(group + ".")
            if (module == group or under) and (best is None or len(group) > len(best[1])):
                best = (level, group)
    return best


def layer_violations(edges: Iterable[Edge]) -> list[str]:
    """Imports that go up a layer or across to another group of the same layer."""
    bad = []
    for e in edges:
        source, target = group_of(e.source), group_of(e.target)
        assert source and target, f"{e}: a module outside LAYERS; give it a layer"
        if target[0] > source[0]:
            bad.append(f"{e}: up from {source[1]} to {target[1]}")
        elif target[0] == source[0] and target[1] != source[1]:
            bad.append(f"{e}: across from {source[1]} to {target[1]} (one layer)")
    return bad


@pytest.fixture(scope="module")
def edges() -> list[Edge]:
    return import_edges(ROOT, project_modules(ROOT))


def test_no_module_imports_another_that_imports_it_back(edges: list[Edge]) -> None:
    report = cycle_report([e for e in edges if not e.type_only])
    assert not report, "modules import each other (directly or round a loop):\n" + report


def test_type_only_imports_close_no_other_cycle(edges: list[Edge]) -> None:
    allowed = [e for e in edges if e.type_only and (e.source, e.target) in TYPE_ONLY_BACK_EDGES]
    stale = TYPE_ONLY_BACK_EDGES - {(e.source, e.target) for e in allowed}
    assert not stale, f"no longer imported for types only: drop from TYPE_ONLY_BACK_EDGES: {stale}"
    report = cycle_report([e for e in edges if e not in allowed])
    assert not report, (
        "cycles, counting type-only imports too (but TYPE_ONLY_BACK_EDGES):\n" + report
    )


def test_imports_run_down_the_layers(edges: list[Edge]) -> None:
    bad = layer_violations(edges)
    assert not bad, "imports against the layers (see LAYERS):\n" + "\n".join(bad)


def test_nanty_env_top_level_shows_the_concerns() -> None:
    top = ROOT / "nanty_env"
    modules = {p.name for p in top.glob("*.py")}
    assert modules == NANTY_ENV_MODULES, (
        f"nanty_env/ holds modules {sorted(modules - NANTY_ENV_MODULES)} beside its "
        f"subpackages (or lacks {sorted(NANTY_ENV_MODULES - modules)}): put a module in the "
        "folder of its concern"
    )
    folders = {p.name for p in top.iterdir() if p.is_dir() and any(p.rglob("*.py"))}
    assert folders == NANTY_ENV_FOLDERS, (
        f"nanty_env/ folders {sorted(folders ^ NANTY_ENV_FOLDERS)}: a new concern gets a "
        "layer in LAYERS and a line in NANTY_ENV_FOLDERS"
    )
    for folder in NANTY_ENV_FOLDERS:
        assert (top / folder / "__init__.py").is_file(), f"nanty_env/{folder} is no package"


def _tree(root: Path, files: Mapping[str, str]) -> list[Edge]:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return import_edges(root, project_modules(root, ["pkg"]))


def test_the_checks_find_a_cycle_a_climb_and_a_crossing(tmp_path: Path) -> None:
    """The checks above would fail: a cycle closed by a function-level import, one through a
    package's ``__init__``, an upward import and one across a layer are all found, and named;
    a package importing its own submodules and a type-only import are no cycle."""
    edges = _tree(
        tmp_path / "one",
        {
            "pkg/__init__.py": "from pkg.a import y\n",
            "pkg/a.py": "import pkg.b\ny = 1\n",
            "pkg/b.py": "from pkg import c\n",
            "pkg/c.py": "def f():\n    from pkg.a import y\n",
            "pkg/d.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.e import z\n",
            "pkg/e.py": "from pkg.d import w\n",
        },
    )
    report = cycle_report([e for e in edges if not e.type_only])
    assert report.splitlines()[0] == "cycle: pkg.a <-> pkg.b <-> pkg.c"
    assert "pkg/c.py:2: pkg.c imports pkg.a" in report  # the function-level import
    assert "cycle: pkg.d <-> pkg.e" in cycle_report(edges)  # counted with type-only imports
    assert "pkg/d.py:3: pkg.d imports pkg.e (type-only)" in cycle_report(edges)
    edges = _tree(
        tmp_path / "two",
        {"pkg/__init__.py": "from pkg.b import x\n", "pkg/b.py": "from pkg import y\nx = 1\n"},
    )
    assert cycle_report(edges) == (
        "cycle: pkg <-> pkg.b\n"
        "  pkg/__init__.py:1: pkg imports pkg.b\n"
        "  pkg/b.py:1: pkg.b imports pkg"
    )
    up = Edge("nanty_env.engine.state", "agents.base", "x.py", 3, False)
    across = Edge(
        "nanty_env.encoding.observation", "nanty_env.presentation.words", "y.py", 4, False
    )
    down = Edge("nanty_app.cli", "nanty_env.engine", "z.py", 5, False)
    assert layer_violations([up, across, down]) == [
        f"{up}: up from nanty_env.engine to agents",
        f"{across}: across from nanty_env.encoding to nanty_env.presentation (one layer)",
    ]
