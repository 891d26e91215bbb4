"""Interrupt cards and the FAQ rulings about them.

Toby (gaspode), Mr. Goodyear (wallace_sonky), Little Dorrit (susan), Red-Headed League
(fresh_start_club), Victor Frankenstein (igor) are answered out of turn in a ``react``
window of the affected seat; Doctor John H. Watson (doctor_mossy_lawn) is played in your own
turn. Seat 0 is always the active player.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from nanty_env.engine import actions as A
from nanty_env.engine.config import GameConfig
from nanty_env.engine.errors import IllegalActionError
from nanty_env.engine.game import Game
from nanty_env.engine.position import area, build_position, card
from nanty_env.engine.tables import tables
from tests.engine.conftest import ar, dc, pc, pl, pw

PERSONAS = ("sherlock_holmes", "moriarty", "fagin", "lord_bellinger")
INTERRUPTS = (
    "gaspode",
    "wallace_sonky",
    "susan",
    "fresh_start_club",
    "igor",
    "doctor_mossy_lawn",
)
REACTIVE = INTERRUPTS[:-1]


def legal(g: Game) -> set[int]:
    return set(g.legal_actions())


def position(
    hand: Sequence[str] = (),
    others: Sequence[Sequence[str]] = (),
    *,
    windows: str = "public",
    **kw: Any,
) -> Game:
    n = kw.pop("num_players", 4)
    hands = [list(hand)] + [list(h) for h in others] + [[] for _ in range(n - 1 - len(others))]
    kw.setdefault("events", [])
    kw.setdefault("personalities", PERSONAS[:n])
    cfg = GameConfig(num_players=n, interrupt_windows=windows)
    return build_position(n, config=cfg, hands=hands, **kw)


def to_scroll(g: Game, cid: str) -> None:
    """Play ``cid`` (seat 0), skip the symbols before its scroll and confirm the scroll."""
    c = card(cid)
    g.apply(A.PLAY_CARD + c)
    while tables().symbols[c][g.stack[-1]["i"]] != "scroll":
        g.apply(A.PASS)
    g.apply(A.CONFIRM)


def window(g: Game, seat: int) -> set[int]:
    """The reaction window now open for ``seat`` (asserts that it is)."""
    assert (g.decision, g.current_player) == ("react", seat), (g.decision, g.current_player)
    return legal(g)


def react_cards(g: Game) -> set[str]:
    """Interrupt cards the deciding seat may play in the open window."""
    return {
        tables().card_id(a - A.PLAY_CARD) for a in legal(g) if A.PLAY_CARD <= a < A.DISCARD_CARD
    }


def event_via_card(g: Game, cid: str = "the_dean") -> None:
    """Seat 0 plays ``cid`` (random event first) and draws the event."""
    g.apply(pc(cid))
    assert legal(g) == {A.CONFIRM}  # the event must be drawn
    g.apply(A.CONFIRM)


# A hand holding every interrupt that can answer out of turn.
ALL = list(REACTIVE)


# ---------------------------------------------------------------------------- Toby
def test_toby_stops_an_assassination_symbol() -> None:
    g = position(
        ["dr_cruces"],
        [["gaspode", "groat"]],
        agents={0: {"City": 1}, 1: {"City": 1}},
        trouble=["City"],
    )
    g.apply(pc("dr_cruces"))
    g.apply(pw("City", 1))
    assert window(g, 1) == {A.PASS, pc("gaspode")}
    g.apply(pc("gaspode"))
    assert g.agents[1][area("City")] == 1 and g.trouble[area("City")] == 1
    assert card("gaspode") in g.discard and g.hands[1] == [card("groat")]
    assert (g.decision, g.current_player) == ("card", 0)  # on to the money symbol


def test_toby_stops_a_move_by_another_players_card() -> None:
    g = position(["the_duckman"], [["gaspode"]], agents={0: {"City": 1}, 1: {"Highbury": 1}})
    to_scroll(g, "the_duckman")
    g.apply(pw("Highbury", 1))
    assert react_cards(g) == {"gaspode"}
    g.apply(pc("gaspode"))
    assert g.agents[1][area("Highbury")] == 1
    assert g.decision == "end"


def test_toby_stops_tracy_tupman_swap() -> None:
    g = position(
        ["the_bursar"],
        [["gaspode"]],
        agents={0: {"City": 1}, 1: {"Highbury": 1}, 2: {"Lambeth": 1}},
    )
    to_scroll(g, "the_bursar")
    g.apply(pw("Highbury", 1))
    g.apply(pw("Lambeth", 2))
    assert react_cards(g) == {"gaspode"}
    g.apply(pc("gaspode"))
    assert g.agents[1][area("Highbury")] == 1 and g.agents[2][area("Lambeth")] == 1


def test_tracy_tupman_second_owner_may_stop_the_swap() -> None:
    g = position(
        ["the_bursar"],
        [["groat"], ["wallace_sonky"]],
        agents={0: {"City": 1}, 1: {"Highbury": 1}, 2: {"Lambeth": 1}},
    )
    to_scroll(g, "the_bursar")
    g.apply(pw("Highbury", 1))
    g.apply(pw("Lambeth", 2))
    assert window(g, 1) == {A.PASS}
    g.apply(A.PASS)
    assert window(g, 2) == {A.PASS, pc("wallace_sonky")}  # text of another player's card
    g.apply(pc("wallace_sonky"))
    assert g.agents[1][area("Highbury")] == 1 and g.agents[2][area("Lambeth")] == 1


def test_tracy_tupman_own_agent_and_neutral_pawns_ask_nobody() -> None:
    g = position(["the_bursar"], [["gaspode"]], agents={0: {"City": 1}}, citizens={"Lambeth": 1})
    to_scroll(g, "the_bursar")
    g.apply(pw("City", 0))
    g.apply(pw("Lambeth", 5))
    assert g.agents[0][area("Lambeth")] == 1 and g.cit[area("City")] == 1
    assert g.current_player == 0


def test_toby_works_against_jack_the_ripper() -> None:
    g = position(
        ["carcer"], [["gaspode", "wallace_sonky"]], agents={0: {"Chelsea": 1}, 1: {"City": 1}}
    )
    g.fix_rolls([area("City"), area("Strand")])
    to_scroll(g, "carcer")
    g.apply(pw("City", 1))
    assert react_cards(g) == {"gaspode", "wallace_sonky"}
    g.apply(pc("gaspode"))
    assert g.agents[1][area("City")] == 1


def test_faq_toby_not_against_random_events() -> None:
    """FAQ: Toby only works against other players; Mr. Goodyear never against events."""
    g = position(
        ["the_dean"], [ALL], agents={0: {"Chelsea": 1}, 1: {"City": 1}}, events=["zeppelin_crash"]
    )
    g.fix_rolls([area("City")])
    event_via_card(g)
    assert react_cards(g) == {"susan", "fresh_start_club", "igor"}
    with pytest.raises(IllegalActionError):
        g.apply(pc("gaspode"))
    with pytest.raises(IllegalActionError):
        g.apply(pc("wallace_sonky"))


def test_no_window_against_your_own_card() -> None:
    """Toby and the others protect against *other* players: removing your own agent with
    your own card (Jack the Ripper, Errol's 1, The Dean) asks nobody."""
    g = position(["carcer"], agents={0: {"City": 1, "Chelsea": 1}}, others=[ALL])
    g.hands[0] += [card("gaspode"), card("susan")]
    g.fix_rolls([area("City"), area("Strand")])
    to_scroll(g, "carcer")
    g.apply(pw("City", 0))
    assert g.agents[0][area("City")] == 0
    assert g.current_player == 0 and g.decision != "react"


# ---------------------------------------------------------------------------- Col. Moran
def test_faq_moran_one_protection_card_per_removal_attempt() -> None:
    """FAQ: a protection card protects one agent from one attempt; the second skull may go
    for the same agent, and needs a second card."""
    g = position(
        ["death"], [["gaspode", "susan"]], agents={0: {"City": 1}, 1: {"City": 1}}, trouble=["City"]
    )
    g.apply(pc("death"))
    g.apply(pw("City", 1))
    g.apply(pc("gaspode"))
    assert g.agents[1][area("City")] == 1
    assert legal(g) == {A.PASS, pw("City", 1)}  # the same agent again
    g.apply(pw("City", 1))
    assert window(g, 1) == {A.PASS, pc("susan")}  # Toby is spent
    g.apply(pc("susan"))
    assert g.agents[1][area("City")] == 1 and g.hands[1] == []

    g = position(
        ["death"], [["gaspode"]], agents={0: {"City": 1}, 1: {"City": 1}}, trouble=["City"]
    )
    g.apply(pc("death"))
    g.apply(pw("City", 1))
    g.apply(pc("gaspode"))
    g.apply(pw("City", 1))
    assert g.agents[1][area("City")] == 0  # no card left: no window (their hand is empty)
    assert g.trouble[area("City")] == 0


# ---------------------------------------------------------------------------- Mr. Goodyear
def test_faq_goodyear_not_against_symbols() -> None:
    g = position(
        ["dr_cruces"],
        [["wallace_sonky"]],
        agents={0: {"City": 1}, 1: {"City": 1}},
        trouble=["City"],
    )
    g.apply(pc("dr_cruces"))
    g.apply(pw("City", 1))
    assert window(g, 1) == {A.PASS}  # public window, but Goodyear does not answer a skull
    with pytest.raises(IllegalActionError):
        g.apply(pc("wallace_sonky"))
    g.apply(A.PASS)
    assert g.agents[1][area("City")] == 0


def test_faq_goodyear_against_jack_the_ripper() -> None:
    g = position(["carcer"], [["wallace_sonky"]], agents={0: {"Chelsea": 1}, 1: {"City": 1}})
    g.fix_rolls([area("City"), area("Strand")])
    to_scroll(g, "carcer")
    g.apply(pw("City", 1))
    g.apply(pc("wallace_sonky"))
    assert g.agents[1][area("City")] == 1


def test_faq_goodyear_against_fire_brigade() -> None:
    g = position(
        ["the_fire_brigade"], [["wallace_sonky"]], buildings={"Lambeth": 1}, money=[0, 9, 0, 0]
    )
    to_scroll(g, "the_fire_brigade")
    g.apply(pl(1))
    assert window(g, 1) == {A.PASS, pc("wallace_sonky")}
    g.apply(pc("wallace_sonky"))
    assert g.building[area("Lambeth")] == 1 and g.money == [0, 9, 0, 0]
    assert (g.decision, g.current_player) == ("card", 0)  # not redirected


@pytest.mark.parametrize("cid", ["the_fools_guild", "dr_whiteface"])
def test_faq_goodyear_against_milverton_and_irene_adler(cid: str) -> None:
    g = position([cid], [["wallace_sonky"]], money=[0, 0, 0, 0], agents={0: {"City": 1}})
    to_scroll(g, cid)
    g.apply(pl(1))
    g.apply(pc("wallace_sonky"))
    assert g.penalties[1] == ()
    g.apply(A.PASS)  # skip the agent symbol
    assert card(cid) in g.discard


def test_faq_goodyear_against_the_fourty_elephants_protects_only_its_player() -> None:
    g = position(
        ["the_thieves_guild"],
        [["wallace_sonky"], ["groat"], []],
        money=[0, 5, 5, 5],
    )
    to_scroll(g, "the_thieves_guild")
    assert window(g, 1) == {A.PASS, pc("wallace_sonky")}
    g.apply(pc("wallace_sonky"))
    assert window(g, 2) == {A.PASS}  # the public window: seat 2 holds a card
    g.apply(A.PASS)
    # seat 3 holds no card: no window
    assert g.money == [4, 5, 3, 3]


def test_faq_goodyear_against_henry_holy_peter_money_stays_paid() -> None:
    """FAQ: the paid player keeps the money, but nobody is removed."""
    g = position(
        ["cosmo_lavish"],
        [[], ["wallace_sonky"]],
        agents={0: {"City": 1}, 1: {"City": 1}, 2: {"City": 1}},
        trouble=["City"],
        money=[5, 0, 0, 0],
    )
    to_scroll(g, "cosmo_lavish")
    g.apply(pl(1))  # pay seat 1
    assert g.money[:2] == [3, 2]
    assert (g.decision, g.current_player) == ("kill", 1)
    g.apply(pw("City", 1))  # seat 1 picks seat 2's agent
    assert window(g, 2) == {A.PASS, pc("wallace_sonky")}
    g.apply(pc("wallace_sonky"))
    assert g.agents[2][area("City")] == 1
    assert g.money[:2] == [3, 2]
    assert (g.decision, g.current_player) == ("card", 0)  # nobody picks again


def test_faq_goodyear_against_nathaniel_winkle_nothing_passes() -> None:
    g = position(["the_chair_of_indefinite_studies", "groat"], [["wallace_sonky", "ruby", "modo"]])
    to_scroll(g, "the_chair_of_indefinite_studies")
    g.apply(pl(1))
    g.apply(pc("wallace_sonky"))
    assert g.hands[0] == [card("groat")]
    assert sorted(g.hands[1]) == sorted([card("ruby"), card("modo")])


def test_faq_goodyear_blocked_card_cannot_be_redirected() -> None:
    g = position(["nobby_nobbs"], [["wallace_sonky"]], money=[0, 5, 5, 5])
    to_scroll(g, "nobby_nobbs")
    g.apply(pl(1))
    g.apply(pc("wallace_sonky"))
    assert g.money == [0, 5, 5, 5]
    f = g.stack[-1]
    assert (f["k"], f["c"]) == ("card", card("nobby_nobbs"))  # on to the next symbol
    assert tables().symbols[f["c"]][f["i"]] == "play_another"
    assert not any(x["k"] == "targeted" for x in g.stack)


@pytest.mark.parametrize(
    ("cid", "setup", "steps"),
    [
        ("the_beggars_guild", {}, [pl(1)]),
        ("queen_molly", {}, [pl(1)]),
        ("stanley", {}, [pl(1)]),
        ("cable_street_particulars", {}, [pl(1)]),
        ("hubert", {}, [pl(1), pl(2)]),
        ("rosie_palm", {}, [pl(1)]),
        ("the_seamstresses_guild", {}, [pl(1)]),
        ("nobby_nobbs", {}, [pl(1)]),
        ("the_ankh_morpork_sunshine_dragon_sanctuary", {}, []),
        ("mr_boggis", {}, []),
        ("the_thieves_guild", {}, []),
        ("the_duckman", {"agents": {0: {"City": 1}, 1: {"Highbury": 1}}}, [pw("Highbury", 1)]),
        ("foul_ole_ron", {"agents": {0: {"City": 1}, 1: {"Highbury": 1}}}, [pw("Highbury", 1)]),
        ("canting_crew", {"agents": {0: {"City": 1}, 1: {"Highbury": 1}}}, [pw("Highbury", 1)]),
        ("sybil_vimes", {"buildings": {"Highbury": 1}}, [ar("Highbury")]),
        (
            "reacher_gilt",
            {"buildings": {"Highbury": 1}, "trouble": ["Highbury"]},
            [ar("Highbury")],
        ),
        ("the_fire_brigade", {"buildings": {"Highbury": 1}}, [pl(1)]),
        ("the_auditors", {"agents": {0: {"City": 1}, 1: {"Highbury": 1}}}, [pw("Highbury", 0)]),
        (
            "the_dean",
            {"agents": {0: {"City": 1}, 1: {"Westminster": 1}}},
            [pw("Westminster", 1)],
        ),
        (
            "burleigh_and_stronginthearm",
            {"agents": {0: {"City": 1}, 1: {"Highbury": 1}}, "trouble": ["Highbury"]},
            [pl(2), pw("Highbury", 1)],
        ),
    ],
)
def test_goodyear_answers_each_text_aimed_at_you(
    cid: str, setup: dict[str, Any], steps: list[int]
) -> None:
    """Seat 1, holding Mr. Goodyear, is asked before the text touches them, and nothing of
    theirs changes when they play it (nor does anything come to seat 0 from them)."""
    setup.setdefault("money", [20, 5, 0, 0])
    hand = [cid, "groat"] if cid in ("rosie_palm", "the_seamstresses_guild") else [cid]
    g = position(hand, [["wallace_sonky", "ruby"]], **setup)
    seat1 = (sorted(g.hands[1]), g.money[1], g.agents[1][:])
    buildings = g.building[:]
    hand0 = sorted(g.hands[0])
    to_scroll(g, cid)
    money0 = g.money[0]
    for s in steps:
        g.apply(s)
    if cid == "burleigh_and_stronginthearm":
        money0 -= 2  # paid to seat 2 before the assassination
    assert window(g, 1) >= {A.PASS, pc("wallace_sonky")}
    g.apply(pc("wallace_sonky"))
    assert g.hands[1] == [card("ruby")]
    assert (g.money[1], g.agents[1]) == seat1[1:]
    assert g.building == buildings
    assert g.money[0] == money0
    assert sorted(g.hands[0]) == sorted(set(hand0) - {card(cid)})
    assert g.current_player == 0


def test_goodyear_against_the_rolled_texts() -> None:
    """Here'n'Now's theft and Errol's removal are card text too."""
    g = position(["here_n_now"], [["wallace_sonky"]], money=[0, 5, 0, 0])
    g.fix_rolls([area("Lambeth")])
    to_scroll(g, "here_n_now")
    g.apply(pl(1))
    assert window(g, 1) == {A.PASS, pc("wallace_sonky")}
    g.apply(pc("wallace_sonky"))
    assert g.money[:2] == [0, 5]

    g = position(
        ["errol"],
        [["wallace_sonky"]],
        agents={0: {"Chelsea": 1}, 1: {"City": 1}},
        trouble=["City"],
    )
    g.fix_rolls([area("Lambeth")])
    to_scroll(g, "errol")
    g.apply(pw("City", 1))
    assert window(g, 1) == {A.PASS, pc("wallace_sonky")}
    g.apply(pc("wallace_sonky"))
    assert g.agents[1][area("City")] == 1


def test_goodyear_cannot_protect_another_player() -> None:
    """Only the player the text is aimed at is asked."""
    g = position(["nobby_nobbs"], [["groat"], ["wallace_sonky"]], money=[0, 5, 5, 5])
    to_scroll(g, "nobby_nobbs")
    g.apply(pl(1))
    assert window(g, 1) == {A.PASS}
    g.apply(A.PASS)
    assert g.money == [3, 2, 5, 5]
    assert g.hands[2] == [card("wallace_sonky")]


def test_faq_goodyear_not_against_random_events() -> None:
    g = position(
        ["the_dean"],
        [["wallace_sonky"]],
        agents={0: {"Chelsea": 1}, 1: {"City": 1}},
        events=["mysterious_murders"],
    )
    g.fix_rolls([area("City"), area("Strand"), area("Strand"), area("Strand")])
    event_via_card(g)
    g.apply(pw("City", 1))
    assert window(g, 1) == {A.PASS}


# ---------------------------------------------------------------------------- Little Dorrit
def test_little_dorrit_stops_a_removal() -> None:
    g = position(
        ["dr_cruces"], [["susan"]], agents={0: {"City": 1}, 1: {"City": 1}}, trouble=["City"]
    )
    g.apply(pc("dr_cruces"))
    g.apply(pw("City", 1))
    assert window(g, 1) == {A.PASS, pc("susan")}
    g.apply(pc("susan"))
    assert g.agents[1][area("City")] == 1 and g.trouble[area("City")] == 1


def test_little_dorrit_and_the_replacers_do_not_answer_a_move() -> None:
    g = position(
        ["the_duckman"],
        [["susan", "fresh_start_club", "igor"]],
        agents={0: {"City": 1}, 1: {"Highbury": 1}},
    )
    to_scroll(g, "the_duckman")
    g.apply(pw("Highbury", 1))
    assert window(g, 1) == {A.PASS}  # removal protection only
    g.apply(A.PASS)
    g.apply(ar("East End"))
    assert g.agents[1][area("East End")] == 1


# ---------------------------------------------------------------------------- Red-Headed League
@pytest.mark.parametrize("cid", ["fresh_start_club", "igor"])
def test_replacer_puts_the_removed_agent_back_elsewhere(cid: str) -> None:
    """The agent is removed (its marker goes), then its owner places it in any other area
    (not next to their agents necessarily; by the normal trouble rule)."""
    g = position(
        ["dr_cruces"],
        [[cid]],
        agents={0: {"City": 1}, 1: {"City": 1}, 2: {"Lambeth": 1}},
        trouble=["City"],
    )
    g.apply(pc("dr_cruces"))
    g.apply(pw("City", 1))
    assert window(g, 1) == {A.PASS, pc(cid)}
    g.apply(pc(cid))
    assert g.agents[1][area("City")] == 0 and g.trouble[area("City")] == 0
    assert (g.decision, g.current_player) == ("place_agent", 1)
    assert legal(g) == {A.AREA + a for a in range(12)} - {ar("City")}
    g.apply(ar("Lambeth"))
    assert g.agents[1][area("Lambeth")] == 1 and g.trouble[area("Lambeth")] == 1
    assert g.on_board[1] == 1
    assert (g.decision, g.current_player) == ("card", 0)


# ---------------------------------------------------------------------------- vs events
PROTECTORS = ("susan", "fresh_start_club", "igor")


@pytest.mark.parametrize("cid", PROTECTORS)
def test_faq_protectors_against_zeppelin_crash(cid: str) -> None:
    g = position(
        ["the_dean"],
        [[cid, "gaspode", "wallace_sonky"]],
        agents={0: {"Chelsea": 1}, 1: {"City": 1}},
        events=["zeppelin_crash"],
    )
    g.fix_rolls([area("City")])
    event_via_card(g)
    assert react_cards(g) == {cid}
    g.apply(pc(cid))
    if cid == "susan":
        assert g.agents[1][area("City")] == 1
    else:
        assert g.agents[1][area("City")] == 0
        assert legal(g) == {A.AREA + a for a in range(12)} - {ar("City")}
        g.apply(ar("Strand"))
        assert g.agents[1][area("Strand")] == 1


@pytest.mark.parametrize("cid", PROTECTORS)
def test_faq_protectors_against_mysterious_murders(cid: str) -> None:
    g = position(
        ["the_dean"],
        [[cid, "gaspode", "wallace_sonky"]],
        agents={0: {"Chelsea": 1}, 1: {"City": 1}},
        events=["mysterious_murders"],
    )
    g.fix_rolls([area("City"), area("Strand"), area("Strand"), area("Strand")])
    event_via_card(g)
    assert legal(g) == {pw("City", 1)}  # seat 0 rolled the City
    g.apply(pw("City", 1))
    assert react_cards(g) == {cid}
    g.apply(pc(cid))
    if cid == "susan":
        assert g.agents[1][area("City")] == 1
    else:
        g.apply(ar("Highbury"))
        assert g.agents[1][area("Highbury")] == 1 and g.agents[1][area("City")] == 0


@pytest.mark.parametrize("cid", PROTECTORS)
def test_faq_protectors_against_inigo_jones(cid: str) -> None:
    g = position(
        ["the_dean"],
        [[cid, "gaspode", "wallace_sonky"]],
        agents={0: {"Chelsea": 1}, 1: {"Highbury": 2}},
        buildings={"Highbury": 1},
        events=["inigo_jones"],
    )
    g.fix_rolls([area("Highbury")])
    event_via_card(g)
    assert g.city_retired[area("Highbury")] == 1  # the card is gone
    assert react_cards(g) == {cid}  # ... the agent may be saved
    g.apply(pc(cid))
    if cid == "susan":
        assert g.agents[1][area("Highbury")] == 2
    else:
        assert g.agents[1][area("Highbury")] == 1
        g.apply(ar("Lambeth"))
        assert g.agents[1][area("Lambeth")] == 1


# ---------------------------------------------------------------------------- Watson
def test_watson_ends_the_turn_and_takes_back_the_previous_card() -> None:
    """The card played just before returns to the hand; what it did stands; the turn ends at
    once (the rest of the cards in play are discarded) and the hand is refilled."""
    g = position(
        ["doctor_mossy_lawn", "pink_pussycat_club", "gimlet_s_dwarf_delicatessen", "groat"],
        agents={0: {"City": 1}},
        money=[0, 0, 0, 0],
        deck_top=["hex", "librarian", "errol"],
    )
    assert pc("doctor_mossy_lawn") not in legal(g)  # nothing played yet
    g.apply(pc("pink_pussycat_club"))
    g.apply(A.CONFIRM)
    g.apply(pc("gimlet_s_dwarf_delicatessen"))
    g.apply(A.CONFIRM)  # £3
    assert pc("doctor_mossy_lawn") in legal(g)
    g.apply(pc("doctor_mossy_lawn"))
    assert g.money[0] == 6  # both cards' money stands
    assert g.active == 1  # the turn is over
    assert sorted(g.hands[0]) == sorted(
        [card(x) for x in ("gimlet_s_dwarf_delicatessen", "groat", "hex", "librarian", "errol")]
    )
    assert card("pink_pussycat_club") in g.discard and card("doctor_mossy_lawn") in g.discard
    assert g.in_play == []


def test_watson_after_the_card_is_finished() -> None:
    g = position(["doctor_mossy_lawn", "groat"], agents={0: {"City": 1}})
    g.apply(pc("groat"))
    g.apply(ar("Highbury"))
    assert g.decision == "end"
    g.apply(pc("doctor_mossy_lawn"))
    assert g.agents[0][area("Highbury")] == 1
    assert card("groat") in g.hands[0] and card("groat") not in g.discard


def test_watson_is_never_an_out_of_turn_answer() -> None:
    g = position(
        ["dr_cruces"],
        [["doctor_mossy_lawn"]],
        agents={0: {"City": 1}, 1: {"City": 1}},
        trouble=["City"],
    )
    g.apply(pc("dr_cruces"))
    g.apply(pw("City", 1))
    assert window(g, 1) == {A.PASS}


def test_faq_discard_as_many_interrupts_as_you_like() -> None:
    g = position(
        ["gaspode", "susan", "igor", "groat"],
        agents={0: {"City": 1}},
        deck_top=["hex", "librarian", "errol", "modo", "ruby"],
    )
    assert legal(g) == {pc("groat"), dc("gaspode"), dc("susan"), dc("igor")}
    g.apply(dc("gaspode"))
    g.apply(dc("susan"))
    g.apply(pc("groat"))
    g.apply(A.PASS)
    assert legal(g) == {A.PASS, dc("igor")}
    g.apply(dc("igor"))
    assert {card(x) for x in ("gaspode", "susan", "igor", "groat")} <= set(g.discard)
    g.apply(A.PASS)
    assert len(g.hands[0]) == 5  # refilled from empty


# ---------------------------------------------------------------------------- windows
@pytest.mark.parametrize("windows", ["public", "holders"])
def test_window_policies(windows: str) -> None:
    """public: every seat with cards the rules let react is asked, whatever it holds;
    holders: only a seat that holds a fitting card; never a seat with no cards."""
    g = position(
        ["death"],
        [["groat"], ["susan"], []],
        agents={0: {"City": 1}, 1: {"City": 1}, 2: {"City": 1}, 3: {"Lambeth": 1}},
        trouble=["City", "Lambeth"],
        windows=windows,
    )
    g.apply(pc("death"))
    g.apply(pw("City", 1))
    if windows == "public":
        assert window(g, 1) == {A.PASS}
        g.apply(A.PASS)
    assert g.agents[1][area("City")] == 0 and g.current_player == 0
    g.apply(pw("Lambeth", 3))  # seat 3 has no card: never asked
    assert g.agents[3][area("Lambeth")] == 0 and g.current_player == 0


def test_holders_window_for_a_holder() -> None:
    g = position(
        ["dr_cruces"],
        [["susan"]],
        agents={0: {"City": 1}, 1: {"City": 1}},
        trouble=["City"],
        windows="holders",
    )
    g.apply(pc("dr_cruces"))
    g.apply(pw("City", 1))
    assert window(g, 1) == {A.PASS, pc("susan")}


def test_react_pass_lets_it_happen_and_keeps_the_card() -> None:
    g = position(
        ["dr_cruces"], [["susan"]], agents={0: {"City": 1}, 1: {"City": 1}}, trouble=["City"]
    )
    g.apply(pc("dr_cruces"))
    g.apply(pw("City", 1))
    g.apply(A.PASS)
    assert g.agents[1][area("City")] == 0 and g.hands[1] == [card("susan")]


def test_holborn_pays_against_an_event_but_not_a_player() -> None:
    g = position(
        ["dr_cruces"],
        [["groat"]],
        agents={0: {"City": 1}, 1: {"City": 1}},
        trouble=["City"],
        buildings={"Holborn": 1},
        money=[0, 9, 0, 0],
    )
    g.apply(pc("dr_cruces"))
    g.apply(pw("City", 1))
    assert window(g, 1) == {A.PASS}  # a player's assassination: Holborn does not help

    g = position(
        ["the_dean"],
        [[]],
        agents={0: {"Chelsea": 1}, 1: {"City": 1}},
        buildings={"Holborn": 1},
        money=[0, 9, 0, 0],
        events=["zeppelin_crash"],
    )
    g.fix_rolls([area("City")])
    event_via_card(g)
    assert window(g, 1) == {A.PASS, A.ABILITY + area("Holborn")}
    g.apply(A.ABILITY + area("Holborn"))
    assert g.money[1] == 6 and g.agents[1][area("City")] == 1


def test_every_interrupt_card_has_a_test_here() -> None:
    import inspect
    import sys

    src = inspect.getsource(sys.modules[__name__])
    ids = {c.id for c in tables().data.cards if c.interrupt}
    assert ids == set(INTERRUPTS)
    for cid in ids:
        assert src.count(f'"{cid}"') >= 3, cid
