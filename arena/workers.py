"""Worker processes that play chunks of games and hand back every finished game at once.

Why not ``ProcessPoolExecutor``: it returns a chunk's games only when the whole chunk is done,
cannot stop a running task (Ctrl-C used to play every queued game to the end and then drop
them), leaves idle workers alive on SIGTERM and gives a bare ``BrokenProcessPool`` when a worker
dies. Here each worker owns a pipe; it sends every game as soon as it is finished, and a
heartbeat every ``HEARTBEAT`` seconds while it plays, so the parent can tell

* a finished game (kept at once, whatever happens next),
* a worker that died (its process sentinel fires: one :class:`WorkerError` naming the worker,
  its exit code and the games it was playing),
* a worker that stopped answering (no message for ``stall_timeout`` seconds, e.g. SIGSTOP;
  ``startup_timeout`` while it is still importing, before its first message),
* a worker's own exception (its traceback's last line, in one :class:`WorkerError`).

Stopping (:meth:`WorkerPool.close`) sends SIGTERM; a worker never dies half-way through
sending a game (the handler defers while it sends), the parent keeps reading until every
worker has exited and SIGKILLs any still alive after ``grace`` seconds, so nothing finished is
lost and no process is left behind. Workers ignore SIGINT: a Ctrl-C in the terminal reaches the
whole process group, and only the parent decides what to do with it.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import signal
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from typing import Any

from nanty_env.engine.ruleset import plugin_modules, run_with_plugins

HEARTBEAT = 1.0  # seconds between a busy worker's signs of life


class WorkerError(RuntimeError):
    """A worker process died, stopped answering or failed (one line saying which and why)."""


class _Stop(BaseException):
    """Raised in a worker by SIGTERM (outside a send) to abandon the game in progress."""


def start_method() -> str:
    """``forkserver`` where available (workers start clean, without the parent's threads or
    imported torch), else ``spawn``."""
    return "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"


def _worker_main(conn: Connection, play: Callable[[Any, Any], Any], context: Any) -> None:
    """Receive ``(chunk id, items)``; send ``("item", result)`` per item, then ``("done",
    chunk id)``; ``None`` ends the loop. Heartbeats (``("beat",)``) come from a thread."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    main = threading.main_thread()
    lock = threading.Lock()
    state = {"sending": False, "stop": False}

    def on_term(signum: int, frame: Any) -> None:
        if state["sending"]:  # never tear a message: stop right after this send
            state["stop"] = True
            return
        raise _Stop

    signal.signal(signal.SIGTERM, on_term)

    def send(message: tuple) -> None:
        mine = threading.current_thread() is main
        with lock:
            if mine:
                state["sending"] = True
            try:
                conn.send(message)
            finally:
                if mine:
                    state["sending"] = False
        if mine and state["stop"]:
            raise _Stop

    busy = threading.Event()

    def beat() -> None:
        while True:
            time.sleep(HEARTBEAT)
            if busy.is_set():
                try:
                    send(("beat",))
                except OSError:  # the parent is gone
                    os._exit(1)

    threading.Thread(target=beat, daemon=True).start()
    try:
        send(("ready",))  # imports done: from now on silence means trouble
        while True:
            try:
                job = conn.recv()
            except EOFError:  # the parent is gone
                break
            if job is None:
                break
            chunk_id, items = job
            busy.set()
            try:
                for item in items:
                    send(("item", play(context, item)))
            except _Stop:
                raise
            except BaseException as e:
                last = traceback.format_exception_only(type(e), e)[-1].strip()
                send(("error", chunk_id, last, traceback.format_exc()))
                break
            finally:
                busy.clear()
            send(("done", chunk_id))
    except (_Stop, OSError):
        pass
    with lock:  # let a heartbeat in flight finish, then leave without cleanup
        conn.close()
        os._exit(0)


