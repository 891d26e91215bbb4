"""Tournament plots (matplotlib, imported lazily; written as PNG files)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

import numpy as np


class PlottedResult(Protocol):
    """What the plots read of a tournament's result (``arena.tournament.TournamentResult``):
    its ``summary`` and its ``spec`` (players and games). The tournament imports the plots,
    never the reverse."""

    summary: dict[str, Any]
    spec: Any


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(fig: Any, path: str | Path) -> Path:
    """Lay out ``fig``, write it to ``path`` as a PNG and close it; returns the path."""
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, dpi=110)
    _pyplot().close(fig)
    return path


def plot_win_rates(result: PlottedResult, path: str | Path) -> Path:
    """Bar chart of each bot's win rate with its 95 % interval and the chance level."""
    plt = _pyplot()
    bots = result.summary["bots"]
    names = [b["name"] for b in bots]
    rates = np.array([b["win_rate"] for b in bots])
    lo = rates - np.array([b["ci95"][0] for b in bots])
    hi = np.array([b["ci95"][1] for b in bots]) - rates
    fig, ax = plt.subplots(figsize=(1.6 + 1.4 * len(names), 3.6))
    ax.bar(range(len(names)), rates, yerr=[lo, hi], capsize=6, color="#4c72b0")
    ax.axhline(1.0 / result.spec.num_players, color="grey", ls="--", lw=1, label="chance")
    ax.set_xticks(range(len(names)), names, rotation=20, ha="right")
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% CI)")
    ax.set_title(f"{result.spec.games} games, {result.spec.num_players} players")
    ax.legend(loc="upper right")
    return save_figure(fig, path)


def plot_personality_heatmap(result: PlottedResult, path: str | Path) -> Path:
    """Heatmap of win rate per bot (rows) and personality (columns), games in each cell."""
    plt = _pyplot()
    rows = result.summary["by_personality"]
    bots = list(dict.fromkeys(r["bot"] for r in rows))
    personas = sorted({r["personality"] for r in rows})
    rate = np.full((len(bots), len(personas)), np.nan)
    games = np.zeros((len(bots), len(personas)), dtype=int)
    for r in rows:
        i, j = bots.index(r["bot"]), personas.index(r["personality"])
        rate[i, j], games[i, j] = r["win_rate"], r["games"]
    fig, ax = plt.subplots(figsize=(1.5 + 1.25 * len(personas), 1.4 + 0.6 * len(bots)))
    im = ax.imshow(rate, vmin=0, vmax=1, cmap="viridis", aspect="auto")
    for i in range(len(bots)):
        for j in range(len(personas)):
            if games[i, j]:
                ax.text(
                    j,
                    i,
                    f"{rate[i, j]:.0%}\nn={games[i, j]}",
                    ha="center",
                    va="center",
                    color="white" if rate[i, j] < 0.6 else "black",
                    fontsize=8,
                )
    ax.set_xticks(range(len(personas)), personas, rotation=30, ha="right")
    ax.set_yticks(range(len(bots)), bots)
    fig.colorbar(im, ax=ax, label="win rate")
    ax.set_title("win rate by personality")
    return save_figure(fig, path)
