"""Scenario tests for the twelve random events (rulebook 001, "Random Events", and its FAQ),
including what Holborn's City Area card can and cannot do against each of them.

Every scenario is built with ``build_position`` and fires the event through a real card with
the Random Event symbol (Professor of Recent Runes: event, scroll, play another). The die rolls
are fixed (``build_position(rolls=...)`` / ``Game.fix_rolls``), so each test states the exact
rolls it expects and checks that the engine made no more (a further roll raises) and no fewer
(``g.fixed_rolls`` is empty).

Area numbers (die results) follow the board: 1 Chelsea, 2 Westminster, 3 West End (inland),
4 Holborn, 5 City, 6 Highbury (inland), 7 East End, 8 Bermondsey, 9 Southwark, 10 Strand,
11 Lambeth, 12 Battersea. Engine indices are the die number minus one.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from nanty_env.engine import actions as A
from nanty_env.engine import board, scoring
from nanty_env.engine.abilities import usable_abilities
from nanty_env.engine.game import Game
from nanty_env.engine.position import area, build_position, card
from nanty_env.engine.scoring import points
from nanty_env.engine.state import with_item
from nanty_env.engine.tables import tables
from tests.engine.conftest import pw

EVENT_CARD = "professor_of_recent_runes"  # event, scroll (draw), play another
HOLBORN = area("Holborn")

CHELSEA, WESTMINSTER, WEST_END = area("Chelsea"), area("Westminster"), area("West End")
CITY, HIGHBURY, EAST_END = area("City"), area("Highbury"), area("East End")
BERMONDSEY, SOUTHWARK, STRAND = area("Bermondsey"), area("Southwark"), area("Strand")
LAMBETH, BATTERSEA = area("Lambeth"), area("Battersea")

TOBY, GOODYEAR = card("Toby"), card("Mr. Goodyear")
DORRIT, LEAGUE, FRANKENSTEIN = card("Little Dorrit"), card("Red-Headed League"), card("Igor")


def fire_event(
    event: str,
    rolls: Sequence[int | str] = (),
    *,
    n: int = 4,
    active: int = 0,
    hands: Sequence[Sequence[str]] | None = None,
    personalities: Sequence[str] | None = None,
    **position: object,
) -> Game:
    """Build a position whose next random event is ``event``, give the active player the
    event card, play it and resolve its Random Event symbol with the scripted ``rolls``."""
    hands = [list(h) for h in hands] if hands is not None else [[] for _ in range(n)]
    position.setdefault("agents", {})  # no starting agents unless the test places some
    hands[active] = [EVENT_CARD, *hands[active]]
    g = build_position(
        n,
        rolls=rolls,
        events=[event],
        hands=hands,
        active=active,
        personalities=personalities or ["sherlock_holmes"] * n,
        **position,
    )
    g.apply(A.PLAY_CARD + card(EVENT_CARD))
    legal = g.legal_actions()
    assert A.CONFIRM in legal and A.PASS not in legal, "the Random Event symbol is compulsory"
    g.apply(A.CONFIRM)
    # drawn once and set aside for the rest of the game
    assert g.event_deck == () and g.events_done[-1] == tables().data.event_index[event]
    return g


def event_over(g: Game, active: int = 0) -> bool:
    """The event has been resolved completely: back at the card's scroll, every roll used."""
    return (
        not g.fixed_rolls
        and g.decision == "card"
        and g.current_player == active
        and g.stack[-1]["i"] == 1
    )


def agents_in(g: Game, a: int) -> list[int]:
    return [g.agents[s][a] for s in range(g.n)]


def holborn() -> int:
    return A.ABILITY + HOLBORN


def card_id(c: int) -> str:
    return tables().card_id(c)


# ====================================================================== Zeppelin Crash
def test_zeppelin_crash_clears_every_pawn_the_marker_and_the_building():
    g = fire_event(
        "zeppelin_crash",
        ["Westminster"],
        agents={0: {"Westminster": 2, "Chelsea": 1}, 1: {"Westminster": 1}, 2: {"Lambeth": 1}},
        grenadiers={"Westminster": 1},
        citizens={"Westminster": 2, "Lambeth": 1},
        trouble=["Westminster", "Lambeth"],
        buildings={"Westminster": 1, "Lambeth": 2},
    )
    assert event_over(g)
    assert agents_in(g, WESTMINSTER) == [0, 0, 0, 0]
    assert (g.gren[WESTMINSTER], g.cit[WESTMINSTER], g.trouble[WESTMINSTER]) == (0, 0, 0)
    assert g.building[WESTMINSTER] == board.NO_BUILDING
    assert board.city_card_owner(g, WESTMINSTER) == -1  # the City Area card goes back
    assert g.on_board == [1, 0, 1, 0]  # the agents went back to their owners' supplies
    # nothing else is touched
    assert (g.agents[0][CHELSEA], g.agents[2][LAMBETH], g.cit[LAMBETH]) == (1, 1, 1)
    assert (g.trouble[LAMBETH], g.building[LAMBETH]) == (1, 2)


def test_zeppelin_crash_on_an_empty_area_does_nothing():
    g = fire_event(
        "zeppelin_crash", ["Highbury"], agents={0: {"Chelsea": 1}}, buildings={"Chelsea": 0}
    )
    assert event_over(g)
    assert g.agents[0][CHELSEA] == 1 and g.building[CHELSEA] == 0


def test_zeppelin_crash_holborn_pays_per_piece():
    """FAQ: Zeppelin Crash, pay £3 for each affected piece you want to protect."""
    g = fire_event(
        "zeppelin_crash",
        ["Westminster"],
        agents={1: {"Westminster": 2}, 2: {"Westminster": 1}},
        buildings={"Westminster": 1, "Holborn": 1},
        citizens={"Westminster": 1},
        trouble=["Westminster"],
        money=[10, 10, 10, 10],
    )
    assert not g.fixed_rolls
    # Player 1's first agent: protect it (out of turn: player 0 is active).
    assert (g.decision, g.current_player) == ("react", 1)
    assert g.legal_actions() == [A.PASS, holborn()]
    g.apply(holborn())
    # Player 1's second agent: let it go.
    assert (g.decision, g.current_player) == ("react", 1)
    g.apply(A.PASS)
    # Player 2 has no Holborn and no cards: not asked. Then the building: protect it.
    assert (g.decision, g.current_player) == ("react", 1)
    assert g.stack[-1]["w"] == "building"
    g.apply(holborn())
    assert event_over(g)
    assert agents_in(g, WESTMINSTER) == [0, 1, 0, 0]
    assert g.building[WESTMINSTER] == 1
    assert g.cit[WESTMINSTER] == 0 and g.trouble[WESTMINSTER] == 0
    assert g.money == [10, 4, 10, 10]


