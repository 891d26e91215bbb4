"""Watching bots play in the browser UI (``/api/watch``): games of bots in every seat, advanced
within a time budget, seen with every hand revealed, publicly or as one seat sees it; trained
policies only from the folder ``--allow-policy`` names, never a path out of it, never a .zip."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("starlette")
pytest.importorskip("safetensors")
from starlette.testclient import TestClient

from agents.checkpoint import save_policy
from nanty_app.web.app import create_app
from nanty_app.web.guard import ApiError
from nanty_app.web.lobby import Lobby
from nanty_app.web.policies import PolicyFolder
from nanty_env.encoding.rulesets import ruleset_spec
from nanty_env.presentation.board_svg import board_svg
from nanty_env.presentation.render_panel import panel
from nanty_env.presentation.words import decision_words
from nanty_env.storage.records import check_record, load_record

BASE = "http://127.0.0.1:8000"


def write_policy(path: Path, expansion: str | None = None) -> Path:
    """A small linear policy for the ruleset (random weights: it plays, badly)."""
    spec = ruleset_spec(expansion)
    rng = np.random.default_rng(0)
    tensors = {
        "w": (rng.normal(size=(spec.num_actions, spec.obs_size)) * 0.01).astype(np.float32),
        "b": np.zeros(spec.num_actions, np.float32),
    }
    meta = {
        "actor": [{"weight": "w", "bias": "b", "activation": "none"}],
        "observation": {"size": spec.obs_size, "hint": False, "encoder": spec.encoder_name},
        "num_actions": spec.num_actions,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    return save_policy(path, tensors, meta)


@pytest.fixture
def runs(tmp_path) -> Path:
    folder = tmp_path / "runs"
    write_policy(folder / "quick" / "model")
    write_policy(folder / "cthulhu" / "model", "cthulhu")
    return folder


@pytest.fixture
def client(tmp_path, runs):
    app = create_app(tmp_path / "records", allow_policy=runs)
    return TestClient(app, base_url=BASE)


def watch(client, bots, status=201, **body):
    r = client.post("/api/watch", json={"bots": bots, **body})
    assert r.status_code == status, r.text
    return r.json()


def test_watch_a_whole_game_of_bots_with_a_trained_policy(client, tmp_path) -> None:
    listed = client.get("/api/bots").json()
    assert listed["bots"] == ["random", "heuristic", "ismcts"] and listed["policy"] is True
    names = {p["name"]: p["expansion"] for p in listed["policies"]}
    assert names == {"quick/model": None, "cthulhu/model": "cthulhu"}

    state = watch(client, ['policy:path="quick/model"', "heuristic", "random"], seed=4)
    assert state["names"] == ["policy quick/model", "heuristic", "random"]
    assert state["view"] == "all" and state["seed"] == 4 and state["total"] == 0
    assert "everything revealed" in state["svg"]
    gid = state["id"]
    while not state["over"]:
        since = state["total"]
        state = client.post(
            f"/api/watch/{gid}/advance", json={"max": 400, "since": since, "view": "public"}
        ).json()
        assert state["since"] == since and len(state["log"]) == state["total"] - since
    assert state["outcome"]["text"] and state["record"] and state["seed"] == 4
    rec = load_record(tmp_path / "records" / state["record"])
    assert check_record(rec).ok and rec["players"] == state["names"]
    full = client.get(f"/api/watch/{gid}?view=all").json()
    assert full["total"] == len(full["log"]) == len(rec["actions"])

    (line,) = client.get("/api/records").json()["records"]
    assert line["players"] == state["names"]
    assert line["bots"] == ["policy", "heuristic", "random"]
    assert line["expansion"] is None and line["winners"] == state["outcome"]["winners"]
    assert line["saved"].startswith("20") and line["source"] == "nanty serve (watched)"


def test_a_policy_plays_only_its_own_ruleset(client) -> None:
    state = watch(client, ['policy:path="cthulhu/model"', "random"], expansion="cthulhu")
    assert state["expansion"] == "cthulhu"
    r = client.post("/api/watch", json={"bots": ['policy:path="cthulhu/model"', "random"]})
    assert r.status_code == 400 and "trained on" in r.json()["error"]


def test_views_revealed_public_and_one_seats(client) -> None:
    state = watch(client, ["heuristic", "random", "random"], seed=9)
    gid = state["id"]
    state = client.post(f"/api/watch/{gid}/advance", json={"max": 30}).json()
    assert state["moved"] == 30 and not state["over"]
    lobby = client.app.state.lobby
    table = lobby.watched[gid].table
    names = list(table.names)

    public = client.get(f"/api/watch/{gid}?view=public").json()
    assert public["seed"] is None and "public view: no hand shown" in public["svg"]
    assert "(you)" not in str(public["panel"]) and public["panel"]["hand"] is None
    assert public["panel"]["known"] == [] and "Hand:" not in str(public["panel"])
    assert all(m["forced"] is None for m in public["log"])  # told to nobody before the end

    for seat in range(3):
        seen = client.get(f"/api/watch/{gid}?view={seat}").json()
        view = table.game.view(seat)
        assert seen["view"] == seat and seen["seed"] is None and seen["record"] is None
        assert seen["svg"] == board_svg(view, table.config, names, with_panel=False)
        assert seen["panel"] == panel(view, table.config, names).to_json()  # that seat's view
        assert seen["question"] == decision_words(view, table.config.theme, table.config)[0]
        assert all(m["forced"] is None for m in seen["log"] if m["seat"] != seat)

    revealed = client.get(f"/api/watch/{gid}?view=all&since=25").json()
    assert revealed["seed"] == 9 and revealed["since"] == 25 and len(revealed["log"]) == 5
    for bad in ("3", "-1", "everything", "01x"):
        r = client.get(f"/api/watch/{gid}?view={bad}")
        assert r.status_code == 400, bad
    assert client.get(f"/api/watch/{gid}?since=x").status_code == 400
    assert client.get("/api/watch/nope").status_code == 404
    r = client.post(f"/api/watch/{gid}/advance", json={"max": 1, "view": 7})
    assert r.status_code == 400 and table.moves and len(table.moves) == 30


def test_an_advance_stops_when_its_time_is_up(tmp_path) -> None:
    lobby = Lobby(tmp_path, advance_seconds=0.2)
    state = lobby.new_watch({"bots": ["ismcts:time=0.05", "ismcts:time=0.05"], "seed": 2})
    assert lobby.watch_slow(state["id"])
    start = time.monotonic()
    state = lobby.watch_advance(state["id"], {"max": 2000})
    assert 1 <= state["moved"] < 2000 and not state["over"]
    assert time.monotonic() - start < 2.0


def test_policies_are_refused_without_allow_policy(tmp_path, runs) -> None:
    client = TestClient(create_app(tmp_path / "records"), base_url=BASE)
    listed = client.get("/api/bots").json()
    assert listed["policy"] is False and listed["policies"] == []
    for spec in ['policy:path="quick/model"', f"policy:path={runs / 'quick' / 'model.json'}"]:
        r = client.post("/api/watch", json={"bots": [spec, "random"]})
        assert r.status_code == 400 and "--allow-policy" in r.json()["error"]
    r = client.post("/api/games", json={"bots": ['policy:path="quick/model"']})
    assert r.status_code == 400  # never for a person's opponents either
    assert not (tmp_path / "records").exists()


def test_paths_out_of_the_allowed_folder_are_refused(client, tmp_path, runs) -> None:
    outside = tmp_path / "elsewhere"
    write_policy(outside / "model")
    (runs / "escape").symlink_to(outside, target_is_directory=True)
    os.symlink(outside / "model.json", runs / "linked.json")
    os.symlink(outside / "model.safetensors", runs / "linked.safetensors")
    (runs / "old.zip").write_bytes(b"PK\x03\x04 not opened")
    messages = set()
    for path in (
        "../elsewhere/model",
        "quick/../../elsewhere/model",
        str(outside / "model"),
        str(outside / "model.json"),
        "escape/model",
        "linked",
        "linked.json",
        "missing/model",
        "/etc/passwd",
        "",
    ):
        spec = f"policy:path={json.dumps(path)}"
        r = client.post("/api/watch", json={"bots": [spec, "random"]})
        assert r.status_code == 400, (path, r.text)
        messages.add(r.json()["error"].replace(repr(path[:80]), "PATH"))
    assert messages == {"no policy checkpoint PATH in the allowed folder"}  # whatever it names
    for spec, words in [
        ("policy:path=old.zip", ".zip"),
        ('policy:path="old.zip"', ".zip"),
        ('policy:path="quick/model":trust=1', "trust"),
        ('policy:path="quick/model":deterministic=2', "deterministic"),
        ("policy:path=1", "checkpoint"),
        ("policy", "checkpoint"),
        ('policy:path="quick/model":policy=x', "policy"),
    ]:
        r = client.post("/api/watch", json={"bots": [spec, "random"]})
        assert r.status_code == 400 and words in r.json()["error"], (spec, r.text)
    names = [p["name"] for p in client.get("/api/bots").json()["policies"]]
    assert sorted(names) == ["cthulhu/model", "quick/model"]  # the links out are not listed
    assert not (tmp_path / "records").exists()


def test_a_policy_linked_inside_the_folder_is_allowed(tmp_path, runs) -> None:
    os.symlink(runs / "quick", runs / "latest", target_is_directory=True)
    folder = PolicyFolder(runs)
    spec, name = folder.spec('policy:path="latest/model":deterministic=0')
    real = (runs / "quick" / "model.json").resolve()
    assert spec == f"policy:path={real}:deterministic=0" and name == "policy quick/model (sampling)"


def test_bad_games_to_watch_get_400(client) -> None:
    for body in (
        {"bots": ["random"]},
        {"bots": ["random"] * 5},
        {"bots": "random,random"},
        {"bots": ["random", "mypkg.bots:Greedy"]},
        {"bots": ["random", "ismcts:time=100"]},
        {"bots": ["random", "random"], "seed": -1},
        {"bots": ["random", "random"], "view": "god"},
        {"bots": ["random", "random"], "expansion": "moon"},
        {"bots": ["random", "random"], "human": 0},
    ):
        r = client.post("/api/watch", json=body)
        assert r.status_code == 400, (body, r.text)
    r = client.post(
        "/api/watch", json={"bots": ["random", "random"]}, headers={"Origin": "http://evil.test"}
    )
    assert r.status_code == 403  # another site's page
    assert client.app.state.lobby.watched == {}


def test_watched_games_are_capped(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr("nanty_app.web.watch.MAX_WATCHED", 2)
    lobby = Lobby(tmp_path)
    first = lobby.new_watch({"bots": ["random", "random"]})["id"]
    lobby.new_watch({"bots": ["random", "random"]})
    with pytest.raises(ApiError) as refused:
        lobby.new_watch({"bots": ["random", "random"]})
    assert refused.value.status == 429
    while not lobby.watch_advance(first, {"max": 2000})["over"]:
        pass
    third = lobby.new_watch({"bots": ["random", "random"]})["id"]  # the finished one made room
    assert first not in lobby.watched and third in lobby.watched and len(lobby.watched) == 2
    monkeypatch.setattr("nanty_app.web.watch.WATCH_IDLE", 0.0)
    lobby.new_watch({"bots": ["random", "random"]})  # the idle ones make room
    assert len(lobby.watched) == 2


def test_serve_refuses_an_allow_policy_that_is_not_a_folder(nanty, tmp_path) -> None:
    r = nanty(["serve", "--port", "0", "--allow-policy", str(tmp_path / "none")])
    assert r.returncode == 2 and "--allow-policy" in r.stderr and len(r.stderr.splitlines()) == 1
