"""Load the TOML game content shipped in this package, validate it, and build the records.

Why validate so strictly: the engine trusts this data (counts, adjacency, effect ids) without
re-checking it on every step, so every mistake must surface here, as a :class:`DataError` that
names the file and the entry. Unknown keys are errors too, so a misspelt field cannot silently
fall back to a default.

The ``parse_*`` functions take already-parsed TOML documents (plain dicts), which lets tests feed
them small broken documents; :func:`load_game_data` reads the packaged files and caches the result.
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
    ROLL_OUTCOME_PARAMS,
    SYMBOLS,
    THEME_KEYS,
    THEMES,
    Area,
    Card,
    Event,
    GameData,
    Personality,
)
from nanty_env.data.validation import DataError, Entry, entries_of, unique_ids

__all__ = [
    "DATA_FILES",
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

DATA_FILES: tuple[str, ...] = (
    "board.toml",
    "cards.toml",
    "events.toml",
    "personalities.toml",
    "themes.toml",
)

# Counts fixed by the components of the game.
_NUM_EDGES = 23
_NUM_START_AREAS = 3
_DECK_SIZES = MappingProxyType({"grey": 48, "red": 53})
_NUM_TWO_PLAYER_REMOVALS = 2
_NUM_PERSONALITIES = MappingProxyType({"standard": 7, "variant": 8})
_DIE_FACES = NUM_AREAS  # the die names an area
_TROUBLE_CONDITIONS = ("absent", "present")
_NO_THRESHOLD_RULES = ("holmes", "holmes_v")


def _names(nanty: str, discworld: str) -> Mapping[str, str]:
    """A theme -> name table with every theme filled in (each falls back on the other)."""
    return MappingProxyType({"nanty": nanty or discworld, "discworld": discworld or nanty})


# ---------------------------------------------------------------------------------- board


def parse_board(doc: Mapping[str, Any], file: str = "board.toml") -> tuple[Area, ...]:
    """Validate a parsed ``board.toml`` and build the areas (index = die number - 1)."""
    raw = entries_of(doc, file, "area", NUM_AREAS)
    entries = [Entry(file, f"area #{i + 1}", table) for i, table in enumerate(raw)]
    keys = ("number", "id", "name_nanty", "name_discworld", "cost", "neighbours", "river")
    keys += ("start", "ability", "ability_params")
    for e in entries:
        e.check_keys(keys)
    index = unique_ids(file, "area", [e.ident() for e in entries])

    areas = []
    for i, e in enumerate(entries):
        e.label = f"area {e.table['id']!r}"
        if e.integer("number") != i + 1:
            e.fail(f"number = {e.table['number']} but areas must be listed in die order 1..12")
        neighbours = []
        for n in e.array("neighbours"):
            if not isinstance(n, str) or n not in index:
                e.fail(f"neighbour {n!r} is not an area id")
            if n == e.table["id"] or index[n] in neighbours:
                e.fail(f"neighbour {n!r} is repeated or the area itself")
            neighbours.append(index[n])
        ability = e.text("ability", choices=tuple(ABILITIES))
        params = e.subtable("ability_params")
        if set(params) != ABILITIES[ability]:
            expected = sorted(ABILITIES[ability])
            e.fail(f"ability {ability!r} takes parameters {expected}, got {sorted(params)}")
        pe = Entry(file, f"{e.label} ability_params", params)
        areas.append(
            Area(
                index=i,
                number=i + 1,
                id=e.table["id"],
                names=_names(e.text("name_nanty"), e.text("name_discworld")),
                cost=e.integer("cost", low=1),
                neighbours=tuple(sorted(neighbours)),
                river=e.flag("river"),
                start=e.flag("start"),
                ability=ability,
                ability_params=MappingProxyType({k: pe.integer(k, low=1) for k in sorted(params)}),
            )
        )

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
    return tuple(areas)


# ---------------------------------------------------------------------------------- cards


def _param_value(e: Entry, key: str, area_index: Mapping[str, int]) -> Any:
    """One effect parameter, checked and converted (area id -> index)."""
    if key == "area":
        area = e.text(key)
        if area not in area_index:
            e.fail(f"area {area!r} is not an area id")
        return area_index[area]
    if key == "trouble":
        return e.text(key, choices=_TROUBLE_CONDITIONS)
    return e.integer(key, low=1)


def _roll_outcomes(e: Entry, area_index: Mapping[str, int]) -> tuple[Mapping[str, Any], ...]:
    outcomes = []
    covered: set[int] = set()
    for j, raw in enumerate(e.array("outcomes")):
        o = Entry(e.file, f"{e.label} outcome #{j + 1}", raw)
        if "effect" not in o.table:
            o.fail("missing key(s) effect")
        sub = o.text("effect", choices=tuple(ROLL_OUTCOME_PARAMS))
        o.check_keys(("min", "max", "effect", *sorted(ROLL_OUTCOME_PARAMS[sub])))
        low, high = (
            o.integer("min", low=1, high=_DIE_FACES),
            o.integer("max", low=1, high=_DIE_FACES),
        )
        faces = set(range(low, high + 1))
        if not faces or faces & covered:
            o.fail(f"die range {low}..{high} is empty or overlaps another outcome")
        covered |= faces
        values: dict[str, Any] = {"min": low, "max": high, "effect": sub}
        values.update({k: _param_value(o, k, area_index) for k in sorted(ROLL_OUTCOME_PARAMS[sub])})
        outcomes.append(MappingProxyType(values))
    if not outcomes:
        e.fail("roll_die needs at least one outcome")
    return tuple(outcomes)


def effect_params(
    e: Entry,
    effect: str,
    area_index: Mapping[str, int],
    table: Mapping[str, frozenset[str]] = EFFECT_PARAMS,
    word: str = "parameters",
) -> Mapping[str, Any]:
    """A card's effect parameters, checked against the ruleset's ``table`` (effect id ->
    its parameter names) and converted (area ids -> indices)."""
    params = e.subtable("params")
    if not effect:
        if params:
            e.fail("params given for a card without an effect")
        return MappingProxyType({})
    allowed = table[effect]
    if set(params) != allowed:
        e.fail(f"effect {effect!r} takes {word} {sorted(allowed)}, got {sorted(params)}")
    pe = Entry(e.file, f"{e.label} params", params)
    values = {}
    for key in sorted(allowed):
        if key == "outcomes":
            values[key] = _roll_outcomes(pe, area_index)
        else:
            values[key] = _param_value(pe, key, area_index)
    return MappingProxyType(values)


def parse_cards(
    doc: Mapping[str, Any], area_index: Mapping[str, int], file: str = "cards.toml"
) -> tuple[Card, ...]:
    """Validate a parsed ``cards.toml`` and build the cards; ``area_index`` maps area ids."""
    raw = entries_of(doc, file, "card", sum(_DECK_SIZES.values()))
    entries = [Entry(file, f"card #{i + 1}", table) for i, table in enumerate(raw)]
    required = ("id", "deck", "name_discworld", "symbols", "money", "effect", "params")
    required += ("removed_with_two_players",)
    optional = ("name_nanty", "nanty_name_confidence", "note")
    for e in entries:
        e.check_keys(required, optional)
    unique_ids(file, "card", [e.ident() for e in entries])

    cards = []
    for i, e in enumerate(entries):
        e.label = f"card {e.table['id']!r}"
        symbols = e.array("symbols")
        for s in symbols:
            if s not in SYMBOLS:
                e.fail(f"unknown symbol {s!r}")
        money = e.integer("money", low=0)
        if symbols.count("money") > 1 or (money > 0) != ("money" in symbols):
            e.fail("money must be positive exactly when the card has one money symbol")
        interrupt = "interrupt" in symbols
        effect = e.text("effect", empty=True)
        if effect and effect not in EFFECT_PARAMS:
            e.fail(f"unknown effect {effect!r}")
        if bool(effect) != ("scroll" in symbols or interrupt):
            e.fail("a card has an effect exactly when it has a scroll or interrupt symbol")
        if effect.startswith("interrupt_") != interrupt:
            e.fail("interrupt_* effects belong exactly to the cards with the interrupt symbol")
        name_nanty = e.text("name_nanty") if "name_nanty" in e.table else ""
        if ("nanty_name_confidence" in e.table) != bool(name_nanty):
            e.fail("nanty_name_confidence must be given exactly when name_nanty is")
        if name_nanty:
            e.text("nanty_name_confidence", choices=NAME_CONFIDENCES)
        if "note" in e.table:
            e.text("note")
        cards.append(
            Card(
                index=i,
                id=e.table["id"],
                names=_names(name_nanty, e.text("name_discworld")),
                nanty_name_known=bool(name_nanty),
                deck=e.text("deck", choices=DECKS),
                symbols=tuple(symbols),
                money=money,
                effect=effect,
                params=effect_params(e, effect, area_index),
                interrupt=interrupt,
                removed_with_two_players=e.flag("removed_with_two_players"),
            )
        )

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
    return tuple(cards)


# ---------------------------------------------------------------------------------- events


def parse_events(doc: Mapping[str, Any], file: str = "events.toml") -> tuple[Event, ...]:
    """Validate a parsed ``events.toml`` and build the random events."""
    raw = entries_of(doc, file, "event", len(EVENTS))
    entries = [Entry(file, f"event #{i + 1}", table) for i, table in enumerate(raw)]
    for e in entries:
        e.check_keys(("id", "name_nanty", "name_discworld", "summary"), ("name_nanty_aid",))
    unique_ids(file, "event", [e.text("id", choices=EVENTS) for e in entries])

    events = []
    for i, e in enumerate(entries):
        e.label = f"event {e.table['id']!r}"
        name = e.text("name_nanty")
        aid_name = e.text("name_nanty_aid") if "name_nanty_aid" in e.table else name
        if "name_nanty_aid" in e.table and aid_name == name:
            e.fail("name_nanty_aid is only for a name that differs from name_nanty")
        events.append(
            Event(
                index=i,
                id=e.table["id"],
                names=_names(name, e.text("name_discworld")),
                aid_name=aid_name,
                summary=e.text("summary"),
            )
        )
    return tuple(events)


# --------------------------------------------------------------------------- personalities


def _goal_table(e: Entry, key: str) -> dict[int, Mapping[str, int]]:
    """A goals table keyed by player count ("2".."4") -> {metric: threshold}."""
    goals = {}
    for count, metrics in e.subtable(key).items():
        if count not in {str(n) for n in PLAYER_COUNTS}:
            e.fail(f"{key} has player count {count!r}; expected one of {PLAYER_COUNTS}")
        me = Entry(e.file, f"{e.label} {key}[{count!r}]", metrics)
        if not me.table:
            me.fail("a goal needs at least one metric")
        for metric in me.table:
            if metric not in METRICS:
                me.fail(f"unknown metric {metric!r}")
        goals[int(count)] = MappingProxyType({m: me.integer(m, low=1) for m in me.table})
    return dict(sorted(goals.items()))


def parse_personalities(
    doc: Mapping[str, Any], file: str = "personalities.toml"
) -> tuple[Personality, ...]:
    """Validate a parsed ``personalities.toml`` and build the personality cards."""
    raw = entries_of(doc, file, "personality", sum(_NUM_PERSONALITIES.values()))
    entries = [Entry(file, f"personality #{i + 1}", table) for i, table in enumerate(raw)]
    required = ("id", "set", "name_nanty", "name_discworld", "two_players", "end_rule", "goals")
    for e in entries:
        e.check_keys(required, ("goals_player_aid",))
    unique_ids(file, "personality", [e.ident() for e in entries])

    personalities = []
    for i, e in enumerate(entries):
        e.label = f"personality {e.table['id']!r}"
        card_set = e.text("set", choices=PERSONALITY_SETS)
        discworld = e.text("name_discworld", empty=card_set == "variant")
        if card_set == "variant" and discworld:
            e.fail('variant personalities have no Discworld name (use "")')
        two_players = e.flag("two_players")
        end_rule = e.text("end_rule", empty=True, choices=END_RULES)
        rulebook = _goal_table(e, "goals")
        aid = _goal_table(e, "goals_player_aid") if "goals_player_aid" in e.table else {}
        if end_rule in _NO_THRESHOLD_RULES:
            if rulebook or aid:
                e.fail(f"end_rule {end_rule!r} has no threshold goals")
        else:
            expected = [n for n in PLAYER_COUNTS if two_players or n != 2]
            if list(rulebook) != expected:
                e.fail(f"goals must be given for exactly the player counts {expected}")
        player_aid = dict(sorted({**rulebook, **aid}.items()))
        personalities.append(
            Personality(
                index=i,
                id=e.table["id"],
                set=card_set,
                names=_names(e.text("name_nanty"), discworld),
                two_players=two_players,
                end_rule=end_rule,
                goals=MappingProxyType(
                    {
                        "rulebook": MappingProxyType(rulebook),
                        "player_aid": MappingProxyType(player_aid),
                    }
                ),
            )
        )

    for card_set, count in _NUM_PERSONALITIES.items():
        found = sum(p.set == card_set for p in personalities)
        if found != count:
            raise DataError(f"{file}: expected {count} {card_set} personalities, found {found}")
    return tuple(personalities)


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
    areas = parse_board(docs["board.toml"])
    area_index = MappingProxyType({area.id: area.index for area in areas})
    cards = parse_cards(docs["cards.toml"], area_index)
    events = parse_events(docs["events.toml"])
    personalities = parse_personalities(docs["personalities.toml"])
    return GameData(
        areas=areas,
        cards=cards,
        events=events,
        personalities=personalities,
        themes=parse_themes(docs["themes.toml"]),
        card_index=MappingProxyType({card.id: card.index for card in cards}),
        area_index=area_index,
        event_index=MappingProxyType({event.id: event.index for event in events}),
        personality_index=MappingProxyType({p.id: p.index for p in personalities}),
    )


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