@pytest.mark.parametrize(
    ("played", "verdict"), [(DORRIT, "stays"), (LEAGUE, "moves"), (FRANKENSTEIN, "moves")]
)
def test_zeppelin_crash_interrupts_that_work_against_random_events(played, verdict):
    """FAQ: Red-Headed League, Little Dorrit and Victor Frankenstein work against the
    Zeppelin Crash; Toby and Mr. Goodyear do not."""
    g = fire_event(
        "zeppelin_crash",
        ["Westminster"],
        agents={0: {"Chelsea": 1}, 1: {"Westminster": 1}},
        hands=[[], [card_id(TOBY), card_id(GOODYEAR), card_id(played)], [], []],
    )
    assert (g.decision, g.current_player) == ("react", 1)
    assert g.legal_actions() == [A.PASS, A.PLAY_CARD + played]
    g.apply(A.PLAY_CARD + played)
    if verdict == "stays":
        assert event_over(g)
        assert g.agents[1][WESTMINSTER] == 1
    else:
        # removed, then placed again anywhere but the crash site
        assert (g.decision, g.current_player) == ("place_agent", 1)
        assert WESTMINSTER not in [a - A.AREA for a in g.legal_actions()]
        assert len(g.legal_actions()) == 11
        g.apply(A.AREA + CHELSEA)
        assert event_over(g)
        assert g.agents[1][WESTMINSTER] == 0 and g.agents[1][CHELSEA] == 1
        assert g.trouble[CHELSEA] == 1  # an ordinary placement next to player 0's agent
    assert played in g.discard and g.hands[1] == [TOBY, GOODYEAR]


# ====================================================================== Flood
def flood_position(**extra: object) -> dict[str, object]:
    return {
        "agents": {
            0: {"Westminster": 2, "Strand": 1},
            1: {"Westminster": 1},
            3: {"Strand": 1},
        },
        "grenadiers": {"Westminster": 1},
        "citizens": {"Strand": 1},
        "buildings": {"Westminster": 1},
        "trouble": ["Westminster"],
        **extra,
    }


def test_flood_players_in_order_move_agents_one_at_a_time_to_dry_neighbours():
    g = fire_event("flood", ["Westminster", "Strand"], **flood_position())
    assert not g.fixed_rolls  # both rolls before anyone moves (FAQ)
    moves = []
    for who, src, dest in [
        (0, WESTMINSTER, LAMBETH),
        (0, WESTMINSTER, LAMBETH),
        (0, STRAND, CITY),
        (1, WESTMINSTER, CHELSEA),
        (3, STRAND, SOUTHWARK),
    ]:
        assert (g.decision, g.current_player) == ("flood", who)
        dry = {d for d in tables().neighbours[src] if d not in (WESTMINSTER, STRAND)}
        assert {a - A.AREA for a in g.legal_actions()} == dry  # never the other flooded area
        g.apply(A.AREA + dest)
        moves.append((who, src, dest))
        if moves == [(0, WESTMINSTER, LAMBETH)]:
            assert g.trouble[WESTMINSTER] == 0  # a pawn left: the marker goes
            assert g.trouble[LAMBETH] == 0  # Lambeth was empty: no trouble yet
        if len(moves) == 2:
            assert g.trouble[LAMBETH] == 1  # the second agent arrives next to the first
    assert event_over(g)
    assert agents_in(g, WESTMINSTER) == [0, 0, 0, 0] and agents_in(g, STRAND) == [0, 0, 0, 0]
    assert g.agents[0][LAMBETH] == 2 and g.agents[0][CITY] == 1
    assert g.agents[1][CHELSEA] == 1 and g.agents[3][SOUTHWARK] == 1
    # buildings, grenadiers and new citizens stay where they are
    assert g.building[WESTMINSTER] == 1 and g.gren[WESTMINSTER] == 1 and g.cit[STRAND] == 1
    assert g.on_board == [3, 1, 0, 1]


def test_flood_order_starts_with_the_active_player():
    g = fire_event(
        "flood",
        ["Westminster", "Lambeth"],
        active=2,
        agents={s: {"Westminster": 1} for s in range(4)},
    )
    order = []
    while g.decision == "flood":
        order.append(g.current_player)
        g.apply(g.legal_actions()[0])
    assert order == [2, 3, 0, 1]
    assert event_over(g, active=2)


def test_flood_a_repeated_number_floods_one_area():
    g = fire_event("flood", ["Westminster", "Westminster"], agents={0: {"Westminster": 1}})
    assert not g.fixed_rolls
    assert (g.decision, g.current_player) == ("flood", 0)
    # Strand and the rest are dry: every neighbour of Westminster is a way out
    assert [a - A.AREA for a in g.legal_actions()] == list(tables().neighbours[WESTMINSTER])
    g.apply(A.AREA + STRAND)
    assert event_over(g)


def test_flood_only_touches_areas_on_the_river():
    """West End and Highbury do not border the Thames."""
    g = fire_event(
        "flood", ["West End", "Highbury"], agents={0: {"West End": 2}, 1: {"Highbury": 1}}
    )
    assert event_over(g)
    assert g.agents[0][WEST_END] == 2 and g.agents[1][HIGHBURY] == 1


def test_flood_an_inland_rolled_area_stays_dry_and_may_be_fled_to():
    g = fire_event(
        "flood", ["West End", "Westminster"], agents={0: {"West End": 1, "Westminster": 1}}
    )
    assert (g.decision, g.current_player) == ("flood", 0)
    assert A.AREA + WEST_END in g.legal_actions()
    g.apply(A.AREA + WEST_END)
    assert event_over(g)
    assert g.agents[0][WEST_END] == 2 and g.trouble[WEST_END] == 1


