"""Compile the engine (and the other listed modules) with Cython from the same ``.py`` source.

    python -m nanty_env._build            # build what changed, in place, then write the manifest
    python -m nanty_env._build --clean    # remove every compiled module (the pure engine remains)

Needs Cython and a C compiler (``pip install cython``; gcc or clang). Without them it says so
and exits 0: the package then runs the pure-Python modules, which stay the reference. The
manifest it writes (``nanty_env/_compiled_manifest.json``) records each module's source hash,
so that a module edited after the build loads from its source until the next build
(``nanty_env/_compiled.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import sysconfig
import time
from pathlib import Path

from nanty_env._compiled import MANIFEST, ROOT, module_path, source_hash

# Packages whose every module (but ``__init__``) is compiled, and single modules beside them.
PACKAGES = ("nanty_env/engine", "nanty_env/engine/effects", "nanty_env/engine/cthulhu")
# The observation encoders (1.2-1.3x compiled). The bots' look-ahead (agents/evaluation.py,
# heuristic.py, ismcts.py) was measured compiled too and gained nothing per game (0.99-1.06x,
# docs/performance.md), so it stays pure; it speeds up with the engine it calls.
MODULES = ("nanty_env.encoding.observation", "nanty_env.encoding.cthulhu_observation")
# Modules that stay pure Python because they run slower compiled: ``Game.clone()`` sets some
# forty slots of a Python class, which CPython 3.11's specialised bytecode does about twice as
# fast as the generic attribute calls of compiled code (docs/performance.md, compiled build).
EXCLUDED = ("nanty_env.engine.game", "nanty_env.engine.cthulhu.game")

BUILD_DIR = ROOT / "build" / "cython"  # the generated C files

DIRECTIVES = {
    "language_level": 3,
    # Annotations are not C types here: an ``int`` parameter keeps accepting numpy integers and
    # ``bool``s, a ``list`` one any sequence, exactly as in the pure-Python source.
    "annotation_typing": False,
    "binding": True,
    "embedsignature": False,
    "always_allow_keywords": True,
}


def module_names() -> list[str]:
    names = []
    for package in PACKAGES:
        for py in sorted((ROOT / package).glob("*.py")):
            if py.name == "__init__.py":
                continue
            names.append(".".join(py.relative_to(ROOT).with_suffix("").parts))
    names += [m for m in MODULES if m not in names]
    return [n for n in names if n not in EXCLUDED]


def extensions_of(name: str) -> list[Path]:
    py = module_path(name)
    return sorted(py.parent.glob(py.stem + ".*.so")) + sorted(py.parent.glob(py.stem + ".*.pyd"))


def clean() -> None:
    for name in module_names() + list(EXCLUDED):
        for ext in extensions_of(name):
            ext.unlink()
        (BUILD_DIR / module_path(name).relative_to(ROOT)).with_suffix(".c").unlink(missing_ok=True)
    if MANIFEST.exists():
        MANIFEST.unlink()


def build(jobs: int) -> int:
    try:
        from Cython.Build import cythonize
        from setuptools import Distribution, Extension
    except ImportError as err:
        print(f"nanty_env._build: no compiled engine ({err}); the pure-Python engine runs")
        return 0
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if os.name != "nt" and not (shutil.which(cc) or shutil.which("cc")):
        print("nanty_env._build: no C compiler found; the pure-Python engine runs")
        return 0
    names = module_names()
    hashes = {n: source_hash(module_path(n)) for n in names}  # what this build compiles
    for name in EXCLUDED:  # compiled by an earlier build that had not excluded them yet
        for ext in extensions_of(name):
            ext.unlink()
    start = time.perf_counter()
    os.chdir(ROOT)
    # Cython and setuptools rebuild by timestamps, which a checkout can leave older than the C
    # file: a module whose source hash is not the one it was built from is rebuilt regardless.
    try:
        built = json.loads(MANIFEST.read_text()).get("modules", {})
    except (OSError, ValueError):
        built = {}
    # A module about to be rebuilt loses its extension first: the new one is then a new file, and
    # a running process that loaded the old one keeps it intact (rewriting it in place could
    # crash that process).
    for name in names:
        py = module_path(name)
        stale = built.get(name) != hashes[name]
        for ext in extensions_of(name):
            if stale or ext.stat().st_mtime < py.stat().st_mtime:
                ext.unlink()
        if stale:
            c_file = BUILD_DIR / module_path(name).relative_to(ROOT).with_suffix(".c")
            c_file.unlink(missing_ok=True)
    extensions = [
        Extension(
            name,
            [str(module_path(name).relative_to(ROOT))],
            # gcc / clang: optimised, no debug information, no warnings about Cython's own C
            extra_compile_args=[] if os.name == "nt" else ["-O2", "-g0", "-w"],
        )
        for name in names
    ]
    modules = cythonize(
        extensions,
        compiler_directives=DIRECTIVES,
        nthreads=jobs,
        quiet=True,
        build_dir=str(BUILD_DIR.relative_to(ROOT)),
    )
    dist = Distribution({"ext_modules": modules, "script_name": "nanty_env._build"})
    cmd = dist.get_command_obj("build_ext")
    cmd.inplace = True
    cmd.parallel = jobs
    cmd.build_temp = "build/temp"
    cmd.ensure_finalized()
    try:
        cmd.run()
    except Exception as err:  # a missing header, a compiler error: the pure modules still run
        print(f"nanty_env._build: compiling failed ({err}); what it did not build runs pure")
        return 0
    MANIFEST.write_text(
        json.dumps(
            {
                "python": sys.implementation.cache_tag,
                "modules": hashes,
            },
            indent=1,
            sort_keys=True,
        )
        + "\n"
    )
    print(f"nanty_env._build: {len(names)} modules compiled in {time.perf_counter() - start:.0f} s")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    if args.clean:
        clean()
        return 0
    return build(args.jobs)


if __name__ == "__main__":
    sys.exit(main())
