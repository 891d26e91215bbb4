"""``nanty serve``: the browser UI — play against bots and watch recorded games.

A Starlette app on uvicorn (the ``web`` extra) serving one page (plain HTML and JavaScript in
``nanty_app/static``, no build step) and a small JSON API:

=======  ==================================  ===============================================
GET      /api/bots                           the bots one can play against
POST     /api/games                          a new game: ``{"bots": [...], "seed": 1}``
GET      /api/games/{id}                     the game as the person's seat sees it
POST     /api/games/{id}/act                 the person's action: ``{"action": 17}``
POST     /api/games/{id}/advance             let the bots take up to ``{"max": n}`` decisions
GET      /api/records                        the records in the records folder
POST     /api/records                        upload a record (its JSON) to watch it
GET      /api/records/{name}/step/{k}        the recorded game after ``k`` actions, revealed
=======  ==================================  ===============================================

Bad requests get a 4xx answer ``{"error": "..."}`` and change nothing: malformed JSON or fields
400, an unknown game or record 404, an action out of turn 409, an illegal action 422. The
server binds to 127.0.0.1 unless told otherwise; games live in memory and every one is saved
as a record after each of the person's moves.
"""

from __future__ import annotations

import argparse
import json
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from nanty_app.table import HUMAN, Table
from nanty_env.board_svg import SEAT_COLOURS, board_svg, revealed_view
from nanty_env.engine import Game, GameConfig, IllegalActionError
from nanty_env.records import RecordError, load_record, new_game, parse_record, record_config
from nanty_env.words import decision_words, outcome_words

STATIC = Path(__file__).parent / "static"
MAX_GAMES = 64  # games kept in memory (the oldest go first; their records stay on disk)
MAX_UPLOADS = 32
MAX_ADVANCE = 2000
RECORD_NAME = re.compile(r"^[\w.-]+\.json$")
PLAYABLE_BOTS = ("random", "heuristic", "ismcts")  # no 'policy': the page loads no model files


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


