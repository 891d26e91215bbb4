"""The action symbols with their exact legality (rulebook "Action cards", player aid "Actions"):
place an agent, assassination, remove one trouble marker, take money (place a building: see
test_buildings.py)."""

from __future__ import annotations

import pytest

from nanty_env.engine import actions as A
from nanty_env.engine import board
from nanty_env.engine.errors import IllegalActionError
from nanty_env.engine.tables import tables
from tests.engine.conftest import (
    DIE_AREAS,
    DIE_COST,
    DIE_NEIGHBOURS,
    area,
    area_actions,
    card,
    die,
    families,
    legal_args,
    pass_reactions,
    play,
    pw,
    quiet_position,
)

NAMES = DIE_AREAS
NEIGHBOURS = DIE_NEIGHBOURS
COST = DIE_COST


def test_board_facts_match_the_data():
    for k, name in NAMES.items():
        assert area(name) == k - 1
        assert {x + 1 for x in tables().neighbours[k - 1]} == NEIGHBOURS[k]
        assert tables().cost[k - 1] == COST[k]


# ------------------------------------------------------------------ place an agent
def agent_game(own: dict[int, int], others: dict[int, dict[int, int]] | None = None, **kw):
    agents = {0: {NAMES[k]: v for k, v in own.items()}}
    for seat, where in (others or {}).items():
        agents[seat] = {NAMES[k]: v for k, v in where.items()}
    g = quiet_position(agents=agents, hands=[["groat", "ruby"], ["dwarves"], [], []], **kw)
    play(g, ("PLAY_CARD", "groat"))
    return g


@pytest.mark.parametrize(
    "own",
    [{1: 1}, {7: 1}, {2: 1}, {10: 3}, {1: 1, 7: 1}, {9: 1, 12: 2}, {4: 1, 8: 1, 11: 1}],
)
def test_agent_goes_where_you_have_one_or_next_door(own):
    g = agent_game(own, others={1: {3: 1, 5: 1, 9: 1}})
    expected = set(own).union(*(NEIGHBOURS[k] for k in own))
    assert set(g.legal_actions()) == {A.PASS, *area_actions(*expected)}


def test_agent_goes_anywhere_when_you_have_none_on_the_board():
    g = agent_game({}, others={1: {1: 1}})
    assert set(g.legal_actions()) == {A.PASS, *area_actions(*range(1, 13))}


def test_no_limit_of_agents_per_area():
    g = agent_game({7: 11})
    play(g, ("AREA", NAMES[7]))
    assert g.agents[0][die(7)] == 12 and g.on_board[0] == 12


def test_placing_an_agent_adds_it_and_counts_it_on_board():
    g = agent_game({7: 1})
    play(g, ("AREA", NAMES[8]))
    assert g.agents[0][die(8)] == 1
    assert g.on_board[0] == 2


def test_all_twelve_out_means_lift_one_first():
    g = agent_game({7: 11, 1: 1}, others={1: {5: 1}}, trouble=[NAMES[7]])
    # only own agents may be lifted; no direct placement
    assert set(g.legal_actions()) == {A.PASS, pw(NAMES[7], 0), pw(NAMES[1], 0)}
    for k in range(1, 13):
        with pytest.raises(IllegalActionError):
            g.apply(A.AREA + die(k))
    play(g, pw(NAMES[7], 0))
    assert g.decision == "place_agent"
    assert g.agents[0][die(7)] == 10 and g.on_board[0] == 11
    assert g.trouble[die(7)] == 0  # a pawn left East End: its marker goes
    # somewhere else (not back to East End), by the normal rule
    assert set(g.legal_actions()) == area_actions(*({1, 5, 6, 8} | NEIGHBOURS[1]))
    play(g, ("AREA", NAMES[5]))
    assert g.agents[0][die(5)] == 1 and g.on_board[0] == 12
    assert g.trouble[die(5)] == 1  # City held another player's agent
    assert g.decision == "end"


def test_lifted_agent_no_longer_counts_for_adjacency():
    """Rule decision: the lifted agent is off the board when its new area is chosen, so the
    area it left does not make its neighbours reachable (and it may not go back there)."""
    g = agent_game({7: 11, 1: 1})
    play(g, pw(NAMES[1], 0))
    assert set(g.legal_actions()) == area_actions(7, *NEIGHBOURS[7])


