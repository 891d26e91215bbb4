"""The people-facing commands on the expansion: ``nanty play --expansion cthulhu`` writes a
record that ``nanty replay --check`` accepts, the replay shows the track, and the browser UI
starts expansion games."""

from __future__ import annotations

import json

import pytest

from nanty_env.storage.records import check_record, load_record


def test_play_an_expansion_game_in_the_terminal_and_check_its_record(nanty, tmp_path):
    r = nanty(
        [
            "play",
            "--expansion",
            "cthulhu",
            "--bots",
            "random",
            "--seed",
            "4",
            "--records",
            str(tmp_path),
            "--no-color",
        ],
        stdin="1\n" * 2000,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert "The Rise of Cthulhu" in r.stdout and "Insanity" in r.stdout
    assert "Great Old One:" in r.stdout and "objective:" in r.stdout
    (path,) = tmp_path.glob("*.json")
    rec = load_record(path)
    assert rec["config"]["expansion"] == "cthulhu" and check_record(rec).ok
    check = nanty(["replay", "--check", str(path)])
    assert check.returncode == 0 and check.stdout.startswith("OK"), check.stderr
    replay = nanty(["replay", str(path)])
    assert replay.returncode == 0 and "Random events, next first" in replay.stdout
    assert "Elder Ones:" in replay.stdout


def test_a_tampered_expansion_record_fails_the_check(nanty, tmp_path):
    from nanty_env.engine import Game, GameConfig
    from nanty_env.storage.records import GameRecorder, write_record

    cfg = GameConfig(num_players=2, expansion="cthulhu")
    g = Game.new(cfg, 3)
    rec = GameRecorder(cfg, 3)
    for _ in range(60):
        rec.apply(g, g.legal_actions()[-1])
    record = rec.record(g)
    assert check_record(record).ok
    record["final_digest"] = "sha256:" + "0" * 64
    path = write_record(tmp_path / "bad.json", record)
    r = nanty(["replay", "--check", str(path)])
    assert r.returncode == 1 and "final state differs" in r.stderr


def test_the_expansion_digest_covers_its_own_state():
    """Two expansion states equal in every base field but the Insanity level differ."""
    from nanty_env.engine import Game, GameConfig
    from nanty_env.storage.records import state_digest

    g = Game.new(GameConfig(num_players=3, expansion="cthulhu"), 1)
    h = g.clone()
    h.insanity += 1
    assert state_digest(g) != state_digest(h)


def test_the_browser_ui_offers_and_plays_the_expansion(tmp_path):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from nanty_app.server import create_app

    client = TestClient(create_app(tmp_path), base_url="http://127.0.0.1:8000")
    menu = client.get("/api/bots").json()["games"]
    assert menu == [
        {"expansion": "", "title": "the base game"},
        {"expansion": "cthulhu", "title": "The Rise of Cthulhu"},
    ]
    r = client.post("/api/games", json={"bots": ["random"], "seed": 2, "expansion": "cthulhu"})
    assert r.status_code == 201, r.text
    state = r.json()
    assert state["expansion"] == "cthulhu" and 'class="track"' in state["svg"]
    while not state["over"]:
        if not state["your_turn"]:
            state = client.post(f"/api/games/{state['id']}/advance", json={"max": 50}).json()
            continue
        pick = state["choices"][0]["action"]
        state = client.post(f"/api/games/{state['id']}/act", json={"action": pick}).json()
    assert state["outcome"]["text"]
    rec = load_record(tmp_path / state["record"])
    assert rec["config"]["expansion"] == "cthulhu" and check_record(rec).ok
    listed = client.get("/api/records").json()["records"][0]
    step = client.get(f"/api/records/{listed['name']}/step/{listed['actions']}").json()
    assert step["over"] and 'class="track"' in step["svg"] and step["outcome"]
    bad = client.post("/api/games", json={"bots": ["random"], "expansion": "martians"})
    assert bad.status_code == 400 and "expansion" in bad.json()["error"]
    assert json.dumps(state)  # the whole state is JSON
