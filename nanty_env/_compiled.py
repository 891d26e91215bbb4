"""Which build of the engine runs: the compiled modules where they were built, else the pure-Python
source (the reference).

``python -m nanty_env._build`` compiles the modules it lists with Cython from
the same ``.py`` source, in place (``engine/state.cpython-311-x86_64-linux-gnu.so`` beside
``engine/state.py``), and writes ``_compiled_manifest.json`` beside this file: each compiled
module's source hash. Python prefers an extension module to the ``.py`` beside it; the import hook
installed here (from ``nanty_env/__init__.py``, before any compiled module is imported) loads the
``.py`` instead when

- ``NANTY_PURE=1`` is set (the pure engine, for comparison and for the reference tests), or
- any compiled module's source no longer matches the hash it was compiled from (an edit after
  the build: a stale compiled module is never run; ``make`` rebuilds it). The compiled modules
  call each other through C (``cimport``), which a module loaded from source does not offer, so
  one stale module sends every module to its source until the next build, or
- the compiled modules were built for another Python.

Nothing here imports the engine; it only decides which file each module is loaded from.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import re
import sys
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
ROOT = PACKAGE_DIR.parent
# Top-level packages that may hold compiled modules (``nanty_env._build`` says which).
PACKAGES = ("nanty_env", "agents")
MANIFEST = PACKAGE_DIR / "_compiled_manifest.json"
PURE_ENV = "NANTY_PURE"
# A profile-guided build (``nanty_env._build``) first compiles instrumented modules and runs them
# once; its manifest says so meanwhile, and only that run (with this variable set) loads them: a
# build cut short there leaves the package pure until the next build.
INSTRUMENTED = "instrumented"
PROFILING_ENV = "NANTY_PROFILING_RUN"


def source_hash(path: Path) -> str:
    """The hash a compiled module records of the source it was built from: its ``.py``, and
    its augmenting ``.pxd`` (the compiled build's C declarations) with the ``.pxd`` files that
    one cimports, if any."""
    h = hashlib.blake2b(path.read_bytes(), digest_size=16)
    pxd = path.with_suffix(".pxd")
    if pxd.exists():
        text = pxd.read_bytes()
        h.update(b"\0" + text)
        for dotted in _CIMPORT.findall(text):
            other = module_path(dotted.decode()).with_suffix(".pxd")
            if other.exists():
                h.update(b"\0" + other.read_bytes())
    return h.hexdigest()


# "from M cimport name" and "cimport M as name": the modules a .pxd cimports
_CIMPORT = re.compile(rb"^(?:from|cimport)\s+([\w.]+)", re.MULTILINE)


def module_path(name: str) -> Path:
    """The ``.py`` file of the dotted module ``name`` (a package's own module is never compiled)."""
    return ROOT.joinpath(*name.split(".")).with_suffix(".py")


def pure_requested() -> bool:
    """Whether ``NANTY_PURE`` asks for the pure-Python modules ("", "0" and "false" do not)."""
    return os.environ.get(PURE_ENV, "").strip().lower() not in ("", "0", "false", "no")


def _extension_of(py: Path) -> Path | None:
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        ext = py.with_name(py.stem + suffix)
        if ext.exists():
            return ext
    return None


def _fresh_modules() -> frozenset[str]:
    """The compiled modules whose extension exists and whose source is unchanged since the build."""
    try:
        manifest = json.loads(MANIFEST.read_text())
    except (OSError, ValueError):
        return frozenset()
    if not isinstance(manifest, dict) or manifest.get("python") != sys.implementation.cache_tag:
        return frozenset()
    if manifest.get("profile") == INSTRUMENTED and os.environ.get(PROFILING_ENV) != "1":
        return frozenset()
    fresh = []
    for name, digest in dict(manifest.get("modules", {})).items():
        py = module_path(name)
        try:
            if _extension_of(py) is not None and source_hash(py) == digest:
                fresh.append(name)
        except OSError:
            continue
    return frozenset(fresh)


class _SourceFirst:
    """A meta path finder that loads listed modules from their ``.py`` source (and leaves every
    other module to the ordinary finders)."""

    def __init__(self, names: frozenset[str]) -> None:
        self.names = names

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        py = module_path(fullname)
        if not py.exists():
            return None
        return importlib.util.spec_from_file_location(fullname, py)


def built_modules() -> frozenset[str]:
    """Every module that has an extension module beside its source in these packages."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    names = []
    for package, pattern in ((p, x) for p in PACKAGES for x in ("*.so", "*.pyd")):
        for ext in (ROOT / package).rglob(pattern):
            for suffix in suffixes:
                if ext.name.endswith(suffix):
                    py = ext.with_name(ext.name.removesuffix(suffix) + ".py")
                    if py.name != "__init__.py" and py.exists():
                        names.append(".".join(py.relative_to(ROOT).with_suffix("").parts))
                    break
    return frozenset(names)


def compiled_set(built: frozenset[str], fresh: frozenset[str]) -> frozenset[str]:
    """The modules to load compiled: every built one if all of them are fresh, else none (a
    compiled module cimports others, and a module loaded from source has no C API to give)."""
    return built if built <= fresh else frozenset()


def install() -> frozenset[str]:
    """Install the import hook; returns the modules that will load compiled."""
    built = built_modules()
    if not built:
        return frozenset()
    compiled = frozenset() if pure_requested() else compiled_set(built, _fresh_modules())
    pure = built - compiled
    if pure:
        sys.meta_path.insert(0, _SourceFirst(pure))
    return compiled


COMPILED = install()


def is_compiled(module: object) -> bool:
    """Whether ``module`` (a module object) was loaded from a compiled extension."""
    file = getattr(module, "__file__", "") or ""
    return file.endswith((".so", ".pyd"))