def test_eleven_out_places_the_twelfth_normally():
    g = agent_game({7: 11})
    assert families(g) == {"PASS", "AREA"}


# ------------------------------------------------------------------ trouble from placement
@pytest.mark.parametrize(
    ("setup", "trouble"),
    [
        ({}, 0),  # empty area
        ({"own": 1}, 1),  # FAQ: own agents cause trouble too
        ({"other": 1}, 1),
        ({"cit": 1}, 1),
        ({"gren": 1}, 1),
        ({"building": 1}, 0),  # a building is no pawn
        ({"building": 0}, 0),
        ({"own": 2, "other": 1, "cit": 1}, 1),
    ],
)
def test_placing_into_an_occupied_area_adds_a_marker(setup, trouble):
    target = NAMES[8]  # Bermondsey, next to the agent in East End
    own = {7: 1, 8: setup.get("own", 0)} if setup.get("own") else {7: 1}
    g = quiet_position(
        agents={0: {NAMES[k]: v for k, v in own.items()}, 1: {target: setup.get("other", 0)}},
        citizens={target: setup.get("cit", 0)},
        grenadiers={target: setup.get("gren", 0)},
        buildings={target: setup["building"]} if "building" in setup else None,
        hands=[["groat"], [], [], []],
    )
    assert g.trouble[area(target)] == 0
    play(g, ("PLAY_CARD", "groat"), ("AREA", target))
    assert g.trouble[area(target)] == trouble
    assert sum(g.trouble) == trouble


def test_at_most_one_marker_per_area():
    g = quiet_position(
        agents={0: {NAMES[7]: 3}}, trouble=[NAMES[7]], hands=[["dwarves"], [], [], []]
    )
    play(g, ("PLAY_CARD", "dwarves"), ("AREA", NAMES[7]), ("AREA", NAMES[7]))
    assert g.agents[0][die(7)] == 5
    assert g.trouble[die(7)] == 1 and sum(g.trouble) == 1


# ------------------------------------------------------------------ assassination
def assassin_game(active=0, **kw):
    hands = [[] for _ in range(4)]
    hands[active] = ["dr_cruces"]  # assassinate, money 3
    g = quiet_position(hands=hands, active=active, **kw)
    play(g, ("PLAY_CARD", "dr_cruces"))
    return g


BUSY = dict(
    agents={
        0: {NAMES[7]: 2, NAMES[5]: 1},
        1: {NAMES[7]: 1, NAMES[5]: 1, NAMES[1]: 1},
        2: {NAMES[5]: 2, NAMES[8]: 1},
        3: {NAMES[1]: 1},
    },
    grenadiers={NAMES[6]: 1, NAMES[5]: 1},
    citizens={NAMES[5]: 1, NAMES[8]: 1},
    trouble=[NAMES[7], NAMES[5], NAMES[6]],
)


@pytest.mark.parametrize(
    ("active", "expected"),
    [
        # (area, owner seat or "grenadier"/"citizen") in trouble areas, never the active's agents
        (0, {(7, 1), (5, 1), (5, 2), (5, "grenadier"), (5, "citizen"), (6, "grenadier")}),
        (1, {(7, 0), (5, 0), (5, 2), (5, "grenadier"), (5, "citizen"), (6, "grenadier")}),
        (2, {(7, 0), (7, 1), (5, 0), (5, 1), (5, "grenadier"), (5, "citizen"), (6, "grenadier")}),
        (
            3,
            {
                (7, 0),
                (7, 1),
                (5, 0),
                (5, 1),
                (5, 2),
                (5, "grenadier"),
                (5, "citizen"),
                (6, "grenadier"),
            },
        ),
    ],
)
def test_assassination_targets(active, expected):
    g = assassin_game(active=active, **BUSY)
    want = {
        pw(NAMES[k], who if isinstance(who, str) else (who - active) % 4) for k, who in expected
    }
    assert set(g.legal_actions()) == {A.PASS, *want}


