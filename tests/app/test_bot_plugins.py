"""A user's bot in ``nanty eval``: the example of docs/your-own-bot.md, run as the page says,
by import path and as an installed plug-in (entry-point group ``nanty.bots``), with 2 workers."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from agents.base import play_game
from agents.registry import BotSpecError, make_bot, parse_spec
from nanty_env.engine import GameConfig
from nanty_env.engine import actions as A
from tests.snippets import snippets, titled

ROOT = Path(__file__).resolve().parents[2]
PAGE = "your-own-bot.md"


@pytest.fixture
def user_dir(tmp_path: Path) -> Path:
    """A folder holding the docs' ``mybots`` package and, as ``pip install`` would leave it,
    a dist-info declaring its entry point."""
    pkg = tmp_path / "mybots"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "eager.py").write_text(titled(PAGE, "mybots/eager.py"))
    toml = titled(PAGE, "pyproject.toml")
    assert '[project.entry-points."nanty.bots"]' in toml
    entry = toml.split('[project.entry-points."nanty.bots"]')[1].strip()
    name, value = (x.strip().strip('"') for x in entry.splitlines()[0].split("="))
    dist = tmp_path / "mybots-0.1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: mybots\nVersion: 0.1.0\n")
    (dist / "entry_points.txt").write_text(f"[nanty.bots]\n{name} = {value}\n")
    return tmp_path


def nanty(args: list[str], path: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(path)])}
    return subprocess.run(
        [sys.executable, "-m", "nanty_app.cli", *args],
        cwd=path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def doc_commands() -> list[list[str]]:
    """The ``nanty ...`` command lines of the page's bash blocks (as argument lists)."""
    out = []
    for s in snippets(PAGE, "bash"):
        for line in s.code.splitlines():
            words = shlex.split(line.split("#")[0])
            words = [w for w in words if not w.startswith("PYTHONPATH=")]
            if words and words[0] == "nanty":
                out.append(words[1:])
    return out


@pytest.mark.slow
def test_the_docs_commands_run_with_two_workers(user_dir):
    commands = doc_commands()
    assert len(commands) == 3  # by import path, nanty bots, by plug-in name
    for args in commands:
        if args[0] == "eval":
            args = [*args, "--workers", "2", "--no-progress", "--no-plots"]
        proc = nanty(args, user_dir)
        assert proc.returncode == 0, proc.stderr
        if args[0] == "bots":
            line = next(x for x in proc.stdout.splitlines() if x.strip().startswith("eager"))
            assert "mybots.eager:EagerBot" in line and "from mybots" in line
            assert "options: patience" in line
        else:
            spec = args[args.index("--bots") + 1].split(",")[0]
            assert spec in proc.stdout and "40 games, 4 players" in proc.stdout


@pytest.mark.slow
def test_plugin_mistakes_are_one_line(user_dir):
    proc = nanty(["eval", "--bots", "eager:patienc=2,random", "--workers", "2"], user_dir)
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0
    assert "unknown option 'patienc'" in proc.stderr and "eager takes: patience" in proc.stderr
    proc = nanty(["eval", "--bots", "mybots.eager:Eagr,random"], user_dir)
    assert proc.returncode == 2 and "has no attribute 'Eagr'" in proc.stderr


def test_the_example_bot_plays_as_documented(user_dir, monkeypatch):
    monkeypatch.syspath_prepend(str(user_dir))
    bot = make_bot("mybots.eager:EagerBot:patience=2")
    assert bot.name == "mybots.eager:EagerBot:patience=2" and bot.patience == 2
    bot.reset(0, GameConfig(num_players=2))
    rng = np.random.default_rng(0)
    other = A.PLAY_CARD + 3
    assert bot.act({}, [A.PASS, other], rng) == A.PASS  # patience 2: two passes...
    assert bot.act({}, [A.PASS, other], rng) == A.PASS
    assert bot.act({}, [A.PASS, other], rng) == other  # ...then never again
    assert bot.act({}, [A.PASS], rng) == A.PASS  # a forced pass is still played
    _, record = play_game([bot, make_bot("random")], GameConfig(2, log=False), seed=3)
    assert record.winners  # a whole game, every action legal


def test_spec_syntax_is_unambiguous():
    assert parse_spec("pkg.mod:Bot") == ("pkg.mod:Bot", {})
    assert parse_spec("pkg.mod:Bot:depth=2:x=a") == ("pkg.mod:Bot", {"depth": 2, "x": "a"})
    assert parse_spec("mod:Bot") == ("mod:Bot", {})  # a top-level module works too
    assert parse_spec("heuristic:depth=0") == ("heuristic", {"depth": 0})
    with pytest.raises(BotSpecError, match="bad option 'depth'"):
        parse_spec("heuristic:depth")  # a registered name: never read as an import path
    with pytest.raises(BotSpecError, match="neither an option"):
        parse_spec("pkg-x:Bot")


def test_training_opponent_pools_take_any_spec(tmp_path):
    from training.config import ConfigError, load_config
    from training.selfplay import OpponentPool

    path = tmp_path / "c.yaml"
    path.write_text("selfplay:\n  weights: {agents.random_bot:RandomBot: 1.0}\n")
    cfg = load_config(path)
    pool = OpponentPool(3, cfg.selfplay.weights)
    bots = pool(np.random.default_rng(0))
    assert [b.name for b in bots] == ["agents.random_bot:RandomBot"] * 3
    path.write_text("selfplay:\n  weights: {heuristc: 1.0}\n")
    with pytest.raises(ConfigError, match="did you mean 'heuristic'"):
        load_config(path)
