"""Load and validate a *Rise of Cthulhu* content pack: the shipped one or a user's own.

The expansion is the base game's loader (:mod:`nanty_env.data.sections`) with its own table of
sections: seven, one TOML file each (``PACK_FILES``), whose items all carry their provenance.
``load_cthulhu_data(path)`` reads the user's pack at ``path`` (a directory holding some of the
files or one TOML file holding some of the sections, :mod:`nanty_env.data.packs`); the shipped
pack gives the rest. Packs are cached by the SHA-256 of their contents.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
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
)
from nanty_env.data.loader import load_game_data
from nanty_env.data.model import PLAYER_COUNTS, themed_names
from nanty_env.data.packs import Source, pack_digest, read_pack, section_docs
from nanty_env.data.sections import (
    CardRules,
    Ids,
    Section,
    Wording,
    goal_table,
    kind_params,
    parse_all,
)
from nanty_env.data.validation import DataError, Entry

__all__ = ["PACK_FILES", "SECTIONS", "load_cthulhu_data", "pack_items", "pack_sources"]

_HP_RANGE = (1, 6)
_SAY = Wording(
    unknown_symbol="symbols: unknown symbol {s!r}; expected one of {symbols}",
    money="money: positive exactly when the card has one money symbol",
    unknown_effect="effect: unknown effect {effect!r}",
    scroll="effect: given exactly when the card has a scroll or interrupt symbol",
    interrupt="effect: interrupt_* effects belong exactly to interrupt cards",
    params="params",
    goal_count="{key}: player count {count!r}; expected one of {counts}",
    unknown_metric="unknown metric {metric!r}; expected one of {metrics}",
)


def _provenance(e: Entry) -> tuple[str, str]:
    return e.text("source", choices=SOURCES), e.text("reason")


def _titled(
    cls: type[Any], e: Entry, i: int, first: dict[str, Any], **numbers: tuple[int, int | None]
) -> Any:
    """An item of ``cls`` with a name, rules text and provenance; ``first`` are its fields read
    before those, ``numbers`` its integer fields (key=(low, high)) read after the name."""
    source, reason = _provenance(e)
    title = e.text("name")
    values = {k: e.integer(k, low=low, high=high) for k, (low, high) in numbers.items()}
    return cls(
        index=i,
        id=e.table["id"],
        title=title,
        **first,
        **values,
        text=e.text("text"),
        source=source,
        reason=reason,
    )


def _ability(e: Entry, *, anchored: bool = True) -> dict[str, Any]:
    ability = e.text("ability", choices=tuple(ABILITY_KINDS))
    if not anchored and ability in ANCHORED_ABILITIES:
        e.fail(f"ability {ability!r} acts on an area, and a Great Old One has none")
    pe = kind_params(e, "ability", ability, ABILITY_KINDS, "params", "params")
    params = MappingProxyType({k: pe.integer(k, low=0) for k in sorted(pe.table)})
    return {"ability": ability, "params": params}


def _card_own(e: Entry) -> dict[str, Any]:
    """An expansion card's own fields: one name for every theme, and its provenance."""
    if "note" in e.table:
        e.text("note")
    source, reason = _provenance(e)
    name = e.text("name")
    names = themed_names(name, name)
    return {"names": names, "nanty_name_known": True, "source": source, "reason": reason}


CARD_RULES = CardRules(
    CthulhuCard,
    _card_own,
    CTHULHU_SYMBOLS,
    CTHULHU_DECKS,
    CTHULHU_EFFECT_PARAMS,
    _SAY,
    max_symbols=MAX_SYMBOLS,
    interrupt_alone=True,
)


def _check_cards(cards: tuple[CthulhuCard, ...], file: str) -> None:
    decks = [c.deck for c in cards]
    if decks != sorted(decks, key=CTHULHU_DECKS.index) or set(decks) != set(CTHULHU_DECKS):
        raise DataError(f"{file}: cards must be listed deck by deck, {CTHULHU_DECKS}, both used")


def _event(e: Entry, i: int, ids: Ids) -> CthulhuEvent:
    source, reason = _provenance(e)
    name = e.text("name")
    return CthulhuEvent(
        index=i,
        id=e.table["id"],
        names=themed_names(name, name),
        aid_name=name,
        summary=e.text("summary"),
        effect=e.text("effect", choices=CTHULHU_EVENTS),
        source=source,
        reason=reason,
    )


def _objective_rule(e: Entry) -> dict[str, Any]:
    """An objective's rule and its thresholds by player count (none for the Sloth rule)."""
    rule = e.text("rule", empty=True, choices=OBJECTIVE_RULES)
    goals = goal_table(e, "goals", OBJECTIVE_METRICS, _SAY)
    if rule == "sloth" and goals:
        e.fail("goals: the sloth rule has no thresholds (give an empty table)")
    if rule == "" and list(goals) != list(PLAYER_COUNTS):
        e.fail(f"goals: thresholds needed for exactly the player counts {PLAYER_COUNTS}")
    return {"rule": rule, "goals": MappingProxyType(goals)}


