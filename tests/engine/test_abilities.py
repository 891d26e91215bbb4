"""City Area abilities (rulebook "City Area cards", player aid "City Area Card"): each of the
twelve, once per turn, at any point of your own turn, never in the turn the card was gained,
void while a grenadier is in the area (or once Inigo Jones retired the card); Chelsea and
Bermondsey place "here or next door" wherever your agents are (FAQ); the East End target needs
a pawn; Holborn is no own-turn action."""

from __future__ import annotations

import pytest

from nanty_env.engine import actions as A
from nanty_env.engine.errors import IllegalActionError
from nanty_env.engine.state import with_item
from tests.engine.conftest import (
    ability,
    area,
    areas,
    card,
    finish_turn,
    legal_args,
    play,
    pw,
    quiet_position,
    refresh,
)

ALL = [
    "dolly_sisters",  # Chelsea: pay 3, agent here or next door
    "unreal_estate",  # Westminster: draw 1, discard 1
    "dragons_landing",  # West End: +2
    "small_gods",  # Holborn: reactive only
    "the_scours",  # City: discard 1, +2
    "the_hippo",  # Highbury: +2
    "the_shades",  # East End: trouble here or next door (needs a pawn)
    "dimwell",  # Bermondsey: pay 3, agent here or next door
    "longwall",  # Southwark: +1
    "isle_of_gods",  # Strand: pay 2, remove a marker
    "seven_sleepers",  # Lambeth: +3
    "nap_hill",  # Battersea: +1
]
OWN_TURN = [a for a in ALL if a != "small_gods"]


def owner_game(owned=OWN_TURN, *, seat=0, **kw):
    """Seat ``seat`` holds the cards of ``owned`` (gained in an earlier turn); every own-turn
    ability is possible: money, cards in hand and deck, a marker and an unmarked pawn."""
    hands = [[] for _ in range(4)]
    hands[seat] = ["groat", "ruby", "dwarves"]
    kw.setdefault("agents", {seat: {"longwall": 1}, (seat + 1) % 4: {"the_hippo": 1}})
    kw.setdefault("trouble", ["longwall"])
    kw.setdefault("money", [20, 20, 20, 20])
    kw.setdefault("hands", hands)
    kw.setdefault("active", seat)
    return quiet_position(buildings={a: seat for a in owned}, **kw)


def complete(g, seat=0):
    """Answer the sub-decisions of an ability with their first option until the turn's own
    decision is back."""
    while g.decision not in ("main", "card", "two", "end") and g.current_player == seat:
        play(g, g.legal_actions()[0])
    return g


# ------------------------------------------------------------------ offered and used
def test_every_own_turn_ability_is_offered_and_holborn_is_not():
    g = owner_game(ALL)
    assert legal_args(g, "ABILITY") == areas(*OWN_TURN)
    assert area("small_gods") not in legal_args(g, "ABILITY")


@pytest.mark.parametrize(
    ("a", "amount"),
    [
        ("dragons_landing", 2),  # West End
        ("the_hippo", 2),  # Highbury
        ("longwall", 1),  # Southwark
        ("seven_sleepers", 3),  # Lambeth
        ("nap_hill", 1),  # Battersea
    ],
)
def test_take_money_abilities(a, amount):
    g = owner_game([a])
    play(g, ability(a))
    assert g.money[0] == 20 + amount
    assert g.decision == "main"
    assert g.money[1:] == [20, 20, 20]


@pytest.mark.parametrize("a", OWN_TURN)
def test_once_per_turn(a):
    g = owner_game()
    play(g, ability(a))
    complete(g)
    assert ability(a) not in g.legal_actions()
    assert len(legal_args(g, "ABILITY")) == len(OWN_TURN) - 1  # the others still are
    play(g, ("PLAY_CARD", min(legal_args(g, "PLAY_CARD"))))
    assert ability(a) not in g.legal_actions()
    while g.decision == "card":
        assert ability(a) not in g.legal_actions()
        play(g, "PASS")
    assert g.decision == "end" and ability(a) not in g.legal_actions()


def test_again_on_the_next_own_turn():
    g = owner_game(["seven_sleepers"], hands=[["groat"], [], [], []])
    play(g, ability("seven_sleepers"), ("PLAY_CARD", "groat"), "PASS", "PASS")
    for _ in range(3):
        finish_turn(g)
    assert g.active == 0
    assert ability("seven_sleepers") in g.legal_actions()


def test_usable_at_any_top_level_decision_of_the_turn():
    for steps in ([], [("PLAY_CARD", "drumknott")], [("PLAY_CARD", "drumknott"), "CONFIRM"]):
        g = owner_game(["dragons_landing"], hands=[["drumknott", "groat"], [], [], []])
        play(g, *steps)
        assert g.decision in ("main", "card", "two")
        play(g, ability("dragons_landing"))
        assert g.money[0] == 22
    g = owner_game(["dragons_landing"], hands=[["groat"], [], [], []])
    play(g, ("PLAY_CARD", "groat"), "PASS")
    assert g.decision == "end"
    play(g, ability("dragons_landing"))
    assert g.money[0] == 22 and g.decision == "end"


