"""Load and validate a *Rise of Cthulhu* content pack: the shipped one or a user's own.

A pack has seven sections, one TOML file each (``PACK_FILES``). ``load_cthulhu_data(path)``
reads the user's pack at ``path``, which is either a directory holding some of those files or a
single TOML file holding some of the sections as top-level arrays (``[[card]]``,
``[[elder_one]]``, ...); every section the user does not give comes from the shipped pack.
Every mistake is a :class:`DataError` naming the file, the item and the field, exactly as for
the base game's data. Packs are cached by the SHA-256 of their contents.
"""

from __future__ import annotations

import functools
import hashlib
import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from nanty_env.data.cthulhu.model import (
    ABILITY_KINDS,
    ANCHORED_ABILITIES,
    CTHULHU_DECKS,
    CTHULHU_EFFECT_PARAMS,
    CTHULHU_EVENTS,
    CTHULHU_SYMBOLS,
    DOOMSDAY_LEVEL,
    MAX_ELDER_ONES,
    MAX_SYMBOLS,
    NUM_ACTION_CARDS,
    NUM_BUILDING_TYPES,
    NUM_EVENT_CARDS,
    NUM_GREAT_OLD_ONES,
    NUM_OBJECTIVES,
    OBJECTIVE_METRICS,
    OBJECTIVE_RULES,
    SOURCES,
    TRACK_GRENADIERS,
    BuildingType,
    CthulhuCard,
    CthulhuData,
    CthulhuEvent,
    ElderOne,
    GreatOldOne,
    Objective,
    TrackLevel,
    same_name,
)
from nanty_env.data.loader import effect_params, load_game_data
from nanty_env.data.model import PLAYER_COUNTS
from nanty_env.data.validation import DataError, Entry, entries_of, unique_ids

__all__ = ["PACK_FILES", "load_cthulhu_data", "pack_sources"]

PACK_FILES: Mapping[str, str] = MappingProxyType(
    {
        "cards.toml": "card",
        "events.toml": "event",
        "elder_ones.toml": "elder_one",
        "great_old_ones.toml": "great_old_one",
        "objectives.toml": "objective",
        "track.toml": "level",
        "buildings.toml": "building",
    }
)
"""File name -> the array of tables it holds."""

_SECTIONS = {section: name for name, section in PACK_FILES.items()}
_HP_RANGE = (1, 6)

Source = tuple[str, str, bytes]  # (section, label used in error messages, raw TOML)


# ---------------------------------------------------------------------------------- reading


def _shipped(name: str) -> bytes:
    return resources.files(__package__).joinpath(name).read_bytes()


def pack_sources(content: str | None = None) -> tuple[Source, ...]:
    """The raw TOML of every section of the pack at ``content`` (``None``: the shipped pack),
    in :data:`PACK_FILES` order, each labelled by the file it comes from."""
    given: dict[str, tuple[str, bytes]] = {}
    if content is not None:
        path = Path(content)
        if path.is_dir():
            unknown = sorted(p.name for p in path.glob("*.toml") if p.name not in PACK_FILES)
            if unknown:
                raise DataError(
                    f"{path}: unknown file(s) {', '.join(unknown)}; a pack may hold "
                    f"{', '.join(PACK_FILES)}"
                )
            for name, section in PACK_FILES.items():
                if (path / name).is_file():
                    given[section] = (str(path / name), _read_bytes(path / name))
        elif path.is_file():
            raw = _read_bytes(path)
            doc = _parse(str(path), raw)
            unknown = sorted(set(doc) - set(_SECTIONS))
            if unknown:
                raise DataError(
                    f"{path}: unknown top-level key(s) {', '.join(unknown)}; expected some of "
                    f"{', '.join(_SECTIONS)}"
                )
            for section in doc:
                given[section] = (f"{path} [{section}]", raw)
        else:
            raise DataError(f"{path}: no such content pack (a TOML file or a directory)")
    out = []
    for name, section in PACK_FILES.items():
        label, raw = given.get(section, (f"cthulhu/{name}", b""))
        out.append((section, label, raw or _shipped(name)))
    return tuple(out)


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise DataError(f"{path}: cannot read content pack: {exc}") from exc


def _parse(label: str, raw: bytes) -> dict[str, Any]:
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise DataError(f"{label}: cannot parse TOML: {exc}") from exc