class WorkerPool:
    """``workers`` processes running ``play(context, item)`` over chunks of items.

    Use as a context manager; :meth:`run` yields results as they arrive and raises
    :class:`WorkerError` for a dead, stalled or failing worker; leaving the block (normally,
    by an exception or by a signal) stops every worker and yields nothing more.
    """

    def __init__(
        self,
        play: Callable[[Any, Any], Any],
        context: Any,
        workers: int,
        *,
        stall_timeout: float = 120.0,
        startup_timeout: float = 120.0,
        grace: float = 1.0,
        describe: Callable[[Sequence[Any]], str] = lambda items: f"{len(items)} items",
    ) -> None:
        if workers < 1:
            raise ValueError(f"workers must be positive, got {workers}")
        self.stall_timeout = stall_timeout
        self.startup_timeout = max(startup_timeout, stall_timeout)
        self.grace = grace
        self.describe = describe
        ctx = mp.get_context(start_method())
        self.procs: list[Any] = []
        self.conns: list[Connection] = []
        for _ in range(workers):
            parent, child = ctx.Pipe(duplex=True)
            p = ctx.Process(  # the parent's plug-in rulesets first
                target=run_with_plugins,
                args=(plugin_modules(), _worker_main, child, play, context),
                daemon=True,
            )
            p.start()
            child.close()
            self.procs.append(p)
            self.conns.append(parent)
        self.leftovers: list[Any] = []  # results read while stopping

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(
        self, chunks: Sequence[Sequence[Any]], should_stop: Callable[[], bool] = lambda: False
    ) -> Iterator[Any]:
        """Results of every item of every chunk, as they are finished; returns early (without
        error) once ``should_stop()`` is true, checked at least every 0.2 s."""
        todo = deque(enumerate(chunks))
        busy: dict[int, int] = {}  # worker -> chunk id
        seen = [time.monotonic()] * len(self.procs)
        ready = [False] * len(self.procs)  # a starting worker is importing: more patience

        def assign(w: int) -> None:
            if todo:
                chunk_id, items = todo.popleft()
                busy[w] = chunk_id
                seen[w] = time.monotonic()
                with contextlib.suppress(OSError):  # it just died: its sentinel reports it
                    self.conns[w].send((chunk_id, list(items)))

        for w in range(len(self.procs)):
            assign(w)
        sentinels = {p.sentinel: w for w, p in enumerate(self.procs)}
        while busy:
            if should_stop():
                return
            events = wait([*self.conns, *sentinels], timeout=0.2)
            for obj in events:
                if obj in sentinels:
                    continue
                w = self.conns.index(obj)
                for message in self._drain(obj):
                    seen[w] = time.monotonic()
                    ready[w] = True
                    kind = message[0]
                    if kind == "item":
                        yield message[1]
                    elif kind == "done":
                        busy.pop(w, None)
                        assign(w)
                    elif kind == "error":
                        raise WorkerError(
                            f"worker {w} failed on {self.describe(chunks[message[1]])}: "
                            f"{message[2]}\n{message[3]}"
                        )
            for obj in events:
                w = sentinels.get(obj)
                if w is not None and w not in busy:  # exited idle: nothing lost
                    del sentinels[obj]
                elif w is not None:
                    for message in self._drain(self.conns[w]):  # what it sent before dying
                        if message[0] == "item":
                            yield message[1]
                    p = self.procs[w]
                    p.join(0.1)
                    raise WorkerError(
                        f"worker {w} (pid {p.pid}) died with exit code {p.exitcode} while "
                        f"playing {self.describe(chunks[busy[w]])}"
                    )
            now = time.monotonic()
            for w, chunk_id in busy.items():
                if now - seen[w] > (self.stall_timeout if ready[w] else self.startup_timeout):
                    raise WorkerError(
                        f"worker {w} (pid {self.procs[w].pid}) stopped answering for "
                        f"{now - seen[w]:.0f} s while playing {self.describe(chunks[chunk_id])}"
                    )

    def _drain(self, conn: Connection) -> list[tuple]:
        """Every complete message waiting on ``conn`` (none once it is closed or torn)."""
        out = []
        with contextlib.suppress(Exception):  # closed, or torn by a SIGKILL mid-send
            while conn.poll(0):
                out.append(conn.recv())
        return out

    def close(self) -> None:
        """Stop every worker (SIGTERM, SIGKILL after ``grace`` seconds), keeping in
        :attr:`leftovers` the results they had finished and sent meanwhile."""
        for p in self.procs:
            if p.is_alive():
                p.terminate()
        deadline = time.monotonic() + self.grace
        while any(p.is_alive() for p in self.procs) and time.monotonic() < deadline:
            ready = wait(self.conns, timeout=0.05)
            for conn in ready:
                self._keep(self._drain(conn))
        for p in self.procs:
            if p.is_alive():
                p.kill()
            p.join(self.grace)
        for conn in self.conns:
            self._keep(self._drain(conn))
            conn.close()
        self.procs, self.conns = [], []

    def _keep(self, messages: list[tuple]) -> None:
        self.leftovers += [m[1] for m in messages if m[0] == "item"]


def run_chunks(
    play: Callable[[Any, Any], Any],
    context: Any,
    chunks: Sequence[Sequence[Any]],
    finished: Callable[[Any], None],
    *,
    workers: int,
    describe: Callable[[Sequence[Any]], str] = lambda items: f"{len(items)} items",
) -> None:
    """``finished(play(context, item))`` for every item of every chunk, as each is done: in
    this process with one worker, else in a :class:`WorkerPool` of ``workers`` processes
    (stopped, whatever happens, before this returns or raises). ``play`` and ``context`` must
    be picklable when there are several workers; results come in no fixed order then."""
    if workers <= 1:
        for chunk in chunks:
            for item in chunk:
                finished(play(context, item))
        return
    if not chunks:
        return
    with WorkerPool(play, context, min(workers, len(chunks)), describe=describe) as pool:
        for result in pool.run(chunks):
            finished(result)