def test_an_ability_is_no_action_of_the_card():
    """Using an ability between symbols keeps the current symbol pending."""
    g = owner_game(["dragons_landing"], agents={0: {"the_shades": 1}}, trouble=[])
    play(g, ("PLAY_CARD", "groat"))
    before = set(g.legal_actions())
    play(g, ability("dragons_landing"))
    assert g.decision == "card"
    assert set(g.legal_actions()) == before - {ability("dragons_landing")}


@pytest.mark.parametrize("a", OWN_TURN)
def test_not_in_the_turn_the_card_was_gained(a):
    g = owner_game()
    g.city_gained = with_item(g.city_gained, area(a), g.turn)
    refresh(g)
    assert ability(a) not in g.legal_actions()
    assert len(legal_args(g, "ABILITY")) == len(OWN_TURN) - 1


def test_building_this_turn_gives_the_card_but_not_its_use():
    g = quiet_position(
        agents={0: {"seven_sleepers": 1}},
        money=[30, 10, 10, 10],
        hands=[["the_royal_mint"], [], [], []],
    )
    play(g, ("PLAY_CARD", "the_royal_mint"), ("AREA", "seven_sleepers"))
    assert g.building[area("seven_sleepers")] == 0
    assert "ABILITY" not in {A.decode(x).family for x in g.legal_actions()}
    play(g, "CONFIRM")
    assert g.decision == "end"
    assert ability("seven_sleepers") not in g.legal_actions()
    play(g, "PASS")
    for _ in range(3):
        finish_turn(g)
    assert g.active == 0 and ability("seven_sleepers") in g.legal_actions()


@pytest.mark.parametrize("a", OWN_TURN)
def test_void_while_a_grenadier_is_in_the_area(a):
    g = owner_game(grenadiers={a: 1})
    assert ability(a) not in g.legal_actions()
    assert len(legal_args(g, "ABILITY")) == len(OWN_TURN) - 1


def test_grenadier_elsewhere_does_not_matter():
    g = owner_game(grenadiers={"small_gods": 1})
    assert legal_args(g, "ABILITY") == areas(*OWN_TURN)


@pytest.mark.parametrize("a", OWN_TURN)
def test_retired_card_has_no_ability(a):
    g = owner_game(retired=[a])
    assert ability(a) not in g.legal_actions()


def test_abilities_are_not_offered_out_of_turn():
    """Seat 1 holds Lambeth; when seat 0 assassinates its agent, its reaction window offers no
    City Area ability."""
    g = quiet_position(
        agents={0: {"the_scours": 1}, 1: {"the_scours": 1}},
        trouble=["the_scours"],
        buildings={"seven_sleepers": 1, "dragons_landing": 1},
        hands=[["dr_cruces"], ["groat"], [], []],
    )
    play(g, ("PLAY_CARD", "dr_cruces"), pw("the_scours", 1))
    assert g.decision == "react" and g.current_player == 1
    assert not legal_args(g, "ABILITY")


def test_other_players_cards_are_not_offered():
    g = owner_game(["seven_sleepers"], seat=1, active=0, hands=[["groat"], ["ruby"], [], []])
    assert g.current_player == 0 and not legal_args(g, "ABILITY")


# ------------------------------------------------------------------ Chelsea and Bermondsey
@pytest.mark.parametrize(
    ("a", "dest"),
    [
        ("dolly_sisters", ("dolly_sisters", "unreal_estate", "dragons_landing", "nap_hill")),
        ("dimwell", ("dimwell", "the_scours", "the_shades", "longwall")),
    ],
)
@pytest.mark.parametrize("own", [{}, {"seven_sleepers": 1}, {"the_hippo": 2}])
def test_pay_three_to_place_here_or_next_door_wherever_your_agents_are(a, dest, own):
    """FAQ: where your agents are is irrelevant."""
    g = owner_game([a], agents={0: own, 1: {"the_shades": 1}}, trouble=[])
    play(g, ability(a))
    assert g.money[0] == 17
    assert g.decision == "place_agent"
    assert set(g.legal_actions()) == {A.AREA + x for x in areas(*dest)}  # no pass: paid
    play(g, ("AREA", dest[-1]))
    assert g.agents[0][area(dest[-1])] == own.get(dest[-1], 0) + 1
    assert g.decision == "main"


def test_placement_by_ability_follows_the_trouble_rule():
    g = owner_game(["dimwell"], agents={1: {"the_shades": 1}}, trouble=[])
    play(g, ability("dimwell"), ("AREA", "the_shades"))
    assert g.trouble[area("the_shades")] == 1
    g = owner_game(["dimwell"], agents={1: {"the_shades": 1}}, trouble=[])
    play(g, ability("dimwell"), ("AREA", "longwall"))
    assert sum(g.trouble) == 0


@pytest.mark.parametrize("a", ["dolly_sisters", "dimwell"])
def test_placement_ability_needs_three_pounds(a):
    g = owner_game([a], money=[2, 20, 20, 20])
    assert ability(a) not in g.legal_actions()
    g = owner_game([a], money=[3, 20, 20, 20])
    play(g, ability(a), ("AREA", a))
    assert g.money[0] == 0


