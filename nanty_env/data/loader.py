"""Load the TOML game content shipped in this package, validate it, and build the records.

Why validate so strictly: the engine trusts this data (counts, adjacency, effect ids) without
re-checking it on every step, so every mistake must surface here, as a :class:`DataError` that
names the file and the entry. Unknown keys are errors too, so a misspelt field cannot silently
fall back to a default.

The base game's content is a table of sections (:data:`SECTIONS`, read by the skeleton in
:mod:`nanty_env.data.sections`) plus the themes. The ``parse_*`` functions take already-parsed
TOML documents (plain dicts), which lets tests feed them small broken documents;
:func:`load_game_data` reads the packaged files and caches the result.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from importlib import resources
from types import MappingProxyType
from typing import Any

from nanty_env.data.model import (
    ABILITIES,
    DECKS,
    EFFECT_PARAMS,
    END_RULES,
    EVENTS,
    METRICS,
    NAME_CONFIDENCES,
    NUM_AREAS,
    PERSONALITY_SETS,
    PLAYER_COUNTS,
    SYMBOLS,
    THEME_KEYS,
    THEMES,
    Area,
    Card,
    Event,
    GameData,
    Personality,
    themed_names,
)
from nanty_env.data.sections import (
    CardRules,
    Ids,
    Section,
    goal_table,
    kind_params,
    parse_all,
    parse_section,
)
from nanty_env.data.validation import DataError, Entry

__all__ = [
    "CARD_RULES",
    "DATA_FILES",
    "SECTIONS",
    "DataError",
    "build_game_data",
    "load_game_data",
    "parse_board",
    "parse_cards",
    "parse_events",
    "parse_personalities",
    "parse_themes",
    "read_data_file",
]

# Counts fixed by the components of the game.
_NUM_EDGES = 23
_NUM_START_AREAS = 3
_DECK_SIZES = MappingProxyType({"grey": 48, "red": 53})
_NUM_TWO_PLAYER_REMOVALS = 2
_NUM_PERSONALITIES = MappingProxyType({"standard": 7, "variant": 8})
_NO_THRESHOLD_RULES = ("holmes", "holmes_v")


# ---------------------------------------------------------------------------------- board


def _area(e: Entry, i: int, ids: Ids) -> Area:
    if e.integer("number") != i + 1:
        e.fail(f"number = {e.table['number']} but areas must be listed in die order 1..12")
    index = ids["area"]
    neighbours = []
    for n in e.array("neighbours"):
        if not isinstance(n, str) or n not in index:
            e.fail(f"neighbour {n!r} is not an area id")
        if n == e.table["id"] or index[n] in neighbours:
            e.fail(f"neighbour {n!r} is repeated or the area itself")
        neighbours.append(index[n])
    ability = e.text("ability", choices=tuple(ABILITIES))
    pe = kind_params(e, "ability", ability, ABILITIES, "parameters", "ability_params")
    return Area(
        index=i,
        number=i + 1,
        id=e.table["id"],
        names=themed_names(e.text("name_nanty"), e.text("name_discworld")),
        cost=e.integer("cost", low=1),
        neighbours=tuple(sorted(neighbours)),
        river=e.flag("river"),
        start=e.flag("start"),
        ability=ability,
        ability_params=MappingProxyType({k: pe.integer(k, low=1) for k in sorted(pe.table)}),
    )


def _check_board(areas: tuple[Area, ...], file: str) -> None:
    edges = set()
    for area in areas:
        for n in area.neighbours:
            if area.index not in areas[n].neighbours:
                raise DataError(
                    f"{file}: neighbours are not symmetric: {area.id!r} lists {areas[n].id!r}"
                    " but not the other way round"
                )
            edges.add((min(area.index, n), max(area.index, n)))
    if len(edges) != _NUM_EDGES:
        raise DataError(f"{file}: expected {_NUM_EDGES} neighbour pairs, found {len(edges)}")
    starts = sum(area.start for area in areas)
    if starts != _NUM_START_AREAS:
        raise DataError(f"{file}: expected {_NUM_START_AREAS} start areas, found {starts}")


# ---------------------------------------------------------------------------------- cards


def _card_names(e: Entry) -> dict[str, Any]:
    """The base game's card names: a Discworld name, and a London one where it is known."""
    name_nanty = e.text("name_nanty") if "name_nanty" in e.table else ""
    if ("nanty_name_confidence" in e.table) != bool(name_nanty):
        e.fail("nanty_name_confidence must be given exactly when name_nanty is")
    if name_nanty:
        e.text("nanty_name_confidence", choices=NAME_CONFIDENCES)
    if "note" in e.table:
        e.text("note")
    names = themed_names(name_nanty, e.text("name_discworld"))
    return {"names": names, "nanty_name_known": bool(name_nanty)}