def _section_doc(section: str, label: str, raw: bytes) -> dict[str, Any]:
    doc = _parse(label, raw)
    if label.endswith("]"):  # one section of a single-file pack
        return {section: doc.get(section)}
    return doc


# ---------------------------------------------------------------------------------- helpers


def _provenance(e: Entry) -> tuple[str, str]:
    return e.text("source", choices=SOURCES), e.text("reason")


def _ability(e: Entry, *, anchored: bool) -> tuple[str, Mapping[str, int]]:
    ability = e.text("ability", choices=tuple(ABILITY_KINDS))
    if not anchored and ability in ANCHORED_ABILITIES:
        e.fail(f"ability {ability!r} acts on an area, and a Great Old One has none")
    params = e.subtable("params")
    if set(params) != ABILITY_KINDS[ability]:
        e.fail(
            f"ability {ability!r} takes params {sorted(ABILITY_KINDS[ability])}, "
            f"got {sorted(params)}"
        )
    pe = Entry(e.file, f"{e.label} params", params)
    return ability, MappingProxyType({k: pe.integer(k, low=0) for k in sorted(params)})


def _entries(doc: Mapping[str, Any], file: str, key: str, count: int | None) -> list[Entry]:
    raw = entries_of(doc, file, key, count)
    return [Entry(file, f"{key} #{i + 1}", table) for i, table in enumerate(raw)]


def _checked(
    entries: list[Entry],
    file: str,
    key: str,
    required: tuple[str, ...],
    optional: tuple[str, ...] = (),
) -> None:
    """Every entry has exactly the allowed keys, the ids are unique, and each entry is then
    named by its id in later errors."""
    for e in entries:
        e.check_keys(required, optional)
    unique_ids(file, key, [e.ident() for e in entries])
    for e in entries:
        e.label = f"{key} {e.table['id']!r}"


# ---------------------------------------------------------------------------------- sections


def parse_cards(
    doc: Mapping[str, Any], area_index: Mapping[str, int], file: str = "cthulhu/cards.toml"
) -> tuple[CthulhuCard, ...]:
    """The 101 action cards: yellow deck first, then purple."""
    entries = _entries(doc, file, "card", NUM_ACTION_CARDS)
    required = ("id", "deck", "name", "symbols", "money", "effect", "params")
    required += ("removed_with_two_players", "source", "reason")
    _checked(entries, file, "card", required, ("note",))
    cards = []
    for i, e in enumerate(entries):
        symbols = e.array("symbols")
        for s in symbols:
            if s not in CTHULHU_SYMBOLS:
                e.fail(f"symbols: unknown symbol {s!r}; expected one of {CTHULHU_SYMBOLS}")
        if len(symbols) > MAX_SYMBOLS:
            e.fail(f"symbols: at most {MAX_SYMBOLS} symbols, got {len(symbols)}")
        money = e.integer("money", low=0)
        if symbols.count("money") > 1 or (money > 0) != ("money" in symbols):
            e.fail("money: positive exactly when the card has one money symbol")
        interrupt = "interrupt" in symbols
        if interrupt and symbols != ["interrupt"]:
            e.fail("symbols: an interrupt card shows the interrupt symbol alone")
        effect = e.text("effect", empty=True)
        if effect and effect not in CTHULHU_EFFECT_PARAMS:
            e.fail(f"effect: unknown effect {effect!r}")
        if bool(effect) != ("scroll" in symbols or interrupt):
            e.fail("effect: given exactly when the card has a scroll or interrupt symbol")
        if effect.startswith("interrupt_") != interrupt:
            e.fail("effect: interrupt_* effects belong exactly to interrupt cards")
        if "note" in e.table:
            e.text("note")
        source, reason = _provenance(e)
        cards.append(
            CthulhuCard(
                index=i,
                id=e.table["id"],
                names=same_name(e.text("name")),
                nanty_name_known=True,
                deck=e.text("deck", choices=CTHULHU_DECKS),
                symbols=tuple(symbols),
                money=money,
                effect=effect,
                params=effect_params(e, effect, area_index, CTHULHU_EFFECT_PARAMS, "params"),
                interrupt=interrupt,
                removed_with_two_players=e.flag("removed_with_two_players"),
                source=source,
                reason=reason,
            )
        )
    decks = [c.deck for c in cards]
    if decks != sorted(decks, key=CTHULHU_DECKS.index) or set(decks) != set(CTHULHU_DECKS):
        raise DataError(f"{file}: cards must be listed deck by deck, {CTHULHU_DECKS}, both used")
    return tuple(cards)


