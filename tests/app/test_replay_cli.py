"""``nanty replay``: the revealed turn-by-turn view and ``--check``."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from nanty_env.engine import Game, GameConfig
from nanty_env.engine.tables import tables
from nanty_env.records import GameRecorder, write_record


@pytest.fixture
def record_file(tmp_path):
    g = Game.new(GameConfig(num_players=3), seed=21)
    rec = GameRecorder(g.cfg, 21, players=["heuristic", "random", "random"], source="test")
    rng = np.random.default_rng(21)
    while not g.is_terminal:
        rec.apply(g, int(rng.choice(g.legal_actions())))
    start = Game.new(GameConfig(num_players=3), seed=21)
    return write_record(tmp_path / "game.json", rec.record(g)), start


def test_check_passes_a_true_record(nanty, record_file) -> None:
    path, _ = record_file
    out = nanty(["replay", str(path), "--check"])
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"OK {path}:") and "actions replayed" in out.stdout


def test_check_fails_on_a_tampered_action_or_outcome(nanty, record_file, tmp_path) -> None:
    path, _ = record_file
    rec = json.loads(path.read_text())
    bad = copy.deepcopy(rec)
    k = next(i for i, a in enumerate(bad["actions"]) if a["decision"] == "main")
    bad["actions"][k]["action"] = 404
    write_record(tmp_path / "bad.json", bad)
    out = nanty(["replay", str(tmp_path / "bad.json"), "--check"])
    assert out.returncode == 1
    assert f"MISMATCH in {tmp_path / 'bad.json'}: action {k + 1}" in out.stderr
    bad = copy.deepcopy(rec)
    bad["outcome"]["reason"] = "riots:points"
    write_record(tmp_path / "bad2.json", bad)
    out = nanty(["replay", str(tmp_path / "bad2.json"), "--check"])
    assert out.returncode == 1 and "the outcome differs" in out.stderr


def test_unreadable_versions_are_named(nanty, record_file, tmp_path) -> None:
    path, _ = record_file
    rec = json.loads(path.read_text())
    write_record(tmp_path / "future.json", {**rec, "version": 7})
    out = nanty(["replay", str(tmp_path / "future.json"), "--check"])
    assert out.returncode == 2 and "record format version 7 is newer" in out.stderr
    write_record(tmp_path / "old.json", {**rec, "version": 0})
    out = nanty(["replay", str(tmp_path / "old.json")])
    assert out.returncode == 2 and "record format version 0" in out.stderr


def test_replay_shows_everything_turn_by_turn(nanty, record_file) -> None:
    path, start = record_file
    out = nanty(["replay", str(path)])
    assert out.returncode == 0, out.stderr
    text = out.stdout
    data = tables().data
    for q in range(3):  # every hand and personality of the deal
        assert data.personalities[start.persona[q]].name("nanty") in text
        for c in start.hands[q]:
            assert data.cards[c].name("nanty") in text
    assert "Draw pile, top first: " + data.cards[start.deck[-1]].name("nanty") in text
    assert "── turn 1: player" in text and "── turn 5: player" in text
    assert "player 0 (heuristic): " in text
    assert "Game over." in text
