"""Place a building (rulebook "Place a building", player aid): own agent in the area, no
building and no trouble marker there, enough money; the City Area card comes with the building
and goes back when it leaves; a seventh building moves one of the six. Buildings are "bits"
for control and count in net worth and scoring (see test_victory.py)."""

from __future__ import annotations

import pytest

from nanty_env.engine import actions as A
from nanty_env.engine import board
from tests.engine.conftest import DIE_AREAS as NAMES
from tests.engine.conftest import DIE_COST as COST
from tests.engine.conftest import area_actions, die, play, quiet_position


# ------------------------------------------------------------------ place a building
def build_game(money=30, trouble=(), buildings=None, own=(6,), others=None, **kw):
    agents = {0: {NAMES[k]: 1 for k in own}}
    agents.update(others or {})
    g = quiet_position(
        agents=agents,
        trouble=[NAMES[k] for k in trouble],
        buildings={NAMES[k]: s for k, s in (buildings or {}).items()},
        money=[money, 10, 10, 10],
        hands=[["the_watch", "groat"], [], [], []],
        **kw,
    )
    play(g, ("PLAY_CARD", "the_watch"))  # building, then remove trouble
    return g


@pytest.mark.parametrize(
    ("kw", "expected"),
    [
        ({}, {6}),
        ({"own": (6, 4, 3)}, {6, 4, 3}),
        ({"own": (6, 4), "trouble": (4,)}, {6}),  # trouble blocks
        ({"own": (6, 4), "buildings": {4: 1}}, {6}),  # another's building blocks
        ({"own": (6, 4), "buildings": {4: 0}}, {6}),  # own building blocks too
        ({"own": (6, 4), "money": 17}, {6}),  # Holborn costs 18
        ({"own": (6, 4), "money": 18}, {6, 4}),
        ({"own": (6, 7), "money": 11}, {7}),  # Highbury 12, East End 6
        ({"own": (6, 7), "money": 5}, set()),
        ({"own": (), "others": {1: {NAMES[6]: 2}}}, set()),  # no own agent
    ],
)
def test_building_legality(kw, expected):
    g = build_game(**kw)
    if expected:
        assert g.decision == "card"
        assert set(g.legal_actions()) - {A.PASS} == area_actions(*expected)
    else:  # no target: the building symbol (and remove trouble, no markers) are skipped
        assert g.decision == "end"


@pytest.mark.parametrize("k", range(1, 13))
def test_building_costs_the_area_price_and_brings_the_city_area_card(k):
    g = quiet_position(
        agents={0: {NAMES[k]: 1}},
        money=[COST[k] + 1, 10, 10, 10],
        hands=[["the_royal_mint"], [], [], []],
        turn=9,
    )
    play(g, ("PLAY_CARD", "the_royal_mint"), ("AREA", NAMES[k]))
    assert g.money[0] == 1
    assert g.building[die(k)] == 0
    assert board.city_card_owner(g, die(k)) == 0
    assert g.city_gained[die(k)] == 9
    assert g.trouble[die(k)] == 0


def test_building_needs_no_control_and_causes_no_trouble():
    """FAQ: one agent is enough even if another player has more there."""
    g = build_game(own=(6,), others={1: {NAMES[6]: 3}, 2: {NAMES[6]: 2}})
    assert A.AREA + die(6) in g.legal_actions()
    play(g, ("AREA", NAMES[6]))
    assert g.building[die(6)] == 0 and g.trouble[die(6)] == 0


@pytest.mark.parametrize(
    "pawns", [{"citizens": 2}, {"grenadiers": 1}, {"citizens": 1, "grenadiers": 1}]
)
def test_building_with_citizens_or_grenadiers_present(pawns):
    """FAQ: immigrants and grenadiers do not prevent building (only a trouble marker does)."""
    g = quiet_position(
        agents={0: {NAMES[6]: 1}},
        money=[30, 10, 10, 10],
        hands=[["the_royal_mint"], [], [], []],
        **{kind: {NAMES[6]: k} for kind, k in pawns.items()},
    )
    assert g.trouble[die(6)] == 0
    play(g, ("PLAY_CARD", "the_royal_mint"), ("AREA", NAMES[6]))
    assert g.building[die(6)] == 0 and g.money[0] == 18


SIX = (1, 2, 3, 4, 5, 6)


def test_seventh_building_moves_one_of_the_six():
    g = quiet_position(
        agents={0: {NAMES[7]: 1}},
        buildings={NAMES[k]: 0 for k in SIX},
        money=[20, 10, 10, 10],
        hands=[["the_royal_mint"], [], [], []],
        turn=9,
    )
    play(g, ("PLAY_CARD", "the_royal_mint"), ("AREA", NAMES[7]))
    assert g.money[0] == 14  # East End paid
    assert g.decision == "relocate_building"
    assert set(g.legal_actions()) == area_actions(*SIX)  # must choose one, no pass
    play(g, ("AREA", NAMES[4]))
    assert g.building[die(7)] == 0
    assert g.building[die(4)] == -1
    assert board.city_card_owner(g, die(4)) == -1  # Holborn card back to the display
    assert board.city_card_owner(g, die(7)) == 0
    assert board.own_buildings(g, 0) == 6
    assert g.decision == "card"


def test_fifth_and_sixth_buildings_need_no_move():
    g = quiet_position(
        agents={0: {NAMES[7]: 1}},
        buildings={NAMES[k]: 0 for k in SIX[:5]},
        money=[20, 10, 10, 10],
        hands=[["the_royal_mint"], [], [], []],
    )
    play(g, ("PLAY_CARD", "the_royal_mint"), ("AREA", NAMES[7]))
    assert g.decision == "card"
    assert board.own_buildings(g, 0) == 6


def test_removed_building_returns_its_city_area_card():
    g = quiet_position(buildings={NAMES[10]: 2})
    assert board.city_card_owner(g, die(10)) == 2
    board.remove_building(g, die(10))
    assert board.city_card_owner(g, die(10)) == -1
    assert g.building[die(10)] == -1