def test_flood_without_agents_in_the_flooded_area_asks_nobody():
    g = fire_event(
        "flood", ["Lambeth", "Battersea"], agents={0: {"Chelsea": 1}}, buildings={"Lambeth": 0}
    )
    assert event_over(g)
    assert g.building[LAMBETH] == 0


def test_flood_holborn_keeps_an_agent_in_place_for_3_each():
    g = fire_event(
        "flood",
        ["Westminster", "Battersea"],
        active=1,
        agents={0: {"Westminster": 2}},
        buildings={"Holborn": 0},
        money=[7, 10, 10, 10],
    )
    assert (g.decision, g.current_player) == ("flood", 0)  # out of turn
    assert holborn() in g.legal_actions()
    g.apply(holborn())
    assert g.money[0] == 4
    assert (g.decision, g.current_player) == ("flood", 0)
    assert holborn() in g.legal_actions()
    g.apply(A.AREA + CHELSEA)
    assert event_over(g, active=1)
    assert g.agents[0][WESTMINSTER] == 1 and g.agents[0][CHELSEA] == 1
    assert g.money[0] == 4


def test_flood_holborn_needs_3():
    g = fire_event(
        "flood",
        ["Westminster", "Battersea"],
        agents={0: {"Westminster": 1}},
        buildings={"Holborn": 0},
        money=[2, 10, 10, 10],
    )
    assert holborn() not in g.legal_actions()


# ====================================================================== Fire
def fire_buildings(**extra: int) -> dict[str, int]:
    return {"Westminster": 1, "Strand": 2, "Southwark": 3, "Chelsea": 0, **extra}


def test_fire_spreads_to_each_neighbour_rolled_with_a_building():
    # Westminster burns; Strand is next to it and built; Southwark is next to Strand (not to
    # Westminster: the fire follows the last area rolled); Bermondsey has no building: stop.
    g = fire_event(
        "fire",
        ["Westminster", "Strand", "Southwark", "Bermondsey"],
        buildings=fire_buildings(),
        agents={1: {"Westminster": 1}},
    )
    assert event_over(g)
    assert [g.building[a] for a in (WESTMINSTER, STRAND, SOUTHWARK, CHELSEA)] == [-1, -1, -1, 0]
    assert g.agents[1][WESTMINSTER] == 1  # fire burns buildings only


def test_fire_stops_at_an_area_not_next_to_the_last_one():
    g = fire_event("fire", ["Westminster", "Southwark"], buildings=fire_buildings())
    assert event_over(g)
    assert [g.building[a] for a in (WESTMINSTER, STRAND, SOUTHWARK)] == [-1, 2, 3]


def test_fire_stops_at_a_neighbour_without_a_building():
    g = fire_event("fire", ["Westminster", "Lambeth"], buildings=fire_buildings())
    assert event_over(g)
    assert [g.building[a] for a in (WESTMINSTER, STRAND, CHELSEA)] == [-1, 2, 0]


def test_fire_rolling_the_same_area_again_stops_it():
    """An area is not adjacent to itself (README ambiguity 5)."""
    g = fire_event("fire", ["Westminster", "Westminster"], buildings=fire_buildings())
    assert event_over(g)
    assert [g.building[a] for a in (WESTMINSTER, STRAND, CHELSEA)] == [-1, 2, 0]


def test_fire_without_a_building_in_the_first_area_rolls_once():
    g = fire_event("fire", ["Highbury"], buildings=fire_buildings())
    assert event_over(g)
    assert [g.building[a] for a in (WESTMINSTER, STRAND, SOUTHWARK, CHELSEA)] == [1, 2, 3, 0]


def test_fire_a_building_saved_by_holborn_still_spreads_the_fire():
    """FAQ: pay £3 to protect your building, but the fire still rages and may spread; all
    the fire's rolls are made before the Holborn owner decides."""
    g = fire_event(
        "fire",
        ["Westminster", "Strand", "Highbury"],
        buildings=fire_buildings(Westminster=1, Holborn=1),
    )
    assert not g.fixed_rolls
    assert (g.decision, g.current_player) == ("react", 1)
    assert g.stack[-1]["a"] == WESTMINSTER
    g.apply(holborn())
    assert event_over(g)
    assert g.building[WESTMINSTER] == 1 and g.building[STRAND] == -1
    assert g.money[1] == 10 - 3


def test_fire_does_not_return_to_an_area_it_already_burned():
    """Engine decision: the fire's rolls are all made first, as if every building it reached
    burned, so rolling back into an area it already went through ends the fire even when a
    Holborn payment later saves that building."""
    g = fire_event(
        "fire",
        ["Westminster", "Strand", "Westminster"],
        buildings=fire_buildings(Westminster=1, Holborn=1),
    )
    assert not g.fixed_rolls
    asked = []
    while g.decision == "react":
        asked.append(g.stack[-1]["a"])
        g.apply(holborn())
    assert asked == [WESTMINSTER]  # asked once for Westminster, never a second time
    assert event_over(g)
    assert g.building[WESTMINSTER] == 1 and g.building[STRAND] == -1


# ====================================================================== Fog
def test_fog_discards_the_top_five_cards_face_up():
    top = ["groat", "dwarves", "ruby", "the_mob", "errol", "hex"]
    g = fire_event("fog", deck_top=top)
    assert event_over(g)
    assert g.discard[-5:] == [card(x) for x in top[:5]]
    assert g.deck[-1] == card("hex")
    # public knowledge: every seat sees them on the discard pile
    for s in range(4):
        assert g.view(s)["discard"][-5:] == [card(x) for x in top[:5]]


def test_fog_with_fewer_than_five_cards_discards_what_is_left():
    g = fire_event("fog", deck_top=["groat", "dwarves", "ruby"], deck_size=3)
    assert event_over(g)
    assert g.deck == [] and g.discard[-3:] == [card("groat"), card("dwarves"), card("ruby")]