def test_placement_ability_with_all_twelve_agents_out_lifts_one_first():
    """Rule decision: the "remove one and place it again" rule also applies here."""
    g = owner_game(["dimwell"], agents={0: {"seven_sleepers": 12}}, trouble=[])
    play(g, ability("dimwell"))
    assert g.legal_actions() == [pw("seven_sleepers", 0)]
    play(g, pw("seven_sleepers", 0), ("AREA", "dimwell"))
    assert g.agents[0][area("dimwell")] == 1 and g.on_board[0] == 12


# ------------------------------------------------------------------ Westminster and City
def test_westminster_draws_one_then_discards_one():
    g = owner_game(["unreal_estate"], deck_top=["hex"])
    deck = len(g.deck)
    play(g, ability("unreal_estate"))
    assert g.decision == "discard"
    assert legal_args(g, "DISCARD_CARD") == {card(x) for x in ("groat", "ruby", "dwarves", "hex")}
    assert A.PASS not in g.legal_actions()
    play(g, ("DISCARD_CARD", "hex"))  # even the card just drawn
    assert sorted(g.hands[0]) == sorted(card(x) for x in ("groat", "ruby", "dwarves"))
    assert g.discard == [card("hex")]
    assert len(g.deck) == deck - 1


def test_westminster_needs_a_card_to_draw():
    """Rule decision: with an empty draw pile the ability is not offered."""
    g = owner_game(["unreal_estate"], deck_size=0)
    assert ability("unreal_estate") not in g.legal_actions()


def test_city_discards_one_card_for_two_pounds():
    g = owner_game(["the_scours"])
    play(g, ability("the_scours"))
    assert A.PASS not in g.legal_actions()
    play(g, ("DISCARD_CARD", "ruby"))
    assert g.money[0] == 22
    assert card("ruby") not in g.hands[0] and g.discard == [card("ruby")]
    assert len(g.hands[0]) == 2


def test_city_needs_a_card_to_discard():
    g = owner_game(["the_scours"], hands=[[], [], [], []])
    assert ability("the_scours") not in g.legal_actions()


# ------------------------------------------------------------------ East End
@pytest.mark.parametrize(
    ("kw", "targets"),
    [
        # East End (7) and next door: City (5), Highbury (6), Bermondsey (8)
        ({"agents": {1: {"the_scours": 1, "dimwell": 1}}}, {"the_scours", "dimwell"}),
        ({"agents": {0: {"the_shades": 1}}}, {"the_shades"}),  # own agents count
        ({"agents": {1: {"longwall": 1}}}, set()),  # Southwark is not next door
        ({"agents": {}, "citizens": {"the_hippo": 1}}, {"the_hippo"}),  # any pawn
        ({"agents": {1: {"the_scours": 1, "dimwell": 1}}, "trouble": ["dimwell"]}, {"the_scours"}),
        ({"agents": {}, "buildings": {"the_scours": 1}}, set()),  # a building is no pawn
    ],
)
def test_east_end_places_a_marker_here_or_next_door_where_a_pawn_is(kw, targets):
    kw.setdefault("trouble", [])
    if "buildings" in kw:
        kw["buildings"] = {**kw["buildings"], "the_shades": 0}
        g = quiet_position(**kw, hands=[["groat"], [], [], []])
    else:
        g = owner_game(["the_shades"], **kw)
    if not targets:
        assert ability("the_shades") not in g.legal_actions()
        return
    before = sum(g.trouble)
    play(g, ability("the_shades"))
    assert set(g.legal_actions()) == {A.AREA + x for x in areas(*targets)}
    choice = sorted(targets)[0]
    play(g, ("AREA", choice))
    assert g.trouble[area(choice)] == 1
    assert sum(g.trouble) == before + 1


# ------------------------------------------------------------------ Strand
def test_strand_pays_two_to_remove_any_marker():
    g = owner_game(["isle_of_gods"], trouble=["longwall", "dolly_sisters"])
    play(g, ability("isle_of_gods"))
    assert g.money[0] == 18
    assert set(g.legal_actions()) == {A.AREA + x for x in areas("longwall", "dolly_sisters")}
    play(g, ("AREA", "dolly_sisters"))
    assert g.trouble[area("dolly_sisters")] == 0 and g.trouble[area("longwall")] == 1


@pytest.mark.parametrize(
    ("money", "trouble", "offered"),
    [(2, ["longwall"], True), (1, ["longwall"], False), (20, [], False)],
)
def test_strand_needs_two_pounds_and_a_marker(money, trouble, offered):
    g = owner_game(["isle_of_gods"], money=[money, 0, 0, 0], trouble=trouble)
    assert (ability("isle_of_gods") in g.legal_actions()) == offered


def test_illegal_ability_is_rejected():
    g = owner_game(["seven_sleepers"])
    with pytest.raises(IllegalActionError):
        g.apply(ability("nap_hill"))
    with pytest.raises(IllegalActionError):
        g.apply(ability("small_gods"))
