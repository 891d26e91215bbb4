"""The meta-game (arena/metagame.py, nanty metagame): line-ups, the payoff table from seeded
tournaments, and α-Rank, Nash averaging and replicator dynamics on hand-computed games."""

from __future__ import annotations

import json

import numpy as np
import pytest

from arena.metagame import (
    alpharank,
    entry_wins,
    lineups,
    metagame,
    nash_average,
    openskill_ratings,
    replicator,
)
from nanty_app.cli import main

RPS = np.array([[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]])
DOMINANT = np.array([[0.5, 0.8, 0.9], [0.2, 0.5, 0.6], [0.1, 0.4, 0.5]])


def test_lineups() -> None:
    assert lineups(3, 2) == [(0, 1), (0, 2), (1, 2)]
    assert lineups(2, 4) == [(0, 1, 1, 1), (1, 0, 0, 0)]
    assert len(lineups(4, 3)) == 12


def test_rock_paper_scissors_is_uniform_for_every_score() -> None:
    third = np.full(3, 1 / 3)
    assert alpharank(RPS) == pytest.approx(third)
    final, average = replicator(RPS)
    assert final == pytest.approx(third) and average == pytest.approx(third)
    p, rating = nash_average(RPS)
    assert p == pytest.approx(third, abs=1e-6) and rating == pytest.approx(0, abs=1e-6)


def test_a_dominant_bot_takes_all_the_mass() -> None:
    assert alpharank(DOMINANT)[0] == pytest.approx(1.0, abs=1e-6)
    assert replicator(DOMINANT)[0][0] > 0.99
    p, rating = nash_average(DOMINANT)
    assert p[0] == pytest.approx(1.0, abs=1e-6)
    assert rating == pytest.approx([0.0, -0.6, -0.8], abs=1e-6)


def test_alpharank_two_strategies_by_hand() -> None:
    """Two strategies: π0 / π1 is the ratio of the fixation probabilities
    ρ = (1 - e^-u) / (1 - e^-mu), u = ±α (M01 - M10)."""
    m, alpha = 20, 3.0
    payoff = np.array([[0.5, 0.6], [0.4, 0.5]])

    def rho(u: float) -> float:
        return (1 - np.exp(-u)) / (1 - np.exp(-m * u))

    u = alpha * (0.6 - 0.4)
    ratio = rho(u) / rho(-u)
    pi = alpharank(payoff, alpha=alpha, population=m)
    assert pi[0] / pi[1] == pytest.approx(ratio)


def test_nash_averaging_ignores_a_copy() -> None:
    """Adding a copy of a bot leaves the others' Nash ratings unchanged (the point of it)."""
    _, base = nash_average(RPS)
    with_copy = np.block([[RPS, RPS[:, :1]], [RPS[:1, :], np.array([[0.5]])]])
    _, rating = nash_average(with_copy)
    assert rating[:3] == pytest.approx(base, abs=1e-5)


def test_entry_wins_and_ratings_follow_the_records() -> None:
    records = [
        {"lineup": [0, 1], "seats": [1, 0], "winners": [1]},  # entry 0 sits in seat 1: won
        {"lineup": [0, 1], "seats": [0, 1], "winners": [0]},
    ]
    assert entry_wins(records, [0, 1]).tolist() == [2, 0]
    r = openskill_ratings(["a", "b"], records)
    assert r[0]["mu"] > r[1]["mu"]


@pytest.mark.slow
def test_metagame_plays_every_lineup_on_seeded_deals() -> None:
    pool = ["random", "heuristic:plan=greedy"]
    a = metagame(pool, 2, 2, 3, workers=1, progress=False)
    b = metagame(pool, 2, 2, 3, workers=1, progress=False)
    assert a["payoff"] == b["payoff"]  # same seed, same games
    m = np.array(a["payoff"])
    assert m[0, 1] + m[1, 0] <= 1.0 and a["games"][0][1] == 2
    assert sum(r["alpharank"] for r in a["scores"]) == pytest.approx(1.0)


@pytest.mark.slow
def test_metagame_command(tmp_path, capsys) -> None:
    out = tmp_path / "mg.json"
    argv = ["metagame", "--bots", "random,heuristic:plan=greedy", "--players", "3"]
    argv += ["--games", "3", "--workers", "1", "--no-progress", "--out", str(out)]
    assert main(argv) == 0
    data = json.loads(out.read_text())
    assert data["lineups"] == [[0, 1, 1], [1, 0, 0]]
    assert (tmp_path / "mg_payoffs.png").stat().st_size > 0
    assert "α-Rank" in (tmp_path / "mg.md").read_text()
    assert "openskill" in capsys.readouterr().out


@pytest.mark.parametrize(
    "bots", ["random", "random,random", "random,nosuchbot", "random,heuristic:nosuch=1"]
)
def test_metagame_mistakes_are_one_line(bots, capsys) -> None:
    assert main(["metagame", "--bots", bots]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("nanty metagame: error:") and "\n" not in err
