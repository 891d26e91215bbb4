"""Rule 1, setup: the track, the Great Old One boards, pieces, start areas, money, the Elder
Ones pool, the event deck, the yellow deck on the purple one, hands, the three face-up cards,
secret objectives and the two-player removal."""

from __future__ import annotations

import pytest

from nanty_env.engine.cthulhu.track import grenadiers_on_track
from nanty_env.engine.game import Game
from nanty_env.engine.tables import AGENTS_PER_PLAYER
from tests.cthulhu.conftest import area, card, cfg


def new(n: int, seed: int = 3) -> Game:
    return Game.new(cfg(n), seed)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_track_starts_at_one_with_the_grenadiers_on_their_boxes(n):
    g = new(n)
    assert g.insanity == 1 and g.to_dict()["insanity"] == 1
    assert sum(g.gren) == 0
    assert grenadiers_on_track(g) == len(g.t.grenadier_levels) == 4
    assert g.view(0)["grenadiers_on_track"] == 4


@pytest.mark.parametrize("n", [2, 3, 4])
def test_each_player_gets_a_great_old_one_board_at_random(n):
    deals = {tuple(new(n, seed).goo) for seed in range(20)}
    for goo in deals:
        assert len(goo) == n == len(set(goo)) and set(goo) <= {0, 1, 2, 3}
    assert len(deals) > 3  # dealt at random, not in a fixed order


@pytest.mark.parametrize("n", [2, 3, 4])
def test_pieces_start_areas_money_and_elder_ones(n):
    g = new(n)
    starts = {area("East End"), area("City"), area("Chelsea")}
    for seat in range(n):
        assert {a for a in range(12) if g.agents[seat][a]} == starts
        assert g.on_board[seat] == 3 and AGENTS_PER_PLAYER - g.on_board[seat] == 9
        assert g.money[seat] == 10
        assert sorted(g.view(seat)["building_types"]) == [-1] * 12
        assert len(g.t.building_cost) == 6  # six buildings and their six cards each
    assert [a for a in range(12) if g.trouble[a]] == sorted(starts)
    assert g.building == (-1,) * 12
    assert g.elder_area == (-1,) * len(g.t.elder_hp) and g.elder_owner == g.elder_area
    assert sum(g.cit) == 0


def test_event_deck_is_shuffled():
    decks = {tuple(new(3, seed).event_deck) for seed in range(10)}
    assert all(sorted(d) == list(range(9)) for d in decks)
    assert len(decks) > 5


@pytest.mark.parametrize("n", [2, 3, 4])
def test_yellow_deck_on_top_of_purple_five_cards_each_three_face_up(n):
    g = new(n)
    yellow, purple = set(g.t.grey_cards), set(g.t.red_cards)
    assert all(len(h) == 5 for h in g.hands)
    assert len(g.faceup) == 3
    dealt = [c for h in g.hands for c in h] + g.faceup
    assert set(dealt) <= yellow  # dealt from the top: all yellow
    deck = g.deck  # top of the pile = end of the list
    n_yellow = len(yellow - set(g.removed)) - len(dealt)
    assert set(deck[-n_yellow:]) <= yellow and set(deck[:-n_yellow]) == purple - set(g.removed)
    assert g.view(0)["face_up"] == g.faceup and g.view(1)["face_up"] == g.faceup


@pytest.mark.parametrize("n", [2, 3, 4])
def test_one_secret_objective_each_the_rest_set_aside_unseen(n):
    g = new(n, 11)
    assert len(set(g.objective)) == n
    assert sorted(g.objective + g.objective_pool) == list(range(7))
    for seat in range(n):
        v = g.view(seat)
        assert v["objective"] == g.objective[seat]
        assert v["objective_pool_size"] == 7 - n
        assert "objectives" not in v  # the others' objectives are not in the view
        text = repr(v)
        for q in range(n):  # nothing names another player's objective
            other = g.t.data.objectives[g.objective[q]].id
            if q != seat and other != g.t.data.objectives[g.objective[seat]].id:
                assert other not in text


def test_two_players_remove_henry_holy_peter():
    henry = card('Henry "Holy" Peter')
    g2 = new(2)
    assert g2.removed == (henry,) and henry not in g2.deck
    for n in (3, 4):
        g = new(n)
        assert g.removed == () and henry in g.deck + g.faceup + [c for h in g.hands for c in h]


def test_first_player_is_random_and_starts():
    firsts = {new(4, seed).first_player for seed in range(30)}
    assert firsts == {0, 1, 2, 3}
    g = new(4, 5)
    assert g.active == g.first_player == g.current_player and g.turn == 1
    assert g.decision == "main"
