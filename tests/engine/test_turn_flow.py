"""Turn flow (rulebook "Playing the game", player aid "Gameplay"): the start-of-turn win check,
playing one card, its symbols from top to bottom (each optional except the random event),
play-another chains, Charles Babbage / Maycroft Holmes, refilling to five without discarding
down, passing without a playable card, turn order, and the end when a hand cannot be refilled."""

from __future__ import annotations

import pytest

from nanty_env.engine import actions as A
from nanty_env.engine.errors import IllegalActionError
from nanty_env.engine.tables import tables
from tests.engine.conftest import (
    area,
    areas,
    card,
    cards,
    families,
    finish_turn,
    legal_args,
    pass_reactions,
    play,
    pw,
    quiet_position,
)

EIGHT_TROUBLE = (
    "dolly_sisters",
    "unreal_estate",
    "dragons_landing",
    "small_gods",
    "the_scours",
    "the_hippo",
    "the_shades",
    "dimwell",
)


# ------------------------------------------------------------------ start-of-turn win check
def test_goal_met_on_anothers_turn_is_not_checked_until_own_turn_starts():
    """Fagin (seat 1) sees 8 markers during seat 0's turn: nothing happens until seat 1's
    turn begins; then seat 1 wins before playing anything."""
    g = quiet_position(
        personalities=["sherlock_holmes", "fagin", "moriarty", "lord_bellinger"],
        agents={},
        trouble=EIGHT_TROUBLE,
        hands=[["groat"], [], [], []],
    )
    assert not g.is_terminal and g.current_player == 0
    play(g, ("PLAY_CARD", "groat"), "PASS")
    assert not g.is_terminal and g.decision == "end"
    play(g, "PASS")
    assert g.is_terminal
    assert g.outcome.winners == (1,)
    assert g.outcome.reason == "personality:fagin"
    assert g.active == 1


def test_goal_lost_before_own_turn_starts_does_not_win():
    """Seat 0 removes a marker during its turn: Fagin (seat 1) starts with 7 and plays on."""
    g = quiet_position(
        personalities=["sherlock_holmes", "fagin", "moriarty", "lord_bellinger"],
        agents={},
        trouble=EIGHT_TROUBLE,
        hands=[["buggy_swires"], [], [], []],
    )
    play(g, ("PLAY_CARD", "buggy_swires"), ("AREA", "dimwell"), "PASS")
    assert not g.is_terminal
    assert g.current_player == 1 and g.decision == "main"
    assert sum(g.trouble) == 7


def test_goal_reached_during_own_turn_wins_only_at_next_own_turn():
    """Fagin (seat 0) makes the 8th marker during his own turn: no win then, nor during the
    others' turns, but at the start of his next turn."""
    g = quiet_position(
        personalities=["fagin", "sherlock_holmes", "moriarty", "lord_bellinger"],
        agents={0: {"dimwell": 1}},
        trouble=EIGHT_TROUBLE[:7],
        hands=[["groat"], [], [], []],
    )
    assert not g.is_terminal
    play(g, ("PLAY_CARD", "groat"), ("AREA", "dimwell"))  # own agent there: trouble
    assert sum(g.trouble) == 8 and not g.is_terminal
    finish_turn(g)
    for seat in (1, 2, 3):  # empty hands: pass, then draw five
        assert not g.is_terminal and g.active == seat
        finish_turn(g)
    assert g.is_terminal
    assert g.outcome.winners == (0,)
    assert g.outcome.reason == "personality:fagin"


def test_win_check_also_applies_in_the_first_round():
    """Rule decision: "this will not happen during the first round" is an observation, not a
    rule; a goal met at the start of a turn in round one wins."""
    g = quiet_position(
        personalities=["fagin", "sherlock_holmes", "moriarty", "lord_bellinger"],
        agents={},
        trouble=EIGHT_TROUBLE,
        turn=1,
    )
    assert g.is_terminal and g.outcome.winners == (0,)


def test_only_the_active_player_is_checked():
    """Seat 2 (Fagin) meets the goal too, but at seat 0's turn start only seat 0 is checked."""
    g = quiet_position(
        personalities=["sherlock_holmes", "moriarty", "fagin", "lord_bellinger"],
        agents={},
        trouble=EIGHT_TROUBLE,
    )
    assert not g.is_terminal and g.current_player == 0


