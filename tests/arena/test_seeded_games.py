"""The seeded game runner: one seed scheme, the same output in one process and over the
project's worker pool, and the outputs the runner gave before it moved onto that pool (the
fingerprints were taken with the previous ProcessPoolExecutor runners, commit e280477)."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from arena.role_eval import generate_logs
from arena.seeded_games import game_seed
from arena.workers import WorkerError
from training.value_records import generate
from training.value_records import load as load_records

GREEDY = "heuristic:plan=greedy"
LOGS_FINGERPRINT = "2dfa6df2f5a2f8ff70bb28b13e1f72336a342818c9730dcf31580b3f41e5a3b7"
RECORDS_FINGERPRINT = "110d4305dfa99bef186197554eaf11109f1f7f5c1696e342b9df010dd1696ed6"


def logs_fingerprint(logs: list[dict]) -> str:
    h = hashlib.sha256()
    for d in logs:
        h.update(np.int64(d["seed"]).tobytes())
        h.update(np.ascontiguousarray(d["x"]).tobytes())
        h.update(np.ascontiguousarray(d["y"]).tobytes())
    return h.hexdigest()


def records_fingerprint(folder) -> str:
    rec = load_records(folder)
    h = hashlib.sha256()
    for key in ("rows", "won", "seeds", "game"):
        h.update(np.ascontiguousarray(rec[key]).tobytes())
    return h.hexdigest()


@pytest.mark.parametrize("workers", (1, 2))
def test_seeded_games_are_the_same_in_one_process_and_over_workers(workers: int) -> None:
    logs = generate_logs("random", 3, 6, 3, workers=workers, progress=False)
    assert [d["seed"] for d in logs] == [game_seed(3, i) for i in range(6)]
    assert logs_fingerprint(logs) == LOGS_FINGERPRINT


@pytest.mark.parametrize("workers", (1, 2))
def test_value_records_are_the_same_in_one_process_and_over_workers(tmp_path, workers) -> None:
    generate(tmp_path, ["random", GREEDY], 2, 20, 7, workers=workers, progress=False)
    assert load_records(tmp_path)["seeds"].tolist() == [game_seed(7, i) for i in range(20)]
    assert records_fingerprint(tmp_path) == RECORDS_FINGERPRINT


def test_a_failing_game_in_a_worker_is_one_error_naming_its_games() -> None:
    with pytest.raises(WorkerError, match=r"game seeds 100000-100000: .*nosuchbot"):
        generate_logs("nosuchbot", 2, 1, 1, workers=2, progress=False)
