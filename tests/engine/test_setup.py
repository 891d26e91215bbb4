"""Setup (rulebook "Starting the game" and "Two players"): pieces, money, cards, personalities,
the grey deck on top of the red one, the two-player removals and the seeded first player."""

from __future__ import annotations

from collections import Counter

import pytest

from nanty_env.engine import board
from nanty_env.engine.config import GameConfig
from nanty_env.engine.game import Game
from nanty_env.engine.tables import tables
from tests.engine.conftest import area, card

PLAYERS = (2, 3, 4)
START_AREAS = ("dolly_sisters", "the_scours", "the_shades")  # Chelsea, City, East End
SEEDS = range(6)


def new(n: int, seed: int = 0, **kw) -> Game:
    return Game.new(GameConfig(num_players=n, **kw), seed)


def test_start_areas_are_chelsea_city_east_end():
    assert {a for a in range(12) if tables().data.areas[a].start} == {
        area("Chelsea"),
        area("City"),
        area("East End"),
    }
    assert {area(x) for x in START_AREAS} == {area("Chelsea"), area("City"), area("East End")}


@pytest.mark.parametrize("n", PLAYERS)
@pytest.mark.parametrize("seed", SEEDS)
def test_one_agent_per_player_and_one_trouble_marker_in_each_start_area(n, seed):
    g = new(n, seed)
    start = {area(x) for x in START_AREAS}
    for seat in range(n):
        assert g.agents[seat] == tuple(1 if a in start else 0 for a in range(12))
        assert g.on_board[seat] == 3
    assert g.trouble == [1 if a in start else 0 for a in range(12)]
    assert g.gren == (0,) * 12
    assert g.cit == (0,) * 12
    assert g.building == (-1,) * 12
    assert all(board.city_card_owner(g, a) == -1 for a in range(12))
    assert g.city_retired == (0,) * 12


@pytest.mark.parametrize("n", PLAYERS)
def test_ten_pounds_and_five_cards_each(n):
    g = new(n)
    assert g.money == [10] * n
    assert [len(h) for h in g.hands] == [5] * n
    assert g.loans == ((),) * n
    assert g.penalties == ((),) * n
    assert g.discard == []


@pytest.mark.parametrize("n", PLAYERS)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_card_is_dealt_drawn_or_removed_exactly_once(n, seed):
    g = new(n, seed)
    everything = [*g.deck, *(c for h in g.hands for c in h), *g.removed]
    assert sorted(everything) == list(range(len(tables().data.cards)))
    expected_deck = 101 - 5 * n - (2 if n == 2 else 0)
    assert len(g.deck) == expected_deck


@pytest.mark.parametrize("n", PLAYERS)
@pytest.mark.parametrize("seed", SEEDS)
def test_grey_deck_lies_on_top_of_red_deck(n, seed):
    """The hands come from the grey deck; the draw pile is the rest of grey, then all of red.
    The top of the draw pile is the end of ``g.deck``."""
    g = new(n, seed)
    t = tables()
    grey, red = set(t.grey_cards), set(t.red_cards)
    assert all(c in grey for h in g.hands for c in h)
    grey_left = len(grey) - 5 * n
    assert {c for c in g.deck[-grey_left:]} <= grey
    assert {c for c in g.deck[:-grey_left]} <= red
    assert len(g.deck[:-grey_left]) == len(red) - (2 if n == 2 else 0)


def test_decks_are_shuffled_by_the_seed():
    a, b = new(4, 1), new(4, 2)
    assert a.deck != b.deck or a.hands != b.hands
    assert new(4, 1).to_dict() == a.to_dict()


def test_two_player_removals():
    removed = {card("cosmo_lavish"), card("hubert")}  # Henry "Holy" Peter, Karl Marx
    assert {tables().card_id(c) for c in removed} == {"cosmo_lavish", "hubert"}
    for seed in SEEDS:
        g = new(2, seed)
        assert set(g.removed) == removed
        in_game = set(g.deck) | {c for h in g.hands for c in h}
        assert not removed & in_game
        sidonia = tables().data.personality_index["de_sidonia"]
        assert sidonia not in g.persona
        assert sidonia not in g.persona_pool


@pytest.mark.parametrize("n", (3, 4))
def test_no_removals_with_three_or_four_players(n):
    g = new(n)
    assert g.removed == ()
    pool = set(g.persona) | set(g.persona_pool)
    assert tables().data.personality_index["de_sidonia"] in pool
    assert {card("cosmo_lavish"), card("hubert")} <= set(g.deck) | {c for h in g.hands for c in h}


@pytest.mark.parametrize("n", PLAYERS)
@pytest.mark.parametrize(
    ("personalities", "expected_set"),
    [("standard", "standard"), ("classic", "standard"), ("variant", "variant")],
)
def test_one_secret_personality_each_from_the_chosen_set(n, personalities, expected_set):
    d = tables().data
    whole = {p.index for p in d.personalities if p.set == expected_set and (n > 2 or p.two_players)}
    seen = Counter()
    for seed in SEEDS:
        g = new(n, seed, personalities=personalities)
        assert len(g.persona) == n
        assert len(set(g.persona)) == n
        assert set(g.persona) | set(g.persona_pool) == whole
        assert not set(g.persona) & set(g.persona_pool)
        seen.update(g.persona)
    assert len(seen) > n  # shuffled: different seeds deal different cards


@pytest.mark.parametrize("n", PLAYERS)
def test_random_event_deck_holds_all_twelve_events_shuffled(n):
    decks = set()
    for seed in SEEDS:
        g = new(n, seed)
        assert sorted(g.event_deck) == list(range(12))
        assert g.events_done == ()
        decks.add(tuple(g.event_deck))
    assert len(decks) > 1


@pytest.mark.parametrize("n", PLAYERS)
def test_first_player_is_rolled_from_the_seed_and_goes_first(n):
    firsts = set()
    for seed in range(40):
        g = new(n, seed)
        assert 0 <= g.first_player < n
        assert g.active == g.first_player
        assert g.current_player == g.first_player
        assert g.decision == "main"
        assert g.turn == 1
        assert new(n, seed).first_player == g.first_player
        firsts.add(g.first_player)
    assert firsts == set(range(n))


def test_bad_player_count_is_rejected():
    for n in (1, 5):
        with pytest.raises(ValueError):
            GameConfig(num_players=n)


@pytest.mark.parametrize("n", PLAYERS)
def test_personality_is_secret_and_money_is_public(n):
    g = new(n, 3)
    for seat in range(n):
        v = g.view(seat)
        assert v["personality"] == g.persona[seat]
        assert "personalities" not in v
        assert v["money"] == [10] * n
        assert v["hand"] == sorted(g.hands[seat])
        assert v["hand_sizes"] == [5] * n
