"""A meta-game among a pool of bots: the payoff table, α-Rank, Nash averaging, replicator
dynamics and pooled openskill ratings.

**The payoff table.** With two players every pair of bots plays one tournament
(:func:`arena.tournament.run_tournament`: seeded deals, seats rotated, each deal played in
every seating); ``M[i, j]`` is bot ``i``'s win rate against ``j``. With more players the
table is that of *invasions*: for every ordered pair one bot ``i`` sits with ``players - 1``
copies of ``j``, and ``M[i, j]`` is the lone ``i``'s win rate. The diagonal is the fair share
``1 / players`` (a bot against copies of itself; not played). Every tournament uses the same
``seed``, so every line-up is played on the same deals.

**Scores** of the symmetric two-player game whose payoff to ``i`` against ``j`` is ``M[i, j]``:

* α-Rank (OpenSpiel's ``open_spiel.python.egt.alpharank``, single population, population
  ``m``, selection intensity ``alpha``): the stationary distribution of a chain in which a
  lone mutant replaces the residents with a probability that grows with its payoff edge.
* Nash averaging: the maximum-entropy Nash equilibrium ``p`` of the antisymmetric game
  ``A = M - Mᵀ`` and each bot's payoff against it, ``(A p)_i`` (0 on the support, negative
  off it; invariant to adding copies of a bot).
* Replicator dynamics (OpenSpiel's ``open_spiel.python.egt.dynamics.replicator``) from the
  uniform mix: the final state and the time average (which cycles such as rock-paper-scissors
  average out to their centre).
* openskill (Plackett-Luce) ratings over every game of the meta-game, one rating per bot:
  each game is a free-for-all between the distinct bots at the table, the winners' bot first.
  With more than two players a bot's copies form one team, so these ratings only compare
  bots over the whole, balanced, table of line-ups.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from arena.stats import wilson_interval
from arena.tournament import TournamentSpec, run_tournament
from nanty_env.storage.files import atomic_path, atomic_write_text


def lineups(pool_size: int, players: int) -> list[tuple[int, ...]]:
    """The entry line-ups played: each pair once with two players, else every ordered pair
    ``(i, j, j, ...)`` (one ``i`` among ``players - 1`` copies of ``j``)."""
    k = range(pool_size)
    if players == 2:
        return [(i, j) for i in k for j in k if i < j]
    return [(i, *[j] * (players - 1)) for i in k for j in k if i != j]


def entry_wins(records: Sequence[dict[str, Any]], entries: Sequence[int]) -> np.ndarray:
    """Games won by each entry of a tournament's bot list (``entries``: how many)."""
    wins = np.zeros(len(entries))
    for r in records:
        for e in range(len(entries)):
            if list(r["seats"]).index(e) in r["winners"]:
                wins[e] += 1
    return wins


def play_payoffs(
    pool: Sequence[str],
    players: int,
    games: int,
    seed: int,
    *,
    workers: int | None = None,
    progress: bool = True,
    expansion: str | None = None,
    content: str | None = None,
    ray_address: str | None = None,
) -> dict[str, Any]:
    """Play every line-up (``games`` games each) and return the payoff table with the wins,
    games and the games' records (for ratings)."""
    k = len(pool)
    wins = np.zeros((k, k))
    played = np.zeros((k, k))
    records: list[dict[str, Any]] = []
    for lu in lineups(k, players):
        spec = TournamentSpec(
            bots=tuple(pool[e] for e in lu),
            num_players=players,
            games=games,
            seed=seed,
            expansion=expansion,
            content=content,
        )
        result = run_tournament(spec, workers=workers, progress=progress, ray_address=ray_address)
        w = entry_wins(result.records, lu)
        i, j = lu[0], lu[1]
        wins[i, j] += w[0]
        played[i, j] += len(result.records)
        if players == 2:
            wins[j, i] += w[1]
            played[j, i] += len(result.records)
        for r in result.records:
            records.append({"lineup": list(lu), **{x: r[x] for x in ("seats", "winners")}})
    m = np.where(played > 0, wins / np.maximum(played, 1), 1.0 / players)
    np.fill_diagonal(m, 1.0 / players)
    ci = [
        [list(wilson_interval(int(wins[i, j]), int(played[i, j]))) for j in range(k)]
        for i in range(k)
    ]
    return {
        "payoff": m.tolist(),
        "wins": wins.astype(int).tolist(),
        "games": played.astype(int).tolist(),
        "ci95": ci,
        "records": records,
    }


