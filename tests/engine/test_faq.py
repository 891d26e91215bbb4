"""One test per FAQ answer of the rulebook (001) that is not about a particular card's text or a
random event, plus the rulebook's worked examples for placing agents and buildings."""

from __future__ import annotations

import pytest

from nanty_env.engine import actions as A
from nanty_env.engine.errors import IllegalActionError
from tests.engine.conftest import (
    DIE_AREAS,
    ability,
    area,
    areas,
    card,
    cards,
    die,
    legal_args,
    play,
    pw,
    quiet_position,
)

NAMES = DIE_AREAS


# ------------------------------------------------------------------ Q: play a card and do nothing?
@pytest.mark.parametrize("c", ["groat", "the_agony_aunts", "death", "lord_downey", "the_dysk"])
def test_faq_a_card_may_be_played_for_nothing(c):
    g = quiet_position(
        agents={0: {NAMES[7]: 1}, 1: {NAMES[7]: 1}},
        trouble=[NAMES[7]],
        money=[50, 10, 10, 10],
        hands=[[c, "ruby"], ["dwarves"], [], []],
    )
    board_before = (
        g.agents,
        g.trouble[:],
        g.building[:],
        g.money[:],
        g.gren[:],
        g.cit[:],
    )
    play(g, ("PLAY_CARD", c))
    while g.decision == "card":
        play(g, "PASS")
    assert g.decision == "end"
    assert (g.agents, g.trouble, g.building, g.money, g.gren, g.cit) == board_before
    assert g.discard == [card(c)]


def test_faq_but_not_the_random_event():
    g = quiet_position(hands=[["the_bursar", "groat"], [], [], []], events=["fog", "riots"])
    play(g, ("PLAY_CARD", "the_bursar"))
    assert g.legal_actions() == [A.CONFIRM]
    deck = len(g.deck)
    play(g, "CONFIRM")
    assert len(g.deck) == deck - 5  # Fog happened
    assert g.decision == "card" and A.PASS in g.legal_actions()  # the scroll is optional


# ------------------------------------------------------------------ interrupts may be discarded any time
def test_faq_interrupts_may_be_discarded_at_every_point_of_the_turn():
    interrupts = ["gaspode", "fresh_start_club", "wallace_sonky", "susan"]
    g = quiet_position(hands=[["captain_carrot", *interrupts], [], [], []])
    assert legal_args(g, "DISCARD_CARD") == cards(*interrupts)
    play(g, ("DISCARD_CARD", "gaspode"))  # before the card of the turn
    assert g.decision == "main" and g.discard == [card("gaspode")]
    play(g, ("PLAY_CARD", "captain_carrot"))
    play(g, ("DISCARD_CARD", "fresh_start_club"))  # between symbols
    assert g.decision == "card"
    play(g, "PASS", ("DISCARD_CARD", "wallace_sonky"), "PASS", "PASS")
    assert g.decision == "end"
    play(g, ("DISCARD_CARD", "susan"))  # after the card
    assert g.hands[0] == []
    assert len(g.discard) == 5
    assert g.money == [10, 10, 10, 10]


def test_faq_discarding_an_interrupt_is_not_the_card_of_the_turn():
    g = quiet_position(hands=[["groat", "gaspode"], [], [], []])
    play(g, ("DISCARD_CARD", "gaspode"))
    assert g.decision == "main"
    assert legal_args(g, "PLAY_CARD") == cards("groat")
    assert A.PASS not in g.legal_actions()  # a card must still be played


def test_faq_only_interrupts_may_be_discarded_freely():
    g = quiet_position(hands=[["groat", "ruby", "gaspode"], [], [], []])
    for c in ("groat", "ruby"):
        with pytest.raises(IllegalActionError):
            g.apply(A.DISCARD_CARD + card(c))


# ------------------------------------------------------------------ Q: trouble with own agents only?
def test_faq_own_agents_alone_still_cause_trouble():
    g = quiet_position(agents={0: {NAMES[6]: 1}}, hands=[["groat"], [], [], []])
    assert g.trouble[die(6)] == 0
    play(g, ("PLAY_CARD", "groat"), ("AREA", NAMES[6]))
    assert g.trouble[die(6)] == 1


# ------------------------------------------------------------------ Q: control needed to build?
def test_faq_building_needs_an_agent_and_no_trouble_not_control():
    g = quiet_position(
        agents={0: {NAMES[6]: 1, NAMES[9]: 1}, 1: {NAMES[6]: 4}, 2: {NAMES[9]: 1}},
        trouble=[NAMES[9]],
        money=[50, 10, 10, 10],
        hands=[["the_royal_mint"], [], [], []],
    )
    play(g, ("PLAY_CARD", "the_royal_mint"))
    assert set(g.legal_actions()) == {A.PASS, A.AREA + die(6)}  # not Southwark: trouble
    play(g, ("AREA", NAMES[6]))
    assert g.building[die(6)] == 0 and g.money[0] == 38


# ------------------------------------------------------------------ Q: can moving cause trouble?
@pytest.mark.parametrize(("occupied", "trouble"), [(True, 1), (False, 0)])
def test_faq_moving_an_agent_can_cause_trouble(occupied, trouble):
    g = quiet_position(
        agents={0: {NAMES[7]: 1}, 1: {NAMES[12]: int(occupied)}},
        hands=[["dorfl"], [], [], []],
    )
    play(g, ("PLAY_CARD", "dorfl"), "CONFIRM", pw(NAMES[7], 0), ("AREA", NAMES[12]))
    assert g.agents[0][die(12)] == 1
    assert g.trouble[die(12)] == trouble