# ------------------------------------------------------------------ choosing the card
@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ([], {"PASS"}),
        (["gaspode"], {"PASS", "DISCARD_CARD"}),  # interrupts alone are no card of the turn
        (["gaspode", "susan"], {"PASS", "DISCARD_CARD"}),
        (["groat"], {"PLAY_CARD"}),
        (["groat", "gaspode"], {"PLAY_CARD", "DISCARD_CARD"}),
        (["groat", "death", "the_peeled_nuts"], {"PLAY_CARD"}),
    ],
)
def test_a_card_must_be_played_if_one_can_be(hand, expected):
    g = quiet_position(hands=[hand, [], [], []])
    assert g.decision == "main"
    assert families(g) == expected
    playable = {c for c in cards(*hand) if not tables().is_interrupt[c]}
    assert legal_args(g, "PLAY_CARD") == playable


def test_pass_without_playable_card_then_refill_to_five():
    g = quiet_position(hands=[["gaspode"], [], [], []], deck_top=["groat", "ruby"])
    deck = len(g.deck)
    play(g, "PASS")
    assert g.decision == "end" and g.current_player == 0
    play(g, "PASS")
    assert g.active == 1
    assert len(g.hands[0]) == 5
    assert {card("groat"), card("ruby"), card("gaspode")} <= set(g.hands[0])
    assert len(g.deck) == deck - 4


def test_interrupt_card_cannot_be_played_as_the_card_of_the_turn():
    g = quiet_position(hands=[["gaspode", "groat"], [], [], []])
    with pytest.raises(IllegalActionError):
        g.apply(A.PLAY_CARD + card("gaspode"))
    assert g.hands[0] == cards_list("gaspode", "groat")


def cards_list(*names: str) -> list[int]:
    return [card(x) for x in names]


def test_illegal_action_leaves_state_unchanged():
    g = quiet_position(hands=[["groat"], [], [], []])
    before = g.to_dict()
    for bad in (A.PASS, A.CONFIRM, A.PLAY_CARD + card("ruby"), A.AREA + 0):
        with pytest.raises(IllegalActionError):
            g.apply(bad)
    assert g.to_dict() == before


# ------------------------------------------------------------------ symbols, top to bottom
# A position where every symbol has a distinct, known target set for seat 0:
#   agent          -> areas next to / with seat 0's agent in Highbury
#   building       -> Highbury (own agent, no trouble, no building)
#   assassinate    -> seat 1's agent in City (trouble there)
#   remove_trouble -> City
#   money          -> CONFIRM
#   play_another   -> the other plain card in hand
SPARE = "groat"


def symbol_position(c: str):
    return quiet_position(
        agents={0: {"the_hippo": 1}, 1: {"the_scours": 1}},
        trouble=["the_scours"],
        money=[100, 10, 10, 10],
        hands=[[c, SPARE] if c != SPARE else [c, "ruby"], [], [], []],
    )


def expected_targets(sym: str, c: str) -> set[int]:
    if sym == "agent":
        return {A.AREA + a for a in areas("the_hippo", "small_gods", "the_scours", "the_shades")}
    if sym == "building":
        return {A.AREA + area("the_hippo")}
    if sym == "assassinate":
        return {pw("the_scours", 1)}
    if sym == "remove_trouble":
        return {A.AREA + area("the_scours")}
    if sym == "money":
        return {A.CONFIRM}
    if sym == "play_another":
        return {A.PLAY_CARD + card(SPARE if c != SPARE else "ruby")}
    raise AssertionError(sym)


PLAIN_CARDS = [
    c.id
    for c in tables().data.cards
    if c.symbols and not {"scroll", "event", "interrupt"} & set(c.symbols)
]


def test_plain_card_table_is_complete():
    assert len(PLAIN_CARDS) >= 20
    assert {"groat", "captain_carrot", "death", "mr_teatime", "patrician_s_palace"} <= set(
        PLAIN_CARDS
    )


@pytest.mark.parametrize("c", PLAIN_CARDS)
def test_symbols_are_offered_top_to_bottom_and_each_may_be_skipped(c):
    g = symbol_position(c)
    play(g, ("PLAY_CARD", c))
    for sym in tables().symbols[card(c)]:
        assert g.decision == "card"
        legal = set(g.legal_actions())
        assert A.PASS in legal
        assert legal - {A.PASS} == expected_targets(sym, c), sym
        play(g, "PASS")
    assert g.decision == "end"
    # nothing happened: skipped symbols change nothing on the board
    assert g.agents[0][area("the_hippo")] == 1 and g.agents[1][area("the_scours")] == 1
    assert g.trouble[area("the_scours")] == 1
    assert g.money[0] == 100
    assert g.building == (-1,) * 12
    assert g.discard == [card(c)]