def alpharank(payoff: np.ndarray, alpha: float = 10.0, population: int = 50) -> np.ndarray:
    """α-Rank's stationary distribution over the strategies of the symmetric game ``payoff``
    (OpenSpiel's implementation, single population)."""
    from open_spiel.python.egt import alpharank as ar

    _, _, pi, _, _ = ar.compute([np.asarray(payoff, float)], m=population, alpha=alpha)
    return np.clip(np.asarray(pi, dtype=float), 0.0, 1.0) + 0.0  # no -1e-16, no -0.0


def replicator(
    payoff: np.ndarray, steps: int = 20_000, dt: float = 0.01
) -> tuple[np.ndarray, np.ndarray]:
    """(final state, time average) of the replicator dynamics of ``payoff`` from the uniform
    mix, Euler steps of ``dt`` (OpenSpiel's single-population replicator)."""
    from open_spiel.python.egt import dynamics

    a = np.asarray(payoff, float)
    field = dynamics.SinglePopulationDynamics(np.stack([a, a.T]), dynamics.replicator)
    x = np.full(len(a), 1.0 / len(a))
    total = np.zeros_like(x)
    for _ in range(steps):
        x = np.clip(x + dt * field(x), 0.0, None)
        x /= x.sum()
        total += x
    return x, total / steps