CARD_RULES = CardRules(Card, _card_names, SYMBOLS, DECKS, EFFECT_PARAMS)
"""The base game's action cards (a ruleset's own cards change what differs, see CardRules)."""


def _check_cards(cards: tuple[Card, ...], file: str) -> None:
    decks = [card.deck for card in cards]
    for deck, size in _DECK_SIZES.items():
        if decks.count(deck) != size:
            raise DataError(f"{file}: expected {size} {deck} cards, found {decks.count(deck)}")
    if decks != sorted(decks, key=DECKS.index):
        raise DataError(f"{file}: cards must be listed deck by deck, in the order {DECKS}")
    removed = [card.id for card in cards if card.removed_with_two_players]
    if len(removed) != _NUM_TWO_PLAYER_REMOVALS:
        raise DataError(
            f"{file}: expected {_NUM_TWO_PLAYER_REMOVALS} cards removed with two players,"
            f" found {removed}"
        )


# ---------------------------------------------------------------------------------- events


def _event(e: Entry, i: int, ids: Ids) -> Event:
    name = e.text("name_nanty")
    aid_name = e.text("name_nanty_aid") if "name_nanty_aid" in e.table else name
    if "name_nanty_aid" in e.table and aid_name == name:
        e.fail("name_nanty_aid is only for a name that differs from name_nanty")
    return Event(
        index=i,
        id=e.table["id"],
        names=themed_names(name, e.text("name_discworld")),
        aid_name=aid_name,
        summary=e.text("summary"),
        effect=e.table["id"],
    )


# --------------------------------------------------------------------------- personalities


def _personality(e: Entry, i: int, ids: Ids) -> Personality:
    card_set = e.text("set", choices=PERSONALITY_SETS)
    discworld = e.text("name_discworld", empty=card_set == "variant")
    if card_set == "variant" and discworld:
        e.fail('variant personalities have no Discworld name (use "")')
    two_players = e.flag("two_players")
    end_rule = e.text("end_rule", empty=True, choices=END_RULES)
    rulebook = goal_table(e, "goals", METRICS)
    has_aid = "goals_player_aid" in e.table
    aid = goal_table(e, "goals_player_aid", METRICS) if has_aid else {}
    if end_rule in _NO_THRESHOLD_RULES:
        if rulebook or aid:
            e.fail(f"end_rule {end_rule!r} has no threshold goals")
    else:
        expected = [n for n in PLAYER_COUNTS if two_players or n != 2]
        if list(rulebook) != expected:
            e.fail(f"goals must be given for exactly the player counts {expected}")
    player_aid = dict(sorted({**rulebook, **aid}.items()))
    goals = {"rulebook": MappingProxyType(rulebook), "player_aid": MappingProxyType(player_aid)}
    return Personality(
        index=i,
        id=e.table["id"],
        set=card_set,
        names=themed_names(e.text("name_nanty"), discworld),
        two_players=two_players,
        end_rule=end_rule,
        goals=MappingProxyType(goals),
    )


def _check_personalities(personalities: tuple[Personality, ...], file: str) -> None:
    for card_set, count in _NUM_PERSONALITIES.items():
        found = sum(p.set == card_set for p in personalities)
        if found != count:
            raise DataError(f"{file}: expected {count} {card_set} personalities, found {found}")


_AREA_KEYS = ("number", "id", "name_nanty", "name_discworld", "cost", "neighbours", "river")
_AREA_KEYS += ("start", "ability", "ability_params")
_CARD_KEYS = ("id", "deck", "name_discworld", "symbols", "money", "effect", "params")
_CARD_KEYS += ("removed_with_two_players",)
_CARD_OPTIONAL = ("name_nanty", "nanty_name_confidence", "note")
_PERSONALITY_KEYS = ("id", "set", "name_nanty", "name_discworld", "two_players", "end_rule")
_PERSONALITY_KEYS += ("goals",)


