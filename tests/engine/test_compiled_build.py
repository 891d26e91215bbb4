"""The compiled build plays the same games as the pure-Python engine, bit for bit.

Each build runs in its own interpreter (``NANTY_PURE=1`` for the reference), plays fixed-seed
games of both rulesets with clones, pickles and JSON copies along the way, encodes
observations, lets the heuristic, ISMCTS, ``learned`` and hint bots choose (their look-ahead is
compiled too) and records the evaluation's values; the two fingerprints must match.
Where the engine was not compiled (no Cython or C compiler, or ``NANTY_PURE`` set for the whole
run) the comparison is skipped: both runs would be the pure engine.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from nanty_env import _compiled

ROOT = Path(__file__).resolve().parents[2]

FINGERPRINT = r"""
import hashlib, json, pickle, random
import numpy as np
from nanty_env import _compiled
from nanty_env.engine import Game, GameConfig
from nanty_env.engine import state
from nanty_env.encoding.observation import encode

h = hashlib.sha256()
for expansion in (None, "cthulhu"):
    for n in (2, 3, 4):
        for seed in range(2):
            g = Game.new(GameConfig(num_players=n, expansion=expansion), seed)
            choose = random.Random(seed).choice
            k = 0
            while not g.is_terminal:
                legal = g.legal_actions()
                h.update(repr((g.current_player, g.decision, legal)).encode())
                if k % 23 == 5:
                    copies = [g.clone(), pickle.loads(pickle.dumps(g)),
                              Game.from_dict(json.loads(json.dumps(g.to_dict())))]
                    for c in copies:
                        for _ in range(5):
                            if c.is_terminal:
                                break
                            c.apply(c.legal_actions()[0])
                        h.update(json.dumps(c.to_dict(), sort_keys=True).encode())
                    h.update(repr(g.clone().rng.random()).encode())
                if expansion is None and k % 31 == 7:
                    h.update(encode(g, g.current_player).tobytes())
                g.apply(choose(legal))
                k += 1
            h.update(repr((g.outcome, g.returns(), list(g.log))).encode())
# the env's observations as its incremental encoder keeps them (both rulesets), seat by seat
import nanty_env
for expansion in (None, "cthulhu"):
    for n in (2, 4):
        env = nanty_env.raw_env(num_players=n, expansion=expansion)
        env.reset(seed=n)
        choose = random.Random(n).choice
        while env.agents:
            obs, _, term, trunc, _ = env.last()
            for agent in env.agents:
                h.update(env.observe(agent)["observation"].tobytes())
            h.update(env.state().tobytes())
            env.step(None if term or trunc else choose(obs["action_mask"].nonzero()[0]))
from agents.base import bot_rngs, play_game
from agents.registry import make_bot
from agents.rulesets import evaluator_class
from agents.evaluation import sampled_evaluators
cases = (
    ("heuristic", 4, 1, None),
    ("ismcts:iters=20", 2, 2, None),
    ("heuristic", 3, 3, "cthulhu"),
    ("learned", 2, 4, None),
    ("heuristic:learned=1:robust=1:durable=1", 4, 5, None),
)
for spec, n, seed, expansion in cases:
    cfg = GameConfig(num_players=n, expansion=expansion)
    bots = [make_bot(spec)] + [make_bot("heuristic") for _ in range(n - 1)]
    g, rec = play_game(bots, cfg, seed, bot_rngs(seed, n))
    h.update(repr((g.outcome, list(g.log))).encode())
    # the evaluation's values themselves (floats, bit for bit) along a random game
    g, choose, cls = Game.new(cfg, seed), random.Random(seed).choice, evaluator_class(cfg)
    while not g.is_terminal:
        h.update(repr([ev.value(g) for ev in sampled_evaluators(g, cls=cls)]).encode())
        g.apply(choose(g.legal_actions()))
