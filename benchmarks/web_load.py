"""Latency of ``nanty serve``'s API on loopback while slow bots think and a client misbehaves.

Starts the real server (``nanty serve --port 0`` in a subprocess, bound to 127.0.0.1), then for
``--seconds`` runs at once, each in a thread with its own keep-alive connection:

* ``--slow`` games against three ``ismcts:time=2`` bots (the most thinking a decision the web
  allows): the person takes the first choice offered and asks the bots to advance
  (``{"max": 2000}``; the server stops each advance after about a second of decisions);
* ``--fast`` games against two random bots, played like the page at its "instant" speed: read
  the game, act or advance, ``--pause`` seconds between requests; a new game when one ends;
* one client sending bad requests (malformed, too deep, huge numbers, bodies over the cap,
  bot options out of bounds or naming files, broken uploads, another site's ``Origin``, a
  rebound ``Host``, unknown games and records), ``--pause`` apart, each of which must get a 4xx.

Reports the latency percentiles (milliseconds) of the fast games' requests (the ones that must
stay quick), the slow games' advances and the bad requests, and the answers by status.

    python benchmarks/web_load.py [--seconds 20] [--slow 2] [--fast 3] [--pause 0.05] [--json F]
    python benchmarks/web_load.py --url http://127.0.0.1:8000   # a server already running

``tests/app/test_server_load.py`` runs it briefly and requires no 5xx, a 4xx for every bad
request and a 95th percentile under half a second for the fast games.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SLOW_BOTS = ["ismcts:time=2"] * 3


@dataclass
class Load:
    """What the clients saw: latencies (seconds) by kind, answers by status, failures."""

    fast: list[float] = field(default_factory=list)
    slow: list[float] = field(default_factory=list)
    bad: list[float] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)
    bot_moves: int = 0
    fast_moves: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def note(self, kind: str, seconds: float, status: int) -> None:
        with self.lock:
            getattr(self, kind).append(seconds)
            self.statuses[status] += 1
            if status >= 500:
                self.problems.append(f"{kind} request answered {status}")

    def problem(self, text: str) -> None:
        with self.lock:
            self.problems.append(text)


def start_server(records: Path) -> tuple[subprocess.Popen, str]:
    """``nanty serve`` on a free port of 127.0.0.1 and its address (``http://127.0.0.1:N``)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "nanty_app.cli", "serve", "--port", "0", "--records", str(records)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    banner = proc.stdout.readline()
    found = re.search(r"http://127\.0\.0\.1:(\d+)/", banner)
    if not found:
        proc.kill()
        raise RuntimeError(f"nanty serve did not start: {banner!r}")
    return proc, f"http://127.0.0.1:{found.group(1)}"


class Client:
    """One keep-alive connection to the server (reopened after a refused body)."""

    def __init__(self, url: str, load: Load) -> None:
        self.host, port = url.removeprefix("http://").split(":")
        self.port = int(port)
        self.load = load
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)

    def send(
        self,
        kind: str,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, Any]:
        raw = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
        start = time.perf_counter()
        try:
            self.conn.request(method, path, body=raw, headers=headers or {})
            response = self.conn.getresponse()
            data = response.read()
            status = response.status
        except (OSError, http.client.HTTPException) as e:
            self.conn.close()
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
            self.load.problem(f"{method} {path}: {type(e).__name__}: {e}")
            return 0, None
        self.load.note(kind, time.perf_counter() - start, status)
        if response.getheader("connection", "").lower() == "close":
            self.conn.close()
        try:
            return status, json.loads(data)
        except ValueError:
            return status, None


def play(url: str, load: Load, kind: str, bots: list[str], seed: int, until: float, pause: float):
    """Play games against ``bots`` until ``until`` (the person takes the first choice)."""
    client = Client(url, load)
    while time.monotonic() < until:
        status, state = client.send(kind, "POST", "/api/games", {"bots": bots, "seed": seed})
        seed += 1000
        if status != 201:
            load.problem(f"a new game answered {status}: {state}")
            return
        gid = state["id"]
        while time.monotonic() < until and not state["over"]:
            if kind == "fast":
                status, state = client.send(kind, "GET", f"/api/games/{gid}")
                time.sleep(pause)
            if state["your_turn"]:
                action = state["choices"][0]["action"]
                status, answer = client.send(
                    kind, "POST", f"/api/games/{gid}/act", {"action": action}
                )
            else:
                status, answer = client.send(
                    kind, "POST", f"/api/games/{gid}/advance", {"max": 2000}
                )
            if status != 200:
                load.problem(f"{kind} game: answered {status}: {answer}")
                return
            with load.lock:
                if kind == "slow":
                    load.bot_moves += answer.get("moved", 0)
                else:
                    load.fast_moves += 1
            state = answer
            time.sleep(pause)


