"""Tests for the game content in nanty_env/data and its loader.

The expected values are facts of the game (board, deck, personalities); if one of these tests
fails after a data edit, the edit is more likely wrong than the test.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import re
from collections.abc import Callable
from typing import Any

import pytest

from nanty_env.data import (
    ABILITIES,
    DATA_FILES,
    EFFECT_PARAMS,
    END_RULES,
    EVENTS,
    METRICS,
    ROLL_OUTCOME_PARAMS,
    SYMBOLS,
    THEME_KEYS,
    THEMES,
    DataError,
    GameData,
    build_game_data,
    load_game_data,
    parse_board,
    parse_cards,
    parse_themes,
    read_data_file,
)

Docs = dict[str, Any]


@pytest.fixture(scope="module")
def data() -> GameData:
    return load_game_data()


@pytest.fixture(scope="module")
def pristine_docs() -> Docs:
    return {name: read_data_file(name) for name in DATA_FILES}


@pytest.fixture
def docs(pristine_docs: Docs) -> Docs:
    """A private, mutable copy of the parsed TOML documents."""
    return copy.deepcopy(pristine_docs)


def _card(docs: Docs, card_id: str) -> dict[str, Any]:
    return next(c for c in docs["cards.toml"]["card"] if c["id"] == card_id)


def _personality(docs: Docs, pid: str) -> dict[str, Any]:
    return next(p for p in docs["personalities.toml"]["personality"] if p["id"] == pid)


# ------------------------------------------------------------------------------ loading


def test_packaged_data_is_valid_and_cached(data: GameData) -> None:
    assert load_game_data() is data
    assert build_game_data({n: read_data_file(n) for n in DATA_FILES}) == data


def test_counts(data: GameData) -> None:
    assert len(data.areas) == 12
    assert len(data.cards) == 101
    assert sum(c.deck == "grey" for c in data.cards) == 48
    assert sum(c.deck == "red" for c in data.cards) == 53
    assert len(data.events) == 12
    assert sum(p.set == "standard" for p in data.personalities) == 7
    assert sum(p.set == "variant" for p in data.personalities) == 8
    assert sum(c.interrupt for c in data.cards) == 6
    assert sum(c.nanty_name_known for c in data.cards) == 24


def test_indices_match_positions(data: GameData) -> None:
    for table, index in (
        (data.areas, data.area_index),
        (data.cards, data.card_index),
        (data.events, data.event_index),
        (data.personalities, data.personality_index),
    ):
        assert [item.index for item in table] == list(range(len(table)))
        assert {item.id: item.index for item in table} == dict(index)


def test_records_are_immutable(data: GameData) -> None:
    card = data.cards[data.card_index["cmot_dibbler"]]
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.money = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        card.params["outcomes"] = ()  # type: ignore[index]
    with pytest.raises(TypeError):
        card.params["outcomes"][0]["amount"] = 9  # type: ignore[index]
    with pytest.raises(TypeError):
        data.areas[0].names["nanty"] = "Mayfair"  # type: ignore[index]


def test_records_pickle_and_copy(data: GameData) -> None:
    clone = pickle.loads(pickle.dumps(data))
    assert clone == data
    assert hash(clone) == hash(data)
    assert clone.cards[10].params == data.cards[10].params
    assert copy.deepcopy(data) is data
    assert copy.copy(data.cards[0]) is data.cards[0]
    assert len({*data.cards, *clone.cards}) == 101


# ------------------------------------------------------------------------------- board

AREA_FACTS = [
    # id, Nanty name, Discworld name, cost
    ("dolly_sisters", "Chelsea", "Dolly Sisters", 6),
    ("unreal_estate", "Westminster", "Unreal Estate", 18),
    ("dragons_landing", "West End", "Dragon's Landing", 12),
    ("small_gods", "Holborn", "Small Gods", 18),
    ("the_scours", "City", "The Scours", 6),
    ("the_hippo", "Highbury", "The Hippo", 12),
    ("the_shades", "East End", "The Shades", 6),
    ("dimwell", "Bermondsey", "Dimwell", 6),
    ("longwall", "Southwark", "Longwall", 12),
    ("isle_of_gods", "Strand", "Isle of Gods", 12),
    ("seven_sleepers", "Lambeth", "Seven Sleepers", 18),
    ("nap_hill", "Battersea", "Nap Hill", 12),
]


def test_areas_in_die_order_with_names_and_costs(data: GameData) -> None:
    assert len(AREA_FACTS) == len(data.areas)
    for area, (aid, nanty, discworld, cost) in zip(data.areas, AREA_FACTS, strict=True):
        assert (area.id, area.name(), area.name("discworld"), area.cost) == (
            aid,
            nanty,
            discworld,
            cost,
        )
        assert area.number == area.index + 1
    assert data.areas[0].name("nanty") == "Chelsea"
    assert data.areas[0].name("discworld") == "Dolly Sisters"


def test_neighbours_symmetric_sorted_23_edges(data: GameData) -> None:
    edges = set()
    for area in data.areas:
        assert list(area.neighbours) == sorted(set(area.neighbours))
        assert area.index not in area.neighbours
        for n in area.neighbours:
            assert area.index in data.areas[n].neighbours
            edges.add(frozenset((area.index, n)))
    assert len(edges) == 23
    names = {data.areas[n].name() for n in data.areas[0].neighbours}
    assert names == {"Westminster", "West End", "Battersea"}
    assert data.areas[4].neighbours == (3, 5, 6, 7, 9)  # City: Holborn, Highbury, East End, ...


def test_river_and_start_areas(data: GameData) -> None:
    dry = {a.id for a in data.areas if not a.river}
    assert dry == {"dragons_landing", "the_hippo"}
    assert {a.name() for a in data.areas if a.start} == {"Chelsea", "City", "East End"}


def test_abilities(data: GameData) -> None:
    got = {a.name(): (a.ability, dict(a.ability_params)) for a in data.areas}
    assert got == {
        "Chelsea": ("pay_to_place_agent", {"cost": 3}),
        "Westminster": ("draw_then_discard", {}),
        "West End": ("take_money", {"amount": 2}),
        "Holborn": ("event_protection", {"cost": 3}),
        "City": ("discard_for_money", {"amount": 2}),
        "Highbury": ("take_money", {"amount": 2}),
        "East End": ("place_trouble_nearby", {}),
        "Bermondsey": ("pay_to_place_agent", {"cost": 3}),
        "Southwark": ("take_money", {"amount": 1}),
        "Strand": ("pay_to_remove_trouble", {"cost": 2}),
        "Lambeth": ("take_money", {"amount": 3}),
        "Battersea": ("take_money", {"amount": 1}),
    }
    assert {a.ability for a in data.areas} == set(ABILITIES)


# ------------------------------------------------------------------------------- cards


def test_every_effect_and_symbol_is_used(data: GameData) -> None:
    assert {c.effect for c in data.cards} - {""} == set(EFFECT_PARAMS)
    outcomes = {
        o["effect"] for c in data.cards if c.effect == "roll_die" for o in c.params["outcomes"]
    }
    assert outcomes == set(ROLL_OUTCOME_PARAMS)
    assert {s for c in data.cards for s in c.symbols} == set(SYMBOLS)


def test_card_invariants(data: GameData) -> None:
    assert [c.deck for c in data.cards] == ["grey"] * 48 + ["red"] * 53
    for c in data.cards:
        assert (c.money > 0) == ("money" in c.symbols)
        assert c.interrupt == ("interrupt" in c.symbols)
        assert bool(c.effect) == ("scroll" in c.symbols or c.interrupt)
        assert set(c.params) == (EFFECT_PARAMS[c.effect] if c.effect else set())


def test_card_names_and_fallback(data: GameData) -> None:
    gaspode = data.cards[data.card_index["gaspode"]]
    assert gaspode.name() == "Toby"
    assert gaspode.name("discworld") == "Gaspode"
    assert gaspode.nanty_name_known
    boggis = data.cards[data.card_index["mr_boggis"]]
    assert not boggis.nanty_name_known
    assert boggis.name("nanty") == boggis.name("discworld") == "Mr Boggis"
    with pytest.raises(ValueError, match="unknown theme"):
        boggis.name("klatchian")


def test_card_names_follow_the_rulebook_spelling(data: GameData) -> None:
    """Rulebook 001's FAQ writes "The Fourty Elephants" (docs/rules-decisions.md)."""
    guild = next(c for c in data.cards if c.name("discworld") == "The Thieves' Guild")
    assert guild.name("nanty") == "The Fourty Elephants"