print(bool(_compiled.COMPILED) and _compiled.is_compiled(state), h.hexdigest())
"""


def _fingerprint(pure: bool) -> tuple[str, str]:
    env = {k: v for k, v in os.environ.items() if k != _compiled.PURE_ENV}
    if pure:
        env[_compiled.PURE_ENV] = "1"
    out = subprocess.run(
        [sys.executable, "-c", FINGERPRINT],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    ).stdout.split()
    return out[0], out[1]


@pytest.mark.slow
def test_compiled_and_pure_builds_play_the_same_games() -> None:
    if not _compiled.COMPILED:
        pytest.skip("the engine is not compiled here (or NANTY_PURE is set): nothing to compare")
    compiled, compiled_hash = _fingerprint(pure=False)
    pure, pure_hash = _fingerprint(pure=True)
    assert (compiled, pure) == ("True", "False")
    assert compiled_hash == pure_hash


def test_nanty_pure_loads_every_module_from_source() -> None:
    script = (
        "import sys, nanty_env, agents, nanty_env.engine, nanty_env.encoding.observation\n"
        "from nanty_env import _compiled\n"
        "mods = [m for n, m in sys.modules.items() if n.split('.')[0] in _compiled.PACKAGES]\n"
        "print(_compiled.COMPILED == frozenset(), any(_compiled.is_compiled(m) for m in mods))\n"
    )
    env = dict(os.environ, **{_compiled.PURE_ENV: "1"})
    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.split() == ["True", "False"]


def test_the_loaded_build_is_the_one_reported() -> None:
    from nanty_env.engine import flow, game

    assert _compiled.is_compiled(flow) == ("nanty_env.engine.flow" in _compiled.COMPILED)
    assert not _compiled.is_compiled(game)  # kept pure: a clone is faster as bytecode


def test_the_hand_written_declarations_make_extension_types() -> None:
    """``state.pxd``, ``rng.pxd``, ``game_log.pxd`` and ``cthulhu/state.pxd`` turn the game
    state, its generator's stream, its log and the expansion's state into extension types
    (only their own ``__new__`` makes instances), what clones rely on."""
    from nanty_env.engine import game_log, rng, state
    from nanty_env.engine.cthulhu import state as cthulhu_state

    if not _compiled.is_compiled(state):
        pytest.skip("the engine is not compiled here")
    for cls in (state.GameState, rng.Pcg64Stream, game_log.GameLog, cthulhu_state.CthulhuState):
        with pytest.raises(TypeError, match="not safe"):
            object.__new__(cls)
    assert type(rng.GameRng.__new__(rng.GameRng)) is rng.GameRng


def test_a_source_changed_since_the_build_loads_from_source(tmp_path: Path) -> None:
    finder = _compiled._SourceFirst(frozenset({"nanty_env.engine.flow"}))
    spec = finder.find_spec("nanty_env.engine.flow")
    assert spec is not None and spec.origin == str(ROOT / "nanty_env/engine/flow.py")
    assert finder.find_spec("nanty_env.engine.board") is None
    manifest = tmp_path / "manifest.json"
    manifest.write_text('{"python": "other", "modules": {}}')
    assert _compiled.source_hash(ROOT / "nanty_env/engine/flow.py") != _compiled.source_hash(
        manifest
    )


def test_one_stale_module_sends_every_module_to_its_source() -> None:
    # a compiled module cimports the others: mixing a source module into the compiled build
    # fails at import ("has no attribute '__pyx_capi__'"), so it is all or nothing
    built = frozenset({"nanty_env.engine.state", "nanty_env.engine.flow"})
    assert _compiled.compiled_set(built, built) == built
    assert _compiled.compiled_set(built, built | {"nanty_env.engine.gone"}) == built
    assert _compiled.compiled_set(built, frozenset({"nanty_env.engine.state"})) == frozenset()
    assert _compiled.compiled_set(built, frozenset()) == frozenset()


def test_pure_requested_reads_the_usual_spellings(monkeypatch: pytest.MonkeyPatch) -> None:
    for value, pure in (("1", True), ("yes", True), ("", False), ("0", False), ("false", False)):
        monkeypatch.setenv(_compiled.PURE_ENV, value)
        assert _compiled.pure_requested() is pure


def test_a_called_name_is_never_cimported_as_a_module() -> None:
    """``from nanty_env.engine import tables`` binds the package's function ``tables()``, not
    the submodule of that name: only a name read as ``name.attr`` and never called is
    cimported whole (``A.pawn_action`` of ``from nanty_env.engine import actions as A``)."""
    from nanty_env import _build

    below = frozenset(_build.state_imports())
    lines = _build.cimports("nanty_env.encoding.observation", below)
    assert "cimport nanty_env.engine.actions as A" in (
        _build.cimports("nanty_env.engine.cthulhu.abilities", below)
    )
    assert not any(line.endswith(" as tables") for line in lines)
    assert "from nanty_env.engine.scoring cimport net_worth_of as net_worth_of" in (
        _build.cimports("agents.evaluation", below)
    )


def test_the_encoder_writes_through_a_typed_vector() -> None:
    """The observation encoder's incremental steps take its float32 vector as a typed
    memoryview (an item written is a C store) and clear blocks from a typed zero vector."""
    from nanty_env import _build

    lines = _build.declared("nanty_env.encoding.observation")
    assert "cpdef _ones(float[::1] m, Py_ssize_t off, items)" in lines
    assert any(x.startswith("cpdef _update_board(float[::1] m,") for x in lines)
    text = _build.state_declarations("nanty_env.encoding.observation")
    assert text is not None and "cdef float[::1] _ZEROS" in text


def test_the_ruleset_and_its_symbols_become_extension_types() -> None:
    """``Ruleset`` and ``Symbol`` are declared ``cdef class`` from their own annotations, and
    the turn flow holds them in typed locals: a hook is read from a C struct member."""
    from nanty_env import _build

    text = _build.state_declarations("nanty_env.engine.ruleset")
    assert text is not None
    assert "cdef class Ruleset:" in text and "cdef class Symbol:" in text
    assert "    cdef readonly object ability_actions" in text
    assert "    cdef readonly object always_asks" in text
    flow = _build.state_declarations("nanty_env.engine.flow")
    assert flow is not None and "from nanty_env.engine.ruleset cimport Ruleset" in flow
    assert any("rules=Ruleset" in line and "symbol=Symbol" in line for line in flow.splitlines())


def test_the_tables_and_the_config_become_extension_types_that_the_state_types() -> None:
    """``Tables`` is declared ``cdef class`` (its tuples and flag bytes typed), with writable
    members since the expansion's Python subclass sets them, and ``GameState.t`` is typed
    ``Tables``: ``g.t.symbols[c]`` is a C read in every compiled rule holding a typed game."""
    from nanty_env import _build

    text = _build.state_declarations("nanty_env.engine.tables")
    assert text is not None and "cdef class Tables:" in text
    assert "    cdef public tuple symbols" in text
    assert "    cdef public bytes is_interrupt" in text
    assert "    cdef public object data" in text
    state_pxd = (_build.ROOT / "nanty_env/engine/state.pxd").read_text()
    assert "from nanty_env.engine.tables cimport Tables" in state_pxd
    assert "    cdef public Tables t\n" in state_pxd
    # the configuration likewise: ``g.cfg.log`` is a C read where a line is logged
    config = _build.state_declarations("nanty_env.engine.config")
    assert config is not None and "    cdef readonly object log" in config
    assert "    cdef public GameConfig cfg\n" in state_pxd


def test_the_expansions_tables_set_the_base_fields_and_their_own() -> None:
    """``CthulhuTables`` (a Python dataclass over the compiled build's extension type) fills
    the base fields the shared rules read as well as its own, in either build."""
    from nanty_env.engine.cthulhu.tables import cthulhu_tables
    from nanty_env.engine.tables import Tables

    t = cthulhu_tables(None)
    assert isinstance(t, Tables)
    assert len(t.symbols) == len(t.is_interrupt) == len(t.data.cards) > 0
    assert t.holborn == -1 and t.ruleset == "cthulhu"
    assert len(t.elder_hp) == t.num_elders > 0


def test_the_extension_types_have_the_dataclass_repr_in_any_thread() -> None:
    """Cython's own dataclass repr fails outside the thread that imported the module (a web
    server's worker logging a config): the classes the build types write the standard
    dataclass text themselves, the same in either build and in any thread."""
    import threading

    from nanty_env.engine import GameConfig
    from nanty_env.engine.ruleset import Symbol, find_ruleset
    from nanty_env.engine.tables import tables

    symbol = next(iter(find_ruleset(None).symbols.values()))
    objects = [GameConfig(num_players=3, log=False), symbol, tables()]
    seen: list[str] = []
    worker = threading.Thread(target=lambda: seen.extend(repr(x) for x in objects))
    worker.start()
    worker.join()
    assert seen == [repr(x) for x in objects]
    assert seen[0] == (
        "GameConfig(num_players=3, personalities='standard', thresholds='rulebook', "
        "theme='nanty', interrupt_windows='public', log=False, expansion=None, content=None)"
    )
    assert seen[1].startswith("Symbol(options=") and seen[1].endswith(
        f"mandatory={symbol.mandatory}, always_asks={symbol.always_asks})"
    )
    assert isinstance(symbol, Symbol) and seen[2].startswith("Tables(data=")


def test_a_class_the_build_cannot_type_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cython compiles the dataclass decorator of a class it types and takes neither
    ``slots`` nor ``kw_only``: the build says so instead of failing in Cython."""
    from nanty_env import _build

    monkeypatch.setitem(_build.C_CLASSES, "nanty_env.engine.outcome", ("Outcome",))
    with pytest.raises(ValueError, match="slots or kw_only"):
        _build.class_declarations("nanty_env.engine.outcome")
    monkeypatch.setitem(_build.C_CLASSES, "nanty_env.engine.frames", ("Registry",))
    with pytest.raises(ValueError, match="needs its own __repr__"):
        _build.class_declarations("nanty_env.engine.frames")
    monkeypatch.setitem(_build.C_CLASSES, "nanty_env.engine.outcome", ("NoSuchClass",))
    with pytest.raises(ValueError, match="no class NoSuchClass"):
        _build.class_declarations("nanty_env.engine.outcome")


def test_an_annotated_class_attribute_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cython takes every annotated name of a typed class for a C field, a ``ClassVar``
    included (and then fails): the build says to leave a class attribute unannotated."""
    from nanty_env import _build

    source = tmp_path / "typed.py"
    source.write_text(
        "from dataclasses import dataclass\n"
        "from typing import ClassVar\n\n\n"
        "@dataclass(init=False)\n"
        "class Counted:\n"
        "    items: list[int]\n"
        "    names: ClassVar[tuple[str, ...]] = ()\n\n"
        "    def __repr__(self) -> str:\n"
        "        return 'Counted'\n"
    )
    monkeypatch.setattr(_build, "module_path", lambda name: source)
    monkeypatch.setitem(_build.C_CLASSES, "typed", ("Counted",))
    with pytest.raises(ValueError, match=r"Counted\.names is a ClassVar"):
        _build.class_declarations("typed")
    source.write_text(source.read_text().replace("names: ClassVar[tuple[str, ...]] =", "names ="))
    assert _build.class_declarations("typed") == [
        "cdef class Counted:",
        "    cdef readonly object items",
    ]


def test_the_evaluation_reads_a_typed_game_state() -> None:
    """The bots' evaluation is compiled with its game parameters typed, so that it reads the
    state's fields as C struct members (what makes it 1.2-1.3x faster compiled)."""
    from nanty_env import _build

    lines = _build.declared("agents.evaluation")
    assert "cpdef metrics(GameState g)" in lines
    assert "cpdef board_key(GameState g)" in lines
    assert "agents.evaluation" in _build.module_names()


def test_the_metrics_are_an_extension_type_where_the_build_is_compiled() -> None:
    """The bots' ``Metrics`` is made and read millions of times a search: the compiled build
    makes it an extension type (its fields C struct members, not set through Python's
    attribute protocol) and its hot readers take it typed; the expansion's metrics, a Python
    subclass, pass for it."""
    import agents.evaluation
    from agents.cthulhu.evaluation import CthulhuMetrics
    from agents.evaluation import Metrics, metrics
    from nanty_env import _build
    from nanty_env.engine import Game, GameConfig

    text = _build.state_declarations("agents.evaluation") or ""
    assert "cdef class Metrics:" in text and "    cdef readonly tuple by_metric" in text
    assert "cpdef plan_value(plan, Metrics m)" in text
    assert "cpdef board_features(Metrics m, seat)" in (
        _build.state_declarations("agents.value_model") or ""
    )
    assert issubclass(CthulhuMetrics, Metrics)
    m = metrics(Game.new(GameConfig(num_players=3, log=False), 5))
    assert type(m) is Metrics and m.names == Metrics.names
    if _compiled.is_compiled(agents.evaluation):  # no __dict__, and its fields are read-only
        assert not hasattr(m, "__dict__")
        with pytest.raises(AttributeError):
            m.money = [0, 0, 0]  # type: ignore[misc]


def test_the_rules_on_hot_paths_take_a_typed_game_state() -> None:
    """A rule with keyword-only parameters (or a generator expression) is no ``cpdef``
    function, so that it reads every field of its game by name: those that place and remove
    pieces are typed, and only rules that run rarely (an event's rolls, setting up a
    position) keep keyword-only parameters."""
    import ast

    from nanty_env import _build

    assert "cpdef add_pawn(GameState g, owner, area, trouble=*)" in _build.declared(
        "nanty_env.engine.board"
    )
    assert "cpdef place_agent_options(GameState g, dict f)" in _build.declared(
        "nanty_env.engine.flow"
    )
    # the expansion's: its abilities' checks, minions and objectives run on every decision
    expansion = {
        "nanty_env.engine.cthulhu.abilities": ["possible", "goo_usable", "ability_actions"],
        "nanty_env.engine.cthulhu.pieces": ["minion_areas", "minions_in", "building_value"],
        "nanty_env.engine.cthulhu.victory": ["objective_met", "points"],
    }
    for module, names in expansion.items():
        declared = {line.split("(")[0] for line in _build.declared(module)}
        assert {f"cpdef {name}" for name in names} <= declared, module
    # typed ``CthulhuState`` (its own fields C reads), the base game's rules ``GameState``
    assert "cpdef minion_areas(CthulhuState g, Py_ssize_t seat)" in _build.declared(
        "nanty_env.engine.cthulhu.pieces"
    )
    text = _build.state_declarations("nanty_env.engine.cthulhu.pieces")
    assert text is not None and "from nanty_env.engine.cthulhu.state cimport CthulhuState" in text
    keyword_only = []
    for package in _build.PACKAGES:
        for path in sorted((_build.ROOT / package).glob("*.py")):
            for fn in ast.parse(path.read_text()).body:
                params = fn.args.args if isinstance(fn, ast.FunctionDef) else []
                takes_game = any(
                    p.annotation is not None and ast.unparse(p.annotation) in _build.STATE_TYPES
                    for p in params
                )
                if takes_game and fn.args.kwonlyargs:
                    keyword_only.append(f"{path.name}:{fn.name}")
    assert keyword_only == [
        "events.py:_rolls",
        "position.py:place_cards",
        "position.py:finish_position",
    ]


def test_compiled_rules_read_constants_imported_by_name() -> None:
    """A compiled function reads a constant of another module through that module (``A.PASS``
    of ``from nanty_env.engine import actions as A``) by a dictionary lookup on the module
    each time (~150 instructions; in the expansion's rules 4% of a decision), and one imported
    by name (``from nanty_env.engine.actions import PASS``) from the module's cached globals:
    no compiled module's function reads an upper-case name through a module of the package."""
    import ast

    from nanty_env import _build

    through_modules = []
    for name in _build.module_names():
        tree = ast.parse(_build.module_path(name).read_text())
        aliases = set()
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("nanty_env"):
                for a in node.names:
                    if (_build.ROOT / node.module.replace(".", "/") / f"{a.name}.py").exists():
                        aliases.add(a.asname or a.name)
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef):
                continue
            for node in ast.walk(fn):
                if (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.value, ast.Name)
                    and node.value.id in aliases
                    and node.attr.isupper()
                ):
                    through_modules.append(f"{name}:{fn.name}:{node.value.id}.{node.attr}")
    assert through_modules == []


