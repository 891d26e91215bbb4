"""``nanty serve``: the browser UI — play against bots, watch bots play, watch recorded games.

The command (its parser, the listening socket, uvicorn); the app, its API and its limits are
the package :mod:`nanty_app.web`, whose docstring lists the endpoints.
"""

from __future__ import annotations

import argparse
import socket
import sys

from nanty_app.arguments import ruleset_name
from nanty_app.web.app import create_app
from nanty_app.web.guard import first_line
from nanty_app.web.seating import SHIPPED_RULESETS

__all__ = ["add_serve_parser", "cmd_serve", "create_app", "listen"]


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port {port} is outside 0..65535")
    return port


def add_serve_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser("serve", help="the browser UI: play against bots, watch records")
    p.add_argument("--host", default="127.0.0.1", help="address to bind")
    p.add_argument("--port", type=_port, default=8000, help="port to listen on (0: any free one)")
    p.add_argument("--records", default="records", help="folder of game records")
    p.add_argument(
        "--allow-policy",
        metavar="FOLDER",
        help="let watched games seat the trained policies (nanty-policy checkpoints) found "
        "in FOLDER, e.g. runs/; without it the page offers only the shipped bots",
    )
    p.add_argument(
        "--expansion",
        action="append",
        type=ruleset_name,
        default=[],
        metavar="NAME",
        help="offer this ruleset in the page's game menu too (an installed plug-in's, imported "
        "now; repeatable); the shipped expansion is always offered",
    )
    p.set_defaults(func=cmd_serve)
    return p


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` and listening. Raises ``OSError`` (a busy port, an
    address this machine does not have, a name that does not resolve)."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def _url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def cmd_serve(args: argparse.Namespace) -> int:
    from nanty_app.arguments import fail

    try:
        import uvicorn
    except ImportError as e:
        raise SystemExit("nanty serve needs the web extra: pip install 'nanty-narking[web]'") from e
    try:
        sock = listen(args.host, args.port)
    except OSError as e:  # socket.gaierror included
        reason = e.strerror or first_line(e)
        return fail("nanty serve", f"cannot listen on {args.host} port {args.port}: {reason}")
    try:
        app = create_app(
            args.records,
            host=args.host,
            allow_policy=getattr(args, "allow_policy", None),
            rulesets=(*SHIPPED_RULESETS, *getattr(args, "expansion", [])),
        )
    except OSError as e:
        sock.close()
        reason = e.strerror or first_line(e)
        return fail("nanty serve", f"--allow-policy {args.allow_policy}: {reason}")
    port = sock.getsockname()[1]
    sys.setswitchinterval(0.001)
    print(f"Nanty Narking at {_url(args.host, port)} (Ctrl-C to stop)", flush=True)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    return 0
