"""Decision points chosen so that their existence never depends on hidden cards: the end of
the turn is always a decision, a play-another always asks, and so does a two-card play."""

from __future__ import annotations

from nanty_env.engine import actions as A
from nanty_env.engine.position import build_position, card


def _after_play(hand: list[str], **kw):
    g = build_position(3, hands=[hand, ["dwarves"], ["ruby"]], **kw)
    g.apply(A.PLAY_CARD + card(hand[0]))
    return g


def test_end_of_turn_is_always_a_decision() -> None:
    g = _after_play(["groat"])  # Groat: one agent symbol
    g.apply(g.legal_actions()[-1] if g.decision == "card" else A.PASS)
    assert g.decision == "end"
    assert g.legal_actions() == [A.PASS]  # nothing else to do, still asked
    g.apply(A.PASS)
    assert g.active == 1


def test_play_another_asks_even_without_a_playable_card() -> None:
    # Sergeant Angua: remove trouble, play another. Only an interrupt left in hand.
    g = _after_play(["sergeant_angua", "gaspode"])
    g.apply(A.PASS)  # skip remove trouble
    assert g.decision == "card"
    legal = g.legal_actions()
    assert A.PASS in legal and A.DISCARD_CARD + card("gaspode") in legal
    assert not any(A.PLAY_CARD <= a < A.DISCARD_CARD for a in legal)


def test_play_another_with_an_empty_hand_still_asks() -> None:
    g = _after_play(["sergeant_angua"])
    g.apply(A.PASS)
    assert g.decision == "card" and g.legal_actions() == [A.PASS]


def test_two_card_play_asks_even_with_nothing_playable() -> None:
    # Maycroft Holmes (Drumknott): play two more cards; the hand is empty afterwards.
    g = _after_play(["drumknott"])
    g.apply(A.CONFIRM)
    assert g.decision == "two" and g.legal_actions() == [A.PASS]