def test_fog_can_exhaust_the_draw_pile_and_end_the_game():
    """Fog takes the last cards; the active player then cannot refill and the game ends
    (Sherlock Holmes wins at that ending)."""
    g = fire_event(
        "fog",
        deck_size=5,
        personalities=["moriarty", "fagin", "sherlock_holmes", "lord_balmoral"],
    )
    assert event_over(g) and g.deck == []
    g.apply(A.PASS)  # the scroll (draw cards: nothing left anyway)
    while not g.is_terminal:
        assert g.current_player == 0
        g.apply(A.PASS)  # no card to play on; end the turn
    assert g.outcome.reason == "deck_exhausted:personality" and g.outcome.winners == (2,)


# ====================================================================== Riots
EIGHT = ["Chelsea", "Westminster", "West End", "Holborn", "City", "Highbury", "Strand", "Lambeth"]


def test_riots_with_eight_markers_end_the_game_on_points_and_holmes_just_scores():
    g = fire_event(
        "riots",
        personalities=["moriarty", "sherlock_holmes", "fagin", "lord_bellinger"],
        active=0,
        trouble=EIGHT,
        agents={0: {"Chelsea": 1}, 1: {"Westminster": 1}, 2: {"Lambeth": 2}},
        buildings={"Lambeth": 2},
        money=[5, 30, 1, 0],
    )
    assert not g.fixed_rolls and g.is_terminal
    assert g.outcome.reason == "riots:points"
    # 5 per agent + building costs + £1 each
    assert g.outcome.points == (10, 35, 10 + 18 + 1, 0)
    assert g.outcome.winners == (1,)  # Holmes wins only because of his points
    assert g.returns() == [-1.0, 1.0, -1.0, -1.0]


def test_riots_holmes_does_not_win_without_the_points():
    g = fire_event(
        "riots",
        personalities=["moriarty", "sherlock_holmes", "fagin", "lord_bellinger"],
        trouble=[*EIGHT, "Battersea"],
        agents={0: {"Chelsea": 1}, 1: {"Westminster": 1}},
        money=[20, 0, 0, 0],
    )
    assert g.is_terminal and g.outcome.winners == (0,)


def test_riots_with_seven_markers_do_nothing():
    g = fire_event("riots", trouble=EIGHT[:7], agents={0: {"Chelsea": 1}})
    assert event_over(g)
    assert not g.is_terminal and sum(g.trouble) == 7


# ====================================================================== Explosion
def test_explosion_removes_the_building_in_the_rolled_area():
    g = fire_event(
        "explosion",
        ["Strand"],
        buildings={"Strand": 2, "Westminster": 1},
        agents={2: {"Strand": 1}},
        trouble=["Strand"],
    )
    assert event_over(g)
    assert g.building[STRAND] == -1 and g.building[WESTMINSTER] == 1
    assert board.city_card_owner(g, STRAND) == -1
    assert g.agents[2][STRAND] == 1 and g.trouble[STRAND] == 1


def test_explosion_in_an_area_without_a_building_does_nothing():
    g = fire_event("explosion", ["Strand"], buildings={"Westminster": 1})
    assert event_over(g)
    assert g.building[WESTMINSTER] == 1


def test_explosion_holborn_saves_the_building():
    g = fire_event("explosion", ["Strand"], buildings={"Strand": 2, "Holborn": 2}, active=3)
    assert (g.decision, g.current_player) == ("react", 2)
    assert g.legal_actions() == [A.PASS, holborn()]
    g.apply(holborn())
    assert event_over(g, active=3)
    assert g.building[STRAND] == 2 and g.money[2] == 7


# ====================================================================== Mysterious Murders
def test_mysterious_murders_each_player_in_turn_rolls_and_picks_a_pawn():
    g = fire_event(
        "mysterious_murders",
        ["Westminster"],
        agents={0: {"Westminster": 1, "Chelsea": 1}, 1: {"Westminster": 1, "Strand": 2}},
        grenadiers={"Westminster": 1},
        citizens={"Chelsea": 1},
    )
    # Player 0 rolled Westminster: player 1's agent or the grenadier, not their own agent.
    assert (g.decision, g.current_player) == ("murders", 0)
    assert g.legal_actions() == [pw(WESTMINSTER, 1), pw(WESTMINSTER, A.SLOT_GRENADIER)]
    g.fix_rolls([*g.fixed_rolls, STRAND])
    g.apply(pw(WESTMINSTER, A.SLOT_GRENADIER))
    assert g.gren[WESTMINSTER] == 0 and g.agents[1][WESTMINSTER] == 1
    # Player 1 rolled Strand, where only they have agents: they must remove one of them.
    assert (g.decision, g.current_player) == ("murders", 1)
    assert g.legal_actions() == [pw(STRAND, 0)]
    g.fix_rolls([*g.fixed_rolls, HIGHBURY, CHELSEA])
    g.apply(pw(STRAND, 0))
    assert g.agents[1][STRAND] == 1
    # Player 2 rolled empty Highbury: nothing. Player 3 rolled Chelsea.
    assert (g.decision, g.current_player) == ("murders", 3)
    assert g.legal_actions() == [pw(CHELSEA, 1), pw(CHELSEA, A.SLOT_CITIZEN)]
    g.apply(pw(CHELSEA, 1))  # player 0's agent (seat 3 + 1)
    assert event_over(g)
    assert g.agents[0][CHELSEA] == 0 and g.cit[CHELSEA] == 1
    assert g.on_board == [1, 2, 0, 0]


def test_mysterious_murders_start_with_the_active_player():
    g = fire_event(
        "mysterious_murders",
        ["Battersea", "Battersea", "Battersea"],
        n=3,
        active=1,
        agents={0: {"Battersea": 1}, 1: {"Battersea": 1}, 2: {"Battersea": 1}},
    )
    order = []
    while g.decision == "murders":
        order.append(g.current_player)
        g.apply(g.legal_actions()[0])
    assert order == [1, 2, 0]
    assert event_over(g, active=1)
    assert sum(agents_in(g, BATTERSEA)) == 0


