"""A league for self-play PPO: scores per opponent, prioritised fictitious self-play, payoffs.

Every finished training episode names its opponents (``info["opponents"]``: seat -> pool
member, ``training.selfplay.Table``). The league scores the learner against each member it
met, pairwise as "who finished above whom": 1 when the learner won and that seat did not, 0
when that seat won and the learner did not, 0.5 otherwise (both or neither won), so a member's
score has the same fair value, 0.5, at every player count. Scores decay (each new result
multiplies the old ones by ``decay``) so that a member the learner has since learned to beat
is seen as beaten, and read 0.5 until a member has ``min_games`` results.

Prioritised fictitious self-play (PFSP) turns the scores into draw priorities: ``hard``
weights a member by (1 - x)^power (opponents the learner loses to are drawn more), ``variance``
by x (1 - x) (even matches are drawn more); ``epsilon`` keeps every member in play. The pool
multiplies each member's configured weight by its priority.

The payoff matrix is the learner's score against each member over time: a row at every
snapshot (the learner as that snapshot froze it) and at the end, written to ``league.csv`` and
drawn as a heat map (``league.png``).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

PFSP_MODES = ("off", "hard", "variance")
LEAGUE_FIELDS = ["timesteps", "member", "games", "score", "probability"]
EPISODE_FIELDS = ["timesteps", "member", "score"]


def pairwise_scores(info: Mapping[str, Any]) -> list[tuple[str, float]]:
    """The learner's pairwise score against each opponent seat of a finished episode
    (``info`` with ``seat``, ``winners`` and ``opponents``); empty when it names none."""
    opponents = info.get("opponents")
    if not opponents or "winners" not in info:
        return []
    winners = set(info["winners"])
    learner_won = info["seat"] in winners
    out = []
    for seat, member in sorted(opponents.items()):
        seat_won = seat in winners
        out.append((member, 0.5 if learner_won == seat_won else float(learner_won)))
    return out


def pfsp_priority(score: float, mode: str, power: float = 2.0, epsilon: float = 0.05) -> float:
    """A member's draw priority from the learner's score ``x`` against it."""
    if mode == "hard":
        return (1.0 - score) ** power + epsilon
    if mode == "variance":
        return score * (1.0 - score) + epsilon
    if mode == "off":
        return 1.0
    raise ValueError(f"pfsp must be one of {list(PFSP_MODES)}, got {mode!r}")


@dataclass
class MemberScore:
    """Decayed sums of one member's results."""

    total: float = 0.0
    weight: float = 0.0
    games: int = 0

    def add(self, score: float, decay: float) -> None:
        self.total = self.total * decay + score
        self.weight = self.weight * decay + 1.0
        self.games += 1


@dataclass
class LeagueScores:
    """The learner's decayed pairwise scores against every pool member it met."""

    decay: float = 0.99
    min_games: int = 8
    members: dict[str, MemberScore] = field(default_factory=dict)

    def record(self, info: Mapping[str, Any]) -> list[tuple[str, float]]:
        """Add a finished episode's results; returns them (member, score)."""
        results = pairwise_scores(info)
        for member, score in results:
            self.add(member, score)
        return results

    def add(self, member: str, score: float) -> None:
        self.members.setdefault(member, MemberScore()).add(score, self.decay)

    def score(self, member: str) -> float:
        m = self.members.get(member)
        if m is None or m.games < self.min_games or m.weight <= 0:
            return 0.5
        return m.total / m.weight

    def games(self, member: str) -> int:
        m = self.members.get(member)
        return 0 if m is None else m.games

    def priorities(
        self, names: Iterable[str], mode: str, power: float, epsilon: float
    ) -> dict[str, float]:
        return {n: pfsp_priority(self.score(n), mode, power, epsilon) for n in names}


def payoff_rows(
    scores: LeagueScores, t: int, names: Sequence[str], probabilities: Sequence[float]
) -> list[dict[str, Any]]:
    """One row of the payoff matrix (``league.csv``): per member, its games, score and the
    probability with which it is drawn now."""
    return [
        {
            "timesteps": t,
            "member": n,
            "games": scores.games(n),
            "score": round(scores.score(n), 4),
            "probability": round(float(p), 4),
        }
        for n, p in zip(names, probabilities, strict=True)
    ]


def append_csv(path: Path, fields: Sequence[str], rows: Iterable[Mapping[str, Any]]) -> None:
    """Append rows (a header first in a new file), flushed at once: a killed run keeps them."""
    new = not path.exists()
    with path.open("a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(fields))
        if new:
            w.writeheader()
        for r in rows:
            w.writerow({k: r[k] for k in fields})


def replay_episodes(path: Path, scores: LeagueScores) -> None:
    """Rebuild the scores from ``league_episodes.csv`` (a resumed run continues them)."""
    if not path.exists():
        return
    with path.open(newline="") as f:
        for row in csv.DictReader(f):
            try:
                scores.add(str(row["member"]), float(row["score"]))
            except (KeyError, TypeError, ValueError):
                continue  # a torn last line of a killed run


def read_payoffs(path: Path) -> tuple[list[int], list[str], np.ndarray]:
    """``league.csv`` as (row times, members, scores): NaN where a member did not exist yet."""
    rows: list[dict[str, str]] = []
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    times = sorted({int(r["timesteps"]) for r in rows})
    members = list(dict.fromkeys(r["member"] for r in rows))
    grid = np.full((len(times), len(members)), np.nan)
    for r in rows:
        grid[times.index(int(r["timesteps"])), members.index(r["member"])] = float(r["score"])
    return times, members, grid


def payoff_heatmap(csv_path: Path, png_path: Path) -> Path:
    """Draw ``league.csv`` as a heat map: a row per snapshot time, a column per member, the
    learner's pairwise score (0.5: even)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from nanty_env.storage.files import atomic_write_bytes

    times, members, grid = read_payoffs(csv_path)
    fig, ax = plt.subplots(figsize=(2.5 + 0.9 * len(members), 2.6 + 0.4 * len(times)))
    im = ax.imshow(grid, cmap="RdBu", vmin=0.0, vmax=1.0, aspect="auto")
    ax.set_xticks(range(len(members)), [m.replace("snapshot:", "") for m in members])
    ax.set_yticks(range(len(times)), [f"{t:,}" for t in times])
    plt.setp(ax.get_xticklabels(), rotation=40, ha="right", fontsize=8)
    for i in range(len(times)):
        for j in range(len(members)):
            if not np.isnan(grid[i, j]):
                ax.text(j, i, f"{grid[i, j]:.2f}", ha="center", va="center", fontsize=7)
    ax.set_xlabel("pool member")
    ax.set_ylabel("learner at step")
    ax.set_title("league: the learner's pairwise score against each member")
    fig.colorbar(im, ax=ax, label="score (1 above, 0 below, 0.5 even)")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    plt.close(fig)
    atomic_write_bytes(png_path, buf.getvalue())
    return png_path