def test_assassination_needs_a_trouble_marker():
    g = assassin_game(agents={0: {NAMES[7]: 1}, 1: {NAMES[7]: 1}}, citizens={NAMES[8]: 1})
    assert g.decision == "card"
    assert "PAWN" not in families(g)  # the symbol had no target: on to the money
    assert set(g.legal_actions()) == {A.PASS, A.CONFIRM}


def test_own_agents_are_never_targets():
    g = assassin_game(agents={0: {NAMES[7]: 3}}, trouble=[NAMES[7]])
    assert "PAWN" not in families(g)


@pytest.mark.parametrize(
    ("slot", "check"),
    [
        (1, lambda g: g.agents[1][die(5)] == 0 and g.on_board[1] == 0),
        ("grenadier", lambda g: g.gren[die(5)] == 0),
        ("citizen", lambda g: g.cit[die(5)] == 0),
    ],
)
def test_assassination_removes_the_pawn_and_the_marker(slot, check):
    g = assassin_game(
        agents={0: {NAMES[5]: 2}, 1: {NAMES[5]: 1}},
        grenadiers={NAMES[5]: 1},
        citizens={NAMES[5]: 1},
        trouble=[NAMES[5]],
    )
    play(g, pw(NAMES[5], slot))
    pass_reactions(g)
    assert check(g)
    assert g.trouble[die(5)] == 0  # although pawns remain
    assert board.pawn_count(g, die(5)) == 4
    assert g.agents[0][die(5)] == 2


def test_assassinated_agent_owner_may_react_first():
    """The victim (holding cards) gets a reaction window before the removal."""
    g = quiet_position(
        agents={0: {NAMES[5]: 1}, 1: {NAMES[5]: 1}},
        trouble=[NAMES[5]],
        hands=[["dr_cruces"], ["groat"], [], []],
    )
    play(g, ("PLAY_CARD", "dr_cruces"), pw(NAMES[5], 1))
    assert g.decision == "react" and g.current_player == 1
    play(g, "PASS")
    assert g.agents[1][die(5)] == 0 and g.trouble[die(5)] == 0
    assert g.current_player == 0


# ------------------------------------------------------------------ remove one trouble marker
def test_remove_trouble_from_any_area_of_your_choice():
    marked = [NAMES[k] for k in (1, 5, 11)]
    g = quiet_position(
        agents={0: {NAMES[7]: 1}, 1: {NAMES[11]: 2}},
        trouble=marked,
        hands=[["buggy_swires"], [], [], []],
    )
    play(g, ("PLAY_CARD", "buggy_swires"))
    assert set(g.legal_actions()) == {A.PASS, *area_actions(1, 5, 11)}
    play(g, ("AREA", NAMES[11]))
    assert g.trouble[die(11)] == 0
    assert sum(g.trouble) == 2
    assert g.agents[1][die(11)] == 2  # pawns stay


def test_remove_trouble_without_markers_is_skipped():
    g = quiet_position(agents={0: {NAMES[7]: 1}}, hands=[["sergeant_colon"], [], [], []])
    play(g, ("PLAY_CARD", "sergeant_colon"))  # remove trouble, agent
    assert set(legal_args(g, "AREA")) == {die(k) for k in (5, 6, 7, 8)}  # already the agent


# ------------------------------------------------------------------ take money
@pytest.mark.parametrize(
    ("c", "amount"),
    [
        ("captain_carrot", 1),
        ("the_agony_aunts", 2),
        ("the_mended_drum", 2),
        ("gimlet_s_dwarf_delicatessen", 3),
        ("dr_cruces", 3),
        ("patrician_s_palace", 4),
        ("the_royal_mint", 5),
    ],
)
def test_take_money_pays_the_amount_on_the_card(c, amount):
    g = quiet_position(agents={0: {NAMES[7]: 1}}, money=[0, 10, 10, 10], hands=[[c], [], [], []])
    play(g, ("PLAY_CARD", c))
    while A.CONFIRM not in g.legal_actions():
        play(g, "PASS")
    play(g, "CONFIRM")
    assert g.money == [amount, 10, 10, 10]
    while g.decision == "card":
        play(g, "PASS")
    assert g.money == [amount, 10, 10, 10]
    assert g.discard == [card(c)]
