"""Tournaments under faults: signals to a running ``nanty eval``, killed and stopped workers,
damaged journals, journals of other runs, extra records and ``--out`` folders."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.tournament import (
    JournalError,
    TournamentError,
    TournamentSpec,
    load_journal,
    output_paths,
    run_tournament,
)
from nanty_app.cli import main

ROOT = Path(__file__).resolve().parents[2]
SLOW_BOTS = "heuristic,heuristic,random,random"  # a few seconds a game: a run is never over


def session_processes(sid: int) -> list[tuple[int, int, str]]:
    """(pid, parent pid, state) of every live process in session ``sid`` (Linux /proc)."""
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        state, ppid, session = fields[0], int(fields[1]), int(fields[3])
        if session == sid and state != "Z":
            out.append((int(d.name), ppid, state))
    return out


def workers_of(main_pid: int) -> list[int]:
    """Tournament workers: the session's processes that are not the main process or one of
    its direct children (the forkserver, the resource tracker)."""
    return [
        pid for pid, ppid, _ in session_processes(main_pid) if pid != main_pid and ppid != main_pid
    ]


def journal_games(path: Path) -> list[int]:
    lines = path.read_text().splitlines() if path.exists() else []
    return [json.loads(x)["game"] for x in lines[1:] if x.strip()]


def start_eval(tmp_path: Path, games: int = 200, extra: tuple[str, ...] = ()) -> tuple:
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "nanty_app.cli", "eval", "--bots", SLOW_BOTS, "--games"]
    cmd += [str(games), "--workers", "2", "--chunk", "4", "--no-progress", "--no-plots"]
    cmd += ["--out", str(out), *extra]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        cmd,
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own session: every descendant can be found afterwards
    )
    return proc, out / "results_games.jsonl"


def wait_for_games(
    proc, journal: Path, count: int = 1, timeout: float = 120.0, chunks: tuple[int, ...] = ()
) -> None:
    """Until the journal holds ``count`` games, and one of each of ``chunks`` (of 4 games:
    the pool's first chunks go to its workers in order, so a game of chunk ``w`` says that
    worker ``w`` is past its start-up, during which the pool waits longer for it)."""
    deadline = time.monotonic() + timeout

    def done() -> bool:
        games = journal_games(journal)
        return len(games) >= count and all(any(g // 4 == c for g in games) for c in chunks)

    while not done():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the tournament did not finish games in time"
        time.sleep(0.2)


def stop_and_time(proc, send) -> float:
    t0 = time.monotonic()
    send()
    proc.wait(timeout=30)
    return time.monotonic() - t0


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("how", ["ctrl-c to the process group", "SIGTERM to the main process"])
def test_signal_stops_eval_quickly_keeping_every_finished_game(tmp_path: Path, how: str) -> None:
    proc, journal = start_eval(tmp_path)
    wait_for_games(proc, journal, 2)
    before = len(journal_games(journal))
    if how.startswith("ctrl-c"):  # a terminal sends SIGINT to every process of the group
        sig, send = signal.SIGINT, lambda: os.killpg(proc.pid, signal.SIGINT)
    else:
        sig, send = signal.SIGTERM, lambda: proc.send_signal(signal.SIGTERM)
    seconds = stop_and_time(proc, send)
    _, err = proc.communicate()
    assert proc.returncode == 128 + sig, err
    assert seconds < 4.0, f"took {seconds:.1f} s to stop"
    kept = journal_games(journal)
    m = re.search(r"stopped by (SIGINT|SIGTERM): (\d+) of 200 games finished", err)
    assert m, err
    assert len(kept) == int(m.group(2)) >= before
    assert len(set(kept)) == len(kept)
    time.sleep(0.3)
    assert session_processes(proc.pid) == [], "a worker outlived the tournament"
    # and the run resumes from the journal: nothing is replayed
    result = load_journal(journal, log=lambda _: None)
    assert sorted(r["game"] for r in result.records) == sorted(kept)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_killed_worker_ends_the_run_with_one_clear_error(tmp_path: Path) -> None:
    proc, journal = start_eval(tmp_path)
    wait_for_games(proc, journal, 1)
    victim = workers_of(proc.pid)[0]
    seconds = stop_and_time(proc, lambda: os.kill(victim, signal.SIGKILL))
    _, err = proc.communicate()
    assert proc.returncode == 1 and seconds < 5.0, err
    assert re.search(rf"worker \d \(pid {victim}\) died with exit code -9 while playing games", err)
    m = re.search(r"the (\d+) finished games are kept in", err)
    assert m and int(m.group(1)) == len(journal_games(journal)), err
    assert "Traceback" not in err
    time.sleep(0.3)
    assert session_processes(proc.pid) == []


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_stopped_worker_is_declared_stuck_and_killed(tmp_path: Path) -> None:
    code = f"""
