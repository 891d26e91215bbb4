"""Hidden information: what each seat knows of other hands (``g.known``) and of the set-aside
personality cards (``g.known_unused``), and what ``g.view(seat)`` shows.

The knowledge must stay a *sound* subset of the truth: every card ``p`` is said to know in
``q``'s hand is there, and whatever a seat saw (or could deduce from public moves) is kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from nanty_env.engine import actions as A
from nanty_env.engine.game import Game
from nanty_env.engine.knowledge import set_known
from nanty_env.engine.position import build_position, card
from nanty_env.engine.tables import tables

PERSONAS = ("sherlock_holmes", "moriarty", "fagin", "lord_bellinger")


def pc(cid: str) -> int:
    return A.PLAY_CARD + card(cid)


def sc(cid: str) -> int:
    return A.SELECT_CARD + card(cid)


def pl(rel: int) -> int:
    return A.PLAYER + rel


def cs(*ids: str) -> list[int]:
    return sorted(card(x) for x in ids)


def legal(g: Game) -> set[int]:
    return set(g.legal_actions())


def position(hand: Sequence[str] = (), others: Sequence[Sequence[str]] = (), **kw: Any) -> Game:
    n = kw.pop("num_players", 4)
    hands = [list(hand)] + [list(h) for h in others] + [[] for _ in range(n - 1 - len(others))]
    kw.setdefault("events", [])
    kw.setdefault("personalities", PERSONAS[:n])
    return build_position(n, hands=hands, **kw)


def to_scroll(g: Game, cid: str) -> None:
    c = card(cid)
    g.apply(A.PLAY_CARD + c)
    while tables().symbols[c][g.stack[-1]["i"]] != "scroll":
        g.apply(A.PASS)
    g.apply(A.CONFIRM)


def pass_windows(g: Game) -> None:
    while g.decision == "react":
        g.apply(A.PASS)


def known(g: Game, p: int, q: int) -> list[int]:
    return sorted(g.known[p][q])


def assert_sound(g: Game) -> None:
    """Nothing known that is not true, and no card listed twice."""
    for p in range(g.n):
        for q in range(g.n):
            row = g.known[p][q]
            assert len(row) == len(set(row)), (p, q, row)
            if p == q:
                assert row == ()
            assert set(row) <= set(g.hands[q]), (p, q, row, g.hands[q])
        assert set(g.known_unused[p]) <= set(g.persona_pool), p


# ---------------------------------------------------------------------------- looking
def test_cable_street_look_at_a_hand() -> None:
    g = position(["cable_street_particulars"], [["groat", "ruby", "modo"]])
    to_scroll(g, "cable_street_particulars")
    g.apply(pl(1))
    pass_windows(g)
    # the whole hand is seen by seat 0 only
    assert known(g, 0, 1) == cs("groat", "ruby", "modo")
    assert known(g, 2, 1) == [] and known(g, 3, 1) == []
    g.apply(sc("ruby"))  # discarded face up: nobody needs to know it any more
    assert known(g, 0, 1) == cs("groat", "modo")
    assert g.view(0)["known_cards"][1] == cs("groat", "modo")
    assert g.view(2)["known_cards"][1] == []
    assert_sound(g)


def test_a_card_known_leaves_the_knowledge_when_played() -> None:
    g = position(["cable_street_particulars"], [["groat", "ruby", "modo"]], agents={1: {"City": 1}})
    to_scroll(g, "cable_street_particulars")
    g.apply(pl(1))
    pass_windows(g)
    g.apply(sc("ruby"))
    while g.active == 0:
        g.apply(A.PASS)
    assert known(g, 0, 1) == cs("groat", "modo")
    g.apply(pc("groat"))  # seat 1 plays a card seat 0 knew about
    assert known(g, 0, 1) == cs("modo")
    assert_sound(g)


def test_stanley_knowledge() -> None:
    """The taker saw both cards: knows the one given back is in the victim's hand; the victim
    knows which card the taker has; the others no longer know anything certain about the
    victim's hand (a card they knew may be the one taken)."""
    g = position(["stanley"], [["groat", "ruby"]])
    set_known(g, 2, 1, [card("groat"), card("ruby")])  # seat 2 had seen seat 1's hand
    to_scroll(g, "stanley")
    g.apply(pl(1))
    pass_windows(g)
    offered = sorted(a - A.SELECT_CARD for a in legal(g))
    assert offered == cs("groat", "ruby")
    g.apply(sc("groat"))
    assert known(g, 0, 1) == cs("ruby")
    assert known(g, 1, 0) == cs("groat")
    assert known(g, 2, 1) == []
    assert_sound(g)


