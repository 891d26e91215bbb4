"""Rule 2, the turn: the sudden-death announcement first (never in the first round), objectives
at the start of the owner's turn except Sloth, symbols top to bottom (all optional but
Insanity), play-another chains, the Great Old One ability once per turn and not an action,
refilling to five (from the pile or the face-up cards), no discarding down."""

from __future__ import annotations

from nanty_env.engine.game import Termination
from tests.cthulhu.conftest import (
    A,
    ar,
    card,
    finish_turn,
    goo_spent,
    pc,
    play,
    position,
    sc,
    symbol,
)

# Wrath (10 trouble markers) is met at once on a board with ten markers.
TEN = (
    "Chelsea",
    "City",
    "East End",
    "Westminster",
    "West End",
    "Holborn",
    "Highbury",
    "Bermondsey",
    "Southwark",
    "Strand",
)


def wrath_position(turn: int, active: int = 0, objectives=("wrath", "sloth", "lust")):
    return position(
        3,
        trouble=TEN,
        turn=turn,
        active=active,
        objectives=objectives,
        hands=[["groat"], ["dwarves"], ["ruby"]],
    )


def test_a_met_objective_is_announced_first_thing_in_the_turn():
    g = wrath_position(turn=4)
    assert g.is_terminal
    assert g.outcome.winners == (0,) and g.outcome.reason == "objective:wrath"
    assert g.outcome.termination is Termination.SUDDEN_DEATH


def test_never_in_the_first_round():
    for turn in (1, 2, 3):  # three players: turns 1-3 are the first round
        g = wrath_position(turn=turn)
        assert not g.is_terminal and g.decision == "main"
    g = wrath_position(turn=3)
    finish_turn(g)  # player 1 (Sloth) does not win, player 2 (Lust) neither
    assert not g.is_terminal


def test_only_the_owner_at_the_start_of_their_turn():
    g = wrath_position(turn=5, active=1, objectives=("wrath", "greed", "lust"))
    assert not g.is_terminal  # player 0's Wrath is met, but it is player 1's turn
    finish_turn(g)  # player 2
    assert not g.is_terminal
    finish_turn(g)  # player 0's turn starts: announced
    assert g.is_terminal and g.outcome.winners == (0,)


def test_sloth_is_never_checked_at_the_start_of_a_turn():
    g = position(3, objectives=("sloth", "greed", "lust"), turn=10, money=[500, 0, 0])
    assert not g.is_terminal  # Sloth has no start-of-turn condition, however rich its holder


def test_symbols_in_order_each_optional():
    g = goo_spent(position(3, hands=[["captain_carrot"], [], []], insanity=1, money=[3, 3, 3]))
    play(g, pc("captain_carrot"))
    assert symbol(g) == "minion" and A.PASS in g.legal_actions()
    g.apply(A.PASS)
    assert symbol(g) == "summon" and A.PASS in g.legal_actions()
    g.apply(A.PASS)
    assert symbol(g) == "money" and A.PASS in g.legal_actions()
    g.apply(A.PASS)
    assert g.decision == "end" and g.money[0] == 3  # nothing done, nothing taken


def test_insanity_is_mandatory():
    g = goo_spent(position(3, hands=[["rincewind"], [], []], insanity=4))
    play(g, pc("rincewind"))
    assert symbol(g) == "insanity"
    assert A.PASS not in g.legal_actions() and A.CONFIRM in g.legal_actions()
    g.apply(A.CONFIRM)
    assert g.insanity == 5


def test_play_another_chains():
    g = goo_spent(position(3, hands=[["sergeant_angua", "pink_pussycat_club", "groat"], [], []]))
    play(g, pc("sergeant_angua"), A.PASS)  # skip the summon
    assert symbol(g) == "play_another"
    play(g, pc("pink_pussycat_club"), A.CONFIRM)  # £3, then play another again
    assert symbol(g) == "play_another" and g.money[0] == 13
    play(g, pc("groat"))
    assert g.played == [card("sergeant_angua"), card("pink_pussycat_club"), card("groat")]