def bad_requests(gid: str) -> list[tuple[str, str, Any, dict[str, str]]]:
    """Requests a hostile client may send: (method, path, body, headers), each a 4xx."""
    record = {"format": "nanty-narking-record", "version": 1, "config": {"num_players": 2}}
    record |= {"seed": 1, "actions": [{"action": 0}], "outcome": [1], "final_digest": "x"}
    return [
        ("POST", "/api/games", b"[" * 3000 + b"]" * 3000, {}),
        ("POST", "/api/games", b'{"seed": ' + b"9" * 5000 + b"}", {}),
        ("POST", "/api/games", {"bots": ["random"], "seed": 10**400}, {}),
        ("POST", "/api/games", {"bots": ["random"], "seed": 1.5}, {}),
        ("POST", "/api/games", {"bots": ["ismcts:time=3"]}, {}),
        ("POST", "/api/games", {"bots": ["ismcts:learned=0.5:value_model=/dev/zero"]}, {}),
        ("POST", "/api/games", {"bots": ["policy:path=/etc/passwd"]}, {}),
        ("POST", "/api/games", b"\xff\xfe\xfd", {}),
        ("POST", "/api/games", b"x" * (2 * 1024 * 1024), {}),
        ("POST", "/api/games", {"bots": ["random"]}, {"Origin": "http://evil.example"}),
        ("GET", "/api/records", None, {"Host": "evil.example"}),
        ("POST", "/api/records", record, {}),
        ("POST", "/api/records", b'{"a": ' * 3000 + b"1" + b"}" * 3000, {}),
        ("POST", f"/api/games/{gid}/act", {"action": 10**30}, {}),
        ("POST", f"/api/games/{gid}/advance", {"max": 10**30}, {}),
        ("POST", "/api/games/nope/act", {"action": 1}, {}),
        ("GET", "/api/records/..%2Fsecret.json/step/0", None, {}),
        ("GET", "/api/records/nothing.json/step/" + "9" * 40, None, {}),
    ]


def misbehave(url: str, load: Load, until: float, pause: float) -> None:
    client = Client(url, load)
    status, state = client.send("bad", "POST", "/api/games", {"bots": ["random"], "seed": 1})
    requests = bad_requests(state["id"] if status == 201 else "nope")
    k = 0
    while time.monotonic() < until:
        method, path, body, headers = requests[k % len(requests)]
        status, answer = client.send("bad", method, path, body, headers)
        if not 400 <= status < 500 or not isinstance(answer, dict) or not answer.get("error"):
            load.problem(f"bad request {k % len(requests)} answered {status}: {answer}")
        if isinstance(body, bytes) and len(body) > 1024 * 1024:  # the server stopped reading
            client.conn.close()
        k += 1
        time.sleep(pause)


def run_load(url: str, seconds: float, slow: int, fast: int, pause: float) -> Load:
    load = Load()
    until = time.monotonic() + seconds
    threads = [
        threading.Thread(target=play, args=(url, load, "slow", SLOW_BOTS, 100 + i, until, pause))
        for i in range(slow)
    ]
    threads += [
        threading.Thread(
            target=play, args=(url, load, "fast", ["random", "random"], 200 + i, until, pause)
        )
        for i in range(fast)
    ]
    threads.append(threading.Thread(target=misbehave, args=(url, load, until, pause)))
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 120)
    return load


def percentiles(xs: list[float]) -> dict[str, float]:
    """p50, p95, p99 and max of ``xs`` in milliseconds (empty: zeros)."""
    if not xs:
        return {"n": 0, "p50": 0.0, "p95": 0.0, "p99": 0.0, "max": 0.0}
    s = sorted(xs)

    def at(q: float) -> float:
        return round(1000 * s[min(len(s) - 1, int(q * len(s)))], 1)

    return {"n": len(s), "p50": at(0.5), "p95": at(0.95), "p99": at(0.99), "max": at(1.0)}


def report(load: Load) -> dict[str, Any]:
    return {
        "fast games' requests (ms)": percentiles(load.fast),
        "slow games' requests (ms)": percentiles(load.slow),
        "bad requests (ms)": percentiles(load.bad),
        "answers by status": dict(sorted(load.statuses.items())),
        "bot moves in slow games": load.bot_moves,
        "fast games' moves": load.fast_moves,
        "problems": load.problems[:20],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--slow", type=int, default=2, help="games against three slow bots")
    ap.add_argument("--fast", type=int, default=3, help="games against random bots")
    ap.add_argument("--pause", type=float, default=0.05, help="seconds between requests")
    ap.add_argument("--url", help="a server already running (http://127.0.0.1:PORT)")
    ap.add_argument("--json", help="also write the report here")
    args = ap.parse_args()
    if args.url:
        load = run_load(args.url.rstrip("/"), args.seconds, args.slow, args.fast, args.pause)
    else:
        with tempfile.TemporaryDirectory() as records:
            proc, url = start_server(Path(records))
            try:
                load = run_load(url, args.seconds, args.slow, args.fast, args.pause)
            finally:
                proc.terminate()
                proc.wait(30)
    out = report(load)
    print(json.dumps(out, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1) + "\n")
    return 1 if load.problems else 0


if __name__ == "__main__":
    sys.exit(main())