def test_the_build_removes_what_it_no_longer_compiles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An extension left beside a module the build no longer lists (one taken off its list)
    would send every module to its source; the build removes it, and its generated ``.pxd``
    (in a copy of the layout: the real tree is never touched by a test)."""
    import importlib.machinery

    from nanty_env import _build

    monkeypatch.setattr(_compiled, "ROOT", tmp_path)
    monkeypatch.setattr(_build, "ROOT", tmp_path)
    monkeypatch.setattr(_build, "BUILD_DIR", tmp_path / "build" / "cython")
    (tmp_path / "agents").mkdir()
    kept, dropped = tmp_path / "agents" / "evaluation.py", tmp_path / "agents" / "old.py"
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for py in (kept, dropped):
        py.write_text("")
        py.with_name(py.stem + suffix).write_bytes(b"")
        py.with_suffix(".pxd").write_text(_build.GENERATED.format(py.name))
    c_file = tmp_path / "build" / "cython" / "agents" / "old.c"
    c_file.parent.mkdir(parents=True)
    c_file.write_text("")
    assert _compiled.built_modules() == {"agents.evaluation", "agents.old"}
    _build.remove_unlisted(["agents.evaluation"])
    assert _compiled.built_modules() == {"agents.evaluation"}
    assert not dropped.with_suffix(".pxd").exists() and kept.with_suffix(".pxd").exists()
    assert not c_file.exists()