def test_stanley_no_duplicate_when_the_taker_already_knew_the_hand() -> None:
    g = position(["stanley"], [["groat", "ruby"]])
    set_known(g, 0, 1, [card("groat"), card("ruby")])
    to_scroll(g, "stanley")
    g.apply(pl(1))
    pass_windows(g)
    g.apply(sc("groat"))
    assert g.known[0][1] == (card("ruby"),)
    assert_sound(g)


# ---------------------------------------------------------------------------- exchanging
def test_exchange_hands_knowledge() -> None:
    """Each of the two knows the other's new hand (its own old one); a third seat's
    knowledge moves with the hands."""
    g = position(
        ["the_chair_of_indefinite_studies", "groat", "ruby"], [["modo", "dwarves"], ["hex"]]
    )
    set_known(g, 2, 1, [card("modo")])  # seat 2 knew seat 1 held Modo
    set_known(g, 2, 0, [card("groat")])  # ... and seat 0 Groat
    to_scroll(g, "the_chair_of_indefinite_studies")
    g.apply(pl(1))
    pass_windows(g)
    assert sorted(g.hands[0]) == cs("modo", "dwarves")
    assert known(g, 0, 1) == cs("groat", "ruby")
    assert known(g, 1, 0) == cs("modo", "dwarves")
    assert known(g, 2, 0) == cs("modo") and known(g, 2, 1) == cs("groat")
    assert known(g, 3, 0) == [] and known(g, 3, 1) == []
    assert_sound(g)


# ---------------------------------------------------------------------------- gifts
@pytest.mark.parametrize("cid", ["the_beggars_guild", "queen_molly"])
def test_cards_handed_over_are_known_to_both(cid: str) -> None:
    g = position([cid], [["groat", "ruby", "modo"], ["hex"]])
    set_known(g, 2, 1, [card("modo")])
    set_known(g, 0, 1, [card("groat")])
    to_scroll(g, cid)
    g.apply(pl(1))
    pass_windows(g)
    g.apply(sc("groat"))
    g.apply(sc("ruby"))
    assert known(g, 1, 0) == cs("groat", "ruby")  # the giver knows where they went
    assert known(g, 0, 1) == []  # the receiver knew Groat; it is no longer there
    assert known(g, 2, 1) == []  # seat 2 cannot tell whether Modo was given
    assert known(g, 2, 0) == []  # ... nor which cards seat 0 got
    assert_sound(g)


def test_sunshine_sanctuary_card_gift() -> None:
    g = position(["the_ankh_morpork_sunshine_dragon_sanctuary"], [["groat"]], money=[0, 0, 0, 0])
    to_scroll(g, "the_ankh_morpork_sunshine_dragon_sanctuary")
    pass_windows(g)
    g.apply(sc("groat"))
    assert known(g, 1, 0) == cs("groat")
    assert known(g, 2, 0) == []
    assert_sound(g)