def nash_average(payoff: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(maximum-entropy Nash equilibrium ``p`` of ``A = M - Mᵀ``, ratings ``A p``)."""
    from scipy.optimize import minimize

    m = np.asarray(payoff, float)
    a = m - m.T
    k = len(a)

    def neg_entropy(p: np.ndarray) -> float:
        q = np.clip(p, 1e-12, 1.0)
        return float(np.sum(q * np.log(q)))

    res = minimize(
        neg_entropy,
        np.full(k, 1.0 / k),
        method="SLSQP",
        bounds=[(0.0, 1.0)] * k,
        constraints=[
            {"type": "eq", "fun": lambda p: p.sum() - 1.0},
            {"type": "ineq", "fun": lambda p: a.T @ p},  # no bot beats the mix
        ],
        options={"ftol": 1e-12, "maxiter": 500},
    )
    p = np.clip(res.x, 0.0, None)
    p /= p.sum()
    return p, a @ p


def openskill_ratings(pool: Sequence[str], records: Sequence[dict[str, Any]]) -> list[dict]:
    """One Plackett-Luce rating per bot over every game (see the module docstring)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    table = [model.rating(name=b) for b in pool]
    for r in records:
        lu = r["lineup"]
        bots = sorted(set(lu))
        won = {
            b: any(lu[e] == b and r["seats"].index(e) in r["winners"] for e in range(len(lu)))
            for b in bots
        }
        new = model.rate([[table[b]] for b in bots], ranks=[1 if won[b] else 2 for b in bots])
        for b, team in zip(bots, new, strict=True):
            table[b] = team[0]
    return [{"mu": t.mu, "sigma": t.sigma, "ordinal": t.mu - 3 * t.sigma} for t in table]


def metagame(
    pool: Sequence[str],
    players: int,
    games: int,
    seed: int,
    *,
    alpha: float = 10.0,
    population: int = 50,
    **kw: Any,
) -> dict[str, Any]:
    """The payoff table of ``pool`` and every score (module docstring), as JSON-safe data."""
    if len(set(pool)) != len(pool) or len(pool) < 2:
        raise ValueError("the pool needs at least two different bot specs")
    table = play_payoffs(pool, players, games, seed, **kw)
    m = np.array(table["payoff"])
    pi = alpharank(m, alpha, population)
    final, average = replicator(m)
    nash, nash_rating = nash_average(m)
    ratings = openskill_ratings(pool, table["records"])
    rows = [
        {
            "bot": b,
            "alpharank": float(pi[i]),
            "nash": float(nash[i]),
            "nash_rating": float(nash_rating[i]),
            "replicator_final": float(final[i]),
            "replicator_average": float(average[i]),
            "mean_payoff": float(np.mean(np.delete(m[i], i))),
            "rating_mu": ratings[i]["mu"],
            "rating_sigma": ratings[i]["sigma"],
            "rating_ordinal": ratings[i]["ordinal"],
        }
        for i, b in enumerate(pool)
    ]
    head = {
        "pool": list(pool),
        "players": players,
        "games_per_lineup": games,
        "seed": seed,
        "lineups": [list(lu) for lu in lineups(len(pool), players)],
        "alpha": alpha,
        "population": population,
    }
    return head | {k: v for k, v in table.items() if k != "records"} | {"scores": rows}


def format_metagame(report: dict[str, Any]) -> str:
    """The scores as a markdown table, ranked by α-Rank."""
    lines = [
        f"meta-game of {len(report['pool'])} bots, {report['players']} players, "
        f"{report['games_per_lineup']} games per line-up (seed {report['seed']}), "
        f"α-Rank alpha {report['alpha']} population {report['population']}",
        "",
        "| bot | α-Rank | Nash p | Nash rating | replicator (final / average) | mean payoff "
        "| openskill mu ± sigma |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in sorted(report["scores"], key=lambda r: -r["alpharank"]):
        lines.append(
            f"| `{r['bot']}` | {r['alpharank']:.3f} | {r['nash']:.3f} | "
            f"{r['nash_rating']:+.3f} | {r['replicator_final']:.3f} / "
            f"{r['replicator_average']:.3f} | {r['mean_payoff']:.3f} | "
            f"{r['rating_mu']:.1f} ± {r['rating_sigma']:.1f} |"
        )
    return "\n".join(lines)


def plot_payoffs(report: dict[str, Any], path: str | Path) -> Path:
    """Heat map of the payoff table (row bot's win rate against the column bot)."""
    from arena.plots import _pyplot, save_figure

    plt = _pyplot()
    m = np.array(report["payoff"])
    names = report["pool"]
    k = len(names)
    fig, ax = plt.subplots(figsize=(2.2 + 1.1 * k, 1.6 + 0.9 * k))
    im = ax.imshow(m, cmap="RdBu", vmin=0.0, vmax=2.0 / report["players"])
    for i in range(k):
        for j in range(k):
            text = "—" if i == j else f"{m[i, j]:.2f}"
            dark = abs(m[i, j] * report["players"] - 1.0) > 0.6 and i != j
            ax.text(j, i, text, ha="center", va="center", fontsize=8, color="w" if dark else "k")
    ax.set_xticks(range(k), names, rotation=25, ha="right", fontsize=7)
    ax.set_yticks(range(k), names, fontsize=7)
    field = "against" if report["players"] == 2 else f"alone among {report['players'] - 1}"
    ax.set_xlabel(f"column bot ({field} it)")
    ax.set_ylabel("row bot's win rate")
    ax.set_title(f"{report['players']} players, {report['games_per_lineup']} games per line-up")
    fig.colorbar(im, ax=ax, fraction=0.046)
    return save_figure(fig, path)


def write_metagame(report: dict[str, Any], out: str | Path, plots: bool = True) -> list[Path]:
    """``out`` (JSON), ``<stem>.md`` and, with ``plots``, ``<stem>_payoffs.png``."""
    out = Path(out)
    stem = out.with_suffix("")
    written = [atomic_write_text(out, json.dumps(report, indent=1) + "\n")]
    md = stem.with_name(stem.name + ".md")
    written.append(atomic_write_text(md, format_metagame(report) + "\n"))
    if plots:
        path = stem.with_name(stem.name + "_payoffs.png")
        with atomic_path(path, suffix=".png") as tmp:
            plot_payoffs(report, tmp)
        written.append(path)
    return written
