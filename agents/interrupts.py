"""Ctrl-C and SIGTERM as a request to stop cleanly instead of an exception at a random line.

Inside ``with StopRequest() as stop:`` the first SIGINT or SIGTERM sets ``stop.signum`` (when
``stop.soft`` is true) so the running loop can finish its step, save and return; a second
signal, or any signal while ``soft`` is false, raises :class:`Interrupted` at once. Outside the
main thread (where Python cannot install handlers) the block runs with the usual behaviour.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType
from typing import Any

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(KeyboardInterrupt):
    """Stopped by a signal (``signum``), after the interrupted work kept what it had done."""

    def __init__(self, signum: int, message: str = "") -> None:
        self.signum = signum
        super().__init__(message or f"stopped by {signal.Signals(signum).name}")


class StopRequest:
    def __init__(self, soft: bool = True) -> None:
        self.soft = soft
        self.signum: int | None = None
        self._old: dict[int, Any] = {}

    @property
    def requested(self) -> bool:
        return self.signum is not None

    @property
    def name(self) -> str:
        return "" if self.signum is None else signal.Signals(self.signum).name

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.soft and self.signum is None:
            self.signum = signum
            return
        self.signum = self.signum or signum
        raise Interrupted(signum)

    def __enter__(self) -> StopRequest:
        if threading.current_thread() is threading.main_thread():
            for s in SIGNALS:
                self._old[s] = signal.signal(s, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for s, old in self._old.items():
            signal.signal(s, old)
        self._old.clear()
