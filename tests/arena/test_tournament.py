"""Tournament scheduling, outputs and the ``nanty eval`` command (small and fast)."""

from __future__ import annotations

import csv
import json
from collections import Counter

import pytest

from arena.tournament import (
    JournalError,
    TournamentSpec,
    run_tournament,
    schedule,
    seats_for,
    write_outputs,
)
from nanty_app.cli import main


def test_schedule_rotates_seats_over_shared_deals():
    spec = TournamentSpec(bots=("a", "b", "c"), num_players=3, games=9, seed=2)
    tasks = schedule(spec)
    assert len({t.deal_seed for t in tasks}) == 3
    for deal in {t.deal_seed for t in tasks}:
        block = [t for t in tasks if t.deal_seed == deal]
        # every entry sits in every seat exactly once per deal
        for entry in range(3):
            assert sorted(seats_for(t.rotation, 3).index(entry) for t in block) == [0, 1, 2]


def test_small_tournament_in_process(tmp_path):
    spec = TournamentSpec(bots=("random", "random"), num_players=2, games=6, seed=0)
    result = run_tournament(spec, workers=1, progress=False)
    assert [r["game"] for r in result.records] == list(range(6))
    (row,) = result.summary["bots"]
    assert row["name"] == "random" and row["games"] == 12 and row["entries"] == 2
    wins = sum(len(r["winners"]) for r in result.records)
    assert row["wins"] == wins
    files = write_outputs(result, tmp_path / "r.json", plots=True)
    assert all(p.exists() for p in files)
    data = json.loads((tmp_path / "r.json").read_text())
    assert len(data["games"]) == 6 and data["chance"] == 0.5
    rows = list(csv.DictReader((tmp_path / "r_games.csv").open()))
    assert len(rows) == 12
    assert Counter(r["bot"] for r in rows) == {"random": 12}


@pytest.mark.slow
def test_same_seed_same_results():
    spec = TournamentSpec(bots=("heuristic", "random"), num_players=2, games=2, seed=5)
    a = run_tournament(spec, workers=1, progress=False).records
    b = run_tournament(spec, workers=1, progress=False).records
    strip = lambda rs: [{k: v for k, v in r.items() if "seconds" not in k} for r in rs]  # noqa: E731
    assert strip(a) == strip(b)


def test_cli_eval_writes_required_fields(tmp_path, capsys):
    out = tmp_path / "results.json"
    code = main(
        [
            "eval",
            "--bots",
            "heuristic,random,random",
            "--players",
            "3",
            "--games",
            "3",
            "--seed",
            "0",
            "--out",
            str(out),
            "--workers",
            "2",
            "--no-progress",
            "--no-plots",
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "win rate" in printed and "heuristic" in printed
    data = json.loads(out.read_text())
    names = {b["name"] for b in data["bots"]}
    assert names == {"heuristic", "random"}
    for b in data["bots"]:
        assert {"name", "games", "wins", "win_rate", "ci95"} <= set(b)
        assert len(b["ci95"]) == 2
    assert (tmp_path / "results.csv").exists()


def test_results_do_not_depend_on_the_number_of_workers():
    spec = TournamentSpec(bots=("random", "random", "random"), num_players=3, games=6, seed=1)
    one = run_tournament(spec, workers=1, progress=False)
    two = run_tournament(spec, workers=2, progress=False, chunk=1)
    keys = ("game", "seats", "winners", "reason", "personalities", "turns", "decisions")
    assert [{k: r[k] for k in keys} for r in one.records] == [
        {k: r[k] for k in keys} for r in two.records
    ]
    assert one.summary["ratings"] == two.summary["ratings"]


def test_journal_resumes_an_interrupted_run(tmp_path):
    journal = tmp_path / "j.jsonl"
    full = TournamentSpec(bots=("random", "random"), num_players=2, games=6, seed=3)
    part = run_tournament(full, workers=1, progress=False, journal=journal)
    lines = journal.read_text().splitlines()
    assert len(lines) == 1 + 6
    journal.write_text("\n".join(lines[:4]) + "\n" + lines[4][:10])  # 3 games + a cut line
    again = run_tournament(full, workers=1, progress=False, journal=journal, resume=True)
    assert [r["game"] for r in again.records] == list(range(6))
    strip = lambda rs: [{k: v for k, v in r.items() if "seconds" not in k} for r in rs]  # noqa: E731
    assert strip(again.records) == strip(part.records)
    resumed = run_tournament(full, workers=1, progress=False, journal=journal, resume=True)
    assert resumed.summary["bots"] == again.summary["bots"]  # all 6 games read back
    before = journal.read_bytes()
    other = TournamentSpec(bots=("random", "random"), num_players=2, games=6, seed=4)
    with pytest.raises(JournalError, match=r"another tournament \(seed 3 there, 4 here\)"):
        run_tournament(other, workers=1, progress=False, journal=journal, resume=True)
    with pytest.raises(JournalError, match=r"already holds 6 finished games.*--resume"):
        run_tournament(full, workers=1, progress=False, journal=journal)
    assert journal.read_bytes() == before, "a refused journal is left exactly as it was"


def test_cli_summary_of_a_journal(tmp_path, capsys):
    out = tmp_path / "r.json"
    main(
        [
            "eval",
            "--bots",
            "random,random",
            "--players",
            "2",
            "--games",
            "4",
            "--out",
            str(out),
            "--workers",
            "1",
            "--no-progress",
            "--no-plots",
        ]
    )
    capsys.readouterr()
    assert main(["summary", str(tmp_path / "r_games.jsonl")]) == 0
    text = capsys.readouterr().out
    assert "4 of 4 games finished" in text and "random" in text


@pytest.mark.slow
def test_eval_records_every_game_and_the_journal_points_to_them(tmp_path, capsys):
    from nanty_env.storage.records import check_record, load_record

    out, folder = tmp_path / "results.json", tmp_path / "records"
    code = main(
        [
            "eval",
            "--bots",
            "heuristic,random",
            "--players",
            "2",
            "--games",
            "4",
            "--seed",
            "3",
            "--out",
            str(out),
            "--records",
            str(folder),
            "--workers",
            "2",
            "--no-plots",
            "--no-progress",
        ]
    )
    assert code == 0
    assert sorted(p.name for p in folder.iterdir()) == [f"game_{i:06d}.json" for i in range(4)]
    lines = (tmp_path / "results_games.jsonl").read_text().splitlines()[1:]
    for line in lines:
        game = json.loads(line)
        rec = load_record(game["record"])
        assert rec["players"] == game["bots"] and rec["seed"] == game["deal_seed"]
        assert rec["outcome"]["winners"] == game["winners"]
        assert rec["meta"]["game"] == game["game"] and check_record(rec).ok
    assert len(lines) == 4


def test_roles_train_rewrites_the_shipped_role_model_by_default():
    from importlib import resources
    from pathlib import Path

    from agents.roles import MODEL_FILES
    from nanty_app.cli import build_parser, role_model_out

    for expansion, argv in ((None, []), ("cthulhu", ["--expansion", "cthulhu"])):
        f = MODEL_FILES[expansion]
        shipped = Path(str(resources.files("agents") / "data" / f)).resolve()
        args = build_parser().parse_args(["roles-train", *argv])
        assert role_model_out(args).resolve() == shipped
