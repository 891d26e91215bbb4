"""The browser UI tells the person's seat nothing it cannot know.

As ``tests/env/test_hidden_info.py`` does for observations: at every position of real games
played through the server's ``Lobby`` (with the bots the page offers), resample everything
seat 0 cannot see, consistently with what it has seen (``engine.determinize``), and require the
same answer from the API: the game as ``GET /api/games/{id}`` and the act and advance answers
give it (board SVG, question, choices, log, seed, record name...). Every move of the log is also
made again in a resampled game (with the same dice to come), before it is taken, and must be
told in the same words, with the same forced flag and, where seat 0 sees the same board
afterwards, the same log lines. Then,
over HTTP, a game being played is neither listed nor stepped among the records.

A spectator watching bots play (``/api/watch``) who chose one seat's view is held to the same
test for that seat, and one who chose the public view to it for every seat in turn.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from nanty_app.table import HUMAN, Table
from nanty_app.web.app import create_app
from nanty_app.web.lobby import Lobby
from nanty_app.web.views import game_state, move_json, watched_move
from nanty_env.engine import Game
from nanty_env.engine.determinize import determinize
from nanty_env.engine.game_log import GameLog

SLOW = pytest.mark.slow  # a few seconds each
GAMES = [  # bots, seed, expansion
    (["heuristic"], 11, None),
    (["random", "heuristic"], 12, None),
    pytest.param(["heuristic", "random", "ismcts:iters=8:dets=2"], 13, None, marks=SLOW),
    pytest.param(["random", "random", "random"], 14, None, marks=SLOW),
    pytest.param(["heuristic", "random"], 15, "cthulhu", marks=SLOW),
]


def resampled_state(gid: str, table: Table, hidden: Game) -> dict:
    """What the server would answer if the hidden information were ``hidden``'s (dealt from
    another seed, so saved under another name)."""
    real = table.game, table.seed, table.record_path
    table.game, table.seed = hidden, table.seed + 1
    if table.record_path is not None:
        table.record_path = table.record_path.with_name("another.json")
    try:
        return game_state(gid, table)
    finally:
        table.game, table.seed, table.record_path = real


def resampled_move(table: Table, hidden: Game, seat: int, action: int, played: bool):
    """The move a table records for ``seat`` taking ``action`` in the resampled ``hidden``
    game (``None`` when that action is not legal there: the move itself tells something
    new), taken as the real one was: the person's by ``play`` (``played``), else by ``step``
    (which takes a decision with one legal action for whoever owes it). At a table of
    people only, a decision ``step`` leaves (more than one legal action) is ``play``-ed."""
    if hidden.current_player != seat or action not in hidden.legal_actions():
        return None
    shadow = Table(table.config, table.seed, [HUMAN] * table.config.num_players)
    shadow.game = hidden
    move = None if played else shadow.step()
    if move is None:
        move = shadow.play(seat, action)
    assert move.action == action
    return move


def without_moved(answer: dict) -> dict:
    return {k: v for k, v in answer.items() if k != "moved"}


@pytest.mark.parametrize(("bots", "seed", "expansion"), GAMES)
def test_every_answer_depends_only_on_what_the_seat_knows(tmp_path, bots, seed, expansion) -> None:
    lobby = Lobby(tmp_path)
    body = {"bots": bots, "seed": seed}
    if expansion:
        body["expansion"] = expansion
    answer = lobby.new_game(body)
    gid = answer["id"]
    table = lobby.games[gid].table
    rng = np.random.default_rng(seed)
    pick = np.random.default_rng(seed + 1)
    positions = moves = lines = forced_hidden = 0
    while True:
        assert lobby.state(gid) == without_moved(answer)
        if table.over:
            break
        hidden = determinize(table.game, 0, rng)
        assert resampled_state(gid, table, hidden) == without_moved(answer)
        positions += 1

        before = table.game.clone()
        hidden = determinize(before, 0, rng)
        hidden.rng = before.rng  # the same dice, so that the lines after the move compare
        told = sum(len(m.log) for m in table.moves)
        hidden.log = GameLog(before.log[told:])  # lines no move has told yet ("game starts")
        played = answer["your_turn"]
        if played:
            choice = int(pick.choice([c["action"] for c in answer["choices"]]))
            answer = lobby.act(gid, {"action": choice})
        else:
            answer = lobby.advance(gid, {"max": 1})
            assert answer["moved"] == 1
        move = table.moves[-1]
        other = resampled_move(table, hidden, move.seat, move.action, played)
        if other is None:
            continue
        moves += 1
        over = table.over
        if move.seat != 0 and move.forced != other.forced:
            forced_hidden += 1  # what the forced flag would have told
        shown, shown_other = move_json(move, over), move_json(other, over)
        if hidden.view(0) == table.game.view(0):
            lines += 1
        else:  # a die, a drawn card...: the move's consequences differ where seat 0 sees
            shown.pop("lines"), shown_other.pop("lines")
        assert shown == shown_other, (move, other)
    assert answer["over"] and answer["seed"] == seed and answer["record"]
    assert positions > 40 and moves > 40 and lines > 20
    assert forced_hidden > 0 or len(bots) == 1  # the flag the answers no longer carry


def test_seed_record_and_others_forced_moves_come_only_at_the_end(tmp_path) -> None:
    client = TestClient(create_app(tmp_path), base_url="http://127.0.0.1:8000")
    state = client.post("/api/games", json={"bots": ["random", "random"], "seed": 21}).json()
    gid = state["id"]
    seen_own_forced = False
    while not state["over"]:
        assert state["seed"] is None and state["record"] is None
        for m in state["log"]:
            assert m["forced"] is None if m["seat"] != 0 else isinstance(m["forced"], bool)
            seen_own_forced |= m["seat"] == 0 and m["forced"]
        assert client.get("/api/records").json()["records"] == []
        assert client.get(f"/api/games/{gid}").json() == {
            k: v for k, v in state.items() if k != "moved"
        }
        for path in tmp_path.glob("*.json"):  # the file exists, but is not served
            r = client.get(f"/api/records/{path.name}/step/0")
            assert r.status_code == 404, r.text
        if state["your_turn"]:
            pick = state["choices"][0]["action"]
            state = client.post(f"/api/games/{gid}/act", json={"action": pick}).json()
        else:
            state = client.post(f"/api/games/{gid}/advance", json={"max": 50}).json()
    assert seen_own_forced
    assert state["seed"] == 21 and state["record"]
    assert all(isinstance(m["forced"], bool) for m in state["log"])
    assert any(m["forced"] for m in state["log"] if m["seat"] != 0)
    (listed,) = client.get("/api/records").json()["records"]
    assert listed["name"] == state["record"]
    assert client.get(f"/api/records/{state['record']}/step/0").status_code == 200


# ---------------------------------------------------------------------- a spectator's views
WATCHED = [  # bots, seed, expansion, the seat followed
    (["heuristic", "random", "random"], 31, None, 1),
    pytest.param(["random", "heuristic"], 32, None, 0, marks=SLOW),
    pytest.param(["heuristic", "random", "random", "random"], 33, "cthulhu", 2, marks=SLOW),
]


def resampled_watch(lobby: Lobby, gid: str, hidden: Game, who) -> dict:
    """What a spectator would be answered if the hidden information were ``hidden``'s."""
    watched = lobby.watched[gid]
    real = watched.seen, watched.table.seed
    watched.seen, watched.table.seed = hidden, watched.table.seed + 1
    try:
        return lobby.watch_state(gid, who)
    finally:
        watched.seen, watched.table.seed = real


