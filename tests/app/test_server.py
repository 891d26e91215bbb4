"""The browser UI's JSON API: a whole game, record replays, and 4xx answers that change
nothing."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from nanty_app.server import create_app
from nanty_env.storage.records import check_record, load_record


@pytest.fixture
def client(tmp_path):
    return TestClient(create_app(tmp_path), base_url="http://127.0.0.1:8000")


def new_game(client, bots=("random", "random"), seed=5) -> dict:
    r = client.post("/api/games", json={"bots": list(bots), "seed": seed})
    assert r.status_code == 201, r.text
    return r.json()


def until_my_turn(client, state) -> dict:
    while not state["your_turn"] and not state["over"]:
        state = client.post(f"/api/games/{state['id']}/advance", json={"max": 5}).json()
    return state


def test_a_whole_game_through_the_api(client, tmp_path) -> None:
    state = new_game(client)
    assert state["svg"].startswith("<svg") and state["names"] == ["you", "random", "random"]
    moves = 0
    while not state["over"]:
        state = until_my_turn(client, state)
        if state["over"]:
            break
        assert state["choices"] and state["question"]
        pick = state["choices"][-1]["action"]
        state = client.post(f"/api/games/{state['id']}/act", json={"action": pick}).json()
        moves += 1
    assert moves > 10 and state["outcome"]["text"]
    path = tmp_path / state["record"]
    rec = load_record(path)
    assert rec["outcome"]["winners"] == state["outcome"]["winners"] and check_record(rec).ok
    assert len(state["log"]) == len(rec["actions"])


def test_the_page_and_its_files_are_served(client) -> None:
    assert "<title>Nanty Narking</title>" in client.get("/").text
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/api/bots").json()["bots"] == ["random", "heuristic", "ismcts"]


def test_bad_requests_get_4xx_and_change_nothing(client) -> None:
    state = until_my_turn(client, new_game(client))
    gid = state["id"]
    before = client.get(f"/api/games/{gid}").json()
    cases = [
        ("post", f"/api/games/{gid}/act", b"{not json", 400, "malformed JSON"),
        ("post", f"/api/games/{gid}/act", b"[1, 2]", 400, "JSON object"),
        ("post", f"/api/games/{gid}/act", json.dumps({"action": "x"}).encode(), 400, "integer"),
        ("post", f"/api/games/{gid}/act", json.dumps({"action": 404}).encode(), 422, "illegal"),
        ("post", f"/api/games/{gid}/act", json.dumps({}).encode(), 400, "'action'"),
        ("post", "/api/games/nope/act", json.dumps({"action": 1}).encode(), 404, "no game"),
        ("get", "/api/games/nope", None, 404, "no game"),
        ("post", f"/api/games/{gid}/advance", json.dumps({"max": 0}).encode(), 400, "'max'"),
    ]
    for method, url, body, status, message in cases:
        r = client.request(method.upper(), url, content=body)
        assert r.status_code == status, (url, body, r.text)
        assert message in r.json()["error"]
        assert client.get(f"/api/games/{gid}").json() == before


def test_acting_out_of_turn_is_a_conflict(client) -> None:
    state = new_game(client, seed=5)
    while state["your_turn"]:  # play until a bot must move
        state = client.post(
            f"/api/games/{state['id']}/act", json={"action": state["choices"][0]["action"]}
        ).json()
    before = client.get(f"/api/games/{state['id']}").json()
    r = client.post(f"/api/games/{state['id']}/act", json={"action": 0})
    assert r.status_code == 409 and "not yours" in r.json()["error"]
    assert client.get(f"/api/games/{state['id']}").json() == before


def test_new_game_settings_are_checked(client) -> None:
    for body, message in [
        ({"bots": []}, "1 to 3 bots"),
        ({"bots": ["random"] * 4}, "1 to 3 bots"),
        ({"bots": ["policy:path=/etc/passwd"]}, "unknown bot"),
        ({"bots": ["ismcts:value_model=/etc/passwd"]}, "'value_model' is not allowed"),
        ({"bots": ["ismcts:value_model=/nonexistent"]}, "'value_model' is not allowed"),
        ({"bots": ["ismcts:time=3"]}, "time=3 must be from"),
        ({"bots": ["mypkg.bots:Greedy"]}, "unknown bot"),
        ({"bots": ["random"], "seed": 1.5}, "non-negative integer"),
        ({"bots": ["random"], "seed": 10**400}, "non-negative integer"),
        ({"bots": ["random"], "seed": "7"}, "non-negative integer"),
        ({"bots": ["random"], "colour": "red"}, "unknown field"),
        ({"bots": "random"}, "list of bot names"),
        ({"bots": ["random"], "seed": -1}, "non-negative integer"),
        ({"bots": ["random"], "theme": "mars"}, "theme"),
    ]:
        r = client.post("/api/games", json=body)
        assert r.status_code == 400 and message in r.json()["error"], body


def play_to_the_end(client, state) -> dict:
    while not state["over"]:
        state = until_my_turn(client, state)
        if not state["over"]:
            pick = state["choices"][0]["action"]
            state = client.post(f"/api/games/{state['id']}/act", json={"action": pick}).json()
    return state


def test_records_can_be_listed_stepped_and_uploaded(client, tmp_path) -> None:
    state = until_my_turn(client, new_game(client, bots=("random",), seed=9))
    pick = state["choices"][0]["action"]
    state = client.post(f"/api/games/{state['id']}/act", json={"action": pick}).json()
    assert client.get("/api/records").json()["records"] == []  # the game is being played
    state = play_to_the_end(client, state)
    (listed,) = client.get("/api/records").json()["records"]
    assert listed["name"] == state["record"] and state["outcome"]["text"].startswith(
        listed["outcome"]
    )
    step = client.get(f"/api/records/{listed['name']}/step/1").json()
    assert step["index"] == 1 and step["total"] == listed["actions"] and step["last"]["text"]
    assert "everything revealed" in step["svg"]
    assert client.get(f"/api/records/{listed['name']}/step/0").json()["last"] is None
    assert client.get(f"/api/records/{listed['name']}/step/999").status_code == 404
    assert client.get("/api/records/..%2Fsecret.json/step/0").status_code == 404
    assert client.get("/api/records/nothing.json/step/0").status_code == 404

    rec = json.loads((tmp_path / listed["name"]).read_text())
    r = client.post("/api/records", json=rec)
    assert r.status_code == 201
    name = r.json()["name"]
    assert client.get(f"/api/records/{name}/step/1").json()["last"] == step["last"]
    r = client.post("/api/records", json={**rec, "version": 5})
    assert r.status_code == 400 and "version 5 is newer" in r.json()["error"]
    r = client.post("/api/records", content=b"garbage")
    assert r.status_code == 400


def test_serve_binds_to_localhost_by_default() -> None:
    from nanty_app.cli import build_parser

    args = build_parser().parse_args(["serve"])
    assert args.host == "127.0.0.1" and args.port == 8000