def _event_id(e: Entry) -> str:
    return e.text("id", choices=EVENTS)


_EVENT_KEYS = ("id", "name_nanty", "name_discworld", "summary")

SECTIONS: tuple[Section, ...] = (
    Section(
        "area", "areas", _area, _AREA_KEYS, file="board.toml", count=NUM_AREAS, check=_check_board
    ),
    Section(
        "card",
        "cards",
        CARD_RULES,
        _CARD_KEYS,
        _CARD_OPTIONAL,
        count=sum(_DECK_SIZES.values()),
        check=_check_cards,
    ),
    Section(
        "event",
        "events",
        _event,
        _EVENT_KEYS,
        ("name_nanty_aid",),
        count=len(EVENTS),
        ident=_event_id,
    ),
    Section(
        "personality",
        "personalities",
        _personality,
        _PERSONALITY_KEYS,
        ("goals_player_aid",),
        count=sum(_NUM_PERSONALITIES.values()),
        check=_check_personalities,
    ),
)
"""The base game's sections, in the order they are parsed (a card's area ids need the board)."""

DATA_FILES: tuple[str, ...] = (*(s.file for s in SECTIONS), "themes.toml")

_BOARD, _CARDS, _EVENTS, _PERSONALITIES = SECTIONS


def parse_board(doc: Mapping[str, Any], file: str = "board.toml") -> tuple[Area, ...]:
    """Validate a parsed ``board.toml`` and build the areas (index = die number - 1)."""
    return parse_section(_BOARD, doc, None, file)


def parse_cards(
    doc: Mapping[str, Any], area_index: Mapping[str, int], file: str = "cards.toml"
) -> tuple[Card, ...]:
    """Validate a parsed ``cards.toml`` and build the cards; ``area_index`` maps area ids."""
    return parse_section(_CARDS, doc, {"area": area_index}, file)


def parse_events(doc: Mapping[str, Any], file: str = "events.toml") -> tuple[Event, ...]:
    """Validate a parsed ``events.toml`` and build the random events."""
    return parse_section(_EVENTS, doc, None, file)


def parse_personalities(
    doc: Mapping[str, Any], file: str = "personalities.toml"
) -> tuple[Personality, ...]:
    """Validate a parsed ``personalities.toml`` and build the personality cards."""
    return parse_section(_PERSONALITIES, doc, None, file)


# ---------------------------------------------------------------------------------- themes


def parse_themes(
    doc: Mapping[str, Any], file: str = "themes.toml"
) -> Mapping[str, Mapping[str, str]]:
    """Validate a parsed ``themes.toml``: one table per theme, all with the same terms."""
    if not isinstance(doc, Mapping) or set(doc) != set(THEMES):
        found = sorted(doc) if isinstance(doc, Mapping) else doc
        raise DataError(f"{file}: expected exactly the tables {list(THEMES)}, found {found}")
    themes = {}
    for theme in THEMES:
        e = Entry(file, f"[{theme}]", doc[theme])
        e.check_keys(sorted(THEME_KEYS))
        themes[theme] = MappingProxyType({key: e.text(key) for key in sorted(THEME_KEYS)})
    return MappingProxyType(themes)


# ---------------------------------------------------------------------------------- loading


def build_game_data(docs: Mapping[str, Mapping[str, Any]]) -> GameData:
    """Validate parsed documents (keyed by file name, see :data:`DATA_FILES`) into GameData."""
    missing = [name for name in DATA_FILES if name not in docs]
    if missing:
        raise DataError(f"missing data file(s): {', '.join(missing)}")
    fields = parse_all((s, s.file, docs[s.file]) for s in SECTIONS)
    return GameData(**fields, themes=parse_themes(docs["themes.toml"]))


def read_data_file(name: str) -> dict[str, Any]:
    """Parse one packaged TOML file; a missing or unparsable file is a :class:`DataError`."""
    try:
        text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
        return tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise DataError(f"{name}: cannot read game data: {exc}") from exc


@functools.cache
def load_game_data() -> GameData:
    """The game content shipped with the package, validated (loaded once, then cached)."""
    return build_game_data({name: read_data_file(name) for name in DATA_FILES})
