"""Rule 9, the Insanity action (one level up; a grenadier box sends its grenadier to the rolled
area, removing the trouble marker there; an event box draws the top event, applies it and puts
it at the bottom), and rule 11, the events the rulebook details (Flood with Elder Ones staying,
Fire), plus every assumed event."""

from __future__ import annotations

import pytest

from nanty_env.engine.cthulhu.track import grenadiers_on_track
from tests.cthulhu.conftest import (
    A,
    ar,
    area,
    card,
    dice,
    elder,
    event,
    goo_spent,
    pc,
    play,
    position,
    pw,
)

ALL_EVENTS = (
    "flood",
    "fire",
    "fog",
    "explosion",
    "mysterious_murders",
    "subsidence",
    "new_citizens",
    "earthquake",
    "the_stars_are_right",
)


def pickwick(level: int, first_event: str = "fog", **kw):
    """Player 0 plays Samuel Pickwick (Insanity first) with the marker on ``level``."""
    kw.setdefault("hands", [["rincewind"], ["groat"], ["dwarves"]])
    order = [first_event, *(e for e in ALL_EVENTS if e != first_event)]
    return goo_spent(position(3, insanity=level, events=order, **kw))


def test_track_boxes_are_the_shipped_ones():
    g = pickwick(1)
    assert g.t.grenadier_levels == (3, 6, 9, 12)
    assert [lv for lv in range(14) if g.t.track_event[lv]] == [2, 4, 5, 7, 8, 10, 11]


def test_a_plain_advance_moves_the_marker_by_one():
    g = pickwick(2)  # level 3: a grenadier
    dice(g, 7)
    play(g, pc("rincewind"), A.CONFIRM)
    assert g.insanity == 3


def test_a_grenadier_box_rolls_and_places_a_grenadier_removing_trouble():
    g = pickwick(5, trouble=["East End"])
    assert grenadiers_on_track(g) == 3  # levels 6, 9 and 12
    dice(g, 7)  # East End
    play(g, pc("rincewind"), A.CONFIRM)
    ee = area("East End")
    assert g.insanity == 6 and g.gren[ee] == 1
    assert g.trouble[ee] == 0  # the grenadier removes the marker (and brings none)
    assert grenadiers_on_track(g) == 2
    assert g.event_deck[-1] == event("fog")  # no event drawn at a grenadier box


def test_an_event_box_draws_the_top_event_applies_it_and_puts_it_at_the_bottom():
    g = pickwick(3, first_event="fog", deck_size=20)
    deck = len(g.deck)
    play(g, pc("rincewind"), A.CONFIRM)  # level 4: an event
    assert g.insanity == 4
    assert len(g.deck) == deck - 5  # Fog: five cards of the pile discarded
    assert g.event_deck[0] == event("fog") and g.event_deck[-1] == event("flood")
    assert g.events_done == (event("fog"),)
    assert g.view(1)["event_deck_bottom"] == [event("fog")]


def test_the_event_deck_cycles():
    g = pickwick(3, first_event="fog", deck_size=60)
    order = g.event_deck
    for _ in range(9):
        *rest, e = g.event_deck
        g.event_deck = (e, *rest)
    assert g.event_deck == order


def test_flood_moves_agents_and_elder_ones_stay():
    g = pickwick(
        3,
        first_event="flood",
        agents={0: {"Lambeth": 1}, 1: {"Battersea": 1}, 2: {"Chelsea": 1}},
        elders={"dagon": (0, "Lambeth")},
        buildings={"Lambeth": (0, "office")},
    )
    dice(g, 11, 11)  # Lambeth (on the river), twice: one area at risk
    play(g, pc("rincewind"), A.CONFIRM)
    assert g.decision == "flood" and g.current_player == 0
    assert {a - A.AREA for a in g.legal_actions()} == {
        area(x) for x in ("Westminster", "Southwark", "Strand", "Battersea")
    }
    g.apply(ar("Strand"))
    assert g.agents[0][area("Lambeth")] == 0 and g.agents[0][area("Strand")] == 1
    assert g.elder_area[elder("dagon")] == area("Lambeth")  # the Elder One stays
    assert g.building[area("Lambeth")] == 0  # the building stays


def test_fire_spreads_to_neighbouring_buildings_and_cards_return():
    g = pickwick(
        3,
        first_event="fire",
        buildings={"Lambeth": (1, "palace"), "Strand": (2, "hotel"), "City": (1, "tenement")},
    )
    dice(g, 11, 10, 5, 1)  # Lambeth, then Strand next to it, the City next to Strand; Chelsea: stop
    play(g, pc("rincewind"), A.CONFIRM)
    assert [g.building[area(x)] for x in ("Lambeth", "Strand", "City")] == [-1, -1, -1]
    assert g.btype[area("Lambeth")] == -1  # the card went back to its owner's reserve
    assert sorted(g.view(0)["building_types"]) == [-1] * 12