def test_specific_cards(data: GameData) -> None:
    def card(card_id: str) -> Any:
        return data.cards[data.card_index[card_id]]

    assert {c.id for c in data.cards if c.removed_with_two_players} == {"hubert", "cosmo_lavish"}
    assert {c.id for c in data.cards if c.interrupt} == {
        "gaspode",
        "fresh_start_club",
        "wallace_sonky",
        "susan",
        "doctor_mossy_lawn",
        "igor",
    }
    nuts = card("the_peeled_nuts")
    assert (nuts.symbols, nuts.effect, dict(nuts.params)) == ((), "", {})
    assert card("the_clacks").money == 2
    assert card("death").symbols == ("assassinate", "assassinate", "building")
    assert card("the_bursar").symbols == ("event", "scroll", "play_another")
    assert card("moist_von_lipwig").symbols == ("agent", "money", "scroll", "play_another")
    assert card("the_royal_mint").money == 5
    assert dict(card("mr_bent").params) == {"amount": 10, "repay": 12, "penalty": 15}
    assert card("the_dean").params["area"] == data.area_index["unreal_estate"]
    assert dict(card("the_dysk").params) == {"area": data.area_index["isle_of_gods"], "amount": 1}
    assert dict(card("archchancellor_ridcully").params) == {"area": 1, "max": 2}
    assert dict(card("the_senior_wrangler").params) == {"area": 1, "max": 1}
    assert card("sybil_vimes").params["trouble"] == "absent"
    assert card("reacher_gilt").params["trouble"] == "present"
    outcomes = card("cmot_dibbler").params["outcomes"]
    assert isinstance(outcomes, tuple)
    assert [dict(o) for o in outcomes] == [
        {"min": 7, "max": 12, "effect": "take_money", "amount": 4},
        {"min": 1, "max": 1, "effect": "pay_or_remove_own_agent", "amount": 2},
    ]


