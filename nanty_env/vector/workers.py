"""Worker processes for the vectorised faces: start them, talk to them, notice when they fail.

A :class:`Worker` is one process playing a :class:`~nanty_env.vector.batch.GameBatch` (or several)
with its pipe end and shared step buffers. Every wait is a blocking one: the waiting process sleeps
in the kernel until the pipe has data or the worker process ends, so it never takes CPU time from
the process it waits for (a spinning wait did, and on a busy machine that cost most of the speed
of a second process). A worker that dies is reported at once, one that stops answering (stopped
by SIGSTOP, hung) after ``timeout`` seconds, in both cases by one :class:`VecEnvWorkerError`
naming the worker and what happened; the vector env is then unusable and says so.

Imports neither torch nor Stable-Baselines3 (workers load only the game and this module).
"""

from __future__ import annotations

import contextlib
import pickle
import select
import signal
import time
from collections.abc import Callable
from multiprocessing.connection import wait
from typing import Any

import numpy as np

from nanty_env.engine.ruleset import plugin_modules, run_with_plugins
from nanty_env.vector.batch import EnvFactory

DEFAULT_TIMEOUT = 120.0  # seconds a worker may take to answer before it is reported
STARTUP_TIMEOUT = 60.0  # ... at least, for its first answer (it starts and builds its games)

# One-byte messages of a step (everything else is a pickled ``(command, data)``).
STEP, DONE, FAILED = b"S", b"D", b"F"

# ``_StepBuffers.ctrl`` slots.
INFO_LEN = 0
INFO_BY_PIPE, INFO_ERROR = -1, -2


class VecEnvWorkerError(RuntimeError):
    """A worker process of a vector env died, stopped answering or failed."""


def _nbytes(dtype: Any, shape: tuple[int, ...]) -> int:
    return int(np.prod(shape)) * np.dtype(dtype).itemsize


