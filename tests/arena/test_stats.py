"""Tournament statistics and ratings on a small synthetic table."""

from __future__ import annotations

import math

import pytest

from arena.stats import (
    deal_outcomes,
    end_rule_personalities,
    entry_labels,
    ratings,
    summarize,
    wilson_interval,
    win_tables,
)

SPECS = ["alpha", "beta", "beta"]


def record(game, seats, winners, personas=("fagin", "moriarty", "lord_bellinger")):
    return {
        "game": game,
        "seats": list(seats),
        "winners": list(winners),
        "personalities": list(personas),
        "reason": "test",
        "seconds": [0.1, 0.2, 0.3],
    }


# alpha sits in seat 0, 1, 2 in turn; it wins games 0, 1, 3; beta#2 wins game 2; nobody game 4
RECORDS = [
    record(0, [0, 1, 2], [0]),
    record(1, [2, 0, 1], [1]),
    record(2, [1, 2, 0], [0]),
    record(3, [0, 1, 2], [0]),
    record(4, [2, 0, 1], []),
]


def test_wilson_interval_known_values():
    lo, hi = wilson_interval(7, 10)
    assert lo == pytest.approx(0.396780, abs=1e-5)
    assert hi == pytest.approx(0.892208, abs=1e-5)
    assert wilson_interval(0, 20)[0] == 0.0
    assert wilson_interval(20, 20)[1] == pytest.approx(1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_win_tables_pool_per_bot():
    t = win_tables(SPECS, RECORDS)
    bots = {b["name"]: b for b in t["bots"]}
    assert bots["alpha"]["games"] == 5 and bots["alpha"]["wins"] == 3
    assert bots["alpha"]["win_rate"] == pytest.approx(0.6)
    assert bots["alpha"]["ci95"] == pytest.approx(list(wilson_interval(3, 5)))
    # beta: two entries, 10 seat-games, one win (game 2, seat 0 holds entry 1 = beta)
    assert bots["beta"]["games"] == 10 and bots["beta"]["wins"] == 1
    seat = {(r["bot"], r["seat"]): (r["games"], r["wins"]) for r in t["by_seat"]}
    assert seat["alpha", 0] == (2, 2)  # games 0 and 3
    assert seat["alpha", 1] == (2, 1)  # games 1 (won) and 4
    assert seat["alpha", 2] == (1, 0)
    per = {(r["bot"], r["personality"]): (r["games"], r["wins"]) for r in t["by_personality"]}
    assert per["alpha", "fagin"] == (2, 2)
    assert per["beta", "fagin"] == (3, 1)
    assert sum(g for (b, _), (g, _) in per.items() if b == "beta") == 10


def test_end_rule_personalities_come_from_the_data():
    assert end_rule_personalities() == {"sherlock_holmes", "v_sherlock_holmes", "v_fagin"}


def test_wins_split_by_who_held_an_end_rule_personality():
    holmes = ("sherlock_holmes", "moriarty", "fagin")
    records = [
        record(0, [0, 1, 2], [0], holmes),  # alpha holds Holmes and wins
        record(1, [1, 0, 2], [0], holmes),  # beta holds Holmes and wins; alpha (seat 1) loses
        record(2, [0, 1, 2], [0], ("fagin", "moriarty", "lord_bellinger")),  # nobody; alpha wins
        record(3, [2, 1, 0], [1], ("fagin", "moriarty", "lord_bellinger")),  # nobody; beta wins
    ]
    t = win_tables(SPECS, records)
    split = {(r["bot"], r["holder"]): (r["games"], r["wins"]) for r in t["by_end_rule_holder"]}
    assert split == {
        ("alpha", "self"): (1, 1),
        ("alpha", "an opponent"): (1, 0),
        ("alpha", "nobody"): (2, 1),
        ("beta", "self"): (1, 1),
        ("beta", "an opponent"): (3, 0),
        ("beta", "nobody"): (4, 1),
    }
    # rows come in the bots' order, then self / an opponent / nobody
    assert [(r["bot"], r["holder"]) for r in t["by_end_rule_holder"]][:3] == [
        ("alpha", "self"),
        ("alpha", "an opponent"),
        ("alpha", "nobody"),
    ]
    # another set of end-rule personalities moves the games between the rows
    moved = win_tables(SPECS, records, enders=frozenset({"fagin"}))
    split = {(r["bot"], r["holder"]): (r["games"], r["wins"]) for r in moved["by_end_rule_holder"]}
    assert split["alpha", "self"] == (1, 1)  # game 2: alpha is Fagin and wins
    assert ("alpha", "nobody") not in split  # Fagin is in every game


def test_entry_labels_are_unique():
    assert entry_labels(["a", "b", "b", "a", "b"]) == ["a", "b", "b#2", "a#2", "b#3"]


def test_ratings_match_openskill_plackett_luce():
    from openskill.models import PlackettLuce

    rated = {r["entry"]: r for r in ratings(SPECS, RECORDS)}
    model = PlackettLuce()
    table = {lab: model.rating(name=lab) for lab in ("alpha", "beta", "beta#2")}
    labels = ["alpha", "beta", "beta#2"]
    for r in RECORDS:
        teams = [[table[labels[e]]] for e in r["seats"]]
        ranks = [1 if s in r["winners"] else 2 for s in range(3)]
        for e, team in zip(r["seats"], model.rate(teams, ranks=ranks), strict=True):
            table[labels[e]] = team[0]
    for lab in labels:
        assert rated[lab]["mu"] == pytest.approx(table[lab].mu)
        assert rated[lab]["sigma"] == pytest.approx(table[lab].sigma)
        assert rated[lab]["ordinal"] == pytest.approx(table[lab].mu - 3 * table[lab].sigma)
    # the frequent winner is rated highest, and uncertainty shrinks with games played
    assert rated["alpha"]["mu"] > rated["beta"]["mu"]
    assert rated["alpha"]["mu"] > rated["beta#2"]["mu"]
    assert all(r["sigma"] < 25 / 3 for r in rated.values())


def test_ratings_do_not_depend_on_record_order():
    a = ratings(SPECS, RECORDS)
    b = ratings(SPECS, list(reversed(RECORDS)))
    assert a == b


def test_summary_fields():
    s = summarize(SPECS, RECORDS)
    for b in s["bots"]:
        assert {"name", "games", "wins", "win_rate", "ci95", "rating_mu", "rating_sigma"} <= set(b)
        lo, hi = b["ci95"]
        assert 0 <= lo <= b["win_rate"] <= hi <= 1
    beta = next(b for b in s["bots"] if b["name"] == "beta")
    assert beta["entries"] == 2
    assert s["reasons"] == {"test": 5}
    alpha = next(b for b in s["bots"] if b["name"] == "alpha")
    assert math.isclose(alpha["seconds_per_game"], (0.1 + 0.2 + 0.3 + 0.1 + 0.2) / 5)


def test_deal_outcomes_tell_the_deals_the_seat_decided_from_the_rest():
    def game(deal, rotation, winners):  # two players: entry e sits in seat (e + rotation) % 2
        seats = [0, 1] if rotation == 0 else [1, 0]
        return {"deal_seed": deal, "rotation": rotation, "seats": seats, "winners": winners}

    records = [
        game(1, 0, [0]), game(1, 1, [0]),  # seat 0 both times: the deal decided
        game(2, 0, [0]), game(2, 1, [1]),  # entry 0 (alpha) both times
        game(3, 0, [1]), game(3, 1, [0]),  # entry 1 (beta) both times
        game(4, 0, [1]), game(4, 1, [1]),  # seat 1 both times
        game(5, 0, []), game(5, 1, [0]),  # nobody, then seat 0 (beta): mixed
        game(6, 0, [0]),  # one seating only: left out
        {"seats": [0, 1], "winners": [0]},  # no deal seed: left out
    ]  # fmt: skip
    d = deal_outcomes(["alpha", "beta"], records)
    assert d == {
        "complete_deals": 5,
        "same_seat": 2,
        "same_bot": {"alpha": 1, "beta": 1},
        "mixed": 1,
    }
    # copies of one spec pool: a deal won by either copy every time is that spec's
    three = [
        {"deal_seed": 9, "rotation": r, "seats": [(s - r) % 3 for s in range(3)], "winners": [w]}
        for r, w in ((0, 1), (1, 0), (2, 1))  # entries 1, 2, 2 (beta, beta#2, beta#2) won
    ]
    assert deal_outcomes(SPECS, three)["same_bot"] == {"alpha": 0, "beta": 1}
