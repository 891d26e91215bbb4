"""Rules 3 and 5: the game ends by an objective, when a player cannot refill, or at Insanity 13
(doomsday); in the last two cases Sloth's holder wins, else the most points (agents 5, Elder
Ones 5 x HP, buildings their cost, £1 each, loans repaid or -15; ties to the best building)."""

from __future__ import annotations

import pytest

from nanty_env.engine.cthulhu.victory import points
from nanty_env.engine.game import Termination
from tests.cthulhu.conftest import A, dice, finish_turn, goo_spent, pc, play, position


def doomsday_position(objectives, **kw):
    """Player 0 plays Samuel Pickwick with the marker on 12."""
    kw.setdefault("hands", [["rincewind"], ["groat"], ["dwarves"]])
    return goo_spent(position(3, insanity=12, objectives=objectives, **kw))


def test_level_thirteen_is_doomsday_on_points_without_sloth():
    g = doomsday_position(("greed", "lust", "pride"), money=[20, 3, 9])
    play(g, pc("rincewind"), A.CONFIRM)
    assert g.is_terminal and g.insanity == 13
    assert g.outcome.reason == "doomsday" and g.outcome.termination is Termination.DOOMSDAY
    assert g.outcome.points == (35, 18, 24)  # three starting agents each, plus money
    assert g.outcome.winners == (0,)


def test_doomsday_is_won_by_sloth():
    g = doomsday_position(("greed", "sloth", "pride"), money=[20, 3, 9])
    play(g, pc("rincewind"), A.CONFIRM)
    assert g.outcome.reason == "doomsday" and g.outcome.winners == (1,)


def test_doomsday_comes_before_the_box_holds_anything_else():
    g = doomsday_position(("greed", "lust", "pride"))
    play(g, pc("rincewind"), A.CONFIRM)
    assert g.is_terminal and g.stack == [] and g.legal_actions() == []


def short_deck(objectives, **kw):
    """Player 0 will need five cards at the end of the turn with only 1 + 3 face-up left."""
    return goo_spent(
        position(
            3, hands=[["groat"], ["dwarves"], ["ruby"]], deck_size=1, objectives=objectives, **kw
        )
    )


def test_cannot_refill_ends_on_points():
    g = short_deck(("greed", "lust", "pride"), money=[1, 2, 30])
    assert len(g.deck) + len(g.faceup) == 4
    play(g, pc("groat"), A.PASS, A.PASS)
    assert g.is_terminal
    assert g.outcome.reason == "deck_exhausted:points"
    assert g.outcome.termination is Termination.DECK and g.outcome.winners == (2,)


def test_cannot_refill_is_won_by_sloth():
    g = short_deck(("greed", "lust", "sloth"), money=[40, 2, 3])
    play(g, pc("groat"), A.PASS, A.PASS)
    assert g.outcome.reason == "deck_exhausted:objective" and g.outcome.winners == (2,)


def test_the_face_up_cards_count_for_refilling():
    g = goo_spent(position(3, hands=[["groat", "dwarves"], ["ruby"], ["hex"]], deck_size=1))
    play(g, pc("groat"), A.PASS, A.PASS)  # needs 4: one in the pile and three face up
    assert not g.is_terminal and g.decision == "refill"
    while g.decision == "refill":
        g.apply(g.legal_actions()[0])
    assert len(g.hands[0]) == 5 and g.deck == [] and g.faceup == []


def test_points():
    g = position(
        3,
        agents={0: {"Chelsea": 2, "Westminster": 1}, 1: {"City": 1}, 2: {"Lambeth": 1}},
        elders={"basatan": (0, "Chelsea"), "ghatanothoa": (1, "City")},
        buildings={
            "Westminster": (0, "palace"),
            "Strand": (0, "tenement"),
            "City": (1, "hotel"),
        },
        grenadiers={"Westminster": 1},  # the expansion's scoring makes no exception
        money=[7, 20, 5],
        loans={0: ["mr_bent"], 2: ["the_bank_of_ankh_morpork"]},
    )
    # seat 0: 3 agents 15 + Basatan 5x2 + palace 18 + tenement 6 + £7, loan unpaid -15
    assert points(g, 0) == 15 + 10 + 24 + 7 - 15
    # seat 1: 1 agent 5 + Ghatanothoa 5x4 + hotel 12 + £20
    assert points(g, 1) == 5 + 20 + 12 + 20
    # seat 2: 1 agent + £5, loan £12 unpaid
    assert points(g, 2) == 5 + 5 - 15
    g.money[2] = 12
    assert points(g, 2) == 5 + 0  # the loan is paid back out of the £12


def test_ties_go_to_the_highest_value_building():
    g = doomsday_position(
        ("greed", "lust", "pride"),
        agents={0: {"Chelsea": 1}, 1: {"City": 1}, 2: {"Lambeth": 1}},
        buildings={
            "Westminster": (1, "palace"),
            "Strand": (0, "tenement"),
            "Battersea": (0, "office"),
            "Highbury": (2, "hotel"),
        },
        money=[13, 7, 13],
    )
    play(g, pc("rincewind"), A.CONFIRM)
    assert g.outcome.points == (30, 30, 30)
    assert g.outcome.winners == (1,)  # the Palace (£18) beats the Hotel and the £6 ones


def test_a_tie_with_equal_best_buildings_is_shared():
    g = doomsday_position(
        ("greed", "lust", "pride"),
        agents={0: {"Chelsea": 1}, 1: {"City": 1}, 2: {"Lambeth": 1}},
        buildings={"Westminster": (1, "hotel"), "Highbury": (2, "mansion")},
        money=[29, 12, 12],
    )
    play(g, pc("rincewind"), A.CONFIRM)
    assert g.outcome.points == (34, 29, 29)
    g2 = doomsday_position(
        ("greed", "lust", "pride"),
        agents={0: {"Chelsea": 1}, 1: {"City": 1}, 2: {"Lambeth": 1}},
        buildings={"Westminster": (1, "hotel"), "Highbury": (2, "mansion")},
        money=[12, 12, 12],
    )
    play(g2, pc("rincewind"), A.CONFIRM)
    assert g2.outcome.points == (17, 29, 29) and g2.outcome.winners == (1, 2)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_doomsday_from_an_event_box_or_a_grenadier_box_is_the_same(n):
    g = goo_spent(position(n, insanity=11, hands=[["rincewind"]] + [[]] * (n - 1)))
    dice(g, 5)  # level 12 holds a grenadier
    play(g, pc("rincewind"), A.CONFIRM)
    assert g.gren[4] == 1 and not g.is_terminal
    finish_turn(g)
    assert not g.is_terminal
