"""Requests as data: JSON bodies read under a size cap, and the host and origin checks."""

from __future__ import annotations

import ipaddress
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from nanty_env.storage.files import BadJSON, strict_loads

if TYPE_CHECKING:
    from starlette.requests import Request

MAX_BODY = 1024 * 1024  # a JSON request body
MAX_UPLOAD = 8 * 1024 * 1024  # an uploaded record
MAX_SEED = 2**63 - 1  # a seed a request or a record may name
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")


class ApiError(Exception):
    """A request refused: answered ``{"error": message}`` with ``status``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def is_int(x: Any) -> bool:
    """Whether ``x`` is a JSON integer (not a bool)."""
    return isinstance(x, int) and not isinstance(x, bool)


def first_line(e: BaseException) -> str:
    """An error's first line (at most 1000 characters), or its type's name."""
    text = str(e).strip()
    return text.splitlines()[0][:1000] if text else type(e).__name__


def parse_json(raw: bytes) -> Any:
    """A request body as JSON (empty: ``{}``); 400 for anything that is not UTF-8 JSON with
    finite numbers, including nesting too deep for the parser and integers too long to read."""
    if not raw.strip():
        return {}
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ApiError(400, f"the body is not UTF-8 text ({e.reason} at byte {e.start})") from e
    try:
        return strict_loads(text)
    except BadJSON as e:
        raise ApiError(400, f"malformed JSON: {e}") from e


async def read_body(request: Request, cap: int) -> bytes:
    """The body, read a chunk at a time and refused (413) as soon as it passes ``cap``."""
    too_big = ApiError(413, f"the request body is over {cap // 1024} KB")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared[:20]) > cap:
        raise too_big
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > cap:
            raise too_big
        chunks.append(chunk)
    return b"".join(chunks)


async def object_body(request: Request) -> dict[str, Any]:
    """The body as a JSON object, at most ``MAX_BODY`` bytes (400, 413 otherwise)."""
    body = parse_json(await read_body(request, MAX_BODY))
    if not isinstance(body, dict):
        raise ApiError(400, "the request body must be a JSON object")
    return body


def allowed_host(host_header: str, bound: str) -> bool:
    """Whether a request's ``Host`` names this server: the bound address, ``localhost`` or a
    loopback address (and any IP address when bound to all of them). A web page that a DNS
    name was rebound for sends its own name and is refused."""
    host = host_header.strip().lower()
    if host.startswith("["):
        host = host[1 : host.find("]")] if "]" in host else ""
    elif host.count(":") == 1:
        host = host.split(":")[0]
    host = host.rstrip(".")
    if not host:
        return False
    bound = bound.strip("[]").lower()
    if host in LOCAL_HOSTS or host == bound:
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or bound in ("0.0.0.0", "::", "")


def same_origin(origin: str, host_header: str) -> bool:
    """Whether an ``Origin`` header is the page's own (``http://`` + the ``Host`` it asked)."""
    parts = urlsplit(origin.strip())
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host_header.lower()


class Guard:
    """ASGI middleware: 403 for a request to a host name this server does not answer to, and
    for a request that changes something (not GET/HEAD) from another web site's page."""

    def __init__(self, app: Any, host: str) -> None:
        self.app = app
        self.host = host

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            from starlette.datastructures import Headers
            from starlette.responses import JSONResponse

            headers = Headers(scope=scope)
            host = headers.get("host", "")
            why = ""
            if not allowed_host(host, self.host):
                why = f"this server does not answer to the host name {host[:80]!r}"
            elif scope["method"] not in ("GET", "HEAD"):
                origin = headers.get("origin")
                if origin is not None and not same_origin(origin, host):
                    why = f"requests from another site ({origin[:80]!r}) are refused"
            if why:
                await JSONResponse({"error": why}, status_code=403)(scope, receive, send)
                return
        await self.app(scope, receive, send)
