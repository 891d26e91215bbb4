"""The trouble rule (rulebook "Trouble markers", player aid "Trouble marker"): a pawn placed or
moved into an area that already holds a pawn brings a marker (own pawns count; at most one
per area); any pawn leaving takes the marker away; grenadiers always bring one; buildings
neither cause nor clear trouble. Trouble blocks building and enables assassination."""

from __future__ import annotations

import pytest

from nanty_env.engine import actions as A
from nanty_env.engine import board
from tests.engine.conftest import area, play, pw, quiet_position

X = area("the_hippo")  # Highbury: not a start area
OWNERS = {"own": 0, "other": 1, "grenadier": board.GRENADIER, "citizen": board.CITIZEN}


def empty_board():
    return quiet_position(agents={})


def put(g, who: str, a: int = X, k: int = 1):
    o = OWNERS[who]
    board.set_pawns(g, o, a, board.pawns_of(g, o, a) + k)


@pytest.mark.parametrize("entering", ["own", "other", "grenadier", "citizen"])
@pytest.mark.parametrize("present", [None, "own", "other", "grenadier", "citizen", "building"])
def test_a_pawn_entering_an_occupied_area_brings_a_marker(entering, present):
    g = empty_board()
    if present == "building":
        board.place_building(g, 1, X)
    elif present:
        put(g, present)
    board.add_pawn(g, OWNERS[entering], X)
    occupied = present not in (None, "building")
    expected = 1 if occupied or entering == "grenadier" else 0
    assert g.trouble[X] == expected
    assert sum(g.trouble) == expected
    assert board.pawn_count(g, X) == 1 + occupied


def test_grenadier_brings_a_marker_even_into_an_empty_area():
    g = empty_board()
    board.add_pawn(g, board.GRENADIER, X)
    assert g.trouble[X] == 1 and g.gren[X] == 1


@pytest.mark.parametrize("entering", ["own", "other", "grenadier", "citizen"])
def test_never_more_than_one_marker_per_area(entering):
    g = empty_board()
    put(g, "other", k=3)
    g.trouble[X] = 1
    for _ in range(3):
        board.add_pawn(g, OWNERS[entering], X)
    assert g.trouble[X] == 1 and sum(g.trouble) == 1


@pytest.mark.parametrize("leaving", ["own", "other", "grenadier", "citizen"])
def test_any_pawn_leaving_takes_the_marker_even_if_pawns_remain(leaving):
    g = empty_board()
    for who in OWNERS:
        put(g, who, k=2)
    g.trouble[X] = 1
    board.take_pawn(g, OWNERS[leaving], X)
    assert g.trouble[X] == 0
    assert board.pawn_count(g, X) == 7


@pytest.mark.parametrize("dest_occupied", [False, True])
def test_a_move_clears_the_source_then_may_mark_the_destination(dest_occupied):
    g = empty_board()
    put(g, "own", k=2)
    g.trouble[X] = 1
    dst = area("nap_hill")
    if dest_occupied:
        put(g, "citizen", dst)
    board.move_pawn(g, 0, X, dst)
    assert g.trouble[X] == 0
    assert g.trouble[dst] == int(dest_occupied)
    assert g.agents[0][X] == 1 and g.agents[0][dst] == 1


def test_moving_back_into_the_same_area_re_marks_it():
    """Leaving clears the marker; arriving in an area that still holds a pawn adds one."""
    g = empty_board()
    put(g, "own", k=2)
    g.trouble[X] = 1
    board.move_pawn(g, 0, X, X)
    assert g.trouble[X] == 1


# ------------------------------------------------------------------ in play
def test_placing_next_to_own_agent_only_is_trouble_in_play():
    g = quiet_position(agents={0: {"the_hippo": 1}}, hands=[["groat"], [], [], []])
    play(g, ("PLAY_CARD", "groat"), ("AREA", "the_hippo"))
    assert g.trouble[X] == 1


def test_moving_an_agent_with_a_card_causes_trouble():
    """FAQ: a move into an occupied area places a marker (Dorfl: move own agent anywhere); the
    area it left loses its marker."""
    g = quiet_position(
        agents={0: {"the_shades": 2}, 1: {"nap_hill": 1}},
        trouble=["the_shades"],
        hands=[["dorfl"], [], [], []],
    )
    play(g, ("PLAY_CARD", "dorfl"), "CONFIRM", pw("the_shades", 0), ("AREA", "nap_hill"))
    assert g.trouble[area("the_shades")] == 0
    assert g.trouble[area("nap_hill")] == 1
    assert g.agents[0][area("nap_hill")] == 1


def test_moving_into_an_empty_area_causes_no_trouble():
    g = quiet_position(agents={0: {"the_shades": 2}}, hands=[["dorfl"], [], [], []])
    play(g, ("PLAY_CARD", "dorfl"), "CONFIRM", pw("the_shades", 0), ("AREA", "nap_hill"))
    assert sum(g.trouble) == 0


def test_building_never_clears_trouble_and_trouble_blocks_building():
    g = quiet_position(
        agents={0: {"the_hippo": 1, "the_shades": 1}, 1: {"the_hippo": 1}},
        trouble=["the_hippo"],
        money=[50, 10, 10, 10],
        hands=[["the_royal_mint"], [], [], []],
    )
    play(g, ("PLAY_CARD", "the_royal_mint"))
    assert A.AREA + X not in g.legal_actions()
    play(g, ("AREA", "the_shades"))
    assert g.trouble == [1 if a == X else 0 for a in range(12)]


def test_trouble_count_is_the_number_of_marked_areas():
    g = quiet_position(agents={}, trouble=["the_hippo", "nap_hill", "dimwell"])
    assert board.trouble_count(g) == 3