def test_mysterious_murders_holborn_saves_the_chosen_agent_and_nobody_else_dies():
    """The roller does not pick another pawn after a Holborn save (README ambiguity 2)."""
    g = fire_event(
        "mysterious_murders",
        ["Westminster", "Highbury"],
        n=2,
        agents={0: {"Chelsea": 1}, 1: {"Westminster": 2}},
        buildings={"Holborn": 1},
        citizens={"Westminster": 1},
    )
    g.apply(pw(WESTMINSTER, 1))
    assert (g.decision, g.current_player) == ("react", 1)
    g.apply(holborn())
    assert event_over(g)
    assert g.agents[1][WESTMINSTER] == 2 and g.cit[WESTMINSTER] == 1 and g.money[1] == 7


def test_mysterious_murders_little_dorrit_protects_against_the_event():
    g = fire_event(
        "mysterious_murders",
        ["Westminster", "Highbury"],
        n=2,
        agents={0: {"Chelsea": 1}, 1: {"Westminster": 1}},
        hands=[[], ["gaspode", "susan"]],
    )
    g.apply(pw(WESTMINSTER, 1))
    assert g.legal_actions() == [A.PASS, A.PLAY_CARD + DORRIT]  # Toby: not against events
    g.apply(A.PLAY_CARD + DORRIT)
    assert event_over(g)
    assert g.agents[1][WESTMINSTER] == 1


def test_mysterious_murders_own_agents_are_safe_while_any_other_pawn_is_there():
    """Engine decision (README ambiguity 7): the roller removes their own agent only when
    nothing else is there; a grenadier or new citizen is taken first."""
    g = fire_event(
        "mysterious_murders",
        ["Westminster", "Highbury"],
        n=2,
        agents={0: {"Westminster": 2}},
        grenadiers={"Westminster": 1},
    )
    assert (g.decision, g.current_player) == ("murders", 0)
    assert g.legal_actions() == [pw(WESTMINSTER, A.SLOT_GRENADIER)]
    g.apply(pw(WESTMINSTER, A.SLOT_GRENADIER))
    assert event_over(g)
    assert g.agents[0][WESTMINSTER] == 2 and g.gren[WESTMINSTER] == 0


# ====================================================================== Martial Law
def test_martial_law_places_four_grenadiers_each_with_a_marker():
    g = fire_event(
        "martial_law",
        ["Westminster", "Westminster", "Highbury", "Chelsea"],
        agents={0: {"Westminster": 1}},
    )
    assert event_over(g)
    assert (g.gren[WESTMINSTER], g.gren[HIGHBURY], g.gren[CHELSEA]) == (2, 1, 1)
    # a marker even where no other pawn stood (Highbury, Chelsea)
    assert g.trouble[WESTMINSTER] == g.trouble[HIGHBURY] == g.trouble[CHELSEA] == 1
    assert sum(g.gren) == 4


def test_martial_law_is_limited_by_the_four_grenadier_pawns():
    g = fire_event(
        "martial_law",
        ["Westminster", "Chelsea", "Strand", "Lambeth"],
        grenadiers={"Battersea": 3},
    )
    assert event_over(g)
    assert g.gren[WESTMINSTER] == 1 and g.gren[BATTERSEA] == 3 and sum(g.gren) == 4
    assert g.trouble[CHELSEA] == 0  # no pawn left in the supply, no marker either


def test_martial_law_stops_control_ability_building_value_and_occupancy():
    """While a grenadier stands there: no City Area ability, building worth 0, no control, not
    occupied for Moriarty, and at the end no points for agents or buildings there."""
    g = fire_event(
        "martial_law",
        ["Lambeth", "Lambeth", "Lambeth", "Lambeth"],
        agents={0: {"Lambeth": 2, "Chelsea": 1}},
        buildings={"Lambeth": 0},
        money=[0, 0, 0, 0],
        turn=9,
    )
    before = build_position(
        4,
        agents={0: {"Lambeth": 2, "Chelsea": 1}},
        buildings={"Lambeth": 0},
        money=[0, 0, 0, 0],
        personalities=["sherlock_holmes"] * 4,
    )
    assert scoring.controls(before, 0, LAMBETH) and LAMBETH in usable_abilities(before, 0)
    assert (scoring.occupied_areas(before, 0), scoring.net_worth(before, 0)) == (2, 18)
    assert points(before, 0) == 15 + 18

    assert event_over(g)
    assert g.gren[LAMBETH] == 4
    assert not scoring.controls(g, 0, LAMBETH)
    assert LAMBETH not in usable_abilities(g, 0)
    assert A.ABILITY + LAMBETH not in g.legal_actions()
    assert scoring.occupied_areas(g, 0) == 1
    assert scoring.building_value(g, 0) == 0 and scoring.net_worth(g, 0) == 0
    assert points(g, 0) == 5  # only the Chelsea agent scores
    assert board.city_card_owner(g, LAMBETH) == 0  # the card is still held, just idle


def test_martial_law_holborn_only_where_you_have_an_agent_or_building():
    """FAQ: pay £3 per grenadier to keep it out of an area where you have an agent or
    building; the pawn stays beside the board. All four rolls come first."""
    g = fire_event(
        "martial_law",
        ["Westminster", "Highbury", "Westminster", "Chelsea"],
        agents={1: {"Westminster": 1}, 2: {"Chelsea": 1}},
        buildings={"Holborn": 1},
    )
    assert not g.fixed_rolls
    assert (g.decision, g.current_player) == ("react", 1)
    assert g.stack[-1]["a"] == WESTMINSTER
    assert g.legal_actions() == [A.PASS, holborn()]
    g.apply(holborn())
    # Highbury: player 1 has nothing there, not asked; Westminster again: asked again
    assert (g.decision, g.current_player) == ("react", 1)
    assert g.stack[-1]["a"] == WESTMINSTER
    assert g.gren[HIGHBURY] == 1
    g.apply(A.PASS)
    assert event_over(g)  # Chelsea: player 2 has no Holborn, player 1 nothing there
    assert [g.gren[a] for a in (WESTMINSTER, HIGHBURY, CHELSEA)] == [1, 1, 1]
    assert g.money[1] == 7 and sum(g.gren) == 3


