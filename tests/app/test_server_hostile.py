"""``nanty serve`` against a hostile client: every bad request is a 4xx with a message (never a
500, never a stored broken record), bodies and uploads are capped, other sites' pages and
rebound host names are refused, one game's slow bots hold up no other request, and the command
fails in one line on a bad or busy port."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import threading
import time

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from nanty_app.table import Table
from nanty_app.web import guard, uploads
from nanty_app.web.app import create_app
from nanty_app.web.guard import ApiError, allowed_host
from nanty_app.web.lobby import Lobby
from nanty_env.engine import GameConfig

ORIGIN = "http://127.0.0.1:8000"


@pytest.fixture
def client(tmp_path):
    return TestClient(create_app(tmp_path), base_url=ORIGIN)


def finished_record(seed: int = 3, players: int = 2) -> dict:
    table = Table(GameConfig(num_players=players), seed, ["random"] * players)
    table.advance()
    assert table.over
    return json.loads(json.dumps(table.record()))


def new_game(client, **body) -> dict:
    r = client.post("/api/games", json={"bots": ["random"], "seed": 5, **body})
    assert r.status_code == 201, r.text
    return r.json()


def assert_4xx(r, status: int, words: str = "") -> None:
    assert r.status_code == status, (r.status_code, r.text[:300])
    error = r.json()["error"]
    assert isinstance(error, str) and error and words in error, error


def test_malformed_bodies_are_400_everywhere(client) -> None:
    gid = new_game(client)["id"]
    deep = b"[" * 3000 + b"]" * 3000
    long_int = b'{"seed": ' + b"7" * 5000 + b"}"
    bodies = [
        (deep, "nested too deeply"),
        (b'{"a": ' * 3000 + b"1" + b"}" * 3000, "nested too deeply"),
        (long_int, "malformed JSON"),
        (b"\xff\xfe{\x00}", "not UTF-8"),
        (b'{"seed": NaN}', "NaN"),
        (b'{"seed": Infinity}', "Infinity"),
        (b"{", "malformed JSON"),
    ]
    for url in ("/api/games", f"/api/games/{gid}/act", f"/api/games/{gid}/advance", "/api/records"):
        for body, words in bodies:
            assert_4xx(client.post(url, content=body), 400, words)
    assert len(client.app.state.lobby.games) == 1


def test_odd_numbers_are_refused(client) -> None:
    state = new_game(client)
    gid = state["id"]
    while not state["your_turn"]:
        state = client.post(f"/api/games/{gid}/advance", json={"max": 5}).json()
    before = client.get(f"/api/games/{gid}").json()
    cases = [
        ("/api/games", {"bots": ["random"], "seed": 10**400}, 400, "'seed'"),
        ("/api/games", {"bots": ["random"], "seed": 2**63}, 400, "'seed'"),
        ("/api/games", {"bots": ["random"], "seed": 1.0}, 400, "'seed'"),
        ("/api/games", {"bots": ["random"], "seed": True}, 400, "'seed'"),
        ("/api/games", {"bots": ["random"], "seed": [1]}, 400, "'seed'"),
        ("/api/games", {"bots": ["random"], "theme": {"x": 1}}, 400, "text"),
        ("/api/games", {"bots": [1]}, 400, "'bots'"),
        ("/api/games", {"bots": ["random:x" * 100]}, 400, ""),
        ("/api/games", {"bots": ["ismcts:iters=100000000"]}, 400, "iters"),
        ("/api/games", {"bots": ["ismcts:time=nan"]}, 400, "time"),
        ("/api/games", {"bots": ["heuristic:role_model=/etc/passwd"]}, 400, "not allowed"),
        (f"/api/games/{gid}/act", {"action": 10**30}, 422, "illegal action"),
        (f"/api/games/{gid}/act", {"action": -(10**30)}, 422, "illegal action"),
        (f"/api/games/{gid}/act", {"action": 2.0}, 400, "'action'"),
        (f"/api/games/{gid}/act", {"action": True}, 400, "'action'"),
        (f"/api/games/{gid}/advance", {"max": 10**30}, 400, "'max'"),
        (f"/api/games/{gid}/advance", {"max": 1.5}, 400, "'max'"),
    ]
    for url, body, status, words in cases:
        assert_4xx(client.post(url, json=body), status, words)
    assert client.get(f"/api/games/{gid}").json() == before
    assert len(client.app.state.lobby.games) == 1


@pytest.mark.parametrize(
    "spec", ["heuristic:learned=1", "heuristic:learned=0.5:depth=1", "ismcts:net=1:iters=4"]
)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_allowed_bots_that_cannot_play_a_game_are_refused_up_front(client, spec, players) -> None:
    """Some allowed options need a model shipped only for some player counts: such a game is
    refused when it is asked for, not with a failure at the bot's first move."""
    r = client.post("/api/games", json={"bots": [spec] * (players - 1), "seed": 3})
    assert r.status_code in (201, 400), r.text
    if r.status_code == 400:
        assert "cannot play this game" in r.json()["error"] and "/" not in r.json()["error"]
        return
    state = r.json()
    for _ in range(4):
        gid = state["id"]
        if state["your_turn"]:
            pick = state["choices"][0]["action"]
            r = client.post(f"/api/games/{gid}/act", json={"action": pick})
        else:
            r = client.post(f"/api/games/{gid}/advance", json={"max": 3})
        assert r.status_code == 200, r.text
        state = r.json()


