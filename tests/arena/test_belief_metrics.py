"""arena.belief_metrics: the scores of known beliefs, the bootstrap, the logger and the
``nanty roles --observer`` command."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from arena.belief_metrics import (
    BINS,
    METRICS,
    BeliefLogger,
    _metrics,
    _sums,
    belief_report,
    plot_reliability,
)
from nanty_env.engine import GameConfig


def test_scores_of_a_sure_and_of_a_uniform_guess() -> None:
    truth = np.array([0, 1, 2, 3])
    sure = _metrics(_sums(np.eye(4), truth, np.ones(2)))
    assert sure["accuracy"] == 1.0 and sure["log_loss"] == pytest.approx(0.0, abs=1e-9)
    assert sure["brier"] == 0.0 and sure["ece"] == 0.0 and sure["p_true_assignment"] == 1.0
    flat = _metrics(_sums(np.full((4, 4), 0.25), truth, np.full(2, 1 / 24)))
    assert flat["accuracy"] == pytest.approx(0.25)  # a four-way tie scores a quarter
    assert flat["log_loss"] == pytest.approx(math.log(4))
    assert flat["brier"] == pytest.approx(0.75)
    assert flat["ece"] == pytest.approx(0.0)
    assert flat["p_true_assignment"] == pytest.approx(1 / 24)


def test_ece_of_an_overconfident_guess() -> None:
    # always 90 % sure of role 0, right half the time
    p = np.tile([0.9, 0.1], (10, 1))
    truth = np.array([0, 1] * 5)
    m = _metrics(_sums(p, truth, np.ones(1)))
    assert m["ece"] == pytest.approx(0.4)
    assert m["accuracy"] == pytest.approx(0.5)


def fake_log(seed: int, good: bool, rng: np.random.Generator) -> dict:
    rows = []
    for turn in (1, 2, 3):
        for o in range(3):
            truth = [0, 1, 2]
            p = np.full((3, 3), 1 / 3)
            if good and turn > 1:
                p = np.where(np.eye(3, dtype=bool), 0.8, 0.1)
            p_true = 1 / 2 if not good or turn == 1 else 0.9
            rows.append(
                {
                    "turn": turn,
                    "observer": o,
                    "p": p,
                    "prior": np.full((3, 3), 1 / 3),
                    "p_true": p_true * rng.uniform(0.9, 1.0),
                    "prior_true": 1 / 2,
                    "truth": truth,
                }
            )
    return {
        "seed": seed,
        "n": 3,
        "rows": rows,
        "cost": {"seconds": 1.0, "views": 10, "public_actions": 4},
        "winners": [0],
    }


def test_report_keys_intervals_and_chance() -> None:
    rng = np.random.default_rng(0)
    logs = [fake_log(i, good=i % 2 == 0, rng=rng) for i in range(8)]
    r = belief_report(logs, boot=200)
    for k in METRICS:
        o = r[k]["overall"]
        assert o["ci95"][0] <= o["value"] <= o["ci95"][1]
        assert r[k]["turn"] == [1, 2, 3] and len(r[k]["value"]) == 3 and len(r[k]["ci95"]) == 3
    assert r["accuracy"]["chance"][0] == pytest.approx(1 / 3)
    assert r["accuracy"]["value"][0] == pytest.approx(1 / 3)  # turn 1: no evidence yet
    assert r["accuracy"]["value"][2] == pytest.approx(2 / 3)  # half the games are sure
    assert r["log_loss"]["overall"]["value"] < r["log_loss"]["overall"]["chance"]
    assert r["samples"]["overall"] == 8 * 3 * 3 * 2
    assert sum(r["reliability"]["count"]) == r["samples"]["overall"]
    assert r["cost"]["ms_per_public_action"] == pytest.approx(250.0)


@pytest.mark.parametrize("observer", ["prior", "fitted"])
def test_logger_plays_and_reports(observer: str, tmp_path) -> None:
    config = GameConfig(num_players=2, log=False)
    d = BeliefLogger(("heuristic:plan=greedy", "random"), observer)("x", config, 4)
    assert d["rows"] and {r["observer"] for r in d["rows"]} == {0, 1}
    for r in d["rows"]:
        assert r["p"].shape == r["prior"].shape
        assert np.allclose(r["p"].sum(axis=1), 1.0)
        assert 0.0 < r["p_true"] <= 1.0
    r = belief_report([d, d], boot=20) | {"observer": observer, "players": 2, "games": 2}
    if observer == "prior":
        for k in METRICS:
            assert r[k]["overall"]["value"] == pytest.approx(r[k]["overall"]["chance"])
    png = plot_reliability(r, tmp_path / "rel.png")
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert len(r["reliability"]["confidence"]) == BINS


@pytest.mark.slow
def test_nanty_roles_observer_writes_the_metrics(tmp_path, capsys) -> None:
    from nanty_app.cli import main

    out = tmp_path / "b.json"
    argv = ["roles", "--observer", "fitted", "--bots", "heuristic:plan=greedy,random"]
    argv += ["--games", "2", "--workers", "1", "--no-progress", "--boot", "50"]
    assert main([*argv, "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "log_loss" in text and "chance" in text
    report = json.loads(out.read_text())
    for k in METRICS:
        assert set(report[k]) >= {"overall", "turn", "value", "ci95", "chance"}
    assert report["players"] == 2 and report["observer"] == "fitted"
    assert (tmp_path / "b_reliability.png").is_file()


def test_nanty_roles_observer_mistakes(capsys) -> None:
    from nanty_app.cli import main

    for argv, needle in (
        (["roles", "--observer", "oracle"], "observer model"),
        (["roles", "--bots", "random,random,random", "--players", "4"], "3 --bots"),
        (["roles", "--observer", "prior", "--players", "2,3"], "one player count"),
        (["roles", "--observer", "policy:heuristc"], "unknown bot"),
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert needle in err and "\n" not in err.strip(), err
