"""The app's state: the games being played against bots, with the watched games and the records
(:mod:`nanty_app.web.watch`, :mod:`nanty_app.web.uploads`) beside them."""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nanty_app.table import HUMAN, Table
from nanty_app.web.guard import ApiError, is_int
from nanty_app.web.policies import PolicyFolder
from nanty_app.web.seating import (
    ADVANCE_SECONDS,
    BUSY,
    GAME_FIELDS,
    SHIPPED_RULESETS,
    advance_max,
    game_config,
    run_bots,
    seat_bots,
    slow_bots,
    web_spec,
)
from nanty_app.web.uploads import Live, Shelf, Upload
from nanty_app.web.views import game_state
from nanty_app.web.watch import Watched, Watching
from nanty_env.engine import IllegalActionError

MAX_GAMES = 64  # games kept in memory (the oldest go first; their records stay on disk)


@dataclass
class _Game:
    table: Table
    lock: threading.Lock  # held by the request moving this game (never by a reader)
    state: dict[str, Any]  # the answer after the last change: what a reader gets
    slow: bool = False  # a bot that may think for seconds a decision sits at the table


class Lobby:
    """The games being played and the records that can be watched (thread-safe).

    ``lock`` guards the tables of games, watched games, uploads and replay cursors, and is held
    only to look something up or put it in; each game has a lock of its own for the (slow)
    bots' moves. ``watching`` keeps the watched games, ``shelf`` the records."""

    def __init__(
        self,
        records: Path,
        advance_seconds: float = ADVANCE_SECONDS,
        policies: PolicyFolder | None = None,
        rulesets: tuple[str, ...] = SHIPPED_RULESETS,
    ) -> None:
        self.records = records
        self.rulesets = rulesets
        self.advance_seconds = advance_seconds
        self.policies = policies
        self.games: OrderedDict[str, _Game] = OrderedDict()
        self.lock = threading.Lock()
        self.watching = Watching(records, self.lock, advance_seconds, policies, rulesets)
        self.shelf = Shelf(records, self.lock, self.live_records)

    # games
    def new_game(self, body: Mapping[str, Any]) -> dict[str, Any]:
        unknown = sorted(str(k)[:40] for k in body if k not in GAME_FIELDS)
        if unknown:
            raise ApiError(400, f"unknown field(s) {unknown}; a new game takes {GAME_FIELDS}")
        bots = body.get("bots", ["heuristic", "random", "random"])
        if not isinstance(bots, list) or not all(isinstance(b, str) for b in bots):
            raise ApiError(400, "'bots' must be a list of bot names")
        if not 1 <= len(bots) <= 3:
            raise ApiError(400, "choose 1 to 3 bots (games have 2 to 4 players)")
        specs = [web_spec(b) for b in bots]
        config, seed = game_config(body, len(specs) + 1, self.rulesets)
        table = seat_bots(config, seed, [HUMAN, *specs], records=self.records, source="nanty serve")
        gid = secrets.token_hex(8)
        game = _Game(table, threading.Lock(), {}, slow_bots(specs))
        with game.lock:
            with self.lock:  # known (and its record hidden) before the record is written
                self.games[gid] = game
                while len(self.games) > MAX_GAMES:
                    self.games.popitem(last=False)
            table.save()
            game.state = game_state(gid, table)
            return game.state

    def _game(self, gid: str) -> _Game:
        with self.lock:
            game = self.games.get(gid)
        if game is None:
            raise ApiError(404, f"no game with id {gid[:40]!r}")
        return game

    def state(self, gid: str) -> dict[str, Any]:
        """The game's answer after its last change (never waits for its bots)."""
        return self._game(gid).state

    def slow(self, gid: str) -> bool:
        """Whether the game's bots may think for seconds (404 for an unknown game)."""
        return self._game(gid).slow

    def _moving(self, gid: str) -> _Game:
        game = self._game(gid)
        if not game.lock.acquire(blocking=False):
            raise ApiError(409, BUSY)
        return game

    def act(self, gid: str, body: Mapping[str, Any]) -> dict[str, Any]:
        action = body.get("action")
        if not is_int(action):
            raise ApiError(400, "'action' must be an integer (one of the offered choices)")
        game = self._moving(gid)
        try:
            table = game.table
            if table.over:
                raise ApiError(409, "the game is over")
            if table.to_move != 0:
                raise ApiError(409, f"it is player {table.to_move}'s decision, not yours")
            legal = table.game.legal_actions()
            if action not in legal:
                shown = str(action) if abs(action) < 10**12 else "out of range"
                raise ApiError(422, f"illegal action {shown}; legal: {list(legal)}")
            try:
                table.play(0, action)
            except IllegalActionError as e:
                raise ApiError(422, f"illegal action {action}: {e}; legal: {list(legal)}") from e
            table.save()
            game.state = game_state(gid, table)
            return game.state
        finally:
            game.lock.release()

    def advance(self, gid: str, body: Mapping[str, Any]) -> dict[str, Any]:
        most = advance_max(body)
        game = self._moving(gid)
        try:
            moved = run_bots(game.table, most, self.advance_seconds)
            game.state = game_state(gid, game.table)
            return {**game.state, "moved": moved}
        finally:
            game.lock.release()

    def live_records(self) -> Live:
        """The record files of the games being played here: their names, and the names the
        games ask for (a first save may be under way, and add ``-2``...)."""
        names: set[str] = set()
        stems: set[str] = set()
        with self.lock:
            games = list(self.games.values())
        for g in games:
            t = g.table
            if t.over:
                continue
            if t.record_path is not None:
                names.add(t.record_path.name)
            stems.add(Path(t.record_name).stem)
        return names, stems

    # spectator games
    @property
    def watched(self) -> OrderedDict[str, Watched]:
        return self.watching.watched

    def new_watch(self, body: Mapping[str, Any]) -> dict[str, Any]:
        return self.watching.new(body)

    def watch_state(self, gid: str, who: Any, since: Any = 0) -> dict[str, Any]:
        return self.watching.state(gid, who, since)

    def watch_slow(self, gid: str) -> bool:
        return self.watching.slow(gid)

    def watch_advance(self, gid: str, body: Mapping[str, Any]) -> dict[str, Any]:
        return self.watching.advance(gid, body)

    # records
    @property
    def uploads(self) -> OrderedDict[str, Upload]:
        return self.shelf.uploads

    def list_records(self) -> dict[str, Any]:
        return self.shelf.list_records()

    def upload(self, raw: bytes) -> dict[str, Any]:
        return self.shelf.upload(raw)

    def step(self, name: str, k_text: str) -> dict[str, Any]:
        return self.shelf.step(name, k_text)