def test_no_answer_tells_which_files_exist(client) -> None:
    """A bot option or record field naming a path is refused before anything is opened."""
    answers = []
    for path in ("/etc/passwd", "/nonexistent", "/dev/zero"):
        for spec in (f"ismcts:learned=0.5:value_model={path}", f"policy:path={path}"):
            r = client.post("/api/games", json={"bots": [spec]})
            assert r.status_code == 400
            answers.append(r.json()["error"].replace(path, "PATH"))
        rec = finished_record()
        rec["config"]["content"] = path
        r = client.post("/api/records", json=rec)
        assert r.status_code == 400
        answers.append(r.json()["error"].replace(path, "PATH"))
    assert len(set(answers)) == 3  # the same three answers whichever path


def test_uploads_are_replayed_whole_and_refused_unless_exact(client) -> None:
    rec = finished_record()
    n = len(rec["actions"])
    tampered = json.loads(json.dumps(rec))
    tampered["actions"][n // 2]["action"] += 1
    longer = json.loads(json.dumps(rec))
    longer["actions"].append(dict(rec["actions"][-1]))
    bad = [
        ({**rec, "outcome": [1]}, "outcome"),
        ({**rec, "outcome": {"winners": [7], "reason": "x"}}, "outcome"),
        ({**rec, "outcome": None}, "outcome differs"),
        ({**rec, "seed": rec["seed"] + 1}, "does not replay"),
        ({**rec, "seed": 1.5}, "seed"),
        ({**rec, "seed": 10**400}, "seed"),
        ({**rec, "seed": -3}, "seed"),
        ({**rec, "final_digest": "0" * 16}, "does not replay"),
        ({**rec, "actions": [{"action": 10**30}]}, "action"),
        ({**rec, "actions": "many"}, "actions"),
        ({**rec, "config": {"num_players": 9}}, "config"),
        (tampered, "does not replay"),
        (longer, "does not replay"),
        ([rec], "not a Nanty Narking game record"),
    ]
    for body, words in bad:
        assert_4xx(client.post("/api/records", json=body), 400, words)
    assert client.get("/api/records").json() == {"records": []}  # nothing was stored

    odd = {**rec, "players": ["x" * 5000, "b"], "source": 7, "extra": [[[[[]]]]] * 9}
    odd["actions"] = [{**a, "junk": {"a": [1, 2, {"b": None}]}} for a in rec["actions"]]
    r = client.post("/api/records", json=odd)
    assert r.status_code == 201, r.text
    name = r.json()["name"]
    listed = client.get("/api/records").json()["records"]
    assert listed[0]["players"] == ["x" * 60, "b"] and listed[0]["source"] == ""
    step = client.get(f"/api/records/{name}/step/{n}").json()
    assert step["over"] and set(step["last"]) <= {"seat", "action", "text"}


def test_steps_of_records_never_fail(client, tmp_path) -> None:
    rec = finished_record()
    for name, text in [
        ("empty.json", ""),
        ("list.json", "[]"),
        ("deep.json", "[" * 5000 + "]" * 5000),
        ("bad_outcome.json", json.dumps({**rec, "outcome": [1]})),
        ("illegal.json", json.dumps({**rec, "actions": [{"action": 999}]})),
        ("good.json", json.dumps(rec)),
    ]:
        (tmp_path / name).write_text(text)
    (tmp_path / "latin1.json").write_bytes(b"\xe9\xe9")
    listed = client.get("/api/records")
    assert listed.status_code == 200
    names = [r["name"] for r in listed.json()["records"]]
    assert "good.json" in names and "bad_outcome.json" not in names
    for name, status in [
        ("empty.json", 422),
        ("list.json", 422),
        ("deep.json", 422),
        ("latin1.json", 422),
        ("bad_outcome.json", 422),
        ("illegal.json", 422),
        ("good.json", 200),
        ("missing.json", 404),
        ("..%2Fgood.json", 404),
    ]:
        r = client.get(f"/api/records/{name}/step/1")
        assert r.status_code == status, (name, r.text[:200])
        assert r.json().get("error") or status == 200
    for k in ("99999999", "9" * 5000, "-1", "x", "1.5"):
        assert_4xx(client.get(f"/api/records/good.json/step/{k}"), 404)
    assert_4xx(client.get("/api/nothing"), 404)
    assert_4xx(client.delete("/api/records"), 405)


def test_request_bodies_are_capped(client) -> None:
    big = json.dumps({"bots": ["random"], "pad": "x" * (guard.MAX_BODY + 10)})
    assert_4xx(client.post("/api/games", content=big), 413, "over")
    rec = finished_record()
    huge = json.dumps({**rec, "pad": "x" * guard.MAX_UPLOAD})
    assert_4xx(client.post("/api/records", content=huge), 413, "over")
    padded = json.dumps({**rec, "pad": "x" * (guard.MAX_UPLOAD // 2)})
    assert client.post("/api/records", content=padded).status_code == 201


def test_a_body_over_the_cap_is_not_read_to_its_end(tmp_path) -> None:
    """Fed 1 MB a chunk, with no Content-Length, the upload stops reading past 8 MB."""
    app = create_app(tmp_path)
    chunk = b"x" * (1024 * 1024)
    fed = 0
    sent: list[dict] = []

    async def receive() -> dict:
        nonlocal fed
        fed += 1
        return {"type": "http.request", "body": chunk, "more_body": fed < 100}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/records",
        "raw_path": b"/api/records",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1:8000")],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }
    asyncio.run(app(scope, receive, send))
    assert sent[0]["status"] == 413
    assert fed <= guard.MAX_UPLOAD // len(chunk) + 2


def test_uploads_and_replay_cursors_are_capped(client, monkeypatch) -> None:
    lobby = client.app.state.lobby
    rec = finished_record()
    size = len(json.dumps(rec))
    monkeypatch.setattr(uploads, "MAX_UPLOADS", 5)
    monkeypatch.setattr(uploads, "MAX_CURSORS", 3)
    names = []
    for _ in range(8):
        r = client.post("/api/records", json=rec)
        assert r.status_code == 201
        names.append(r.json()["name"])
        assert client.get(f"/api/records/{names[-1]}/step/3").status_code == 200
        assert len(lobby.shelf.cursors) <= 3
    assert list(lobby.uploads) == names[-5:]
    assert {k[0] for k in lobby.shelf.cursors} <= set(names[-5:])
    assert_4xx(client.get(f"/api/records/{names[0]}/step/1"), 404)
    monkeypatch.setattr(uploads, "MAX_UPLOADS_BYTES", 2 * size + size // 2)
    client.post("/api/records", json=rec)
    assert len(lobby.uploads) == 2  # by bytes now
    assert {k[0] for k in lobby.shelf.cursors} <= set(lobby.uploads)


def test_other_sites_and_rebound_host_names_are_refused(tmp_path) -> None:
    app = create_app(tmp_path)
    client = TestClient(app, base_url=ORIGIN)
    body = {"bots": ["random"]}
    for origin in ("http://evil.example", "null", "http://127.0.0.1:8001", "https://127.0.0.1"):
        r = client.post("/api/games", json=body, headers={"Origin": origin})
        assert_4xx(r, 403, "another site")
    assert not app.state.lobby.games
    assert client.post("/api/games", json=body, headers={"Origin": ORIGIN}).status_code == 201
    assert client.post("/api/games", json=body).status_code == 201  # curl sends no Origin
    for host in ("evil.example", "evil.example:8000", "127.0.0.1.evil.example", ""):
        r = client.get("/api/records", headers={"Host": host})
        assert_4xx(r, 403, "host name")
        r = client.post("/api/games", json=body, headers={"Host": host})
        assert r.status_code == 403
    for host in ("localhost:8000", "127.0.0.1", "[::1]:8000", "LOCALHOST"):
        assert client.get("/api/records", headers={"Host": host}).status_code == 200
    assert len(app.state.lobby.games) == 2
    assert allowed_host("192.168.1.5:8000", "0.0.0.0") and not allowed_host("a.b:80", "0.0.0.0")
    assert allowed_host("box.lan:8000", "box.lan") and not allowed_host("10.0.0.1", "127.0.0.1")


def test_an_unexpected_failure_is_a_500_without_detail(client, monkeypatch, caplog) -> None:
    def broken() -> dict:
        raise RuntimeError("secret detail")

    monkeypatch.setattr(client.app.state.lobby, "list_records", broken)
    with caplog.at_level(logging.ERROR, logger="nanty_app.web"):
        r = client.get("/api/records")
    assert r.status_code == 500 and "secret" not in r.text and r.json()["error"]
    assert "secret detail" in caplog.text


def slow_steps(table: Table, seconds: float) -> None:
    """Make every decision at ``table`` take ``seconds`` (a slow bot)."""
    step = table.step

    def slow():
        time.sleep(seconds)
        return step()

    table.step = slow


def test_a_slow_game_holds_up_only_itself(tmp_path) -> None:
    lobby = Lobby(tmp_path, advance_seconds=0.5)
    slow = lobby.new_game({"bots": ["random", "random", "random"], "seed": 2})["id"]
    fast = lobby.new_game({"bots": ["random"], "seed": 3})
    while lobby.games[slow].table.human_to_move():  # let the bots have the next decision
        table = lobby.games[slow].table
        lobby.act(slow, {"action": table.game.legal_actions()[0]})
    slow_steps(lobby.games[slow].table, 0.2)
    answers: list[dict] = []
    worker = threading.Thread(target=lambda: answers.append(lobby.advance(slow, {"max": 100})))
    start = time.monotonic()
    worker.start()
    time.sleep(0.05)
    assert lobby.state(slow)["log"] is not None  # reading never waits
    with pytest.raises(ApiError) as busy:
        lobby.advance(slow, {"max": 1})
    assert busy.value.status == 409
    gid = fast["id"]
    while not lobby.state(gid)["your_turn"]:
        lobby.advance(gid, {"max": 5})
    pick = lobby.state(gid)["choices"][0]["action"]
    assert lobby.act(gid, {"action": pick})["log"]
    assert time.monotonic() - start < 0.3  # the other game moved while the slow one thought
    worker.join(10)
    (answer,) = answers
    assert 1 <= answer["moved"] <= 4 and time.monotonic() - start < 1.5  # the time budget


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_refuses_a_bad_port_in_one_line(nanty) -> None:
    for port in ("99999", "-1", "http"):
        r = nanty(["serve", "--port", port], timeout=60)
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        assert len(r.stderr.strip().splitlines()) == 1 and "--port" in r.stderr
        assert r.stdout == ""


def test_serve_on_a_busy_port_fails_before_its_banner(nanty, tmp_path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        r = nanty(["serve", "--port", str(port), "--records", str(tmp_path)], timeout=60)
    assert r.returncode == 2 and r.stdout == "", (r.stdout, r.stderr)
    (line,) = r.stderr.strip().splitlines()
    assert (
        line.startswith("nanty serve: error: cannot listen on 127.0.0.1 port") and "in use" in line
    )
    r = nanty(["serve", "--host", "no-such-host.invalid", "--records", str(tmp_path)], timeout=60)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and r.stdout == ""