def test_great_old_one_ability_once_per_turn_and_not_an_action():
    g = position(
        3,
        great_old_ones=("shub_niggurath", "hastur", "cthulhu"),
        hands=[["groat", "dwarves"], [], []],
    )
    assert A.GOO_ABILITY in g.legal_actions() and g.decision == "main"
    g.apply(A.GOO_ABILITY)  # £1 + £0 for no Elder One
    assert g.money[0] == 11
    assert g.decision == "main"  # still to play the card of the turn
    assert A.GOO_ABILITY not in g.legal_actions()
    play(g, pc("groat"))
    assert A.GOO_ABILITY not in g.legal_actions()
    finish_turn(g)
    finish_turn(g)
    finish_turn(g)
    assert g.active == 0 and A.GOO_ABILITY in g.legal_actions()  # a new turn


def test_refill_to_five_from_the_pile_or_the_face_up_cards():
    g = goo_spent(
        position(
            3,
            hands=[["groat", "dwarves", "ruby"], [], []],
            face_up=["the_mob", "hex", "modo"],
            deck_top=["dr_cruces", "the_dysk"],
        )
    )
    play(g, pc("groat"), A.PASS, A.PASS)  # play, skip the minion, end the turn
    assert g.decision == "refill" and g.current_player == 0
    assert set(g.legal_actions()) == {A.CONFIRM, sc("the_mob"), sc("hex"), sc("modo")}
    g.apply(sc("hex"))  # take a face-up card: the top of the pile replaces it
    assert card("hex") in g.hands[0] and g.faceup == [
        card("the_mob"),
        card("modo"),
        card("dr_cruces"),
    ]
    assert card("hex") in g.known[1][0]  # everyone saw it
    g.apply(A.CONFIRM)  # draw blind: the next card of the pile
    assert card("the_dysk") in g.hands[0] and card("the_dysk") not in g.known[1][0]
    assert g.decision == "refill" and len(g.hands[0]) == 4
    g.apply(A.CONFIRM)
    assert len(g.hands[0]) == 5 and g.active == 1  # back to five: the turn moves on


def test_refill_draws_up_to_five_exactly():
    g = goo_spent(position(3, hands=[["groat"], [], []]))
    play(g, pc("groat"), A.PASS, A.PASS)
    draws = 0
    while g.decision == "refill":
        g.apply(A.CONFIRM)
        draws += 1
    assert draws == 5 and len(g.hands[0]) == 5 and g.active == 1


def test_no_discarding_down():
    hand = ["mrs_cake", "groat", "dwarves", "ruby", "hex", "modo"]
    g = goo_spent(position(3, hands=[hand, [], []], face_up=["the_mob", "librarian", "errol"]))
    play(g, pc("mrs_cake"), A.CONFIRM)  # scroll: take a face-up card
    play(g, sc("librarian"), A.PASS, A.PASS, A.PASS)  # no money, no building, end the turn
    assert len(g.hands[0]) == 6  # more than five is fine: no discard, no refill
    assert g.active == 1


def test_a_symbol_without_targets_is_skipped():
    g = goo_spent(position(3, hands=[["the_watch"], [], []], money=[0, 5, 5]))
    play(g, pc("the_watch"))  # no money for any building: the building symbol is skipped
    assert symbol(g) == "summon"


def test_place_or_move_a_minion_from_a_played_card():
    g = goo_spent(
        position(
            3,
            agents={0: {"Chelsea": 1}, 1: {"City": 1}, 2: {"Lambeth": 1}},
            hands=[["groat"], [], []],
        )
    )
    play(g, pc("groat"))
    legal = set(g.legal_actions())
    assert ar("Westminster") in legal and ar("City") not in legal  # next to Chelsea only
    assert A.pawn_action(0, 0) in legal  # or move the agent out of Chelsea
    play(g, A.pawn_action(0, 0), ar("Battersea"))
    assert g.agents[0][0] == 0 and g.agents[0][11] == 1
