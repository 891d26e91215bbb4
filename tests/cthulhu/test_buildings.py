"""Rule 10, buildings: six types with their costs and printed abilities, once per turn and never
in the turn gained; a lost building returns its card; six on the board => move one."""

from __future__ import annotations

import pytest

from tests.cthulhu.conftest import (
    A,
    ab,
    ar,
    area,
    bt,
    building_type,
    card,
    dc,
    elder,
    finish_turn,
    goo_spent,
    pc,
    pieces,
    play,
    position,
)

COSTS = {"tenement": 6, "office": 6, "hotel": 12, "mansion": 12, "factory": 12, "palace": 18}


def builder(money: int = 30, **kw):
    kw.setdefault("agents", {0: {"Lambeth": 1, "Strand": 1}, 1: {"City": 1}, 2: {"Chelsea": 1}})
    kw.setdefault("hands", [["ruby", "the_watch", "groat"], [], []])
    return goo_spent(position(3, money=[money, 10, 10], **kw))


def test_six_types_and_costs():
    g = builder()
    assert {b.id: b.cost for b in g.t.data.buildings} == COSTS


def test_place_a_building_choose_a_type_pay_its_cost_take_its_card():
    g = builder(money=12, trouble=["Strand"], elders={"yig": (0, "Highbury")})
    play(g, pc("ruby"), A.PASS)
    assert symbolic_areas(g) == {area("Lambeth"), area("Highbury")}  # minion there, no trouble
    g.apply(ar("Highbury"))  # an Elder One is a minion too
    assert g.decision == "build_type"
    assert set(g.legal_actions()) == {bt(k) for k, c in COSTS.items() if c <= 12}
    g.apply(bt("hotel"))
    h = area("Highbury")
    hotel = building_type("hotel")
    assert g.building[h] == 0 and g.btype[h] == hotel
    assert g.money[0] == 0 and hotel not in pieces.reserve(g, 0)
    assert g.city_gained[h] == g.turn


def symbolic_areas(g) -> set[int]:
    return {a - A.AREA for a in g.legal_actions() if A.AREA <= a < A.PAWN}


def test_no_building_where_one_stands_or_without_money():
    g = builder(money=5, buildings={"Lambeth": (1, "office")})
    play(g, pc("ruby"), A.PASS)
    assert g.decision == "end"  # £5 buys nothing; Lambeth is taken anyway


def test_ability_once_per_turn_never_in_the_turn_gained():
    g = builder(money=18)
    play(g, pc("ruby"), A.PASS, ar("Lambeth"), bt("palace"))
    assert ab("Lambeth") not in g.legal_actions()  # gained this turn
    finish_turn(g)
    finish_turn(g)
    finish_turn(g)
    assert g.active == 0 and ab("Lambeth") in g.legal_actions()
    money = g.money[0]
    g.apply(ab("Lambeth"))
    assert g.money[0] == money + 4 and ab("Lambeth") not in g.legal_actions()
    assert g.decision == "main"  # not an action


def test_a_lost_building_returns_its_card():
    g = builder(buildings={"Lambeth": (0, "palace")})
    assert building_type("palace") not in pieces.reserve(g, 0)
    from nanty_env.engine import board

    board.remove_building(g, area("Lambeth"))
    assert pieces.reserve(g, 0) == [0, 1, 2, 3, 4, 5] and g.btype[area("Lambeth")] == -1


def test_six_on_the_board_means_moving_one():
    six = {
        "Westminster": "tenement",
        "Holborn": "mansion",
        "West End": "palace",
        "Highbury": "hotel",
        "Bermondsey": "office",
        "Southwark": "factory",
    }
    g = builder(money=12, buildings={a: (0, k) for a, k in six.items()})
    play(g, pc("ruby"), A.PASS, ar("Lambeth"))
    assert g.decision == "relocate_building"
    legal = symbolic_areas(g)
    assert area("West End") not in legal  # the Palace costs £18: too dear to move
    assert legal == {area(a) for a, k in six.items() if COSTS[k] <= 12}
    g.apply(ar("Highbury"))  # the Hotel moves, for its cost
    assert g.building[area("Highbury")] == -1 and g.btype[area("Lambeth")] == building_type("hotel")
    assert g.money[0] == 0 and g.city_gained[area("Lambeth")] == g.turn


@pytest.mark.parametrize("trouble", [False, True])
def test_tenement_places_a_minion_in_its_area(trouble):
    g = builder(buildings={"Battersea": (0, "tenement")}, trouble=["Battersea"] if trouble else [])
    play(g, ab("Battersea"))
    assert g.decision == "place_agent" and g.legal_actions() == [ar("Battersea")]
    g.apply(ar("Battersea"))
    assert g.agents[0][area("Battersea")] == 1 and g.decision == "main"


def test_mansion_pays_three_to_place_nearby():
    g = builder(buildings={"Battersea": (0, "mansion")}, money=3)
    play(g, ab("Battersea"))
    assert g.money[0] == 0
    assert symbolic_areas(g) == {
        area(x) for x in ("Battersea", "Chelsea", "Westminster", "Lambeth")
    }


def test_office_places_trouble_here_or_next_door():
    g = builder(buildings={"Battersea": (0, "office")}, trouble=["Chelsea"])
    play(g, ab("Battersea"))
    assert symbolic_areas(g) == {area(x) for x in ("Battersea", "Westminster", "Lambeth")}
    g.apply(ar("Westminster"))
    assert g.trouble[area("Westminster")] == 1


def test_hotel_collects_a_pound_per_minion_of_each_other_player():
    g = builder(
        buildings={"City": (0, "hotel")},
        money=0,
        agents={0: {"City": 1}, 1: {"City": 2}, 2: {"City": 1}},
        elders={"yig": (2, "City")},
    )
    g.money[1], g.money[2] = 1, 5
    play(g, ab("City"))
    assert g.money == [1 + 2, 0, 3]  # player 1 pays what they have of £2, player 2 pays £2


def test_factory_discards_a_card_for_two():
    g = builder(buildings={"City": (0, "factory")}, money=0)
    play(g, ab("City"))
    assert g.decision == "discard" and A.PASS not in g.legal_actions()
    g.apply(dc("groat"))
    assert g.money[0] == 2 and card("groat") in g.discard


def test_palace_takes_four():
    g = builder(buildings={"City": (0, "palace")}, money=0)
    play(g, ab("City"))
    assert g.money[0] == 4


def test_wee_mad_arthur_builds_at_half_price():
    g = builder(money=3, hands=[["wee_mad_arthur"], [], []])
    play(g, pc("wee_mad_arthur"), A.CONFIRM)
    assert g.decision == "half_build"
    play(g, ar("Lambeth"))
    assert set(g.legal_actions()) == {bt("tenement"), bt("office")}  # £6 types at £3
    g.apply(bt("office"))
    assert g.money[0] == 0 and g.btype[area("Lambeth")] == building_type("office")


def test_elder_ones_do_not_change_building_rules_for_others():
    g = builder(elders={"dagon": (1, "Lambeth")})
    play(g, pc("ruby"), A.PASS)
    assert area("Lambeth") in symbolic_areas(g)  # another player's minions do not block
    assert elder("dagon") == 2


def test_a_grenadier_does_not_switch_a_building_ability_off():
    g = builder(buildings={"City": (0, "palace")}, grenadiers={"City": 1}, money=0)
    assert ab("City") in g.legal_actions()
    play(g, ab("City"))
    assert g.money[0] == 4
