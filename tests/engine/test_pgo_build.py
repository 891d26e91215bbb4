"""The profile-guided build (``nanty_env._build``): the flags of each phase, who gets one, an
instrumented build that only its profiling run loads, the flags reaching every extension, and
a profiling run that fails or counts nothing leaving a plain build."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from nanty_env import _build, _compiled

ROOT = Path(__file__).resolve().parents[2]


def test_each_phase_has_its_flags() -> None:
    generate_c, generate_link = _build.pgo_flags("generate")
    assert f"-fprofile-generate={_build.PGO_DIR}" in generate_c
    assert f"-fprofile-generate={_build.PGO_DIR}" in generate_link
    use_c, use_link = _build.pgo_flags("use")
    assert f"-fprofile-use={_build.PGO_DIR}" in use_c and "-fprofile-partial-training" in use_c
    assert not any("profile" in f for f in use_link)
    # both optimise as the plain build does, so that the counts fit the code they describe
    plain = _build.PLAIN_FLAGS[0]
    assert generate_c[: len(plain)] == plain and use_c[: len(plain)] == plain
    with pytest.raises(ValueError, match="no PGO phase"):
        _build.pgo_flags("train")


def test_every_phase_rounds_doubles_as_python_does() -> None:
    """No fused multiply-add in any phase: where the machine has one (ARM; x86 with ``-march``
    flags in ``CFLAGS``) a compiler may otherwise contract a C ``a * b + c`` into one rounding
    where Python rounds twice, and the compiled bots' values would part from the pure ones."""
    for compile_args, _ in (
        _build.PLAIN_FLAGS,
        _build.pgo_flags("generate"),
        _build.pgo_flags("use"),
    ):
        assert "-ffp-contract=off" in compile_args


def _fake_compiler(tmp_path: Path, name: str, banner: str, version: str) -> str:
    path = tmp_path / name
    path.write_text(
        f'#!/bin/sh\nif [ "$1" = "--version" ]; then echo "{banner}"; else echo "{version}"; fi\n'
    )
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