def test_fire_stops_at_an_area_without_a_building():
    g = pickwick(
        3, first_event="fire", buildings={"Lambeth": (1, "palace"), "Battersea": (2, "hotel")}
    )
    dice(g, 11, 2)  # Westminster: next to Lambeth but no building
    play(g, pc("rincewind"), A.CONFIRM)
    assert g.building[area("Lambeth")] == -1 and g.building[area("Battersea")] == 2


def test_explosion_and_earthquake_destroy_buildings():
    g = pickwick(3, first_event="explosion", buildings={"Strand": (1, "palace")})
    dice(g, 10)
    play(g, pc("rincewind"), A.CONFIRM)
    assert g.building[area("Strand")] == -1
    g = pickwick(
        3, first_event="earthquake", buildings={"Strand": (1, "palace"), "City": (2, "hotel")}
    )
    dice(g, 10, 5)
    play(g, pc("rincewind"), A.CONFIRM)
    assert g.building[area("Strand")] == g.building[area("City")] == -1


def test_mysterious_murders_never_take_an_elder_one():
    g = pickwick(
        3,
        first_event="mysterious_murders",
        agents={0: {"Lambeth": 1}, 1: {"Lambeth": 1}, 2: {"Chelsea": 1}},
        elders={"ghatanothoa": (2, "Lambeth")},
    )
    dice(g, 11, 1, 1)
    play(g, pc("rincewind"), A.CONFIRM)
    assert g.decision == "murders" and g.current_player == 0
    assert set(g.legal_actions()) == {pw("Lambeth", 1)}  # player 1's agent; not the Elder One
    g.apply(pw("Lambeth", 1))
    while g.decision in ("murders", "react"):
        g.apply(g.legal_actions()[0])
    assert g.elder_area[elder("ghatanothoa")] == area("Lambeth")


def test_subsidence_costs_two_per_building():
    g = pickwick(
        3,
        first_event="subsidence",
        money=[10, 2, 0],
        buildings={"Strand": (1, "palace"), "City": (1, "hotel"), "Lambeth": (2, "office")},
    )
    play(g, pc("rincewind"), A.CONFIRM)
    # player 1 can pay for one of two buildings: they choose which to lose
    assert g.decision == "subsidence" and g.current_player == 1
    g.apply(ar("City"))
    assert g.building[area("City")] == -1 and g.building[area("Strand")] == 1
    assert g.building[area("Lambeth")] == -1  # player 2 cannot pay at all
    assert g.money[1] == 0


def test_new_citizens_arrive_with_trouble():
    g = pickwick(
        3,
        first_event="new_citizens",
        agents={0: {"Lambeth": 1}, 1: {"Battersea": 1}, 2: {"Chelsea": 1}},
    )
    dice(g, 11, 6, 6)
    play(g, pc("rincewind"), A.CONFIRM)
    assert g.cit[area("Lambeth")] == 1 and g.cit[area("Highbury")] == 2
    assert g.trouble[area("Lambeth")] == 1 and g.trouble[area("Highbury")] == 1


def test_the_stars_are_right_put_trouble_by_every_elder_one():
    g = pickwick(
        3,
        first_event="the_stars_are_right",
        elders={"yig": (1, "Highbury"), "dagon": (2, "Strand")},
    )
    play(g, pc("rincewind"), A.CONFIRM)
    assert g.trouble[area("Highbury")] == g.trouble[area("Strand")] == 1


@pytest.mark.parametrize("n", [2, 4])
def test_insanity_only_rises(n):
    g = goo_spent(
        position(
            n,
            insanity=7,
            hands=[["rincewind", "the_dean"]] + [[]] * (n - 1),
            events=list(ALL_EVENTS),
        )
    )
    dice(g, *[3] * 10)
    play(g, pc("rincewind"), A.CONFIRM)
    assert g.insanity == 8
    assert card("rincewind") in g.in_play


def test_a_box_with_a_grenadier_and_an_event_places_the_grenadier_first(tmp_path):
    from importlib import resources

    from nanty_env.engine.config import GameConfig
    from nanty_env.engine.cthulhu.position import build_position

    pack = resources.files("nanty_env.data.cthulhu")
    text = pack.joinpath("track.toml").read_text(encoding="utf-8")
    text = text.replace(
        "number = 3\ngrenadier = true\nevent = false", "number = 3\ngrenadier = true\nevent = true"
    )
    (tmp_path / "track.toml").write_text(text, encoding="utf-8")
    config = GameConfig(num_players=3, expansion="cthulhu", content=str(tmp_path))
    g = goo_spent(
        build_position(
            3,
            config=config,
            insanity=2,
            hands=[["rincewind"], [], []],
            events=["the_stars_are_right", *ALL_EVENTS[:8]],
            elders={"yig": (1, "East End")},
            objectives=("sloth", "lust", "greed"),
            great_old_ones=("cthulhu", "hastur", "nyarlathotep"),
        )
    )
    dice(g, 7)  # the grenadier goes to the East End and removes its marker...
    play(g, pc("rincewind"), A.CONFIRM)
    assert g.gren[area("East End")] == 1
    assert g.trouble[area("East End")] == 1  # ...then the event puts one back by Yig