# ------------------------------------------------------------------------------ events


def test_events(data: GameData) -> None:
    assert tuple(e.id for e in data.events) == EVENTS
    zeppelin = data.events[data.event_index["zeppelin_crash"]]
    assert (zeppelin.name(), zeppelin.name("discworld")) == ("Zeppelin Crash", "The Dragon")
    martial = data.events[data.event_index["martial_law"]]
    assert (martial.name(), martial.aid_name) == ("Martial Law", "Riot Act")
    assert data.events[data.event_index["immigrants"]].aid_name == "New Citizens"
    assert data.events[data.event_index["inigo_jones"]].name("discworld") == "Bloody Stupid Johnson"
    assert sum(e.aid_name != e.name() for e in data.events) == 2
    assert all(e.summary for e in data.events)


# ----------------------------------------------------------------------- personalities


def test_personality_goals_both_threshold_sets(data: GameData) -> None:
    def p(pid: str) -> Any:
        return data.personalities[data.personality_index[pid]]

    moriarty = p("moriarty")
    assert moriarty.name("discworld") == "Lord Vetinari"
    assert [moriarty.goal(n)["occupied_areas"] for n in (2, 3, 4)] == [11, 10, 9]
    assert [moriarty.goal(n, "player_aid")["occupied_areas"] for n in (2, 3, 4)] == [10, 9, 8]

    sidonia = p("de_sidonia")
    assert not sidonia.two_players
    assert dict(sidonia.goal(2)) == {}
    assert [sidonia.goal(n)["net_worth"] for n in (3, 4)] == [50, 50]
    assert [sidonia.goal(n, "player_aid")["net_worth"] for n in (2, 3, 4)] == [66, 50, 42]

    for lord in ("lord_bellinger", "lord_holdhurst", "lord_balmoral"):
        for threshold_set in ("rulebook", "player_aid"):  # the aid falls back on the rulebook
            got = [p(lord).goal(n, threshold_set)["controlled_areas"] for n in (2, 3, 4)]
            assert got == [7, 5, 4]
    assert dict(p("fagin").goal(4)) == {"trouble_markers": 8}

    holmes = p("sherlock_holmes")
    assert holmes.end_rule == "holmes"
    assert dict(holmes.goal(3)) == {} == dict(holmes.goal(3, "player_aid"))

    balmoral_v = p("v_lord_balmoral")
    assert dict(balmoral_v.goal(2)) == {"occupied_areas": 11, "controlled_areas": 6}
    assert balmoral_v.name("discworld") == balmoral_v.name() == "Lord Balmoral (V)"
    assert [p("v_lenore_lloyd").goal(n)["buildings_on_board"] for n in (2, 3, 4)] == [8, 9, 10]
    assert dict(p("v_thomas_gradgrind").goal(4)) == {"net_worth": 46, "occupied_areas": 9}
    assert p("v_fagin").end_rule == "fagin_v"
    assert p("v_sherlock_holmes").end_rule == "holmes_v"

    with pytest.raises(ValueError, match="num_players"):
        moriarty.goal(5)
    with pytest.raises(ValueError, match="threshold_set"):
        moriarty.goal(3, "house_rules")


