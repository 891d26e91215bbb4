"""How fast ``nanty eval`` stops on Ctrl-C / SIGTERM, and that it keeps every finished game.

Each round starts ``nanty eval`` (HeuristicBots and RandomBots, a few seconds a game, 2 workers,
``--chunk 4``) in its own session, waits until ``--after`` games are in the journal, sends the
signal (SIGINT to the whole process group, as a terminal's Ctrl-C does, or SIGTERM to the main
process; alternating) and measures the wall time until the process has exited. It then checks
that the journal holds exactly the games the command reported and that no process of the
session is left.

    .venv/bin/python benchmarks/interrupt.py --rounds 6
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def session_alive(sid: int) -> int:
    """How many processes of session ``sid`` are still alive (Linux /proc)."""
    count = 0
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2 :].split()
            count += int(fields[3]) == sid and fields[0] != "Z"
    return count


def games(journal: Path) -> int:
    if not journal.exists():
        return 0
    return sum(1 for x in journal.read_text().splitlines()[1:] if x.strip())


def one_round(sig: signal.Signals, after: int, folder: Path) -> dict:
    out = folder / f"run_{sig.name}_{time.monotonic_ns()}"
    cmd = [sys.executable, "-m", "nanty_app.cli", "eval", "--bots"]
    cmd += ["heuristic,heuristic,random,random", "--games", "400", "--workers", "2"]
    cmd += ["--chunk", "4", "--no-progress", "--no-plots", "--out", str(out)]
    proc = subprocess.Popen(
        cmd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    journal = out / "results_games.jsonl"
    while games(journal) < after:
        if proc.poll() is not None:
            raise SystemExit(f"nanty eval ended early: {proc.stderr.read()}")
        time.sleep(0.1)
    t0 = time.monotonic()
    if sig == signal.SIGINT:
        os.killpg(proc.pid, sig)
    else:
        proc.send_signal(sig)
    proc.wait()
    seconds = time.monotonic() - t0
    err = proc.stderr.read()
    m = re.search(r"(\d+) of 400 games finished", err)
    time.sleep(0.2)
    return {
        "signal": sig.name,
        "seconds": round(seconds, 3),
        "exit_code": proc.returncode,
        "reported": int(m.group(1)) if m else None,
        "journal": games(journal),
        "left_processes": session_alive(proc.pid),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--after", type=int, default=3, help="games finished before the signal")
    args = ap.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            sig = signal.SIGINT if r % 2 == 0 else signal.SIGTERM
            rows.append(one_round(sig, args.after, Path(tmp)))
            print(json.dumps(rows[-1]))
    latency = [row["seconds"] for row in rows]
    ok = all(row["reported"] == row["journal"] and row["left_processes"] == 0 for row in rows)
    print(
        f"stop latency over {len(rows)} rounds: median {statistics.median(latency):.2f} s "
        f"(min {min(latency):.2f}, max {max(latency):.2f}); every finished game kept and no "
        f"process left: {ok}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