def test_martial_law_holborn_with_only_a_building_in_the_area():
    g = fire_event(
        "martial_law",
        ["Chelsea", "Chelsea", "Chelsea", "Chelsea"],
        buildings={"Holborn": 2, "Chelsea": 2},
        money=[10, 10, 7, 10],
    )
    for _ in range(2):
        assert (g.decision, g.current_player) == ("react", 2)
        g.apply(holborn())
    # £1 left: no more offers
    assert event_over(g)
    assert g.gren[CHELSEA] == 2 and g.money[2] == 1


def test_martial_law_grenadiers_in_holborn_switch_holborn_off():
    g = fire_event(
        "martial_law",
        ["Holborn", "Westminster", "Westminster", "Westminster"],
        agents={1: {"Westminster": 1}},
        buildings={"Holborn": 1},
    )
    # player 1 may keep the first grenadier out of Holborn (their building is there) ...
    assert (g.decision, g.current_player, g.stack[-1]["a"]) == ("react", 1, HOLBORN)
    g.apply(A.PASS)
    # ... but once it stands in Holborn the card is void: no offers for Westminster
    assert event_over(g)
    assert g.gren[HOLBORN] == 1 and g.gren[WESTMINSTER] == 3 and g.money[1] == 10


def test_martial_law_holborn_is_not_asked_once_the_grenadiers_have_run_out():
    """With no grenadier left in the supply nothing would arrive: no £3 decision."""
    g = fire_event(
        "martial_law",
        ["Westminster", "Westminster", "Westminster", "Westminster"],
        agents={1: {"Westminster": 1}},
        buildings={"Holborn": 1},
        grenadiers={"Battersea": 3},
    )
    assert (g.decision, g.current_player) == ("react", 1)
    g.apply(A.PASS)  # the fourth grenadier arrives
    assert event_over(g)
    assert g.gren[WESTMINSTER] == 1 and g.money[1] == 10


# ====================================================================== Subsidence
def test_subsidence_costs_2_per_building_and_unpaid_ones_are_removed():
    g = fire_event(
        "subsidence",
        active=1,
        buildings={
            "Chelsea": 0,
            "Westminster": 0,
            "Strand": 0,
            "Lambeth": 1,
            "Battersea": 1,
            "City": 2,
        },
        money=[5, 10, 1, 4],
    )
    # Player 1 (active) pays £4; player 2 cannot pay and loses the City building; player 3 has
    # no buildings; player 0 can pay for two of three and chooses which one goes.
    assert (g.decision, g.current_player) == ("subsidence", 0)
    assert g.money[:3] == [5, 6, 1]
    assert g.building[CITY] == -1 and board.city_card_owner(g, CITY) == -1
    assert sorted(a - A.AREA for a in g.legal_actions()) == [CHELSEA, WESTMINSTER, STRAND]
    g.apply(A.AREA + WESTMINSTER)
    assert event_over(g, active=1)
    assert g.building[WESTMINSTER] == -1 and g.building[CHELSEA] == g.building[STRAND] == 0
    assert g.money == [1, 6, 1, 4]


def test_subsidence_with_no_money_removes_every_building_and_holborn_does_not_help():
    g = fire_event("subsidence", buildings={"Holborn": 1, "Chelsea": 1}, money=[10, 0, 10, 10])
    assert event_over(g)
    assert g.building[HOLBORN] == -1 and g.building[CHELSEA] == -1
    assert g.money == [10, 0, 10, 10]


def test_subsidence_holborn_is_never_offered():
    """FAQ: Holborn has no effect against Subsidence (better to pay the £2)."""
    g = fire_event(
        "subsidence", buildings={"Holborn": 1, "Chelsea": 1, "Lambeth": 1}, money=[0, 5, 0, 0]
    )
    assert (g.decision, g.current_player) == ("subsidence", 1)
    assert holborn() not in g.legal_actions()


# ====================================================================== Inigo Jones
def test_inigo_jones_sets_the_card_aside_and_the_owner_removes_an_agent():
    g = fire_event(
        "inigo_jones",
        ["Lambeth"],
        agents={0: {"Lambeth": 1}, 1: {"Lambeth": 2}},
        buildings={"Lambeth": 1},
        trouble=["Lambeth"],
    )
    assert event_over(g)
    assert g.city_retired[LAMBETH] == 1 and board.city_card_owner(g, LAMBETH) == -1
    assert agents_in(g, LAMBETH) == [1, 1, 0, 0] and g.trouble[LAMBETH] == 0
    # the building stays, keeps its value and counts for control; the ability is gone
    assert g.building[LAMBETH] == 1
    assert scoring.building_value(g, 1) == 18 and points(g, 1) == 5 + 18 + 10
    assert scoring.controls(g, 1, LAMBETH)
    assert LAMBETH not in usable_abilities(g, 1)


def test_inigo_jones_card_set_aside_for_good():
    """Even a new building there later brings no City Area card."""
    g = fire_event("inigo_jones", ["Lambeth"], buildings={"Lambeth": 1})
    assert event_over(g)
    board.remove_building(g, LAMBETH)
    board.place_building(g, 2, LAMBETH)
    assert board.city_card_owner(g, LAMBETH) == -1
    g.turn += 1
    assert LAMBETH not in usable_abilities(g, 2)


def test_inigo_jones_on_a_card_on_display_does_nothing():
    g = fire_event("inigo_jones", ["Lambeth"], agents={1: {"Lambeth": 2}})
    assert event_over(g)
    assert g.city_retired == (0,) * 12 and g.agents[1][LAMBETH] == 2


def test_inigo_jones_owner_without_an_agent_there_loses_only_the_card():
    g = fire_event("inigo_jones", ["Lambeth"], agents={0: {"Lambeth": 1}}, buildings={"Lambeth": 1})
    assert event_over(g)
    assert g.city_retired[LAMBETH] == 1 and g.agents[0][LAMBETH] == 1


