"""The Starlette application: the page, the JSON API's routes (listed in
:mod:`nanty_app.web`) and how their errors are answered."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from nanty_app.web.guard import MAX_UPLOAD, ApiError, Guard, object_body, read_body
from nanty_app.web.lobby import Lobby
from nanty_app.web.policies import PolicyFolder
from nanty_app.web.seating import (
    ADVANCE_SECONDS,
    PLAYABLE_BOTS,
    SHIPPED_RULESETS,
    offered_rulesets,
    ruleset_menu,
)

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent.parent / "static"
BOT_THREADS = 2  # games with slow bots thinking at the same time (more wait their turn)
UPLOADS_AT_ONCE = 2  # uploads read and checked at the same time (more wait, unread)


def create_app(
    records: str | Path = "records",
    *,
    host: str = "127.0.0.1",
    advance_seconds: float = ADVANCE_SECONDS,
    allow_policy: str | Path | None = None,
    rulesets: Sequence[str] = SHIPPED_RULESETS,
) -> Any:
    """The Starlette application (records are read from and written to ``records``; ``host``:
    the address it is served at, for the ``Host`` check; ``allow_policy``: a folder whose
    trained policies spectator games may seat; ``rulesets``: the registered rulesets the page
    offers beside the base game). Raises ``OSError`` for an ``allow_policy`` that is not a
    folder and ``ValueError`` for a ruleset that is not registered."""
    import anyio
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException
    from starlette.middleware import Middleware
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse, Response
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    offered = offered_rulesets(rulesets)
    menu = ruleset_menu(offered)
    policies = PolicyFolder(allow_policy) if allow_policy is not None else None
    lobby = Lobby(Path(records), advance_seconds, policies, offered)
    limiter: list[anyio.CapacityLimiter] = []

    uploading: list[anyio.Semaphore] = []

    def bot_threads() -> anyio.CapacityLimiter:
        if not limiter:
            limiter.append(anyio.CapacityLimiter(BOT_THREADS))
        return limiter[0]

    def upload_slots() -> anyio.Semaphore:
        if not uploading:
            uploading.append(anyio.Semaphore(UPLOADS_AT_ONCE))
        return uploading[0]

    Handler = Callable[[Request], Awaitable[Response]]

    def api(handler: Handler) -> Handler:
        """``handler`` with its errors as JSON answers: an ``ApiError`` as it says, anything
        else logged and answered 500 without detail."""

        async def run(request: Request) -> Response:
            try:
                return await handler(request)
            except ApiError as e:
                return JSONResponse({"error": e.message}, status_code=e.status)
            except Exception:
                log.exception("%s %s failed", request.method, request.url.path)
                return JSONResponse(
                    {"error": "the server failed to answer (it logged why)"}, status_code=500
                )

        return run

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def bots(request: Request) -> Response:
        listed = await run_in_threadpool(policies.listing) if policies is not None else []
        return JSONResponse(
            {
                "bots": list(PLAYABLE_BOTS),
                "policy": policies is not None,
                "policies": listed,
                "games": menu,
            }
        )

    async def create_game(request: Request) -> Response:
        body = await object_body(request)
        return JSONResponse(await run_in_threadpool(lobby.new_game, body), status_code=201)

    async def get_game(request: Request) -> Response:
        return JSONResponse(lobby.state(request.path_params["gid"]))

    async def act(request: Request) -> Response:
        body = await object_body(request)
        gid = request.path_params["gid"]
        return JSONResponse(await run_in_threadpool(lobby.act, gid, body))

    async def bots_move(
        request: Request, slow: Callable[[str], bool], move: Callable[..., dict[str, Any]]
    ) -> Response:
        """Let a game's bots ``move`` in a thread (``slow``: whether they may think long)."""
        body = await object_body(request)
        gid = request.path_params["gid"]
        # slow bots take turns for BOT_THREADS threads; the others' decisions are quick
        limiter = bot_threads() if slow(gid) else None
        answer = await anyio.to_thread.run_sync(move, gid, body, limiter=limiter)
        return JSONResponse(answer)

    async def advance(request: Request) -> Response:
        return await bots_move(request, lobby.slow, lobby.advance)

    async def create_watch(request: Request) -> Response:
        body = await object_body(request)
        return JSONResponse(await run_in_threadpool(lobby.new_watch, body), status_code=201)

    async def get_watch(request: Request) -> Response:
        gid = request.path_params["gid"]
        query = request.query_params
        who, since = query.get("view", "all"), query.get("since", "0")
        return JSONResponse(await run_in_threadpool(lobby.watch_state, gid, who, since))

    async def advance_watch(request: Request) -> Response:
        return await bots_move(request, lobby.watch_slow, lobby.watch_advance)

    async def records_list(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(lobby.list_records))

    async def upload(request: Request) -> Response:
        async with upload_slots():  # at most UPLOADS_AT_ONCE bodies in memory
            raw = await read_body(request, MAX_UPLOAD)
            summary = await run_in_threadpool(lobby.upload, raw)
        return JSONResponse(summary, status_code=201)

    async def step(request: Request) -> Response:
        name, k = request.path_params["name"], request.path_params["k"]
        return JSONResponse(await run_in_threadpool(lobby.step, name, k))

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)

    async def server_error(request: Request, exc: Exception) -> Response:
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        return JSONResponse({"error": "the server failed to answer (it logged why)"}, 500)

    routes = [
        Route("/", index),
        Route("/api/bots", api(bots)),
        Route("/api/games", api(create_game), methods=["POST"]),
        Route("/api/games/{gid}", api(get_game)),
        Route("/api/games/{gid}/act", api(act), methods=["POST"]),
        Route("/api/games/{gid}/advance", api(advance), methods=["POST"]),
        Route("/api/watch", api(create_watch), methods=["POST"]),
        Route("/api/watch/{gid}", api(get_watch)),
        Route("/api/watch/{gid}/advance", api(advance_watch), methods=["POST"]),
        Route("/api/records", api(records_list)),
        Route("/api/records", api(upload), methods=["POST"]),
        Route("/api/records/{name}/step/{k}", api(step)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        middleware=[Middleware(Guard, host=host)],
        exception_handlers={HTTPException: http_error, Exception: server_error},
    )
    app.state.lobby = lobby
    return app