@pytest.mark.parametrize("c", ["captain_carrot", "lord_downey", "patrician_s_palace", "the_watch"])
def test_a_later_symbol_cannot_be_used_before_an_earlier_one(c):
    g = symbol_position(c)
    play(g, ("PLAY_CARD", c))
    first = tables().symbols[card(c)][0]
    later = set().union(*(expected_targets(s, c) for s in tables().symbols[card(c)][1:]))
    for a in later - expected_targets(first, c):
        with pytest.raises(IllegalActionError):
            g.apply(a)


def test_symbols_are_carried_out_in_order_with_their_effects():
    """Captain Carrot: agent, remove trouble, money (£1)."""
    g = symbol_position("captain_carrot")
    play(g, ("PLAY_CARD", "captain_carrot"), ("AREA", "the_shades"))
    assert g.agents[0][area("the_shades")] == 1
    assert g.trouble[area("the_shades")] == 0  # East End was empty
    play(g, ("AREA", "the_scours"))
    assert g.trouble[area("the_scours")] == 0
    play(g, "CONFIRM")
    assert g.money[0] == 101
    assert g.decision == "end"


def test_money_symbol_pays_the_printed_amount_only_when_taken():
    g = symbol_position("the_royal_mint")  # building, money 5
    play(g, ("PLAY_CARD", "the_royal_mint"), "PASS", "CONFIRM")
    assert g.money[0] == 105
    g = symbol_position("the_royal_mint")
    play(g, ("PLAY_CARD", "the_royal_mint"), "PASS", "PASS")
    assert g.money[0] == 100


def test_symbol_without_any_target_is_skipped():
    """Sergeant Detritus (remove trouble twice) with a single marker on the board."""
    g = symbol_position("sergeant_detritus")
    play(g, ("PLAY_CARD", "sergeant_detritus"), ("AREA", "the_scours"))
    assert sum(g.trouble) == 0
    assert g.decision == "end"


def test_card_with_no_symbol_can_be_played_for_nothing():
    g = symbol_position("the_peeled_nuts")
    before = (g.money[:], g.agents, g.trouble[:])
    play(g, ("PLAY_CARD", "the_peeled_nuts"))
    assert g.decision == "end"
    assert (g.money, g.agents, g.trouble) == before
    assert g.discard == [card("the_peeled_nuts")]


# ------------------------------------------------------------------ the random event symbol
@pytest.mark.parametrize("c", ["the_dean", "the_bursar", "rincewind", "ponder_stibbons"])
def test_random_event_symbol_is_mandatory(c):
    g = quiet_position(hands=[[c, "groat"], [], [], []], events=["riots", "fog"])
    play(g, ("PLAY_CARD", c))
    assert tables().symbols[card(c)][0] == "event"
    assert g.legal_actions() == [A.CONFIRM]
    with pytest.raises(IllegalActionError):
        g.apply(A.PASS)
    riots = tables().data.event_index["riots"]
    assert riots in g.event_deck
    play(g, "CONFIRM")
    assert g.events_done[-1] == riots and riots not in g.event_deck
    assert not g.is_terminal  # Riots with fewer than 8 markers: nothing happens


def test_random_event_symbol_only_offers_extras_besides_confirm():
    g = quiet_position(hands=[["the_dean", "gaspode"], [], [], []], events=["riots"])
    play(g, ("PLAY_CARD", "the_dean"))
    assert g.legal_actions() == sorted([A.CONFIRM, A.DISCARD_CARD + card("gaspode")])


def test_random_event_symbol_does_nothing_once_all_events_are_used():
    """Rule decision: with the event deck empty the symbol is skipped."""
    g = quiet_position(hands=[["the_dean", "groat"], [], [], []], events=[])
    play(g, ("PLAY_CARD", "the_dean"))
    assert g.legal_actions() == [A.PASS, A.CONFIRM]  # the scroll: optional
    assert g.events_done and len(g.events_done) == 12


