"""Game records: round trip, re-simulation checks that catch tampering, version messages,
atomic writes and the recording env wrapper."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

import nanty_env
from nanty_env.engine import Game, GameConfig
from nanty_env.storage.recording import RecordingWrapper
from nanty_env.storage.records import (
    FORMAT,
    VERSION,
    GameRecorder,
    RecordError,
    check_record,
    final_game,
    load_record,
    parse_record,
    state_digest,
    write_record,
)


def random_record(seed: int = 3, n: int = 3, *, finish: bool = True, steps: int = 10**6):
    g = Game.new(GameConfig(num_players=n), seed=seed)
    rec = GameRecorder(g.cfg, seed, players=["a", "b", "c", "d"][:n], source="test")
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if g.is_terminal:
            break
        rec.apply(g, int(rng.choice(g.legal_actions())))
    assert g.is_terminal or not finish
    return g, rec.record(g)


def test_round_trip_replays_to_the_same_game(tmp_path) -> None:
    g, rec = random_record()
    path = write_record(tmp_path / "r.json", rec)
    loaded = load_record(path)
    assert loaded == json.loads(json.dumps(rec))
    assert loaded["format"] == FORMAT and loaded["version"] == VERSION
    assert loaded["outcome"]["winners"] == list(g.outcome.winners)
    again = final_game(loaded)
    assert again.to_dict()["money"] == g.to_dict()["money"]
    assert state_digest(again) == loaded["final_digest"] == state_digest(g)
    result = check_record(loaded)
    assert result.ok and result.actions == len(rec["actions"]) > 50
    first = loaded["actions"][0]
    assert set(first) == {"seat", "action", "decision", "text"} and first["text"]


def test_check_catches_a_tampered_action_at_its_step() -> None:
    _, rec = random_record()
    bad = copy.deepcopy(rec)
    k = next(i for i, a in enumerate(bad["actions"]) if a["decision"] == "main")
    bad["actions"][k]["action"] = 404  # never legal at a main decision
    result = check_record(bad)
    assert not result.ok and result.step == k + 1
    assert f"action {k + 1}" in result.problem and "illegal" in result.problem


def test_check_catches_a_legal_but_different_action() -> None:
    """Swapping one legal action for another replays, but the game then ends differently."""
    _g, rec = random_record()
    replay = Game.new(GameConfig.from_dict(rec["config"]), rec["seed"])
    for i, entry in enumerate(rec["actions"]):
        legal = replay.legal_actions()
        if len(legal) > 2 and i > 10:
            other = next(a for a in legal if a != entry["action"])
            bad = copy.deepcopy(rec)
            bad["actions"] = [
                *rec["actions"][:i],
                {**entry, "action": other},
                *rec["actions"][i + 1 :],
            ]
            assert not check_record(bad).ok
            break
        replay.apply(entry["action"])


def test_check_catches_a_wrong_outcome_and_a_wrong_seat() -> None:
    _, rec = random_record()
    bad = copy.deepcopy(rec)
    bad["outcome"]["winners"] = [w for w in range(3) if w not in rec["outcome"]["winners"]][:1]
    result = check_record(bad)
    assert not result.ok and "outcome differs" in result.problem
    bad = copy.deepcopy(rec)
    bad["actions"][5]["seat"] = (bad["actions"][5]["seat"] + 1) % 3
    result = check_record(bad)
    assert not result.ok and result.step == 6 and "player" in result.problem
    bad = copy.deepcopy(rec)
    bad["final_digest"] = "sha256:" + "0" * 64
    assert "final state differs" in check_record(bad).problem
    bad = copy.deepcopy(rec)
    bad["actions"].append(dict(bad["actions"][-1]))
    assert "after the end" in check_record(bad).problem


def test_an_unfinished_game_checks_too() -> None:
    g, rec = random_record(finish=False, steps=40)
    assert rec["outcome"] is None and not g.is_terminal
    assert check_record(rec).ok


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"version": 99}, "version 99 is newer"),
        ({"version": 0}, "version 0 is no longer supported"),
        ({"version": "1"}, "version '1' is not a number"),
        ({"format": "something-else"}, "not a Nanty Narking game record"),
    ],
)
def test_other_versions_fail_with_a_message_naming_them(tmp_path, change, message) -> None:
    _, rec = random_record(steps=5, finish=False)
    path = write_record(tmp_path / "r.json", {**rec, **change})
    with pytest.raises(RecordError, match=message):
        load_record(path)


def test_broken_files_fail_clearly(tmp_path) -> None:
    (tmp_path / "x.json").write_text("{not json")
    with pytest.raises(RecordError, match="not JSON"):
        load_record(tmp_path / "x.json")
    with pytest.raises(RecordError, match="cannot read"):
        load_record(tmp_path / "missing.json")
    _, rec = random_record(steps=5, finish=False)
    with pytest.raises(RecordError, match="lacks final_digest"):
        parse_record({k: v for k, v in rec.items() if k != "final_digest"})
    with pytest.raises(RecordError, match="bad game config"):
        parse_record({**rec, "config": {"num_players": 9}})


def test_writes_are_atomic(tmp_path, monkeypatch) -> None:
    _, rec = random_record(steps=5, finish=False)
    path = write_record(tmp_path / "sub" / "r.json", rec)
    good = path.read_text()

    def boom(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr("nanty_env.storage.records.os.replace", boom)
    with pytest.raises(OSError, match="disk full"):
        write_record(path, {**rec, "seed": 12345})
    assert path.read_text() == good  # the old record is intact
    assert [p.name for p in path.parent.iterdir()] == ["r.json"]  # no temporary file left


def test_illegal_action_records_nothing() -> None:
    g = Game.new(GameConfig(num_players=2), seed=1)
    rec = GameRecorder(g.cfg, 1)
    with pytest.raises(nanty_env.engine.IllegalActionError):
        rec.apply(g, 404)
    assert rec.actions == []


def play_env(e, episodes: int, rng: np.random.Generator, illegal_at: int = -1) -> None:
    for ep in range(episodes):
        e.reset(seed=ep)
        for k, _agent in enumerate(e.agent_iter()):
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            if k == illegal_at:
                e.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_recording_wrapper_writes_one_checkable_record_per_game(tmp_path) -> None:
    e = RecordingWrapper(nanty_env.env(num_players=3), tmp_path, players=["x", "y", "z"])
    play_env(e, 2, np.random.default_rng(0))
    e.close()
    assert len(e.paths) == 2 and len(list(tmp_path.iterdir())) == 2
    for path in e.paths:
        rec = load_record(path)
        assert rec["source"] == "env" and rec["players"] == ["x", "y", "z"]
        assert rec["outcome"] is not None
        assert check_record(rec).ok


def test_recording_wrapper_saves_a_game_ended_by_an_illegal_action(tmp_path) -> None:
    e = RecordingWrapper(nanty_env.env(num_players=2), tmp_path)
    play_env(e, 1, np.random.default_rng(1), illegal_at=7)
    e.close()
    (path,) = e.paths
    rec = load_record(path)
    assert rec["outcome"] is None and "illegal action" in rec["meta"]["ended"]
    assert len(rec["actions"]) == 7 and check_record(rec).ok
