"""No finished game is ever overwritten by another: every writer of records (the Table of
``nanty play`` and ``nanty serve``, the tournaments, the AEC env's RecordingWrapper) claims a
file name nobody has the first time a game is saved, and later saves of the same game replace
only its own file. Two games with the same seed started in the same second get two files."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import numpy as np
import pytest

import nanty_env
from arena.tournament import TournamentSpec, load_journal, run_tournament
from nanty_app.table import HUMAN, Table
from nanty_env.engine import GameConfig
from nanty_env.storage.recording import RecordingWrapper
from nanty_env.storage.records import (
    check_record,
    claim_record_path,
    load_record,
    save_record,
)

SECOND = "20261128-163000"


@pytest.fixture
def frozen_clock(monkeypatch):
    """Every table is set in the same second."""
    monkeypatch.setattr("nanty_app.table._stamp", lambda: SECOND)


def finish(t: Table) -> None:
    while not t.over:
        if t.human_to_move():
            t.play(0, t.choices(0)[-1][0])
            t.save()  # as nanty play does after each of the person's moves
        t.advance()
    t.save()


def test_claiming_gives_every_caller_its_own_file(tmp_path: Path) -> None:
    paths: list[Path] = []
    lock = threading.Lock()

    def claim() -> None:
        p = claim_record_path(tmp_path / "new", "play_x_seed1.json")
        with lock:
            paths.append(p)

    threads = [threading.Thread(target=claim) for _ in range(12)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    names = sorted(p.name for p in paths)
    assert len(set(names)) == 12
    assert "play_x_seed1.json" in names and "play_x_seed1-12.json" in names


def test_a_later_save_replaces_only_its_own_file(tmp_path: Path) -> None:
    first = save_record({"n": 1}, tmp_path, "g.json")
    other = save_record({"n": 2}, tmp_path, "g.json")
    assert (first.name, other.name) == ("g.json", "g-2.json")
    assert save_record({"n": 3}, tmp_path, "g.json", first) == first
    assert json.loads(first.read_text()) == {"n": 3}
    assert json.loads(other.read_text()) == {"n": 2}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g-2.json", "g.json"]


def test_a_failed_first_save_gives_its_name_back(tmp_path: Path, monkeypatch) -> None:
    def boom(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr("nanty_env.storage.records.os.replace", boom)
    with pytest.raises(OSError, match="disk full"):
        save_record({"n": 1}, tmp_path, "g.json")
    assert list(tmp_path.iterdir()) == []


def test_two_tables_with_one_seed_in_one_second_keep_both_games(
    tmp_path: Path, frozen_clock
) -> None:
    config = GameConfig(num_players=3)
    a = Table(config, 9, [HUMAN, "random", "random"], records=tmp_path)
    b = Table(config, 9, [HUMAN, "heuristic", "heuristic"], records=tmp_path)
    a.save()
    b.save()
    assert a.record_path != b.record_path
    finish(a)
    finish(b)
    files = sorted(tmp_path.iterdir())
    assert [p.name for p in files] == [f"play_{SECOND}_seed9-2.json", f"play_{SECOND}_seed9.json"]
    for t in (a, b):
        rec = load_record(t.record_path)
        assert rec["actions"] == t.record()["actions"] and rec["outcome"] is not None
        assert rec["meta"]["seats"] == t.seats and check_record(rec).ok


def test_the_web_server_keeps_two_games_with_one_seed_in_one_second(
    tmp_path: Path, frozen_clock
) -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from nanty_app.server import create_app

    client = TestClient(create_app(tmp_path), base_url="http://127.0.0.1:8000")
    setups = (["random", "random"], ["heuristic", "heuristic"])
    games = []
    for bots in setups:
        r = client.post("/api/games", json={"bots": bots, "seed": 4})
        assert r.status_code == 201, r.text
        games.append(r.json())
    names = []
    for g in games:
        state = g
        while not state["over"]:
            if state["your_turn"]:
                action = state["choices"][0]["action"]
                state = client.post(f"/api/games/{g['id']}/act", json={"action": action}).json()
            else:
                state = client.post(f"/api/games/{g['id']}/advance", json={"max": 2000}).json()
        names.append(state["record"])  # named once the game is over
    assert names[0] != names[1]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names)
    for name, bots in zip(names, setups, strict=True):
        rec = load_record(tmp_path / name)
        assert rec["meta"]["seats"] == [HUMAN, *bots]
        assert rec["outcome"] is not None and check_record(rec).ok


def test_two_tournaments_into_one_records_folder_keep_every_game(tmp_path: Path) -> None:
    records = tmp_path / "records"
    runs = []
    for k, bots in enumerate((("random", "random"), ("heuristic", "random"))):
        spec = TournamentSpec(bots=bots, num_players=2, games=2, seed=3)
        journal = tmp_path / f"run{k}_games.jsonl"
        run_tournament(spec, workers=1, progress=False, journal=journal, record_dir=records)
        runs.append(load_journal(journal))
    assert len(list(records.iterdir())) == 4
    for run in runs:
        for game in run.records:
            rec = load_record(game["record"])
            assert rec["players"] == game["bots"] and rec["meta"]["game"] == game["game"]
            assert check_record(rec).ok
    assert {Path(g["record"]).name for g in runs[1].records} == {
        "game_000000-2.json",
        "game_000001-2.json",
    }


def test_two_recording_envs_with_one_seed_keep_both_games(tmp_path: Path) -> None:
    paths = []
    for k in range(2):
        e = RecordingWrapper(nanty_env.env(num_players=2), tmp_path, players=[f"run{k}"] * 2)
        e.reset(seed=11)
        rng = np.random.default_rng(k)
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        e.close()
        paths += e.paths
    assert len(paths) == 2 and paths[0] != paths[1]
    assert len(list(tmp_path.iterdir())) == 2
    for k, path in enumerate(paths):
        rec = load_record(path)
        assert rec["players"] == [f"run{k}"] * 2
        assert rec["outcome"] is not None and check_record(rec).ok