def test_personality_invariants(data: GameData) -> None:
    assert [p.id for p in data.personalities if not p.two_players] == ["de_sidonia"]
    assert {p.end_rule for p in data.personalities} == set(END_RULES)
    used = {m for p in data.personalities for g in p.goals["rulebook"].values() for m in g}
    assert used == set(METRICS)
    for p in data.personalities:
        assert set(p.goals) == {"rulebook", "player_aid"}
        if p.set == "variant":
            assert p.id.startswith("v_")


# ------------------------------------------------------------------------------ themes


def test_themes(data: GameData) -> None:
    assert set(data.themes) == set(THEMES)
    for theme in THEMES:
        assert set(data.themes[theme]) == THEME_KEYS
    assert data.term("nanty", "citizen") == "new citizen"
    assert data.term("discworld", "citizen") == "troll"
    assert data.term("nanty", "agent") == "agent"
    assert data.term("discworld", "agents") == "minions"
    assert data.term("nanty", "grenadier") == "grenadier"
    assert data.term("discworld", "grenadier") == "demon"
    assert (data.term("nanty", "money_symbol"), data.term("discworld", "money_symbol")) == (
        "£",
        "$",
    )
    assert data.term("nanty", "game_title") == "Nanty Narking"
    with pytest.raises(ValueError, match="unknown theme"):
        data.term("lancre", "agent")
    with pytest.raises(KeyError, match="wizard"):
        data.term("nanty", "wizard")


# ------------------------------------------------------------------------ broken data


def _set(path: list[Any], value: Any) -> Callable[[Docs], None]:
    """A mutation that sets docs[path...] = value."""

    def mutate(docs: Docs) -> None:
        target = docs
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value

    return mutate


def _card_field(card_id: str, key: str, value: Any) -> Callable[[Docs], None]:
    return lambda docs: _card(docs, card_id).__setitem__(key, value)


def _unlink_chelsea_westminster(docs: Docs) -> None:
    docs["board.toml"]["area"][0]["neighbours"].remove("unreal_estate")


def _duplicate_card(docs: Docs) -> None:
    _card(docs, "hex")["id"] = "librarian"


def _overlapping_roll(docs: Docs) -> None:
    outcomes = _card(docs, "errol")["params"]["outcomes"]
    outcomes[1]["max"] = 8


def _holmes_with_goal(docs: Docs) -> None:
    _personality(docs, "sherlock_holmes")["goals"] = {"3": {"net_worth": 50}}


def _missing_goal(docs: Docs) -> None:
    del _personality(docs, "fagin")["goals"]["4"]


def _third_two_player_removal(docs: Docs) -> None:
    _card(docs, "hex")["removed_with_two_players"] = True


BROKEN = [
    # (mutation, pattern the error message must match)
    (_unlink_chelsea_westminster, r"board\.toml: neighbours are not symmetric"),
    (
        _set(["board.toml", "area", 2, "neighbours", 0], "mayfair"),
        r"area 'dragons_landing'.*mayfair",
    ),
    (_set(["board.toml", "area", 1, "ability"], "fly"), r"area 'unreal_estate': ability = 'fly'"),
    (_set(["board.toml", "area", 2, "ability_params"], {}), r"area 'dragons_landing'.*amount"),
    (
        _set(["board.toml", "area", 0, "cost"], "6"),
        r"area 'dolly_sisters': cost must be an integer",
    ),
    (_set(["board.toml", "area", 0, "colour"], "red"), r"area #1: unknown key\(s\) colour"),
    (_set(["board.toml", "area", 3, "number"], 7), r"area 'small_gods': number = 7"),
    (_card_field("hex", "symbols", ["scroll", "wand"]), r"card 'hex': unknown symbol 'wand'"),
    (_card_field("the_clacks", "money", 0), r"card 'the_clacks': money must be positive"),
    (_card_field("hex", "money", 2), r"card 'hex': money must be positive"),
    (_card_field("hex", "effect", "summon_dragon"), r"card 'hex': unknown effect"),
    (_card_field("hex", "params", {"count": 3, "colour": 1}), r"card 'hex': effect 'draw_cards'"),
    (_card_field("hex", "params", {"count": 0}), r"card 'hex' params: count = 0 is below"),
    (_card_field("the_dean", "params", {"area": "mayfair"}), r"card 'the_dean'.*'mayfair'"),
    (_card_field("groat", "effect", "draw_cards"), r"card 'groat': a card has an effect"),
    (_card_field("gaspode", "effect", "draw_cards"), r"card 'gaspode': interrupt_\* effects"),
    (_card_field("hex", "deck", "blue"), r"card 'hex': deck = 'blue'"),
    (_card_field("gaspode", "nanty_name_confidence", "sure"), r"card 'gaspode'.*'sure'"),
    (_card_field("hex", "nanty_name_confidence", "high"), r"card 'hex': nanty_name_confidence"),
    (_duplicate_card, r"cards\.toml: duplicate card id 'librarian'"),
    (_overlapping_roll, r"card 'errol' params outcome #2: die range"),
    (_third_two_player_removal, r"cards\.toml: expected 2 cards removed with two players"),
    (_set(["events.toml", "event", 0, "id"], "dragon"), r"event #1: id = 'dragon'"),
    (_set(["events.toml", "event", 3, "name_nanty_aid"], "Fog"), r"event 'fog': name_nanty_aid"),
    (_set(["personalities.toml", "personality", 0, "set"], "v"), r"'moriarty': set = 'v'"),
    (_set(["personalities.toml", "personality", 0, "goals", "2"], {"areas": 3}), r"metric"),
    (_missing_goal, r"personality 'fagin': goals must be given"),
    (_holmes_with_goal, r"personality 'sherlock_holmes': end_rule 'holmes'"),
    (_set(["personalities.toml", "personality", 1, "end_rule"], "win"), r"'lord_bellinger'"),
    (_set(["themes.toml", "nanty", "agent"], ""), r"themes\.toml: \[nanty\]: agent must not be"),
    (lambda docs: docs["themes.toml"].pop("discworld"), r"themes\.toml: expected exactly"),
    (lambda docs: docs.pop("events.toml"), r"missing data file\(s\): events\.toml"),
]


