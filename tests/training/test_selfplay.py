"""The opponent pool: per-seat draws by weight, or whole tables of one kind."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from training.selfplay import OpponentPool

WEIGHTS = {"random": 1.0, "heuristic:plan=greedy": 1.0}


def _kinds(pool: OpponentPool, draws: int, seed: int = 0) -> list[tuple[str, ...]]:
    rng = np.random.default_rng(seed)
    return [tuple(type(o).__name__ for o in pool(rng)) for _ in range(draws)]


def test_whole_tables_are_one_kind_drawn_by_weight() -> None:
    tables = _kinds(OpponentPool(3, WEIGHTS, whole_table=1.0), 200)
    assert all(len(set(t)) == 1 for t in tables)
    share_random = sum(t[0] == "RandomOpponent" for t in tables) / len(tables)
    assert 0.38 < share_random < 0.62


def test_per_seat_draws_mix_kinds_and_keep_their_random_stream() -> None:
    pool = OpponentPool(3, WEIGHTS)
    tables = _kinds(pool, 200)
    mixed = sum(len(set(t)) > 1 for t in tables) / len(tables)
    assert 0.6 < mixed < 0.9  # 3/4 of tables when each seat draws on its own
    rng = np.random.default_rng(0)  # the draws are one weighted choice per seat, nothing else
    kinds, p = pool.kinds()
    expected = [
        tuple(kinds[int(rng.choice(len(kinds), p=p))] for _ in range(3)) for _ in range(200)
    ]
    names = {"random": "RandomOpponent", "heuristic:plan=greedy": "HeuristicBot"}
    assert tables == [tuple(names[k] for k in t) for t in expected]


def test_whole_table_share_mixes_both_ways() -> None:
    tables = _kinds(OpponentPool(3, WEIGHTS, whole_table=0.5), 400)
    uniform = sum(len(set(t)) == 1 for t in tables) / len(tables)
    assert uniform == pytest.approx(0.5 + 0.5 * 0.25, abs=0.07)


def test_pool_pickles_with_its_settings() -> None:
    pool = OpponentPool(3, WEIGHTS, ["a.zip"], whole_table=0.3)
    again = pickle.loads(pickle.dumps(pool))
    assert (again.num_opponents, again.weights, again.snapshots, again.whole_table) == (
        3,
        WEIGHTS,
        ["a.zip"],
        0.3,
    )
    assert pool.with_snapshots(["b.zip"]).whole_table == 0.3
