"""Paired (duplicate-deal) comparison of two runs: counts, test, interval and the CLI."""

from __future__ import annotations

import math

import pytest

from arena.paired import PairedResult, compare, compare_runs, paired, pooled, sign_test
from arena.tournament import TournamentResult, TournamentSpec
from nanty_app.cli import main


def record(deal_seed, rotation, seats, winners):
    return {"deal_seed": deal_seed, "rotation": rotation, "seats": seats, "winners": winners}


# entry 0 sits in seat (0 + rotation) % 2; runs A and B play the same four games
RUN_A = [
    record(10, 0, [0, 1], [0]),  # entry 0 wins
    record(10, 1, [1, 0], [1]),  # entry 0 wins (seat 1)
    record(11, 0, [0, 1], [1]),  # entry 0 loses
    record(11, 1, [1, 0], [0, 1]),  # shared win: counts for entry 0
]
RUN_B = [
    record(10, 0, [0, 1], [1]),  # loses where A won
    record(10, 1, [1, 0], [1]),  # wins as A did
    record(11, 0, [0, 1], [0]),  # wins where A lost
    record(11, 1, [1, 0], [0]),  # entry 0 (seat 1) loses where A won
    record(12, 0, [0, 1], [0]),  # not played by A: ignored
]


def test_compare_counts_only_the_common_games():
    r = compare(RUN_A, RUN_B)
    assert (r.games, r.wins_a, r.wins_b, r.only_a, r.only_b) == (4, 3, 2, 2, 1)
    assert r.difference == pytest.approx(0.25)
    other = compare(RUN_A, RUN_B, entry_a=1, entry_b=1)  # the other entries of the same games
    assert (other.wins_a, other.wins_b, other.only_a, other.only_b) == (2, 2, 1, 1)


def test_compare_rejects_runs_without_common_games():
    with pytest.raises(ValueError, match="no game"):
        compare(RUN_A, [record(99, 0, [0, 1], [0])])


def test_paired_takes_any_game_keys():
    r = paired({"x": True, "y": False, "z": True}, {"y": True, "z": True, "w": False})
    assert (r.games, r.wins_a, r.wins_b, r.only_a, r.only_b) == (2, 1, 2, 0, 1)


def test_sign_test_known_values():
    assert sign_test(0, 5) == pytest.approx(2 / 32)
    assert sign_test(5, 0) == pytest.approx(2 / 32)
    assert sign_test(3, 3) == 1.0
    assert sign_test(0, 0) == 1.0
    # 24 against 39 discordant games: sum_{i<=24} C(63, i) / 2^63, doubled
    tail = sum(math.comb(63, i) for i in range(25)) / 2.0**63
    assert sign_test(24, 39) == pytest.approx(2 * tail)
    assert 0.05 < sign_test(24, 39) < 0.1


def test_paired_interval_is_centred_and_narrower_than_unpaired():
    r = PairedResult(games=400, wins_a=127, wins_b=142, only_a=24, only_b=39)
    lo, hi = r.ci95
    assert (lo + hi) / 2 == pytest.approx(r.difference) == pytest.approx(-15 / 400)
    var = (63 / 400 - (15 / 400) ** 2) / 400
    assert hi - lo == pytest.approx(2 * 1.959963984540054 * math.sqrt(var))
    unpaired_half = 1.96 * math.sqrt(2 * 0.335 * 0.665 / 400)
    assert (hi - lo) / 2 < unpaired_half
    same = PairedResult(games=10, wins_a=4, wins_b=4, only_a=0, only_b=0)
    assert same.ci95 == (0.0, 0.0) and same.p_value == 1.0


def run(records, **spec):
    bots = spec.pop("bots", ("x", "y"))
    return TournamentResult(TournamentSpec(bots=bots, num_players=2, games=4, **spec), records)


def test_compare_runs_checks_the_game_settings_and_entries():
    assert compare_runs(run(RUN_A), run(RUN_B, seed=3)).only_a == 2  # seed: not a game setting
    with pytest.raises(ValueError, match="thresholds"):
        compare_runs(run(RUN_A), run(RUN_B, thresholds="scaled"))
    with pytest.raises(ValueError, match="no entry 2"):
        compare_runs(run(RUN_A), run(RUN_B), entry_b=2)


def test_compare_runs_refuses_other_line_ups():
    with pytest.raises(ValueError, match="line-ups differ"):
        compare_runs(run(RUN_A, bots=("x", "random")), run(RUN_B, bots=("y", "heuristic")))
    with pytest.raises(ValueError, match="line-ups differ"):  # same bots, other seats
        compare_runs(run(RUN_A, bots=("x", "r")), run(RUN_B, bots=("r", "y")), 0, 1)
    assert compare_runs(run(RUN_A, bots=("x", "r")), run(RUN_B, bots=("y", "r"))).games == 4


def test_cli_compare_two_journals(tmp_path, capsys):
    journals = []
    for name, bots in (("a", "random,random"), ("b", "heuristic:plan=greedy,random")):
        out = tmp_path / f"{name}.json"
        args = ["eval", "--bots", bots, "--players", "2", "--games", "4", "--out", str(out)]
        main([*args, "--workers", "1", "--no-progress", "--no-plots"])
        journals.append(str(tmp_path / f"{name}_games.jsonl"))
    capsys.readouterr()
    assert main(["compare", *journals]) == 0
    text = capsys.readouterr().out
    assert "4 games played by both" in text and "heuristic:plan=greedy" in text
    assert "McNemar exact p" in text
    capsys.readouterr()
    # entry 1 of the second run faces a HeuristicBot where entry 0 of the first faced a random
    assert main(["compare", *journals, "--entry-b", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "line-ups differ" in err
    assert "*, random and heuristic:plan=greedy, *" in err
    assert main(["compare", *journals, "--entry-a", "5"]) == 2
    assert "no entry 5" in capsys.readouterr().err


def test_pooled_adds_up_comparisons_on_disjoint_games():
    r = pooled([compare(RUN_A, RUN_B), compare(RUN_A, RUN_B, entry_a=1, entry_b=1)])
    assert (r.games, r.wins_a, r.wins_b, r.only_a, r.only_b) == (8, 5, 4, 3, 2)


def test_cli_compare_pools_pairs_of_journals(tmp_path, capsys):
    journals: dict[str, list[str]] = {"a": [], "b": []}
    for seed in (1, 2):
        for name, bots in (("a", "random,random"), ("b", "heuristic:plan=greedy,random")):
            out = tmp_path / f"{name}{seed}.json"
            args = ["eval", "--bots", bots, "--players", "2", "--games", "2", "--out", str(out)]
            main([*args, "--seed", str(seed), "--workers", "1", "--no-progress", "--no-plots"])
            journals[name].append(str(tmp_path / f"{name}{seed}_games.jsonl"))
    capsys.readouterr()
    assert main(["compare", ",".join(journals["a"]), ",".join(journals["b"])]) == 0
    text = capsys.readouterr().out
    assert "all 2 pairs of runs together" in text and "4 games played by both" in text
    assert main(["compare", ",".join(journals["a"]), journals["b"][0]]) == 2
    assert "as many journals" in capsys.readouterr().err