import sys
from arena.tournament import TournamentSpec, run_tournament
from arena.workers import WorkerError
spec = TournamentSpec(bots=tuple("{SLOW_BOTS}".split(",")), games=200)
try:
    run_tournament(spec, workers=2, chunk=4, progress=False, journal="j.jsonl", stall_timeout=3)
except WorkerError as e:
    print(e, file=sys.stderr)
    sys.exit(3)
"""
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    wait_for_games(proc, tmp_path / "j.jsonl", chunks=(0, 1))  # both workers have started
    victim = workers_of(proc.pid)[0]
    seconds = stop_and_time(proc, lambda: os.kill(victim, signal.SIGSTOP))
    err = proc.stderr.read()
    assert proc.returncode == 3, err
    assert f"(pid {victim}) stopped answering" in err and seconds < 10.0
    time.sleep(0.3)
    assert session_processes(proc.pid) == [], "the stopped worker was left behind"


SPEC = TournamentSpec(bots=("random", "random"), num_players=2, games=4, seed=1)


def test_damaged_header_is_one_clear_line_and_the_file_is_kept(tmp_path: Path, capsys) -> None:
    journal = tmp_path / "r_games.jsonl"
    journal.write_text('{"spec": {"bots": ["random"], "num_play')  # torn header
    with pytest.raises(JournalError) as err:
        run_tournament(SPEC, workers=1, progress=False, journal=journal, resume=True)
    assert "line 1: not a tournament journal header" in str(err.value)
    assert "\n" not in str(err.value)
    capsys.readouterr()
    assert main(["summary", str(journal)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("nanty summary: error: ") and err.count("\n") == 1
    assert "not a tournament journal header" in err
    assert journal.read_text() == '{"spec": {"bots": ["random"], "num_play'


def test_damaged_and_extra_records_are_skipped_not_counted(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    run_tournament(SPEC, workers=1, progress=False, journal=journal)
    lines = journal.read_text().splitlines()
    extra = json.loads(lines[1]) | {"game": 4}  # a fifth game for a four-game spec
    other_deal = json.loads(lines[2]) | {"deal_seed": 12345}
    damaged = lines[3][: len(lines[3]) // 2]
    journal.write_text(
        "\n".join([*lines, json.dumps(extra), json.dumps(other_deal), damaged, lines[1]]) + "\n"
    )
    notes: list[str] = []
    result = load_journal(journal, log=notes.append)
    assert sorted(r["game"] for r in result.records) == [0, 1, 2, 3]
    assert sum(b["games"] for b in result.summary["bots"]) == 2 * 4
    assert any("damaged lines: 1" in n for n in notes)
    assert any("outside this tournament's schedule: 2" in n for n in notes)
    assert any("repeated games" in n for n in notes)
    again = run_tournament(
        SPEC, workers=1, progress=False, journal=journal, resume=True, log=notes.append
    )
    assert len(again.records) == 4


def test_torn_last_line_is_mended_before_appending(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    run_tournament(SPEC, workers=1, progress=False, journal=journal)
    lines = journal.read_text().splitlines()
    journal.write_text("\n".join(lines[:3]) + "\n" + lines[3][:20])  # 2 games + half a line
    notes: list[str] = []
    run_tournament(SPEC, workers=1, progress=False, journal=journal, resume=True, log=notes.append)
    assert journal_games(journal) == [0, 1, 2, 3] and notes == []


def test_out_folder_keeps_everything_inside(tmp_path: Path) -> None:
    folder = tmp_path / "eval"
    assert output_paths(folder) == (folder / "results.json", folder / "results_games.jsonl")
    assert output_paths(tmp_path / "x.json") == (tmp_path / "x.json", tmp_path / "x_games.jsonl")
    folder.mkdir()
    args = ["eval", "--bots", "random,random", "--players", "2", "--games", "2", "--workers"]
    assert main([*args, "1", "--no-progress", "--no-plots", "--out", str(folder)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["eval"]
    assert (folder / "results.json").exists() and (folder / "results_games.jsonl").exists()


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--games", "0"], "--games: must be at least 1"),
        (["--games", "-5"], "--games: must be at least 1"),
        (["--chunk", "-2"], "--chunk: must be at least 1"),
        (["--workers", "0"], "--workers: must be at least 1"),
        (["--seed", "-1"], "seed must be non-negative"),
        (["--thresholds", "bogus"], "--thresholds: invalid choice"),
    ],
)
def test_bad_counts_are_refused_before_playing(extra: list[str], message: str, capsys) -> None:
    try:
        code = main(["eval", "--bots", "random,random", "--players", "2", "--no-progress", *extra])
    except SystemExit as e:  # argparse's own errors
        code = e.code
    err = capsys.readouterr().err
    assert code == 2 and message in err and err.count("\n") == 1, err


def test_spec_rejects_impossible_tournaments() -> None:
    with pytest.raises(TournamentError, match="games must be at least 1"):
        TournamentSpec(bots=("random", "random"), num_players=2, games=0)


BAD_FIELDS = [
    ("winners", "x", "winners is not a list of seats"),
    ("winners", [7], "winners is not a list of seats"),
    ("winners", [True], "winners is not a list of seats"),
    ("seats", [0, 0], "seats do not fit the rotation"),
    ("bots", ["heuristic", "random"], "bots do not fit the seats"),
    ("reason", None, "reason is not text"),
    ("personalities", "holmes", "personalities is not one name per seat"),
    ("seconds", [0.1], "seconds is not one number per seat"),
    ("points", ["a", "b"], "points is not one number per seat"),
    ("turns", "many", "turns is not an integer"),
    ("session_start_seconds", [], "session_start_seconds is not a number"),
]


@pytest.mark.parametrize(("key", "value", "problem"), BAD_FIELDS)
def test_a_journal_record_with_a_bad_field_is_skipped_with_a_note(
    tmp_path: Path, key: str, value, problem: str
) -> None:
    journal = tmp_path / "j.jsonl"
    run_tournament(SPEC, workers=1, progress=False, journal=journal)
    lines = journal.read_text().splitlines()
    lines[2] = json.dumps(json.loads(lines[2]) | {key: value})
    journal.write_text("\n".join(lines) + "\n")
    notes: list[str] = []
    result = load_journal(journal, log=notes.append)
    assert sorted(r["game"] for r in result.records) == [0, 2, 3]
    assert notes == [f"{journal}: skipped records with bad fields: 1 (line 3 ({problem}))"]


def test_resume_replays_a_game_whose_journal_record_is_bad(tmp_path: Path, capsys) -> None:
    """``"winners": "x"`` in the journal: --resume used to play every remaining game and then
    die in the statistics without writing the results. Now the bad record is skipped with a
    note, its game is played again and the results are written."""
    out = tmp_path / "run"
    args = ["eval", "--bots", "random,random", "--players", "2", "--games", "4", "--workers"]
    args += ["1", "--no-progress", "--no-plots", "--seed", "1", "--out", str(out)]
    assert main(args) == 0
    journal = out / "results_games.jsonl"
    lines = journal.read_text().splitlines()
    good = json.loads(lines[2])
    lines[2] = json.dumps(good | {"winners": "x"})
    journal.write_text("\n".join(lines[:4]) + "\n")  # games 0-2, game 1's record bad
    (out / "results.json").unlink()
    capsys.readouterr()
    assert main([*args, "--resume"]) == 0
    err = capsys.readouterr().err
    assert "skipped records with bad fields: 1 (line 3 (winners is not a list of seats))" in err
    results = json.loads((out / "results.json").read_text())
    assert sorted(g["game"] for g in results["games"]) == [0, 1, 2, 3]
    replayed = next(g for g in results["games"] if g["game"] == 1)
    assert replayed["winners"] == good["winners"]  # the same deal and bots: the same game
    assert sum(b["games"] for b in results["bots"]) == 2 * 4
    assert main(["summary", str(journal)]) == 0  # the bad line stays, and is skipped again


def test_a_deeply_nested_journal_line_is_damaged_not_a_crash(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    run_tournament(SPEC, workers=1, progress=False, journal=journal)
    lines = journal.read_text().splitlines()
    journal.write_text("\n".join([*lines[:2], "[" * 5000 + "]" * 5000, *lines[2:]]) + "\n")
    notes: list[str] = []
    result = load_journal(journal, log=notes.append)
    assert len(result.records) == 4 and any("damaged lines: 1" in n for n in notes)