@pytest.mark.parametrize(("bots", "seed", "expansion", "seat"), WATCHED)
def test_a_spectator_following_one_seat_is_told_only_what_it_knows(
    tmp_path, bots, seed, expansion, seat
) -> None:
    """A spectator who chose a seat's view gets answers that depend only on what that seat
    knows; one who chose the public view, only on what every seat knows (resampled from each
    seat's side in turn, the answer stays the same)."""
    lobby = Lobby(tmp_path)
    body = {"bots": bots, "seed": seed, "view": seat}
    if expansion:
        body["expansion"] = expansion
    answer = lobby.new_watch(body)
    gid = answer["id"]
    table = lobby.watched[gid].table
    n = len(bots)
    rng = np.random.default_rng(seed)
    positions = moves = lines = 0
    while True:
        assert lobby.watch_state(gid, seat) == without_moved(answer)
        if table.over:
            break
        assert answer["seed"] is None and answer["record"] is None
        hidden = determinize(table.game, seat, rng)
        assert resampled_watch(lobby, gid, hidden, seat) == without_moved(answer)
        public = lobby.watch_state(gid, "public")
        assert public["seed"] is None
        for other_seat in range(n):
            hidden = determinize(table.game, other_seat, rng)
            assert resampled_watch(lobby, gid, hidden, "public") == public
        positions += 1

        before = table.game.clone()
        hidden = determinize(before, seat, rng)
        hidden.rng = before.rng
        told = sum(len(m.log) for m in table.moves)
        hidden.log = GameLog(before.log[told:])
        answer = lobby.watch_advance(gid, {"max": 1, "view": seat, "since": 0})
        assert answer["moved"] == 1
        move = table.moves[-1]
        other = resampled_move(table, hidden, move.seat, move.action, False)
        if other is None:
            continue
        moves += 1
        over = table.over
        shown, shown_other = watched_move(move, seat, n, over), watched_move(other, seat, n, over)
        if over:  # the end tells everything (the seed, every forced flag)
            shown.pop("forced"), shown_other.pop("forced")
        if hidden.view(seat) == table.game.view(seat):
            lines += 1
        else:
            shown.pop("lines"), shown_other.pop("lines")
        assert shown == shown_other, (move, other)
    assert answer["over"] and answer["seed"] == seed and answer["record"]
    assert positions > 40 and moves > 40 and lines > 20