@pytest.mark.parametrize(("mutate", "pattern"), BROKEN)
def test_broken_data_raises_data_error(
    docs: Docs, mutate: Callable[[Docs], None], pattern: str
) -> None:
    mutate(docs)
    with pytest.raises(DataError, match=pattern):
        build_game_data(docs)


def test_validators_on_small_documents() -> None:
    area = {
        "number": 1,
        "id": "a",
        "name_nanty": "A",
        "name_discworld": "A",
        "cost": 6,
        "neighbours": [],
        "river": True,
        "start": True,
        "ability": "draw_then_discard",
        "ability_params": {},
    }
    with pytest.raises(DataError, match=r"board\.toml: expected 12 \[\[area\]\] entries, found 1"):
        parse_board({"area": [area]})
    with pytest.raises(DataError, match=r"board\.toml: area #1: expected a table"):
        parse_board({"area": ["a"] * 12})
    with pytest.raises(DataError, match=r"board\.toml: unknown top-level key\(s\) areas"):
        parse_board({"areas": []})
    with pytest.raises(DataError, match=r"cards\.toml: expected an array of \[\[card\]\]"):
        parse_cards({}, {})
    with pytest.raises(DataError, match=r"themes\.toml: \[nanty\]: missing key\(s\)"):
        parse_themes({"nanty": {}, "discworld": {}})
    assert issubclass(DataError, ValueError)


def test_unreadable_file_raises_data_error() -> None:
    with pytest.raises(DataError, match=re.escape("nowhere.toml: cannot read game data")):
        read_data_file("nowhere.toml")


def test_a_section_of_a_new_kind_is_read_by_the_skeleton() -> None:
    """A ruleset's own section is a table entry: keys, count, ids and messages come for free."""
    from typing import NamedTuple

    from nanty_env.data.sections import Section, parse_all

    class Ghost(NamedTuple):
        index: int
        id: str
        home: int

    def build(e: Any, i: int, ids: Any) -> Ghost:
        return Ghost(i, e.table["id"], ids["area"][e.text("home")])

    ghosts = Section("ghost", "ghosts", build, ("id", "home"), count=(1, 2), plural="ghosts")
    doc = {"ghost": [{"id": "grey_lady", "home": "dolly_sisters"}]}
    fields = parse_all([(ghosts, "ghosts.toml", doc)], {"area": load_game_data().area_index})
    assert fields == {"ghosts": (Ghost(0, "grey_lady", 0),), "ghost_index": {"grey_lady": 0}}
    with pytest.raises(DataError, match=r"ghosts\.toml: expected 1 to 2 ghosts, found 0"):
        parse_all([(ghosts, ghosts.file, {"ghost": []})])
    with pytest.raises(DataError, match=r"ghosts\.toml: ghost #1: unknown key\(s\) hp"):
        parse_all([(ghosts, ghosts.file, {"ghost": [{"id": "x", "home": "y", "hp": 1}]})])
