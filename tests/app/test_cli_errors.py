"""Every user mistake on the ``nanty`` command line ends in one line naming the problem and the
fix, with exit code 2 and no traceback; every option has help text and shows its default."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.tournament import TournamentSpec, load_journal, run_seconds, run_tournament
from nanty_app.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[2]


def one_line_error(capsys, argv: list[str], *needles: str) -> str:
    """Run ``nanty argv``: exit code 2 and a single stderr line containing ``needles``."""
    try:
        code = main(argv)
    except SystemExit as e:  # argparse errors exit from parse_args
        code = e.code
    err = capsys.readouterr().err.strip()
    assert code == 2, err
    assert "\n" not in err and "Traceback" not in err, err
    assert err.startswith("nanty"), err
    for needle in needles:
        assert needle in err, err
    return err


@pytest.mark.parametrize(
    ("argv", "needles"),
    [
        (["eval", "--bots", "random,random", "--games", "0"], ["--games", "at least 1, got 0"]),
        (["eval", "--bots", "random,random", "--games", "-5"], ["--games", "got -5"]),
        (["eval", "--bots", "random,random", "--chunk", "-2"], ["--chunk", "got -2"]),
        (["eval", "--bots", "random,random", "--workers", "0"], ["--workers"]),
        (["eval", "--bots", "random,random", "--games", "many"], ["whole number"]),
        (["eval", "--bots", "random,random", "--players", "5"], ["2, 3 or 4 players"]),
        (["eval", "--bots", "random,random", "--thresholds", "x"], ["--thresholds"]),
        (["eval", "--bots", "random,random,random", "--players", "4"], ["--players 4", "3 bots"]),
        (["eval", "--bots", "random"], ["1 bots", "2, 3 or 4 players"]),
        (["eval", "--bots", "random,,random"], ["empty entry"]),
        (["eval", "--bots", "heuristc,random"], ["unknown bot 'heuristc'", "did you mean"]),
        (["eval", "--bots", "heuristic:dept=1,random"], ["unknown option 'dept'", "depth"]),
        (["eval", "--bots", "heuristic:depth,random"], ["bad option 'depth'", "key=value"]),
        (["eval", "--bots", "nosuchpkg.bots:Bot,random"], ["cannot import 'nosuchpkg.bots'"]),
        (["eval", "--bots", "agents.random_bot:Nope,random"], ["no attribute 'Nope'"]),
        (
            ["eval", "--bots", "ppo,random,random"],
            ["no PPO policy for 3 players", "configs/ppo_3p"],
        ),
        (["eval", "--bots", "distilled,random,random"], ["no distilled 'heuristic' policy for 3"]),
        (["eval", "--bots", "random,random", "--checkpoint", "m.zip"], ["add ppo to --bots"]),
        (["eval", "--bots", "random,random", "--resume"], ["--resume needs"]),
        (["summary", "nope_games.jsonl"], ["no journal at nope_games.jsonl"]),
        (["roles", "--players", "2,7"], ["2, 3 or 4 players, got 7"]),
        (["roles", "--bot", "heuristc"], ["unknown bot"]),
        (["nope"], ["invalid choice"]),
        (["train", "--config", "nope"], ["config nope not found", "quick"]),
        (["train", "--total-timesteps", "0"], ["--total-timesteps"]),
        (["train", "--minutes", "-1"], ["--minutes"]),
        (["train", "--resume", "runs/gone"], ["cannot resume", "runs/gone"]),
        (["train", "--resume", "gone.zip"], ["--trust-checkpoint"]),
        (["train", "--env-runners", "2"], ["--backend rllib"]),
        (["train", "--backend", "rllib", "--resume", "x.zip"], ["not supported"]),
    ],
)
def test_mistakes_end_in_one_line(capsys, tmp_path, monkeypatch, argv, needles):
    monkeypatch.chdir(tmp_path)
    one_line_error(capsys, argv, *needles)


def test_missing_checkpoint_is_reported_by_its_real_path(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    err = one_line_error(capsys, ["eval", "--bots", "ppo,random", "--checkpoint", "nope.zip"])
    assert "checkpoint nope.zip not found" in err and "nope.zip.zip" not in err
    err = one_line_error(capsys, ["eval", "--bots", "policy:path=nope.zip,random"])
    assert "checkpoint nope.zip not found" in err and "nope.zip.zip" not in err


def test_a_bad_train_config_is_one_line(capsys, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("ppo:\n  n_stepz: 3\n")
    one_line_error(capsys, ["train", "--config", str(bad)], "unknown key 'ppo.n_stepz'")


@pytest.mark.slow
def test_a_typo_in_a_bot_spec_with_workers_is_one_line_from_the_parent():
    """As a user runs it: a real process, 2 workers; the parent reports, no worker starts."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "nanty_app.cli",
            "eval",
            "--bots",
            "heuristic:dept=0,random",
            "--workers",
            "2",
            "--games",
            "4",
            "--no-progress",
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "unknown option 'dept'" in lines[0], proc.stderr


class IllegalBot:
    """Always answers action -1 (never legal): a buggy user bot."""

    name = "illegal"

    def reset(self, seat, config):
        pass

    def act(self, view, legal_actions, rng):
        return -1


@pytest.mark.slow
def test_a_bot_bug_in_a_worker_is_one_line_in_the_parent(capsys):
    spec = "tests.app.test_cli_errors:IllegalBot"
    err = one_line_error(
        capsys,
        ["eval", "--bots", f"{spec},random", "--workers", "2", "--games", "2", "--no-progress"],
        "chose illegal action -1",
        "fix the bot",
    )
    assert spec in err