@pytest.mark.parametrize(("save_card", "save_agent"), [(1, 1), (1, 0), (0, 1), (0, 0)])
def test_inigo_jones_holborn_protects_card_and_agent_separately(save_card, save_agent):
    g = fire_event(
        "inigo_jones",
        ["Lambeth"],
        agents={1: {"Lambeth": 1}},
        buildings={"Lambeth": 1, "Holborn": 1},
    )
    assert (g.decision, g.current_player) == ("react", 1)
    assert g.stack[-1]["w"] == "holborn"
    g.apply(holborn() if save_card else A.PASS)
    assert (g.decision, g.current_player) == ("react", 1)
    assert g.stack[-1]["w"] == "remove"
    g.apply(holborn() if save_agent else A.PASS)
    assert event_over(g)
    assert g.city_retired[LAMBETH] == 1 - save_card
    assert g.agents[1][LAMBETH] == save_agent
    assert g.money[1] == 10 - 3 * (save_card + save_agent)


def test_inigo_jones_retiring_holborn_itself_leaves_nothing_to_save_the_agent():
    g = fire_event("inigo_jones", ["Holborn"], agents={1: {"Holborn": 1}}, buildings={"Holborn": 1})
    g.apply(A.PASS)  # let the Holborn card go
    assert event_over(g)  # no second offer: the card protecting the agent is gone
    assert g.city_retired[HOLBORN] == 1 and g.agents[1][HOLBORN] == 0


def test_inigo_jones_interrupts_may_save_the_agent():
    g = fire_event(
        "inigo_jones",
        ["Lambeth"],
        agents={1: {"Lambeth": 1}},
        buildings={"Lambeth": 1},
        hands=[[], ["fresh_start_club", "gaspode"], [], []],
    )
    assert (g.decision, g.current_player) == ("react", 1)
    assert g.legal_actions() == [A.PASS, A.PLAY_CARD + LEAGUE]
    g.apply(A.PLAY_CARD + LEAGUE)
    g.apply(A.AREA + BATTERSEA)
    assert event_over(g)
    assert g.agents[1][LAMBETH] == 0 and g.agents[1][BATTERSEA] == 1


# ====================================================================== Immigrants
def test_immigrants_three_new_citizens_with_trouble_by_the_normal_rule():
    g = fire_event(
        "immigrants", ["Westminster", "Highbury", "Highbury"], agents={0: {"Westminster": 1}}
    )
    assert event_over(g)
    assert (g.cit[WESTMINSTER], g.cit[HIGHBURY]) == (1, 2)
    assert g.trouble[WESTMINSTER] == 1  # an agent was there
    assert g.trouble[HIGHBURY] == 1  # the second citizen joins the first


def test_immigrants_into_an_empty_area_cause_no_trouble():
    g = fire_event("immigrants", ["Highbury", "Chelsea", "Lambeth"])
    assert event_over(g)
    assert g.cit[HIGHBURY] == g.cit[CHELSEA] == g.cit[LAMBETH] == 1
    assert sum(g.trouble) == 0


def test_immigrants_are_limited_by_the_three_pawns():
    g = fire_event("immigrants", ["Highbury", "Chelsea", "Lambeth"], citizens={"Strand": 2})
    assert event_over(g)
    assert g.cit[HIGHBURY] == 1 and g.cit[CHELSEA] == g.cit[LAMBETH] == 0 and sum(g.cit) == 3


def test_immigrants_count_against_control():
    g = fire_event(
        "immigrants", ["Westminster", "Highbury", "Highbury"], agents={0: {"Westminster": 1}}
    )
    assert not scoring.controls(g, 0, WESTMINSTER)


def test_immigrants_holborn_where_you_have_an_agent():
    g = fire_event(
        "immigrants",
        ["Westminster", "Highbury", "Lambeth"],
        agents={3: {"Westminster": 1}},
        buildings={"Holborn": 3, "Lambeth": 3},
    )
    assert not g.fixed_rolls
    assert (g.decision, g.current_player, g.stack[-1]["a"]) == ("react", 3, WESTMINSTER)
    g.apply(holborn())
    assert (g.decision, g.current_player, g.stack[-1]["a"]) == ("react", 3, LAMBETH)
    g.apply(A.PASS)
    assert event_over(g)
    assert [g.cit[a] for a in (WESTMINSTER, HIGHBURY, LAMBETH)] == [0, 1, 1]
    assert g.money[3] == 7


def test_immigrants_holborn_is_not_asked_once_the_citizens_have_run_out():
    g = fire_event(
        "immigrants",
        ["Westminster", "Westminster", "Westminster"],
        agents={3: {"Westminster": 1}},
        buildings={"Holborn": 3},
        citizens={"Lambeth": 3},
    )
    assert event_over(g)
    assert g.cit[WESTMINSTER] == 0 and g.money[3] == 10


# ====================================================================== Earthquake
def test_earthquake_destroys_the_buildings_of_two_rolled_areas():
    g = fire_event(
        "earthquake",
        ["Westminster", "Battersea"],
        buildings={"Westminster": 0, "Battersea": 1, "Chelsea": 2},
    )
    assert event_over(g)
    assert [g.building[a] for a in (WESTMINSTER, BATTERSEA, CHELSEA)] == [-1, -1, 2]


def test_earthquake_rolling_the_same_area_twice():
    g = fire_event(
        "earthquake", ["Westminster", "Westminster"], buildings={"Westminster": 0, "Chelsea": 2}
    )
    assert event_over(g)
    assert g.building[WESTMINSTER] == -1 and g.building[CHELSEA] == 2


def test_earthquake_holborn_decides_after_both_rolls():
    g = fire_event(
        "earthquake",
        ["Westminster", "Holborn"],
        buildings={"Westminster": 0, "Holborn": 0},
        active=2,
    )
    assert not g.fixed_rolls
    assert (g.decision, g.current_player, g.stack[-1]["a"]) == ("react", 0, WESTMINSTER)
    g.apply(A.PASS)
    assert (g.decision, g.current_player, g.stack[-1]["a"]) == ("react", 0, HOLBORN)
    g.apply(holborn())
    assert event_over(g, active=2)
    assert g.building[WESTMINSTER] == -1 and g.building[HOLBORN] == 0 and g.money[0] == 7


def test_earthquake_holborn_destroyed_by_the_first_roll_cannot_save_the_second():
    """Engine decision: the rolls are all made first, then resolved in roll order, and
    Holborn must still be working when each decision comes. Letting the Holborn building go
    loses the protection for the rest of the event."""
    g = fire_event(
        "earthquake",
        ["Holborn", "Westminster"],
        buildings={"Westminster": 0, "Holborn": 0},
        active=2,
    )
    assert (g.decision, g.current_player, g.stack[-1]["a"]) == ("react", 0, HOLBORN)
    g.apply(A.PASS)
    assert event_over(g, active=2)
    assert g.building[WESTMINSTER] == g.building[HOLBORN] == -1 and g.money[0] == 10