@pytest.mark.skipif(os.name == "nt", reason="shell-script compilers")
def test_only_gcc_10_or_newer_builds_profile_guided(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _build.gcc_major.cache_clear()
    gcc = _fake_compiler(tmp_path, "gcc", "gcc (Debian 12.2.0-14) 12.2.0", "12.2.0")
    old = _fake_compiler(tmp_path, "gcc9", "gcc (GCC) 9.4.0", "9.4.0")
    clang = _fake_compiler(tmp_path, "cc", "Debian clang version 14.0.6", "14.0.6")
    assert _build.gcc_major(gcc) == 12
    assert _build.gcc_major(old) == 9
    assert _build.gcc_major(clang) == 0
    assert _build.gcc_major(str(tmp_path / "missing")) == 0
    monkeypatch.delenv(_build.PGO_ENV, raising=False)
    assert _build.pgo_wanted(gcc) is (os.name != "nt")
    assert not _build.pgo_wanted(old) and not _build.pgo_wanted(clang)
    monkeypatch.setenv(_build.PGO_ENV, "0")
    assert not _build.pgo_wanted(gcc)
    _build.gcc_major.cache_clear()


def test_an_instrumented_build_loads_only_in_its_profiling_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = ("nanty_env.engine.flow", "nanty_env.engine.board")
    hashes = {n: _compiled.source_hash(_compiled.module_path(n)) for n in names}
    manifest = tmp_path / "manifest.json"
    monkeypatch.setattr(_compiled, "MANIFEST", manifest)
    monkeypatch.setattr(_compiled, "_extension_of", lambda py: py)  # every module "built"
    monkeypatch.delenv(_compiled.PROFILING_ENV, raising=False)
    tag = sys.implementation.cache_tag
    for profile, env, loaded in (
        (_compiled.INSTRUMENTED, None, False),
        (_compiled.INSTRUMENTED, "1", True),
        ("gcc", None, True),
        ("none", None, True),
    ):
        manifest.write_text(json.dumps({"python": tag, "modules": hashes, "profile": profile}))
        if env is None:
            monkeypatch.delenv(_compiled.PROFILING_ENV, raising=False)
        else:
            monkeypatch.setenv(_compiled.PROFILING_ENV, env)
        assert _compiled._fresh_modules() == (frozenset(names) if loaded else frozenset())


def test_every_extension_is_compiled_with_this_builds_flags(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An up-to-date C file records the flags of the build that wrote it, and cythonize
    rebuilds its extension from that record: a profile-guided build must override them (else
    the optimised phase relinks the instrumented objects). In a copy of the layout."""
    pytest.importorskip("Cython")
    source = tmp_path / "nanty_env" / "engine" / "errors.py"
    source.parent.mkdir(parents=True)
    source.write_text((ROOT / "nanty_env/engine/errors.py").read_text())
    monkeypatch.setattr(_compiled, "ROOT", tmp_path)
    monkeypatch.setattr(_build, "ROOT", tmp_path)
    monkeypatch.setattr(_build, "BUILD_DIR", tmp_path / "build" / "cython")
    monkeypatch.chdir(tmp_path)
    name = ["nanty_env.engine.errors"]
    first = _build.cythonized(name, 1, _build.pgo_flags("generate"))
    c_file = tmp_path / "build" / "cython" / "nanty_env" / "engine" / "errors.c"
    assert c_file.exists()
    assert first[0].extra_link_args == _build.pgo_flags("generate")[1]
    written = c_file.stat().st_mtime_ns
    for flags in (_build.pgo_flags("use"), _build.PLAIN_FLAGS):
        (ext,) = _build.cythonized(name, 1, flags)
        assert c_file.stat().st_mtime_ns == written  # up to date: not written again
        assert (ext.extra_compile_args, ext.extra_link_args) == (flags[0], flags[1])


def test_a_failed_or_empty_profiling_run_leaves_a_plain_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(_build, "PGO_DIR", tmp_path / "pgo")
    calls: list[dict[str, str]] = []

    def failing(cmd: list[str], **kw: object) -> None:
        calls.append(kw["env"])  # type: ignore[arg-type]
        raise subprocess.CalledProcessError(1, cmd, stderr="Traceback: boom")

    monkeypatch.setattr(_build.subprocess, "run", failing)
    monkeypatch.setenv(_compiled.PURE_ENV, "1")
    assert _build._train() is False
    assert "profiling run failed" in capsys.readouterr().out
    # the run loads the instrumented modules: never pure, and allowed by the manifest
    assert _compiled.PURE_ENV not in calls[0]
    assert calls[0][_compiled.PROFILING_ENV] == "1"

    monkeypatch.setattr(_build.subprocess, "run", lambda cmd, **kw: None)
    assert _build._train() is False  # it ran, but nothing was counted
    assert "left no counts" in capsys.readouterr().out
    (tmp_path / "pgo").mkdir()
    (tmp_path / "pgo" / "x.gcda").write_bytes(b"")
    assert _build._train() is True


@pytest.mark.parametrize("compiles, trains", [(True, True), (True, False), (False, False)])
def test_making_the_profile_leaves_no_instrumented_build_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, compiles: bool, trains: bool
) -> None:
    """Whatever fails, the instrumented modules go and no manifest names them; the counts are
    kept (and marked whole) only after a profiling run that counted. In a copy of the paths."""
    pgo = tmp_path / "pgo"
    manifest = tmp_path / "manifest.json"
    manifest.write_text('{"modules": {}, "profile": "none"}')  # an earlier build's
    monkeypatch.setattr(_build, "PGO_DIR", pgo)
    monkeypatch.setattr(_build, "PGO_DONE", pgo / "trained")
    monkeypatch.setattr(_build, "MANIFEST", manifest)
    monkeypatch.setattr(_build, "_write", lambda path, text: path.write_text(text))
    events: list[str] = []
    monkeypatch.setattr(_build, "_remove_objects", lambda names: events.append("removed"))

    def compile_(names: list[str], jobs: int, flags: tuple[list[str], list[str]]) -> bool:
        assert flags == _build.pgo_flags("generate")
        events.append("compiled")
        pgo.mkdir(exist_ok=True)
        return compiles

    def train() -> bool:
        # the profiling run finds the instrumented build in the manifest
        assert json.loads(manifest.read_text())["profile"] == _compiled.INSTRUMENTED
        events.append("trained")
        (pgo / "x.gcda").write_bytes(b"")
        return trains

    monkeypatch.setattr(_build, "_compile", compile_)
    monkeypatch.setattr(_build, "_train", train)
    made = _build.make_profile(["nanty_env.engine.flow"], {"nanty_env.engine.flow": "h"}, 1)
    assert made is (compiles and trains)
    assert not manifest.exists()
    assert events == ["removed", "compiled", *(["trained"] if compiles else []), "removed"]
    assert (pgo / "trained").exists() is made and pgo.exists() is made