# ------------------------------------------------------------------ play another card
def test_play_another_card_chain():
    g = quiet_position(
        agents={0: {"the_shades": 1}},
        trouble=["the_hippo"],
        hands=[
            ["sergeant_angua", "pink_pussycat_club", "mr_teatime", "groat", "gaspode"],
            [],
            [],
            [],
        ],
    )
    play(g, ("PLAY_CARD", "sergeant_angua"), "PASS")
    # play-another: every non-interrupt card in hand, or stop
    assert set(g.legal_actions()) == {
        A.PASS,
        A.DISCARD_CARD + card("gaspode"),
        *(A.PLAY_CARD + c for c in cards("pink_pussycat_club", "mr_teatime", "groat")),
    }
    play(g, ("PLAY_CARD", "pink_pussycat_club"))
    assert g.discard == [card("sergeant_angua")]  # the first card is finished
    # Mr Teatime: money, assassinate (no target: skipped), play another
    play(g, "CONFIRM", ("PLAY_CARD", "mr_teatime"), "CONFIRM", ("PLAY_CARD", "groat"))
    play(g, ("AREA", "the_scours"))
    assert g.decision == "end"
    assert g.money[0] == 16
    assert g.played == cards_list("sergeant_angua", "pink_pussycat_club", "mr_teatime", "groat")
    assert g.hands[0] == cards_list("gaspode")
    assert sorted(g.discard) == sorted(g.played)


def test_play_another_may_be_declined():
    g = quiet_position(hands=[["pink_pussycat_club", "groat"], [], [], []])
    play(g, ("PLAY_CARD", "pink_pussycat_club"), "CONFIRM", "PASS")
    assert g.decision == "end"
    assert g.hands[0] == cards_list("groat")


def test_without_play_another_no_second_card():
    g = quiet_position(hands=[["groat", "ruby"], [], [], []])
    play(g, ("PLAY_CARD", "groat"), "PASS")
    assert g.decision == "end"
    assert "PLAY_CARD" not in families(g)


# ------------------------------------------------------------------ Babbage / Maycroft Holmes
@pytest.mark.parametrize("c", ["drumknott", "ponder_stibbons"])
def test_two_card_play_each_card_with_its_own_chain(c):
    """FAQ: two cards from hand, each a separate set of actions; a play-another follows from
    its own card before the second card is played."""
    g = quiet_position(
        agents={0: {"the_shades": 1}},
        trouble=["the_hippo"],
        hands=[[c, "sergeant_angua", "pink_pussycat_club", "gimlet_s_dwarf_delicatessen", "groat"]]
        + [[]] * 3,
        events=["riots"],
    )
    play(g, ("PLAY_CARD", c))
    if c == "ponder_stibbons":
        play(g, "CONFIRM")  # the event first
    play(g, "CONFIRM")  # the scroll
    assert g.decision == "two"
    assert legal_args(g, "PLAY_CARD") == cards(
        "sergeant_angua", "pink_pussycat_club", "gimlet_s_dwarf_delicatessen", "groat"
    )
    # first card, with a chain: Angua -> Pink PussyCat -> Groat
    play(g, ("PLAY_CARD", "sergeant_angua"), "PASS", ("PLAY_CARD", "pink_pussycat_club"))
    play(g, "CONFIRM", ("PLAY_CARD", "groat"), "PASS")
    assert g.decision == "two"  # back for the second card
    assert legal_args(g, "PLAY_CARD") == cards("gimlet_s_dwarf_delicatessen")
    play(g, ("PLAY_CARD", "gimlet_s_dwarf_delicatessen"), "CONFIRM", "PASS")
    assert g.decision == "end"
    assert g.money[0] == 10 + 3 + 3
    assert len(g.played) == 5
    assert g.hands[0] == []


def test_two_card_play_allows_fewer_than_two():
    """Rule decision: the player may stop after one card (or none)."""
    g = quiet_position(hands=[["drumknott", "groat", "ruby"], [], [], []])
    play(g, ("PLAY_CARD", "drumknott"), "CONFIRM")
    assert A.PASS in g.legal_actions()
    play(g, ("PLAY_CARD", "groat"), "PASS")
    assert g.decision == "two"
    play(g, "PASS")
    assert g.decision == "end"
    assert g.hands[0] == cards_list("ruby")


def test_two_card_play_stops_after_two():
    g = quiet_position(hands=[["drumknott", "groat", "ruby", "dwarves"], [], [], []])
    play(g, ("PLAY_CARD", "drumknott"), "CONFIRM", ("PLAY_CARD", "groat"), "PASS")
    play(g, ("PLAY_CARD", "ruby"))
    while g.decision == "card":
        play(g, "PASS")
    assert g.decision == "end"
    assert "PLAY_CARD" not in families(g)
    assert g.hands[0] == cards_list("dwarves")


def test_two_card_play_excludes_interrupts():
    """Rule decision: interrupt cards are not among the two cards (they may still be
    discarded)."""
    g = quiet_position(hands=[["drumknott", "groat", "gaspode"], [], [], []])
    play(g, ("PLAY_CARD", "drumknott"), "CONFIRM")
    assert legal_args(g, "PLAY_CARD") == cards("groat")
    assert legal_args(g, "DISCARD_CARD") == cards("gaspode")