def _check_objectives(objectives: tuple[Objective, ...], file: str) -> None:
    if sum(o.rule == "sloth" for o in objectives) > 1:
        raise DataError(f"{file}: at most one objective may have the sloth rule")


def _level(e: Entry, i: int, ids: Ids) -> TrackLevel:
    """A box of the Insanity track, levels 1 to 13: does it hold a grenadier, an event?"""
    number = e.integer("number")
    e.label = f"level {number}"
    if number != i + 1:
        e.fail(f"number: levels must be listed 1..{DOOMSDAY_LEVEL} in order")
    grenadier, event = e.flag("grenadier"), e.flag("event")
    if number in (1, DOOMSDAY_LEVEL) and (grenadier or event):
        e.fail("the start box and the doomsday box hold no grenadier and no event")
    source, reason = _provenance(e)
    return TrackLevel(number, grenadier, event, source, reason)


def _check_track(track: tuple[TrackLevel, ...], file: str) -> None:
    if sum(x.grenadier for x in track) > TRACK_GRENADIERS:
        raise DataError(f"{file}: at most {TRACK_GRENADIERS} grenadier boxes (four pawns)")


_TITLED = ("id", "name", "ability", "params", "text", "source", "reason")
_CARD_KEYS = ("id", "deck", "name", "symbols", "money", "effect", "params")
_CARD_KEYS += ("removed_with_two_players", "source", "reason")
_ELDER_KEYS = (*_TITLED[:2], "hp", *_TITLED[2:])
_LEVEL_KEYS = ("number", "grenadier", "event", "source", "reason")
_EVENT_KEYS = ("id", "name", "effect", "summary", "source", "reason")
_OBJECTIVE_KEYS = ("id", "name", "rule", "goals", "text", "source", "reason")
_BUILDING_KEYS = ("id", "name", "number", "cost", *_TITLED[2:])


def _elder_one(e: Entry, i: int, ids: Ids) -> ElderOne:
    return _titled(ElderOne, e, i, _ability(e), hp=_HP_RANGE)


def _great_old_one(e: Entry, i: int, ids: Ids) -> GreatOldOne:
    return _titled(GreatOldOne, e, i, _ability(e, anchored=False))


def _objective(e: Entry, i: int, ids: Ids) -> Objective:
    return _titled(Objective, e, i, _objective_rule(e))


def _building(e: Entry, i: int, ids: Ids) -> BuildingType:
    return _titled(BuildingType, e, i, _ability(e), number=(1, None), cost=(1, None))


SECTIONS: tuple[Section, ...] = (
    Section(
        "card",
        "cards",
        CARD_RULES,
        _CARD_KEYS,
        ("note",),
        count=NUM_ACTION_CARDS,
        check=_check_cards,
    ),
    Section("event", "events", _event, _EVENT_KEYS, count=NUM_EVENT_CARDS),
    Section(
        "elder_one",
        "elder_ones",
        _elder_one,
        _ELDER_KEYS,
        index="elder_index",
        count=(2, MAX_ELDER_ONES),
        plural="Elder Ones",
    ),
    Section(
        "great_old_one",
        "great_old_ones",
        _great_old_one,
        _TITLED,
        index="goo_index",
        count=NUM_GREAT_OLD_ONES,
    ),
    Section(
        "objective",
        "objectives",
        _objective,
        _OBJECTIVE_KEYS,
        count=NUM_OBJECTIVES,
        check=_check_objectives,
    ),
    Section(
        "level", "track", _level, _LEVEL_KEYS, count=DOOMSDAY_LEVEL, ident=None, check=_check_track
    ),
    Section("building", "buildings", _building, _BUILDING_KEYS, count=NUM_BUILDING_TYPES),
)
"""The expansion's sections, in the order they are parsed (its board is the base game's)."""

PACK_FILES: Mapping[str, str] = MappingProxyType({s.file: s.key for s in SECTIONS})
"""File name -> the array of tables it holds."""


def pack_items(d: CthulhuData) -> dict[str, tuple[Any, ...]]:
    """Every section's items of pack ``d`` by section key (for provenance listings)."""
    return {s.key: getattr(d, s.field) for s in SECTIONS}


def pack_sources(content: str | None = None) -> tuple[Source, ...]:
    """The raw TOML of every section of the pack at ``content`` (``None``: the shipped pack)."""
    return read_pack(PACK_FILES, __package__, "cthulhu/", content)


@functools.lru_cache(maxsize=16)
def _build(sources: tuple[Source, ...]) -> CthulhuData:
    base = load_game_data()
    docs = section_docs(sources)
    fields = parse_all(((s, *docs[s.key]) for s in SECTIONS), {"area": base.area_index})
    return CthulhuData(
        areas=base.areas,
        personalities=(),
        themes=base.themes,
        area_index=base.area_index,
        personality_index=MappingProxyType({}),
        digest=pack_digest(sources),
        **fields,
    )


def load_cthulhu_data(content: str | None = None) -> CthulhuData:
    """The validated content pack at ``content`` (``None``: the shipped pack), cached by the
    contents of its files."""
    return _build(pack_sources(content))
