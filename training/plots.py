"""The learning-curve figure of a training run."""

from __future__ import annotations

import csv
from pathlib import Path


def learning_curve(out: Path, path: Path | None = None) -> Path:
    """Training win rate (rolling) and evaluation win rates with 95 % CIs against timesteps,
    from a run's ``progress.csv`` (SB3's one row a game; RLlib's one row a training round,
    with the policy seats' win rate) and ``eval.csv``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    fig, ax = plt.subplots(figsize=(8, 4.5))
    prog = out / "progress.csv"
    if prog.exists():
        rows = list(csv.DictReader(prog.open()))
        if rows and "policy_seat_win_rate" in rows[0]:  # the RLlib backend: one row a round
            rows = [r for r in rows if r["policy_seat_win_rate"] != ""]
            t = np.array([int(r["env_steps"]) for r in rows])
            rate = np.array([float(r["policy_seat_win_rate"]) for r in rows])
            ax.plot(t, rate, color="0.8", lw=0.8, label="training games, each round")
            k = max(1, min(20, len(rate) // 5))
            if k > 1:
                smooth = np.convolve(rate, np.ones(k) / k, mode="valid")
                ax.plot(t[k - 1 :], smooth, color="0.4", label=f"rolling {k} rounds")
        elif rows:
            t = np.array([int(r["timesteps"]) for r in rows])
            won = np.array([int(r["won"]) for r in rows], dtype=float)
            k = max(1, min(200, len(won) // 10))
            smooth = np.convolve(won, np.ones(k) / k, mode="valid")
            ax.plot(t[k - 1 :], smooth, color="0.6", label=f"training games (rolling {k})")
    ev = out / "eval.csv"
    if ev.exists():
        rows = list(csv.DictReader(ev.open()))
        for opp in sorted({r["opponent"] for r in rows}):
            rs = [r for r in rows if r["opponent"] == opp]
            t = [int(r["timesteps"]) for r in rs]
            y = np.array([float(r["win_rate"]) for r in rs])
            lo = np.clip(y - np.array([float(r["ci_low"]) for r in rs]), 0, None)
            hi = np.clip(np.array([float(r["ci_high"]) for r in rs]) - y, 0, None)
            ax.errorbar(t, y, yerr=[lo, hi], marker="o", capsize=3, label=f"eval vs {opp}")
    ax.set_xlabel("timesteps")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(loc="best")
    ax.set_title(f"Learning curve — {out.name}")
    path = path or out / "learning_curve.png"
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