# ====================================================================== Holborn in general
def test_holborn_does_not_work_in_the_turn_it_was_gained():
    """Build Holborn with Ruby, then (Maycroft Holmes' second card) draw an Explosion that
    hits it: no offer this turn."""
    g = build_position(
        4,
        events=["explosion"],
        hands=[["drumknott", "ruby", EVENT_CARD], [], [], []],
        agents={0: {"Holborn": 1}},
        money=[30, 10, 10, 10],
        personalities=["sherlock_holmes"] * 4,
    )
    g.fix_rolls([HOLBORN])
    g.apply(A.PLAY_CARD + card("drumknott"))
    g.apply(A.CONFIRM)  # play two cards
    g.apply(A.PLAY_CARD + card("ruby"))
    g.apply(A.PASS)  # no agent
    g.apply(A.AREA + HOLBORN)  # build in Holborn
    assert g.building[HOLBORN] == 0 and g.money[0] == 12
    g.apply(A.PLAY_CARD + card(EVENT_CARD))
    g.apply(A.CONFIRM)  # Explosion in Holborn
    assert not g.fixed_rolls
    assert g.decision == "card" and g.current_player == 0
    assert g.building[HOLBORN] == -1 and g.money[0] == 12


def test_holborn_works_in_the_turn_after_it_was_gained():
    g = fire_event("explosion", ["Holborn"], buildings={"Holborn": 0}, turn=7)
    assert (g.decision, g.current_player) == ("react", 0)


def test_holborn_gained_this_turn_is_not_offered():
    g = build_position(
        4,
        events=["explosion"],
        hands=[[EVENT_CARD], [], [], []],
        buildings={"Holborn": 1, "Lambeth": 1},
        personalities=["sherlock_holmes"] * 4,
    )
    g.city_gained = with_item(g.city_gained, HOLBORN, g.turn)
    g.fix_rolls([LAMBETH])
    g.apply(A.PLAY_CARD + card(EVENT_CARD))
    g.apply(A.CONFIRM)
    assert g.decision == "card" and g.building[LAMBETH] == -1


def test_holborn_under_martial_law_is_void():
    g = fire_event(
        "explosion", ["Lambeth"], buildings={"Holborn": 1, "Lambeth": 1}, grenadiers={"Holborn": 1}
    )
    assert event_over(g) and g.building[LAMBETH] == -1


def test_holborn_after_inigo_jones_is_void():
    g = fire_event(
        "explosion", ["Lambeth"], buildings={"Holborn": 1, "Lambeth": 1}, retired=["Holborn"]
    )
    assert event_over(g) and g.building[LAMBETH] == -1


def test_holborn_needs_3_pounds():
    g = fire_event(
        "explosion", ["Lambeth"], buildings={"Holborn": 1, "Lambeth": 1}, money=[10, 2, 10, 10]
    )
    assert event_over(g) and g.building[LAMBETH] == -1


def test_holborn_protects_only_its_owners_pieces():
    g = fire_event("explosion", ["Lambeth"], buildings={"Holborn": 1, "Lambeth": 2})
    assert event_over(g) and g.building[LAMBETH] == -1 and g.money[1] == 10


def test_holborn_has_nothing_to_protect_against_fog_and_riots():
    g = fire_event("fog", buildings={"Holborn": 1}, agents={1: {"Holborn": 1}})
    assert event_over(g)
    g = fire_event("riots", buildings={"Holborn": 1}, trouble=EIGHT)
    assert g.is_terminal


def test_the_holborn_decider_sees_every_area_the_event_rolled():
    """FAQ: the owner of Holborn needs to know all the affected areas before deciding; the
    pending event's areas are public and part of every seat's view."""
    g = fire_event(
        "earthquake",
        ["Westminster", "Battersea"],
        buildings={"Westminster": 1, "Battersea": 1, "Holborn": 1},
    )
    assert (g.decision, g.current_player) == ("react", 1)
    for s in range(4):
        assert g.view(s)["event_areas"] == [WESTMINSTER, BATTERSEA]
    g.apply(A.PASS)
    assert g.view(0)["event_areas"] == [BATTERSEA]
    g.apply(A.PASS)
    assert event_over(g)
    assert g.view(0)["event_areas"] == []


# ====================================================================== exhausted deck
def test_random_event_symbol_after_all_twelve_events_does_nothing():
    g = build_position(
        4,
        events=[],
        hands=[[EVENT_CARD], [], [], []],
        agents={0: {"Chelsea": 1}},
        trouble=["Chelsea"],
        personalities=["sherlock_holmes"] * 4,
    )
    assert len(g.events_done) == 12
    g.fix_rolls([])
    g.apply(A.PLAY_CARD + card(EVENT_CARD))
    # the event symbol is skipped: the next decision is the card's scroll
    assert g.decision == "card" and g.stack[-1]["i"] == 1
    assert g.legal_actions() == [A.PASS, A.CONFIRM]
    assert g.agents[0][CHELSEA] == 1 and g.trouble[CHELSEA] == 1
    assert len(g.events_done) == 12 and g.event_deck == ()


def test_random_event_symbol_after_all_twelve_events_can_only_be_passed():
    """With a City Area ability to use at that point, the event symbol waits, but there is
    nothing to confirm: only passing it (or the ability)."""
    g = build_position(
        4,
        events=[],
        hands=[[EVENT_CARD], [], [], []],
        buildings={"Lambeth": 0},
        personalities=["sherlock_holmes"] * 4,
    )
    g.fix_rolls([])
    g.apply(A.PLAY_CARD + card(EVENT_CARD))
    assert g.decision == "card" and g.stack[-1]["i"] == 0
    assert g.legal_actions() == [A.PASS, A.ABILITY + LAMBETH]
    g.apply(A.PASS)
    assert g.stack[-1]["i"] == 1 and len(g.events_done) == 12