@pytest.mark.parametrize("cid", ["rosie_palm", "the_seamstresses_guild"])
def test_sold_card_known_to_the_seller(cid: str) -> None:
    g = position([cid, "groat", "ruby"], money=[0, 5, 0, 0])
    set_known(g, 2, 0, [card("groat"), card("ruby")])
    to_scroll(g, cid)
    g.apply(pl(1))
    pass_windows(g)
    g.apply(sc("groat"))
    assert known(g, 0, 1) == cs("groat")
    assert known(g, 2, 0) == []  # seat 2 cannot tell which card went
    assert known(g, 2, 1) == []
    assert_sound(g)


# ---------------------------------------------------------------------------- face up
def test_history_monks_cards_are_public() -> None:
    pile = ["groat", "ruby", "dwarves", "modo"]
    g = position(["history_monks"], discard=pile)
    to_scroll(g, "history_monks")
    for x in (1, 2, 3):
        assert known(g, x, 0) == cs(*pile)
        assert g.view(x)["known_cards"][0] == cs(*pile)
    assert_sound(g)


def test_watson_recovered_card_is_public() -> None:
    g = position(["doctor_mossy_lawn", "groat"], agents={0: {"City": 1}}, deck_top=["hex"])
    g.apply(pc("groat"))
    g.apply(A.PASS)
    g.apply(pc("doctor_mossy_lawn"))
    assert card("groat") in g.hands[0]
    for x in (1, 2, 3):
        assert known(g, x, 0) == cs("groat")
    assert_sound(g)


def test_drawn_cards_stay_hidden() -> None:
    g = position(["librarian"], deck_top=["groat", "ruby", "modo", "hex"])
    to_scroll(g, "librarian")
    for x in (1, 2, 3):
        assert known(g, x, 0) == []
        assert g.view(x)["hand_sizes"][0] == 4
        assert "hands" not in g.view(x)


# ---------------------------------------------------------------------------- personalities
def test_mrs_cake_knowledge_and_view() -> None:
    g = position(["mrs_cake"])
    to_scroll(g, "mrs_cake")
    seen = g.known_unused[0]
    assert len(seen) == len(g.persona_pool) - 1 and set(seen) < set(g.persona_pool)
    assert g.view(0)["known_unused_personalities"] == sorted(seen)
    assert g.view(1)["known_unused_personalities"] == []
    assert g.view(1)["personality"] == g.persona[1]
    assert "personalities" not in g.view(1)  # other personalities hidden until the end
    assert_sound(g)


def test_zorgo_knowledge() -> None:
    """The swapper knows their old card is set aside now (and forgets the new one); the
    others cannot tell which set-aside card left, so their knowledge is dropped."""
    g = position(["zorgo_the_retro_phrenologist"])
    pool = list(g.persona_pool)
    old = g.persona[0]
    g.known_unused = (tuple(pool), tuple(pool[:2]), (), ())  # seat 0 had seen all of them
    to_scroll(g, "zorgo_the_retro_phrenologist")
    new = g.persona[0]
    assert new in pool and new != old
    assert list(g.known_unused[0]) == sorted(set(pool) - {new} | {old})
    assert g.known_unused[1] == ()
    assert g.view(0)["personality"] == new
    assert_sound(g)


def test_cable_street_then_stanley_sound() -> None:
    g = position(["cable_street_particulars", "stanley"], [["groat", "ruby", "modo"]])
    to_scroll(g, "cable_street_particulars")
    g.apply(pl(1))
    pass_windows(g)
    g.apply(sc("modo"))
    g.apply(A.PASS)  # skip the agent symbol
    assert g.decision == "end"
    assert known(g, 0, 1) == cs("groat", "ruby")
    assert_sound(g)


def test_view_shows_only_own_hand() -> None:
    g = position(["groat"], [["ruby"], ["modo"], ["hex"]], agents={0: {"City": 1}})
    for seat in range(4):
        v = g.view(seat)
        assert v["hand"] == sorted(g.hands[seat])
        assert v["known_cards"] == [[], [], [], []]
        assert v["hand_sizes"] == [1, 1, 1, 1]
        assert v["legal_actions"] == (g.legal_actions() if seat == 0 else [])