def parse_events(doc: Mapping[str, Any], file: str = "cthulhu/events.toml") -> tuple:
    """The nine event cards."""
    entries = _entries(doc, file, "event", NUM_EVENT_CARDS)
    _checked(entries, file, "event", ("id", "name", "effect", "summary", "source", "reason"))
    events = []
    for i, e in enumerate(entries):
        source, reason = _provenance(e)
        name = e.text("name")
        events.append(
            CthulhuEvent(
                index=i,
                id=e.table["id"],
                names=same_name(name),
                aid_name=name,
                summary=e.text("summary"),
                effect=e.text("effect", choices=CTHULHU_EVENTS),
                source=source,
                reason=reason,
            )
        )
    return tuple(events)


def parse_elder_ones(doc: Mapping[str, Any], file: str = "cthulhu/elder_ones.toml") -> tuple:
    """The Elder Ones roster (2 to ``MAX_ELDER_ONES``)."""
    entries = _entries(doc, file, "elder_one", None)
    if not 2 <= len(entries) <= MAX_ELDER_ONES:
        raise DataError(f"{file}: expected 2 to {MAX_ELDER_ONES} Elder Ones, found {len(entries)}")
    keys = ("id", "name", "hp", "ability", "params", "text", "source", "reason")
    _checked(entries, file, "elder_one", keys)
    out = []
    for i, e in enumerate(entries):
        ability, params = _ability(e, anchored=True)
        source, reason = _provenance(e)
        out.append(
            ElderOne(
                index=i,
                id=e.table["id"],
                title=e.text("name"),
                hp=e.integer("hp", low=_HP_RANGE[0], high=_HP_RANGE[1]),
                ability=ability,
                params=params,
                text=e.text("text"),
                source=source,
                reason=reason,
            )
        )
    return tuple(out)


def parse_great_old_ones(
    doc: Mapping[str, Any], file: str = "cthulhu/great_old_ones.toml"
) -> tuple:
    """The four Great Old One player boards."""
    entries = _entries(doc, file, "great_old_one", NUM_GREAT_OLD_ONES)
    _checked(
        entries,
        file,
        "great_old_one",
        ("id", "name", "ability", "params", "text", "source", "reason"),
    )
    out = []
    for i, e in enumerate(entries):
        ability, params = _ability(e, anchored=False)
        source, reason = _provenance(e)
        out.append(
            GreatOldOne(
                index=i,
                id=e.table["id"],
                title=e.text("name"),
                ability=ability,
                params=params,
                text=e.text("text"),
                source=source,
                reason=reason,
            )
        )
    return tuple(out)


def parse_objectives(doc: Mapping[str, Any], file: str = "cthulhu/objectives.toml") -> tuple:
    """The seven objectives: thresholds for 2, 3 and 4 players, or the Sloth rule."""
    entries = _entries(doc, file, "objective", NUM_OBJECTIVES)
    _checked(
        entries, file, "objective", ("id", "name", "rule", "goals", "text", "source", "reason")
    )
    out = []
    for i, e in enumerate(entries):
        rule = e.text("rule", empty=True, choices=OBJECTIVE_RULES)
        goals: dict[int, Mapping[str, int]] = {}
        for count, metrics in e.subtable("goals").items():
            if count not in {str(n) for n in PLAYER_COUNTS}:
                e.fail(f"goals: player count {count!r}; expected one of {PLAYER_COUNTS}")
            me = Entry(e.file, f"{e.label} goals[{count!r}]", metrics)
            if not me.table:
                me.fail("a goal needs at least one metric")
            for metric in me.table:
                if metric not in OBJECTIVE_METRICS:
                    me.fail(f"unknown metric {metric!r}; expected one of {OBJECTIVE_METRICS}")
            goals[int(count)] = MappingProxyType({m: me.integer(m, low=1) for m in me.table})
        if rule == "sloth" and goals:
            e.fail("goals: the sloth rule has no thresholds (give an empty table)")
        if rule == "" and sorted(goals) != list(PLAYER_COUNTS):
            e.fail(f"goals: thresholds needed for exactly the player counts {PLAYER_COUNTS}")
        source, reason = _provenance(e)
        out.append(
            Objective(
                index=i,
                id=e.table["id"],
                title=e.text("name"),
                rule=rule,
                goals=MappingProxyType(dict(sorted(goals.items()))),
                text=e.text("text"),
                source=source,
                reason=reason,
            )
        )
    if sum(o.rule == "sloth" for o in out) > 1:
        raise DataError(f"{file}: at most one objective may have the sloth rule")
    return tuple(out)