def _aligned(size: int) -> int:
    return -(-size // 8) * 8


class _StepBuffers:
    """One chunk's step exchange in shared memory: the caller writes ``actions``; the worker
    writes observations, rewards, dones, next masks and the pickled infos, and (after a reset
    or a command) ``raising``: which games raise on an illegal action, for the caller to check
    the actions of those games against their masks before any game moves."""

    ctrl: np.ndarray
    actions: np.ndarray
    rewards: np.ndarray
    dones: np.ndarray
    raising: np.ndarray
    masks: np.ndarray
    obs: np.ndarray

    def __init__(self, raw: Any, n: int, obs_dim: int, num_actions: int) -> None:
        self.raw, self.n, self.obs_dim, self.num_actions = raw, n, obs_dim, num_actions
        buf = np.frombuffer(raw, dtype=np.uint8)
        offset = 0
        for name, dtype, shape in self.layout(n, obs_dim, num_actions):
            size = _nbytes(dtype, shape)
            setattr(self, name, buf[offset : offset + size].view(dtype).reshape(shape))
            offset += _aligned(size)
        self.infos = buf[offset:]

    @staticmethod
    def layout(n: int, obs_dim: int, num_actions: int) -> list[tuple[str, Any, tuple[int, ...]]]:
        """(attribute, dtype, shape) of each array, in buffer order (each 8-byte aligned)."""
        return [
            ("ctrl", np.int64, (1,)),
            ("actions", np.int64, (n,)),
            ("rewards", np.float32, (n,)),
            ("dones", np.bool_, (n,)),
            ("raising", np.bool_, (n,)),
            ("masks", np.bool_, (n, num_actions)),
            ("obs", np.float32, (n, obs_dim)),
        ]

    @classmethod
    def array_bytes(cls, n: int, obs_dim: int, num_actions: int) -> int:
        """Bytes for the arrays alone (each 8-byte aligned)."""
        return sum(_aligned(_nbytes(d, s)) for _, d, s in cls.layout(n, obs_dim, num_actions))

    @classmethod
    def nbytes(cls, n: int, obs_dim: int, num_actions: int) -> int:
        """Bytes for the arrays plus room for the pickled infos."""
        return cls.array_bytes(n, obs_dim, num_actions) + n * (4 * obs_dim + 1024) + 4096

    @classmethod
    def allocate(cls, ctx: Any, n: int, obs_dim: int, num_actions: int) -> _StepBuffers:
        return cls(ctx.RawArray("b", cls.nbytes(n, obs_dim, num_actions)), n, obs_dim, num_actions)

    def __reduce__(self):  # to a worker: the shared block and its shape
        return (_StepBuffers, (self.raw, self.n, self.obs_dim, self.num_actions))

    def put_infos(self, infos: list[dict[str, Any]]) -> bool:
        """Store the pickled infos in shared memory; False (and ``INFO_BY_PIPE`` recorded) if
        they do not fit, for the worker to send them through the pipe instead."""
        blob = pickle.dumps(infos, protocol=pickle.HIGHEST_PROTOCOL)
        if len(blob) <= len(self.infos):
            self.infos[: len(blob)] = np.frombuffer(blob, dtype=np.uint8)
            self.ctrl[INFO_LEN] = len(blob)
            return True
        self.ctrl[INFO_LEN] = INFO_BY_PIPE
        return False

    def take_infos(self, worker: Worker) -> list[dict[str, Any]]:
        size = int(self.ctrl[INFO_LEN])
        if size == INFO_BY_PIPE:
            return worker.recv()
        return pickle.loads(self.infos[:size].tobytes())


def _state(pid: int) -> str:
    """The process's scheduler state as Linux reports it (``/proc``), in words."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            code = f.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "state unknown"
    return {
        "T": "stopped (SIGSTOP?)",
        "t": "stopped by a debugger",
        "R": "running",
        "S": "sleeping",
        "D": "waiting on I/O",
        "Z": "a zombie",
    }.get(code, f"state {code}")


class Worker:
    """One worker process running ``target(pipe end, env_fns, bufs)`` (a daemon), seen from the
    caller. ``pending_since``: since when an answer has been owed (None: nothing owed); sending
    starts that clock, the caller stops it (``settled``) or restarts it (``answered``)."""

    def __init__(
        self,
        ctx: Any,
        target: Callable,
        env_fns: list[EnvFactory],
        bufs: Any,
        name: str,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        if not timeout > 0:
            raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")
        self.name, self.timeout, self.bufs = name, float(timeout), bufs
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(
            target=run_with_plugins,
            args=(plugin_modules(), target, child, env_fns, bufs),
            daemon=True,
        )
        self.proc.start()
        child.close()
        self._poller = select.poll()  # registered once: cheaper than ``conn.poll()``
        self._poller.register(self.conn.fileno(), select.POLLIN)
        self._poller.register(self.proc.sentinel, select.POLLIN)  # readable once it ends
        self.pending_since: float | None = None
        self.started = False  # has answered once

    @property
    def limit(self) -> float:
        """Seconds an owed answer may take (more for the first one: the process starts)."""
        return self.timeout if self.started else max(self.timeout, STARTUP_TIMEOUT)

    # ------------------------------------------------------------------ sending
    def send(self, obj: Any) -> None:
        self._sending(self.conn.send, obj)

    def send_bytes(self, data: bytes) -> None:
        self._sending(self.conn.send_bytes, data)

    def _sending(self, method: Callable, payload: Any) -> None:
        try:
            method(payload)
        except OSError:  # BrokenPipeError: the worker is gone
            raise self.died() from None
        if self.pending_since is None:
            self.pending_since = time.monotonic()

    # ------------------------------------------------------------------ receiving
    def ready(self) -> bool:
        """Whether an answer is there to read, or the worker has ended (reading says so)."""
        return bool(self._poller.poll(0))

    def _answer_waiting(self) -> bool:
        """Whether reading the pipe would not block (an answer, or the pipe closed)."""
        return any(fd == self.conn.fileno() for fd, _ in self._poller.poll(0))

    def wait(self) -> None:
        """Block until the worker's answer is readable (or its pipe is closed: reading then
        says it died); a ``VecEnvWorkerError`` if it ended without closing its pipe (a copy
        of the pipe's end may live on elsewhere, as in a forkserver), or if nothing came for
        ``limit`` seconds since it was owed."""
        if self._answer_waiting():
            return
        since = self.pending_since or time.monotonic()
        left = self.limit - (time.monotonic() - since)
        if not wait([self.conn, self.proc.sentinel], max(left, 0.0)):
            raise self.silent(time.monotonic() - since)
        if not self._answer_waiting():
            raise self.died()

    def recv(self) -> Any:
        return self._receiving(self.conn.recv)

    def recv_bytes(self) -> bytes:
        return self._receiving(self.conn.recv_bytes)

    def _receiving(self, method: Callable) -> Any:
        self.wait()
        try:
            answer = method()
        except (EOFError, OSError):
            raise self.died() from None
        self.started = True
        return answer

    def answered(self) -> None:
        """Note that an answer came and another is still owed (its clock starts again)."""
        self.pending_since = time.monotonic()

    def settled(self) -> None:
        """Note that nothing is owed any more."""
        self.pending_since = None

    def result(self) -> Any:
        """The answer ``(ok, value)`` to a command: its value, or its traceback raised here."""
        ok, value = self.recv()
        self.settled()
        if not ok:
            raise VecEnvWorkerError(f"{self.name} failed:\n{value}")
        return value

    # ------------------------------------------------------------------ faults
    def died(self) -> VecEnvWorkerError:
        self.proc.join(timeout=1.0)
        code = self.proc.exitcode
        if code is None:
            how = "closed its pipe"
        elif code < 0:
            how = f"was killed by {signal.Signals(-code).name}"
        else:
            how = f"exited with code {code}"
        return VecEnvWorkerError(f"{self.name} (pid {self.proc.pid}) died: it {how}")

    def silent(self, seconds: float) -> VecEnvWorkerError:
        return VecEnvWorkerError(
            f"{self.name} (pid {self.proc.pid}) has not answered for {seconds:.0f} s; it is "
            f"{_state(self.proc.pid)}. (A step that legitimately takes longer needs a larger "
            f"worker_timeout, now {self.timeout:g} s.)"
        )

    def stop(self, message: Any) -> None:
        """Ask the worker to finish (``message``: its close command) and make sure it does: a
        stopped or hung worker is killed."""
        if self.proc.is_alive():
            with contextlib.suppress(OSError):
                self.conn.send(message)
            self.proc.join(timeout=2.0)
        if self.proc.is_alive():
            self.proc.kill()  # works on a stopped process too
            self.proc.join(timeout=5.0)
        self.conn.close()