# ------------------------------------------------------------------ Q: Charles Babbage / Maycroft Holmes
@pytest.mark.parametrize("c", ["ponder_stibbons", "drumknott"])
def test_faq_two_cards_each_a_separate_set_of_actions(c):
    g = quiet_position(
        agents={0: {NAMES[7]: 1}},
        hands=[[c, "pink_pussycat_club", "groat", "gimlet_s_dwarf_delicatessen"], [], [], []],
        events=["riots"],
    )
    play(g, ("PLAY_CARD", c))
    if c == "ponder_stibbons":
        play(g, "CONFIRM")
    play(g, "CONFIRM")
    # 1st card (chains into Groat), then the 2nd card
    play(
        g,
        ("PLAY_CARD", "pink_pussycat_club"),
        "CONFIRM",
        ("PLAY_CARD", "groat"),
        ("AREA", NAMES[8]),
    )
    assert g.decision == "two"
    play(g, ("PLAY_CARD", "gimlet_s_dwarf_delicatessen"), "CONFIRM", ("AREA", NAMES[8]))
    assert g.decision == "end"
    assert g.money[0] == 16
    assert g.agents[0][die(8)] == 2


# ------------------------------------------------------------------ Q: Bermondsey / Chelsea next to my agents?
@pytest.mark.parametrize(
    ("a", "expected"),
    [(1, {1, 2, 3, 12}), (8, {8, 5, 7, 9})],
)
def test_faq_chelsea_and_bermondsey_place_next_to_the_area_not_to_your_agents(a, expected):
    g = quiet_position(
        agents={0: {NAMES[11]: 1}},  # Lambeth: next to neither area's neighbours set
        buildings={NAMES[a]: 0},
        money=[10, 10, 10, 10],
        hands=[["groat"], [], [], []],
    )
    play(g, ability(NAMES[a]))
    assert set(g.legal_actions()) == {A.AREA + die(k) for k in expected}
    assert A.AREA + die(11) not in g.legal_actions()


# ------------------------------------------------------------------ Q: build with immigrants/grenadiers?
@pytest.mark.parametrize(
    ("pawns", "trouble", "can"),
    [
        ({"citizens": 1}, False, True),
        ({"grenadiers": 1}, False, True),
        ({"citizens": 1}, True, False),  # only the marker stops it
        ({"grenadiers": 2, "citizens": 1}, False, True),
    ],
)
def test_faq_building_beside_immigrants_or_grenadiers(pawns, trouble, can):
    x = NAMES[3]
    g = quiet_position(
        agents={0: {x: 1}},
        trouble=[x] if trouble else [],
        money=[12, 10, 10, 10],
        hands=[["the_mended_drum"], [], [], []],
        **{kind: {x: k} for kind, k in pawns.items()},
    )
    play(g, ("PLAY_CARD", "the_mended_drum"))
    assert (A.AREA + die(3) in g.legal_actions()) == can
    if can:
        play(g, ("AREA", x))
        assert g.building[die(3)] == 0 and g.money[0] == 0


# ------------------------------------------------------------------ worked examples
def test_example_place_an_agent_from_the_east_end():
    """Green has an agent in the East End: may place there or in City, Highbury, Bermondsey;
    Bermondsey already holds an agent, so a marker goes there."""
    green, yellow = 0, 1
    g = quiet_position(
        agents={green: {"the_shades": 1}, yellow: {"dimwell": 1}},
        hands=[["groat"], [], [], []],
    )
    play(g, ("PLAY_CARD", "groat"))
    assert legal_args(g, "AREA") == areas("the_shades", "the_scours", "the_hippo", "dimwell")
    play(g, ("AREA", "Bermondsey"))
    assert g.agents[green][area("Bermondsey")] == 1
    assert g.trouble[area("Bermondsey")] == 1


def test_example_place_a_building():
    """Only Battersea: Chelsea has trouble, Lambeth a building, no agent in Westminster or the
    West End; it costs £12 although yellow has more agents in Battersea."""
    green, yellow = 0, 1
    g = quiet_position(
        agents={
            green: {"Battersea": 1, "Chelsea": 1, "Lambeth": 1},
            yellow: {"Battersea": 2, "Westminster": 1, "West End": 1},
        },
        trouble=["Chelsea"],
        buildings={"Lambeth": yellow},
        money=[20, 10, 10, 10],
        hands=[["the_mended_drum"], [], [], []],
    )
    play(g, ("PLAY_CARD", "the_mended_drum"))
    assert legal_args(g, "AREA") == areas("Battersea")
    play(g, ("AREA", "Battersea"))
    assert g.money[green] == 8
    assert g.building[area("Battersea")] == green


def test_interrupt_discards_are_offered_on_your_own_turn_only():
    """Rule decision: "discard at any time" is offered at every decision of your own turn, not
    in out-of-turn reaction windows (where only a fitting interrupt may be played)."""
    g = quiet_position(
        agents={0: {NAMES[5]: 1}, 1: {NAMES[5]: 1}},
        trouble=[NAMES[5]],
        hands=[["dr_cruces"], ["wallace_sonky", "groat"], [], []],
    )
    play(g, ("PLAY_CARD", "dr_cruces"), pw(NAMES[5], 1))
    assert g.decision == "react" and g.current_player == 1
    assert g.legal_actions() == [A.PASS]  # Mr. Goodyear does not answer a symbol