def parse_track(doc: Mapping[str, Any], file: str = "cthulhu/track.toml") -> tuple:
    """The Insanity track, levels 1 to 13: which boxes hold a grenadier or an event."""
    entries = _entries(doc, file, "level", DOOMSDAY_LEVEL)
    out = []
    for i, e in enumerate(entries):
        e.check_keys(("number", "grenadier", "event", "source", "reason"))
        number = e.integer("number")
        e.label = f"level {number}"
        if number != i + 1:
            e.fail(f"number: levels must be listed 1..{DOOMSDAY_LEVEL} in order")
        grenadier, event = e.flag("grenadier"), e.flag("event")
        if number in (1, DOOMSDAY_LEVEL) and (grenadier or event):
            e.fail("the start box and the doomsday box hold no grenadier and no event")
        source, reason = _provenance(e)
        out.append(TrackLevel(number, grenadier, event, source, reason))
    if sum(x.grenadier for x in out) > TRACK_GRENADIERS:
        raise DataError(f"{file}: at most {TRACK_GRENADIERS} grenadier boxes (four pawns)")
    return tuple(out)


def parse_buildings(doc: Mapping[str, Any], file: str = "cthulhu/buildings.toml") -> tuple:
    """The six building types (each player has one Building card of each)."""
    entries = _entries(doc, file, "building", NUM_BUILDING_TYPES)
    keys = ("id", "name", "number", "cost", "ability", "params", "text", "source", "reason")
    _checked(entries, file, "building", keys)
    out = []
    for i, e in enumerate(entries):
        ability, params = _ability(e, anchored=True)
        source, reason = _provenance(e)
        out.append(
            BuildingType(
                index=i,
                id=e.table["id"],
                title=e.text("name"),
                number=e.integer("number", low=1),
                cost=e.integer("cost", low=1),
                ability=ability,
                params=params,
                text=e.text("text"),
                source=source,
                reason=reason,
            )
        )
    return tuple(out)


# ---------------------------------------------------------------------------------- loading


def _index(items: tuple[Any, ...]) -> Mapping[str, int]:
    return MappingProxyType({x.id: x.index for x in items})


@functools.lru_cache(maxsize=16)
def _build(sources: tuple[Source, ...]) -> CthulhuData:
    base = load_game_data()
    docs = {section: (label, _section_doc(section, label, raw)) for section, label, raw in sources}
    area_index = base.area_index
    label, doc = docs["card"]
    cards = parse_cards(doc, area_index, label)
    events = parse_events(*docs["event"][::-1])
    elder_ones = parse_elder_ones(*docs["elder_one"][::-1])
    great_old_ones = parse_great_old_ones(*docs["great_old_one"][::-1])
    objectives = parse_objectives(*docs["objective"][::-1])
    track = parse_track(*docs["level"][::-1])
    buildings = parse_buildings(*docs["building"][::-1])
    digest = hashlib.sha256()
    for section, _, raw in sources:
        digest.update(section.encode() + b"\0" + raw + b"\0")
    return CthulhuData(
        areas=base.areas,
        cards=cards,
        events=events,
        personalities=(),
        themes=base.themes,
        card_index=_index(cards),
        area_index=area_index,
        event_index=_index(events),
        elder_ones=elder_ones,
        great_old_ones=great_old_ones,
        objectives=objectives,
        track=track,
        buildings=buildings,
        elder_index=_index(elder_ones),
        goo_index=_index(great_old_ones),
        objective_index=_index(objectives),
        building_index=_index(buildings),
        digest=digest.hexdigest(),
    )


def load_cthulhu_data(content: str | None = None) -> CthulhuData:
    """The validated content pack at ``content`` (``None``: the shipped pack), cached by the
    contents of its files."""
    return _build(pack_sources(content))
