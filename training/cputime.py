"""CPU time of this process and all its descendants (worker processes, data generators).

On a shared machine wall time overstates what a run costs, so training budgets can be given in
CPU time. Linux ``/proc`` is read for live descendants (including grandchildren, e.g. workers
forked by a multiprocessing forkserver); finished children that were waited for are counted by
``os.times``. Elsewhere only this process and its waited-for children are counted.
"""

from __future__ import annotations

import os
from pathlib import Path

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, user + system + waited-for children's CPU seconds) of a live process."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    # after the command: state ppid ... utime(14) stime(15) cutime(16) cstime(17), 1-based
    ppid = int(fields[1])
    ticks = sum(int(x) for x in fields[11:15])
    return ppid, ticks / _TICK


def descendants_cpu(root: int | None = None) -> float:
    """CPU seconds of the live descendants of ``root`` (default: this process), each with the
    children it has waited for."""
    root = os.getpid() if root is None else root
    proc = Path("/proc")
    if not proc.is_dir():
        return 0.0
    stats: dict[int, tuple[int, float]] = {}
    for d in proc.iterdir():
        if d.name.isdigit():
            s = _stat(int(d.name))
            if s is not None:
                stats[int(d.name)] = s
    children: dict[int, list[int]] = {}
    for pid, (ppid, _) in stats.items():
        children.setdefault(ppid, []).append(pid)
    total, todo = 0.0, list(children.get(root, []))
    while todo:
        pid = todo.pop()
        total += stats[pid][1]
        todo += children.get(pid, [])
    return total


def cpu_seconds() -> float:
    """CPU seconds used so far by this process, its finished children and its live
    descendants."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system + descendants_cpu()
