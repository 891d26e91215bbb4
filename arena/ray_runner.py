"""Seeded games spread over a Ray cluster instead of local worker processes.

:func:`run_chunks_on_ray` is :func:`arena.workers.run_chunks` with each chunk of games one Ray
task: the same ``play(context, item)`` runs on whatever node Ray picks, and every game is
still decided by its own seed alone, so a run gives the same games on a cluster as on one
machine (the callers sort what comes back by game or seed). ``address`` is Ray's: ``auto``
(the cluster this machine belongs to), ``HOST:PORT``, or ``local`` (start Ray here). If Ray
is already running in this process (e.g. ``ray.init(local_mode=True)`` in a test or a
notebook) it is used as it is and left running; a Ray started here is shut down at the end.
Every node needs the project importable, as for ``nanty train --backend rllib``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from arena.workers import WorkerError


def _play_chunk(play: Callable[[Any, Any], Any], context: Any, items: list[Any]) -> list[Any]:
    return [play(context, item) for item in items]


def connect(address: str) -> bool:
    """Join (or start, for ``local``) Ray unless it is running; True if this call did."""
    import ray

    if ray.is_initialized():
        return False
    kwargs: dict[str, Any] = {
        "include_dashboard": False,
        "log_to_driver": False,
        "logging_level": logging.ERROR,
    }
    ray.init(address=None if address == "local" else address, **kwargs)
    return True


def run_chunks_on_ray(
    play: Callable[[Any, Any], Any],
    context: Any,
    chunks: Sequence[Sequence[Any]],
    finished: Callable[[Any], None],
    *,
    address: str,
    describe: Callable[[Sequence[Any]], str] = lambda items: f"{len(items)} items",
) -> None:
    """``finished(play(context, item))`` for every item, one Ray task per chunk, each chunk's
    results handed over as soon as that task is done. A failed task ends the run with one
    :class:`~arena.workers.WorkerError`; the tasks still pending are cancelled."""
    import ray

    started = connect(address)
    task = ray.remote(_play_chunk)
    shared = ray.put(context)
    pending = {task.remote(play, shared, list(c)): c for c in chunks if len(c)}
    try:
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                chunk = pending.pop(ref)
                try:
                    results = ray.get(ref)
                except ray.exceptions.RayError as e:
                    last = str(e).strip().splitlines()[-1] if str(e).strip() else type(e).__name__
                    raise WorkerError(f"a Ray task failed on {describe(chunk)}: {last}") from e
                for r in results:
                    finished(r)
    finally:
        for ref in pending:
            ray.cancel(ref)
        if started:
            ray.shutdown()
