"""Tournaments and role inference on the expansion: ``nanty eval --expansion cthulhu`` records
the ruleset in its journal, ``nanty compare`` refuses runs of different rulesets, the tables
are by objective and by who held Sloth, and ``nanty roles --expansion cthulhu`` scores the
guesses about objectives."""

from __future__ import annotations

import json

import pytest

from arena.role_eval import accuracy_by_turn, format_role_report, log_game
from arena.tournament import TournamentSpec, load_journal, run_tournament
from nanty_app.cli import main
from nanty_env.engine import GameConfig

OBJECTIVES = {"sloth", "pride", "greed", "wrath", "envy", "gluttony", "lust"}


def test_eval_on_the_expansion_records_it_and_compare_refuses_mixed_rulesets(tmp_path, capsys):
    journals = []
    for name, extra in (("x", ["--expansion", "cthulhu"]), ("b", [])):
        out = tmp_path / name
        args = ["eval", "--bots", "heuristic,random", "--players", "2", "--games", "4"]
        assert (
            main(
                [*args, *extra, "--out", str(out), "--workers", "1", "--no-progress", "--no-plots"]
            )
            == 0
        )
        journals.append(out / "results_games.jsonl")
    text = capsys.readouterr().out
    assert "the cthulhu expansion" in text and "by objective:" in text
    assert "by who held an end-rule objective (Sloth)" in text
    head = json.loads(journals[0].read_text().splitlines()[0])["spec"]
    assert head["expansion"] == "cthulhu"
    base_head = json.loads(journals[1].read_text().splitlines()[0])["spec"]
    assert "expansion" not in base_head  # a base game journal reads as it always did
    run = load_journal(journals[0])
    assert run.spec.expansion == "cthulhu" and run.spec.game_config().expansion == "cthulhu"
    for r in run.records:
        assert set(r["personalities"]) <= OBJECTIVES and len(set(r["personalities"])) == 2
    results = json.loads((tmp_path / "x" / "results.json").read_text())
    assert results["spec"]["expansion"] == "cthulhu"
    assert {row["holder"] for row in results["by_end_rule_holder"]} <= {
        "self",
        "an opponent",
        "nobody",
    }
    assert main(["compare", str(journals[0]), str(journals[1])]) == 2
    assert "different rulesets" in capsys.readouterr().err


def test_resuming_needs_the_same_ruleset(tmp_path):
    from arena.tournament import JournalError

    journal = tmp_path / "j.jsonl"
    spec = TournamentSpec(bots=("random", "random"), num_players=2, games=2, expansion="cthulhu")
    run_tournament(spec, workers=1, progress=False, journal=journal)
    base = TournamentSpec(bots=("random", "random"), num_players=2, games=2)
    with pytest.raises(JournalError, match="expansion"):
        run_tournament(base, workers=1, progress=False, journal=journal, resume=True)


def test_content_without_expansion_is_refused(capsys):
    assert main(["eval", "--bots", "random,random", "--content", "x.toml"]) == 2
    assert "give --expansion too" in capsys.readouterr().err


def test_role_logs_and_accuracy_on_the_expansion():
    cfg = GameConfig(num_players=3, log=False, expansion="cthulhu")
    logs = [log_game("random", cfg, s) for s in range(2)]
    assert logs[0]["expansion"] == "cthulhu" and logs[0]["x"].shape[-1] == 22
    assert set(logs[0]["y"][0]) <= set(range(7))
    table = accuracy_by_turn(logs, None)
    # with the prior alone: uniform over the six objectives the observer does not hold
    assert table["overall"]["chance"] == pytest.approx(1 / 6)
    assert table["overall"]["top1"] == pytest.approx(1 / 6)
    assert table["overall"]["top1_goal"] == pytest.approx(1 / 6)
    report = {"bot": "random", "games": 2, "seed": 0, "expansion": "cthulhu", "3": table}
    assert "top-1 objective" in format_role_report(report)


def test_role_model_training_and_cli_on_the_expansion(tmp_path, capsys):
    out = tmp_path / "m.json"
    args = [
        "roles-train",
        "--expansion",
        "cthulhu",
        "--players",
        "2",
        "--games",
        "2",
        "--bot",
        "random",
        "--out",
        str(out),
        "--workers",
        "1",
        "--no-progress",
    ]
    assert main(args) == 0
    model = json.loads(out.read_text())
    assert model["expansion"] == "cthulhu" and len(model["features"]) == 22
    assert len(model["weights"]["2"][0]) == 7
    args = [
        "roles",
        "--expansion",
        "cthulhu",
        "--players",
        "2",
        "--games",
        "2",
        "--bot",
        "random",
        "--model",
        str(out),
        "--workers",
        "1",
        "--no-progress",
    ]
    assert main(args) == 0
    assert "top-1 objective" in capsys.readouterr().out
    base_model = tmp_path / "base.json"
    main(
        [
            "roles-train",
            "--players",
            "2",
            "--games",
            "1",
            "--bot",
            "random",
            "--out",
            str(base_model),
            "--workers",
            "1",
            "--no-progress",
        ]
    )
    args = ["roles", "--expansion", "cthulhu", "--players", "2", "--games", "1"]
    args += ["--bot", "random", "--model", str(base_model), "--workers", "1", "--no-progress"]
    capsys.readouterr()
    assert main(args) == 2
    assert "base game" in capsys.readouterr().err