# ---------------------------------------------------------------------- the app's state
class Lobby:
    """The games being played and the records that can be watched (thread-safe)."""

    def __init__(self, records: Path) -> None:
        self.records = records
        self.games: OrderedDict[str, Table] = OrderedDict()
        self.uploads: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._cursor: dict[str, tuple[int, Game]] = {}
        self.lock = threading.RLock()

    # games
    def new_game(self, body: Mapping[str, Any]) -> dict[str, Any]:
        bots = body.get("bots", ["heuristic", "random", "random"])
        if not isinstance(bots, list) or not all(isinstance(b, str) for b in bots):
            raise ApiError(400, "'bots' must be a list of bot names")
        if not 1 <= len(bots) <= 3:
            raise ApiError(400, "choose 1 to 3 bots (games have 2 to 4 players)")
        for b in bots:
            if b.split(":")[0].strip() not in PLAYABLE_BOTS:
                raise ApiError(400, f"unknown bot {b!r}; choose from {', '.join(PLAYABLE_BOTS)}")
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbelow(1_000_000)
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise ApiError(400, "'seed' must be a non-negative integer")
        try:
            config = GameConfig(
                num_players=len(bots) + 1,
                personalities=str(body.get("personalities", "standard")),
                theme=str(body.get("theme", "nanty")),
            )
            table = Table(config, seed, [HUMAN, *bots], records=self.records, source="nanty serve")
        except ValueError as e:
            raise ApiError(400, str(e)) from e
        gid = secrets.token_hex(8)
        with self.lock:
            self.games[gid] = table
            while len(self.games) > MAX_GAMES:
                self.games.popitem(last=False)
        table.save()
        return self.state(gid)

    def table(self, gid: str) -> Table:
        table = self.games.get(gid)
        if table is None:
            raise ApiError(404, f"no game with id {gid!r}")
        return table

    def act(self, gid: str, body: Mapping[str, Any]) -> dict[str, Any]:
        action = body.get("action")
        if not isinstance(action, int) or isinstance(action, bool):
            raise ApiError(400, "'action' must be an integer (one of the offered choices)")
        with self.lock:
            table = self.table(gid)
            if table.over:
                raise ApiError(409, "the game is over")
            if table.to_move != 0:
                raise ApiError(409, f"it is player {table.to_move}'s decision, not yours")
            try:
                table.play(0, action)
            except IllegalActionError as e:
                legal = [a for a, _ in table.choices(0)]
                raise ApiError(422, f"illegal action {action}: {e}; legal: {legal}") from e
            table.save()
            return self.state(gid)

    def advance(self, gid: str, body: Mapping[str, Any]) -> dict[str, Any]:
        most = body.get("max", 1)
        if not isinstance(most, int) or isinstance(most, bool) or not 1 <= most <= MAX_ADVANCE:
            raise ApiError(400, f"'max' must be an integer from 1 to {MAX_ADVANCE}")
        with self.lock:
            table = self.table(gid)
            moved = len(table.advance(most))
            if table.over:
                table.save()
            state = self.state(gid)
            state["moved"] = moved
            return state

    def state(self, gid: str) -> dict[str, Any]:
        table = self.table(gid)
        view = table.view(0)
        question, _ = decision_words(view, table.config.theme)
        outcome = None
        if table.over:
            o = table.game.outcome
            outcome = {
                "winners": list(o.winners),
                "text": outcome_words(o.winners, o.reason, table.config.theme),
                "points": None if o.points is None else list(o.points),
                "you_won": 0 in o.winners,
            }
        return {
            "id": gid,
            "seat": 0,
            "names": table.names,
            "colours": list(SEAT_COLOURS[: len(table.seats)]),
            "seed": table.seed,
            "over": table.over,
            "to_move": table.to_move,
            "your_turn": table.human_to_move(),
            "question": question,
            "choices": [
                {"action": a, "text": t, "hint": table.hint(a)} for a, t in table.choices(0)
            ],
            "svg": board_svg(view, table.config, table.names),
            "log": [
                {"seat": m.seat, "text": m.text_for([0]), "lines": list(m.log), "forced": m.forced}
                for m in table.moves
            ],
            "outcome": outcome,
            "record": table.record_path.name if table.record_path else None,
        }

    # records
    def list_records(self) -> dict[str, Any]:
        out = []
        if self.records.is_dir():
            for path in sorted(self.records.glob("*.json"), key=lambda p: p.stat().st_mtime)[::-1]:
                try:
                    rec = load_record(path)
                except RecordError:
                    continue
                out.append(_summary(path.name, rec))
        with self.lock:
            out = [_summary(k, r) for k, r in reversed(self.uploads.items())] + out
        return {"records": out[:200]}

    def upload(self, body: Any) -> dict[str, Any]:
        try:
            rec = parse_record(body, "the uploaded record")
        except RecordError as e:
            raise ApiError(400, str(e)) from e
        name = f"upload-{secrets.token_hex(6)}"
        with self.lock:
            self.uploads[name] = rec
            while len(self.uploads) > MAX_UPLOADS:
                self.uploads.popitem(last=False)
        return _summary(name, rec)

    def record(self, name: str) -> dict[str, Any]:
        with self.lock:
            if name in self.uploads:
                return self.uploads[name]
        if not RECORD_NAME.match(name) or not (self.records / name).is_file():
            raise ApiError(404, f"no record named {name!r}")
        try:
            return load_record(self.records / name)
        except RecordError as e:
            raise ApiError(422, str(e)) from e

    def step(self, name: str, k: int) -> dict[str, Any]:
        rec = self.record(name)
        actions = rec["actions"]
        if not 0 <= k <= len(actions):
            raise ApiError(404, f"step {k} is outside 0..{len(actions)}")
        with self.lock:
            at, game = self._cursor.get(name, (0, None))
            if game is None or at > k:
                at, game = 0, new_game(rec)
            lines: list[str] = []
            try:
                while at < k:
                    before = len(game.log)
                    game.apply(int(actions[at]["action"]))
                    lines = [_strip(x) for x in game.log[before:]]
                    at += 1
            except IllegalActionError as e:
                self._cursor.pop(name, None)
                raise ApiError(422, f"the record does not replay at action {at + 1}: {e}") from e
            self._cursor[name] = (at, game)
            cfg = record_config(rec)
            names = rec.get("players") or []
            view = revealed_view(game)
            question, _ = decision_words(view, cfg.theme)
            return {
                "name": name,
                "index": k,
                "total": len(actions),
                "names": names,
                "svg": board_svg(view, cfg, names),
                "last": actions[k - 1] if k > 0 else None,
                "next": actions[k] if k < len(actions) else None,
                "lines": lines if k > 0 else [],
                "question": question,
                "over": game.is_terminal,
                "outcome": (
                    outcome_words(game.outcome.winners, game.outcome.reason, cfg.theme)
                    if game.is_terminal
                    else None
                ),
            }


