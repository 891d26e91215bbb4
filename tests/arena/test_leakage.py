"""The leakage table (arena/leakage.py, nanty leakage): curves, turn 50 %, AUC, win rates and
paired comparisons on the same games; the observer reads only its own seat's view."""

from __future__ import annotations

import json

import numpy as np
import pytest

from arena.leakage import (
    LeakageLogger,
    first_pass,
    format_markdown,
    leakage_report,
    leakage_table,
    top1,
)
from nanty_app.cli import main
from nanty_env.engine import GameConfig


def _log(seed: int, hits: list[float], won: bool, roles: int = 4) -> dict:
    """A synthetic game log: at own turn k the observer's marginal puts ``hits[k]`` on the
    truth (role 0) and spreads the rest evenly."""
    rows = []
    for k, h in enumerate(hits):
        p = [h] + [(1 - h) / (roles - 1)] * (roles - 1)
        rows.append({"own_turn": k, "p": p, "prior": [1 / roles] * roles, "truth": 0})
    return {
        "seed": seed,
        "rows": rows,
        "won": won,
        "turns": 4 * len(hits),
        "cost": {"seconds": 0.5, "public_actions": 10},
    }


def test_top1_counts_ties_as_fractions() -> None:
    assert top1([0.5, 0.3, 0.2], 0) == 1.0
    assert top1([0.5, 0.3, 0.2], 1) == 0.0
    assert top1([0.4, 0.4, 0.2], 1) == 0.5


def test_report_by_hand() -> None:
    # game 0: right from own turn 1; game 1: right from own turn 2; game 2: never right
    logs = [
        _log(0, [0.25, 0.6, 0.7, 0.8], won=True),
        _log(1, [0.25, 0.2, 0.6, 0.7], won=False),
        _log(2, [0.25, 0.2, 0.2, 0.2], won=False),
    ]
    r = leakage_report(logs, horizon=3, boot=200)
    # own turn 0: every role tied at 0.25 -> 1/4 each
    assert r["accuracy"] == pytest.approx([0.25, 1 / 3, 2 / 3, 2 / 3])
    assert r["chance"] == pytest.approx([0.25] * 4)
    assert r["turn50"] == 2
    assert r["auc"] == pytest.approx((1 / 3 + 2 / 3 + 2 / 3) / 3)
    assert r["auc_chance"] == pytest.approx(0.25)
    expected_loss = -np.mean(np.log([0.6, 0.7, 0.8, 0.2, 0.6, 0.7, 0.2, 0.2, 0.2]))
    assert r["log_loss"] == pytest.approx(expected_loss)
    assert r["log_loss_chance"] == pytest.approx(np.log(4))
    assert (r["wins"], r["win_rate"]) == (1, pytest.approx(1 / 3))
    assert r["cost"]["ms_per_public_action"] == pytest.approx(50.0)
    lo, hi = r["auc_ci95"]
    assert lo <= r["auc"] <= hi


def test_first_pass_ignores_turns_few_games_reach() -> None:
    curve = np.array([0.2, 0.4, 0.6, 0.9])
    assert first_pass(curve, np.array([True, True, True, True])) == 2
    assert first_pass(curve, np.array([True, True, False, True])) == 3
    assert first_pass(curve, np.array([True, True, False, False])) is None


def test_random_bot_gives_nothing_away_and_rows_share_games() -> None:
    """RandomBot's policy model cannot tell its roles apart: the observer stays at the prior,
    and every row is played on the same game seeds (paired)."""
    table = leakage_table(
        ["random", "random"], 2, 2, 3, opponent="random", workers=1, progress=False, boot=50
    )
    a, b = table["rows"]
    assert a["accuracy"] == a["chance"]
    assert a["auc"] == pytest.approx(a["auc_chance"])
    assert a["won"] == b["won"]  # same deals, same seats, same bots: the same games
    p = b["paired_with_first"]
    assert (p["games"], p["difference"], p["only_this"], p["only_first"]) == (2, 0.0, 0, 0)
    assert "| `random` | `policy:random` | 2 | 2 |" in format_markdown(table)


def test_the_observer_reads_only_its_own_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """The belief is fed the watching seat's views only (never another seat's)."""
    import agents.beliefs as beliefs

    seen: list[tuple[int, int]] = []
    observe = beliefs.Belief.observe

    def spy(self, view, action=None):
        seen.append((self.seat, view["seat"]))
        return observe(self, view, action)

    monkeypatch.setattr(beliefs.Belief, "observe", spy)
    d = LeakageLogger("random", "random")("x", GameConfig(num_players=3, log=False), 4)
    assert d["seat"] == 4 % 3 and d["observer"] == (4 % 3 + 1) % 3
    assert seen and all(s == v == d["observer"] for s, v in seen)


def test_fitted_observer_reads_the_bot_with_the_shipped_model() -> None:
    r = leakage_table(
        ["random"],
        3,
        1,
        5,
        opponent="random",
        observer="fitted",
        workers=1,
        progress=False,
        boot=20,
    )["rows"][0]
    assert r["observer"] == "fitted" and r["cost"]["public_actions"] > 0
    assert r["log_loss"] != pytest.approx(
        r["log_loss_chance"]
    )  # the model moves away from the prior
    with pytest.raises(ValueError):
        leakage_table(["random"], 3, 1, 5, observer="oracle", workers=1, progress=False)


@pytest.mark.slow
def test_leakage_command_writes_table_json_and_plots(tmp_path, capsys) -> None:
    out = tmp_path / "leak" / "t.json"
    code = main(
        [
            "leakage",
            "--bots",
            "random,heuristic:plan=greedy",
            "--players",
            "2",
            "--games",
            "2",
            "--boot",
            "50",
            "--workers",
            "1",
            "--no-progress",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    data = json.loads(out.read_text())
    assert [r["bot"] for r in data["rows"]] == ["random", "heuristic:plan=greedy"]
    assert data["rows"][1]["observer"] == "policy:heuristic:plan=greedy"
    for name in ("t.md", "t_accuracy.png", "t_tradeoff.png"):
        assert (out.parent / name).stat().st_size > 0
    assert "turn 50 %" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [
        ["leakage", "--bots", "nosuchbot"],
        ["leakage", "--bots", "random", "--opponent", "heuristic:nosuch=1"],
        ["leakage", "--bots", "random", "--games", "0"],
        ["leakage", "--bots", "ppo", "--players", "3"],  # no 3-player PPO policy ships
    ],
)
def test_leakage_command_mistakes_are_one_line(argv, capsys) -> None:
    try:
        code = main(argv)
    except SystemExit as e:  # argparse's own check of --games
        code = e.code
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("nanty leakage: error:") and "\n" not in err