# ------------------------------------------------------------------ refilling the hand
@pytest.mark.parametrize(("hand_size", "drawn"), [(1, 5), (2, 4), (5, 1), (6, 0), (8, 0)])
def test_refill_to_five_without_discarding_down(hand_size, drawn):
    plain = ["groat", "ruby", "dwarves", "captain_carrot", "buggy_swires", "sergeant_colon"]
    hand = [*plain, "gaspode", "susan"][:hand_size]
    g = quiet_position(hands=[hand, [], [], []])
    deck = len(g.deck)
    play(g, ("PLAY_CARD", hand[0]))
    finish_turn(g)
    assert g.active == 1
    assert len(g.hands[0]) == max(5, hand_size - 1)
    assert len(g.deck) == deck - drawn


def test_refill_draws_from_the_top_of_the_draw_pile_at_the_end_of_the_turn():
    g = quiet_position(
        hands=[["groat"], [], [], []],
        deck_top=["ruby", "dwarves", "hex", "modo", "errol", "stanley"],
    )
    play(g, ("PLAY_CARD", "groat"), "PASS")
    assert g.hands[0] == []  # no drawing before the turn ends
    play(g, "PASS")
    assert sorted(g.hands[0]) == sorted(cards_list("ruby", "dwarves", "hex", "modo", "errol"))
    assert g.deck[-1] == card("stanley")


# ------------------------------------------------------------------ turn order
@pytest.mark.parametrize("n", [2, 3, 4])
def test_play_passes_to_the_left_in_seat_order(n):
    g = quiet_position(n, hands=[[]] * n, active=n - 1, turn=7)
    seen = []
    for _ in range(n):
        seen.append(g.active)
        finish_turn(g)
    seen.append(g.active)
    assert seen == [n - 1, *range(n)]
    assert g.turn == 7 + n


def test_turn_state_resets_each_turn():
    g = quiet_position(hands=[["groat"], [], [], []])
    play(g, ("PLAY_CARD", "groat"), "PASS", "PASS")
    assert g.played == [] and g.active == 1


# ------------------------------------------------------------------ end of the draw pile
@pytest.mark.parametrize(
    ("deck_size", "hand", "ends"),
    [
        (4, ["groat"], True),  # needs 5, only 4
        (5, ["groat"], False),  # exactly enough
        (0, ["groat"], True),
        (0, ["groat", "ruby", "dwarves", "hex", "modo", "errol"], False),  # still 5 in hand
        (3, ["groat", "ruby", "dwarves"], False),  # needs 3, has 3
        (2, ["groat", "ruby", "dwarves"], True),
    ],
)
def test_game_ends_when_a_player_cannot_refill(deck_size, hand, ends):
    g = quiet_position(
        personalities=["moriarty", "lord_bellinger", "lord_holdhurst", "fagin"],
        hands=[hand, [], [], []],
        deck_size=deck_size,
    )
    assert len(g.deck) == deck_size
    play(g, ("PLAY_CARD", "groat"))
    finish_turn(g)
    assert g.is_terminal == ends
    if ends:
        assert g.outcome.reason == "deck_exhausted:points"
        assert len(g.deck) == deck_size  # nothing was drawn
    else:
        assert g.active == 1


def test_the_next_player_ends_the_game_when_the_pile_ran_dry():
    g = quiet_position(
        personalities=["moriarty", "lord_bellinger", "lord_holdhurst", "fagin"],
        hands=[["groat"], ["ruby"], [], []],
        deck_size=4,
        deck_top=["dwarves", "hex", "modo", "errol"],
    )
    g2 = g.clone()
    # seat 0 needs 5 with 4 left: the game ends at once
    play(g, ("PLAY_CARD", "groat"), "PASS", "PASS")
    assert g.is_terminal
    # the same position but seat 0 keeps a card: seat 0 draws 4, seat 1 then cannot refill
    g2.hands[0].append(card("buggy_swires"))
    play(g2, ("PLAY_CARD", "groat"), "PASS", "PASS")
    assert not g2.is_terminal and len(g2.deck) == 0 and len(g2.hands[0]) == 5
    play(g2, ("PLAY_CARD", "ruby"))
    pass_reactions(g2)
    finish_turn(g2)
    assert g2.is_terminal and g2.outcome.reason == "deck_exhausted:points"