def _strip(line: str) -> str:
    return re.sub(r"^\[t\d+ p\d+\] ", "", line)


def _summary(name: str, rec: Mapping[str, Any]) -> dict[str, Any]:
    o = rec.get("outcome")
    cfg = rec.get("config", {})
    return {
        "name": name,
        "players": rec.get("players") or [],
        "actions": len(rec.get("actions", [])),
        "source": rec.get("source", ""),
        "saved": rec.get("saved", ""),
        "outcome": (
            outcome_words(o["winners"], o["reason"], cfg.get("theme", "nanty")) if o else None
        ),
    }


# ---------------------------------------------------------------------- HTTP
def create_app(records: str | Path = "records") -> Any:
    """The Starlette application (records are read from and written to ``records``)."""
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    lobby = Lobby(Path(records))

    async def body_of(request: Request) -> Any:
        raw = await request.body()
        if not raw:
            return {}
        try:
            return json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise ApiError(400, f"malformed JSON: {e}") from e

    async def object_body(request: Request) -> dict[str, Any]:
        body = await body_of(request)
        if not isinstance(body, dict):
            raise ApiError(400, "the request body must be a JSON object")
        return body

    async def index(request: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    async def bots(request: Request) -> JSONResponse:
        return JSONResponse({"bots": list(PLAYABLE_BOTS)})

    async def create_game(request: Request) -> JSONResponse:
        body = await object_body(request)
        return JSONResponse(await run_in_threadpool(lobby.new_game, body), status_code=201)

    async def get_game(request: Request) -> JSONResponse:
        gid = request.path_params["gid"]
        with lobby.lock:
            return JSONResponse(lobby.state(gid))

    async def act(request: Request) -> JSONResponse:
        body = await object_body(request)
        gid = request.path_params["gid"]
        return JSONResponse(await run_in_threadpool(lobby.act, gid, body))

    async def advance(request: Request) -> JSONResponse:
        body = await object_body(request)
        gid = request.path_params["gid"]
        return JSONResponse(await run_in_threadpool(lobby.advance, gid, body))

    async def records_list(request: Request) -> JSONResponse:
        return JSONResponse(await run_in_threadpool(lobby.list_records))

    async def upload(request: Request) -> JSONResponse:
        body = await body_of(request)
        return JSONResponse(lobby.upload(body), status_code=201)

    async def step(request: Request) -> JSONResponse:
        name, k = request.path_params["name"], request.path_params["k"]
        return JSONResponse(await run_in_threadpool(lobby.step, name, k))

    async def api_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ApiError)
        return JSONResponse({"error": exc.message}, status_code=exc.status)

    async def http_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, HTTPException)
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)

    routes = [
        Route("/", index),
        Route("/api/bots", bots),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/{gid}", get_game),
        Route("/api/games/{gid}/act", act, methods=["POST"]),
        Route("/api/games/{gid}/advance", advance, methods=["POST"]),
        Route("/api/records", records_list),
        Route("/api/records", upload, methods=["POST"]),
        Route("/api/records/{name}/step/{k:int}", step),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={ApiError: api_error, HTTPException: http_error},
    )
    app.state.lobby = lobby
    return app


def add_serve_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser("serve", help="the browser UI: play against bots, watch records")
    p.add_argument("--host", default="127.0.0.1", help="address to bind")
    p.add_argument("--port", type=int, default=8000, help="port to listen on")
    p.add_argument("--records", default="records", help="folder of game records")
    p.set_defaults(func=cmd_serve)
    return p


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn
    except ImportError as e:
        raise SystemExit("nanty serve needs the web extra: pip install 'nanty-narking[web]'") from e
    print(f"Nanty Narking at http://{args.host}:{args.port}/ (Ctrl-C to stop)")
    uvicorn.run(create_app(args.records), host=args.host, port=args.port, log_level="warning")
    return 0
