"""``nanty replay``: the revealed turn-by-turn view and ``--check``."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from nanty_env.engine import Game, GameConfig
from nanty_env.engine.tables import tables
from nanty_env.storage.records import GameRecorder, write_record


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


# ---------------------------------------------------------------------- bad files: one line, exit 2
def replay_error(capsys, argv: list[str], *needles: str) -> str:
    """``nanty replay ...`` in this process: exit code 2 and one line on stderr."""
    from nanty_app.cli import main

    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith("nanty replay: error: "), err
    for needle in needles:
        assert needle in err, err
    return err


def _variant(tmp_path, record_file, name: str, text: str | bytes | None = None, **changes):
    path, _ = record_file
    target = tmp_path / name
    if text is None:
        rec = json.loads(path.read_text())
        text = json.dumps({**rec, **changes})
    if isinstance(text, bytes):
        target.write_bytes(text)
    else:
        target.write_text(text)
    return str(target)


@pytest.mark.parametrize("check", ([], ["--check"]))
@pytest.mark.parametrize(
    ("name", "make", "needle"),
    [
        ("abc.json", {"seed": "abc"}, "seed must be a non-negative integer, got 'abc'"),
        ("half.json", {"seed": 0.5}, "got 0.5"),
        ("negative.json", {"seed": -1}, "got -1"),
        ("true.json", {"seed": True}, "got True"),
        ("null_actions.json", {"actions": None}, "actions must be a list"),
        ("text_action.json", {"actions": [{"action": "7"}]}, "action 1 has no non-negative"),
        ("bad_seat.json", {"actions": [{"action": 1, "seat": 9}]}, "'seat' that is not a player"),
        ("outcome.json", {"outcome": "x"}, "outcome must be an object"),
        ("winners.json", {"outcome": {"winners": "x", "reason": "r"}}, "outcome winners"),
        ("digest.json", {"final_digest": 7}, "final_digest must be text"),
        ("config.json", {"config": [4]}, "config must be an object"),
    ],
)
def test_a_bad_field_is_one_line_and_exit_2(
    capsys, tmp_path, record_file, name, make, needle, check
):
    replay_error(capsys, ["replay", _variant(tmp_path, record_file, name, **make), *check], needle)


@pytest.mark.parametrize("check", ([], ["--check"]))
def test_broken_json_is_one_line_and_exit_2(capsys, tmp_path, record_file, check) -> None:
    path, _ = record_file
    text = path.read_text()
    cases = {
        "deep.json": ("[" * 3000 + "]" * 3000, "nested too deeply"),
        "nan.json": (text.replace('"seed": 21', '"seed": NaN'), "NaN is not a JSON number"),
        "inf.json": (text.replace('"seed": 21', '"seed": 1e400'), "got inf"),
        "digits.json": (text.replace('"seed": 21', '"seed": ' + "9" * 5000), "not JSON"),
        "latin1.json": (text.replace("player", "pl\xe4yer").encode("latin-1"), "not a text"),
        "empty.json": ("", "not JSON"),
    }
    for name, (content, needle) in cases.items():
        replay_error(
            capsys, ["replay", _variant(tmp_path, record_file, name, content), *check], needle
        )
    replay_error(capsys, ["replay", str(tmp_path), *check], "a folder")
    replay_error(capsys, ["replay", str(tmp_path / "missing.json"), *check], "cannot read")


def test_a_record_bigger_than_the_cap_is_not_read(capsys, tmp_path, monkeypatch) -> None:
    from nanty_env.storage import records

    big = tmp_path / "big.json"
    with big.open("wb") as f:  # sparse: no 64 MB written
        f.truncate(records.MAX_RECORD_BYTES + 1)
    opened = []
    monkeypatch.setattr(records.Path, "open", lambda *a, **k: opened.append(a) or 1 / 0)
    replay_error(capsys, ["replay", str(big)], "more than a record can be (64 MB)")
    assert opened == []


# ---------------------------------------------------------------------- content packs: never opened
def test_a_record_naming_a_content_pack_is_refused_without_opening_it(
    capsys, tmp_path, record_file, monkeypatch
) -> None:
    import nanty_env.data.cthulhu.loader as loader
    from nanty_env.storage.records import RecordError, parse_record

    def never(*args, **kwargs):
        raise AssertionError("a content pack was opened")

    monkeypatch.setattr(loader, "pack_sources", never)
    path, _ = record_file
    rec = json.loads(path.read_text())
    for content in ("/etc/passwd", str(tmp_path), "nanty_env/data/cthulhu"):
        config = {**rec["config"], "expansion": "cthulhu", "content": content}
        with pytest.raises(RecordError, match="content pack of its own") as err:
            parse_record({**rec, "config": config})
        assert "\n" not in str(err.value)
        bad = _variant(tmp_path, record_file, "pack.json", config=config)
        for check in ([], ["--check"]):
            replay_error(capsys, ["replay", bad, *check], "content pack of its own", content)


def test_a_custom_pack_game_is_recorded_but_refused_on_reading(tmp_path) -> None:
    """Records of a game of one's own content pack are written (the games are kept), and every
    reader refuses them with one line rather than open the path they name."""
    from nanty_app.table import Table
    from nanty_env.engine import GameConfig
    from nanty_env.storage.records import RecordError, load_record

    pack = tmp_path / "pack"
    pack.mkdir()  # an empty folder: the shipped sections throughout
    config = GameConfig(num_players=2, expansion="cthulhu", content=str(pack))
    t = Table(config, 1, ["random", "random"], records=tmp_path / "records")
    t.advance()
    path = t.save()
    assert json.loads(path.read_text())["config"]["content"] == str(pack)
    with pytest.raises(RecordError, match="content pack of its own"):
        load_record(path)


# ---------------------------------------------------------------------- output cut short
def test_a_reader_that_stops_early_ends_quietly(tmp_path, record_file) -> None:
    import subprocess
    import sys

    from tests.app.conftest import ROOT

    path, _ = record_file
    for extra, code in (([], 0), (["--check"], 0)):
        proc = subprocess.Popen(
            [sys.executable, "-m", "nanty_app.cli", "replay", str(path), "--boards", *extra],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
        )
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.readline()  # like `| head -1`
        proc.stdout.close()
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=120) == code, err
        assert err == "", err
    # a record that does not replay still says so by its exit code
    rec = json.loads(path.read_text())
    k = next(i for i, a in enumerate(rec["actions"]) if a["decision"] == "main")
    rec["actions"][k]["action"] = 404
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(rec))
    proc = subprocess.Popen(
        [sys.executable, "-m", "nanty_app.cli", "replay", str(bad), "--boards"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 1 and err == "", err


def test_text_from_a_record_cannot_drive_the_terminal(capsys, tmp_path, record_file) -> None:
    """Names and action words come from the file: escape sequences are printed escaped."""
    from nanty_app.cli import main

    path, _ = record_file
    rec = json.loads(path.read_text())
    rec["players"] = ["\x1b[2Jmallory", "b\nc", "\x9b31m"]
    rec["source"] = "\x1b]0;title\x07"
    rec["actions"][0]["text"] = "play \x1b[31mred"
    evil = tmp_path / "evil.json"
    evil.write_text(json.dumps(rec))
    assert main(["replay", str(evil)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x9b" not in out and "\x07" not in out
    assert "\\x1b[2Jmallory" in out and "b\\nc" in out
    rec["actions"][0]["action"] = 404
    evil.write_text(json.dumps(rec))
    assert main(["replay", str(evil), "--check"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "\x1b" not in err and "MISMATCH" in err