def test_players_are_inferred_from_bots(capsys):
    argv = ["eval", "--bots", "random,random,random", "--games", "3", "--workers", "1"]
    assert main([*argv, "--no-progress"]) == 0
    assert "3 games, 3 players" in capsys.readouterr().out


def every_option(parser: argparse.ArgumentParser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                for a in sub._actions:
                    yield name, sub, a


def test_every_option_has_help_and_shows_its_default():
    parser = build_parser()
    for name, sub, action in every_option(parser):
        if isinstance(action, argparse._HelpAction):
            continue
        assert action.help, f"nanty {name} {action.dest} has no help text"
        if action.option_strings and action.default is not None and action.default is not False:
            text = sub.format_help()
            shown = str(action.default) if not isinstance(action.default, list) else None
            assert "(default: " in text
            if shown is not None:
                assert f"(default: {shown})" in " ".join(text.split()), (name, action.dest)


def test_eval_help_shows_defaults(capsys):
    with pytest.raises(SystemExit):
        main(["eval", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for shown in ("games to play (default: 100)", "(default: 0)", "(default: standard)"):
        assert shown in text


@pytest.mark.slow
def test_summary_reports_the_runs_wall_time_not_the_sum_of_games(tmp_path):
    # two workers play games side by side: the sum of game times overstates the run
    records = [
        {"session_start_seconds": 1.0, "session_elapsed_seconds": 2.0, "wall_seconds": 2.0},
        {"session_start_seconds": 1.0, "session_elapsed_seconds": 2.1, "wall_seconds": 2.0},
        {"session_start_seconds": 9.0, "session_elapsed_seconds": 0.5, "wall_seconds": 0.5},
    ]
    assert run_seconds(records) == pytest.approx(2.1 + 0.5)  # two sessions: a run and a resume
    old = [{"wall_seconds": 2.0}, {"wall_seconds": 3.0}]  # a journal from before: best effort
    assert run_seconds(old) == 5.0
    spec = TournamentSpec(bots=("random", "random"), num_players=2, games=8, seed=1)
    journal = tmp_path / "r_games.jsonl"
    result = run_tournament(spec, workers=2, progress=False, journal=journal)
    again = load_journal(journal)
    assert 0 < again.seconds <= result.seconds
    lines = journal.read_text().splitlines()
    assert all("session_elapsed_seconds" in json.loads(x) for x in lines[1:])


@pytest.mark.parametrize(
    ("argv", "needles"),
    [
        (["play", "--bots", "random,random,random,random"], ["2 to 4 players", "make 5"]),
        (["play", "--bots", "nobody"], ["unknown bot 'nobody'"]),
        (["play", "--humans", "0"], ["--humans must be at least 1"]),
        (["play", "--seed", "-3"], ["--seed", "must be 0 or more"]),
        (["play", "--seed", "1.5"], ["--seed", "whole number"]),
        (["play", "--theme", "zz"], ["theme must be one of"]),
        (["play", "--content", "pack.toml"], ["give --expansion too"]),
        (["play", "--expansion", "cthulhu", "--content", "nope"], ["no such content pack"]),
        (["play", "--records", "afile"], ["--records afile", "cannot make the folder"]),
        (["play", "--records", "afile/sub"], ["--records afile/sub", "cannot make the folder"]),
        (["eval", "--bots", "random,random", "--out", "afile/sub"], ["--out", "afile/sub"]),
        (["eval", "--bots", "random,random", "--out", "afile/x.json"], ["--out", "afile"]),
        (["eval", "--bots", "random,random", "--records", "afile/r"], ["--records", "afile/r"]),
        (
            ["eval", "--bots", "random,random", "--expansion", "cthulhu", "--content", "afile"],
            ["--content afile", "cannot parse TOML"],
        ),
        (["roles", "--out", "afile/x.json"], ["--out", "afile"]),
        (["roles", "--seed", "-1"], ["--seed", "must be 0 or more"]),
        (["roles-train", "--out", "afile/m.json"], ["--out", "afile"]),
        (["coverage", "--players", "5"], ["--players", "2, 3 or 4 players, got 5"]),
        (["coverage", "--players", "x"], ["--players", "whole number"]),
        (["coverage", "--seed", "-1"], ["--seed", "must be 0 or more"]),
        (["coverage", "--content", "pack.toml"], ["give --expansion too"]),
        (["coverage", "--expansion", "cthulhu", "--content", "afile"], ["cannot parse TOML"]),
        (["coverage", "--plot", "afile/x.png"], ["--plot", "cannot make the folder"]),
        (["coverage", "--bots", "random"], ["--bots names 1 bots"]),
        (["serve", "--expansion", "martians"], ["--expansion", "martians"]),
    ],
)
def test_input_mistakes_of_every_command_end_in_one_line(
    capsys, tmp_path, monkeypatch, argv, needles
):
    """Exit code 2 and one line, also for ``nanty play`` (which used to exit 1) and for
    outputs under a file (which used to end in a traceback)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("not a folder = [\n")
    one_line_error(capsys, argv, *needles)
    assert (tmp_path / "afile").read_text() == "not a folder = [\n"


def test_unreadable_train_configs_are_one_line(capsys, tmp_path):
    deep = tmp_path / "deep.yaml"
    deep.write_text("[" * 5000 + "]" * 5000)
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"a: \xff\xfe\n")
    one_line_error(capsys, ["train", "--config", str(deep)], "nested too deeply")
    one_line_error(capsys, ["train", "--config", str(binary)], "not a text (UTF-8) file")
