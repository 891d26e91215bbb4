"""The loader's skeleton: a ruleset's content is a table of sections, each parsed the same way.

A section is one array of tables (``[[card]]``, ``[[elder_one]]`` ...) in one TOML file. Every
section is read alike (the array, its count, each entry's allowed keys, unique ids, entries then
named by their id in messages); what differs between rulesets is the table of sections and
each section's ``build`` (one entry -> one record) and ``check`` (rules over the whole section).
The checks that several rulesets share (an action card's symbols, money and effect, a kind's
parameters, a goal table) live here too, worded by the ruleset's :class:`Wording`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from nanty_env.data.model import NUM_AREAS, PLAYER_COUNTS, ROLL_OUTCOME_PARAMS
from nanty_env.data.validation import DataError, Entry, entries_of, unique_ids

__all__ = [
    "CardRules",
    "Ids",
    "Section",
    "Wording",
    "effect_params",
    "goal_table",
    "kind_params",
    "parse_all",
    "parse_card",
    "parse_section",
]

Ids = Mapping[str, Mapping[str, int]]
"""Section key -> its id -> index map, for the sections parsed so far (and the one parsing)."""

_DIE_FACES = NUM_AREAS  # the die names an area
_TROUBLE_CONDITIONS = ("absent", "present")


@dataclass(frozen=True)
class Section:
    """One section of a ruleset's content and how its entries become records.

    ``build(entry, index, ids)`` makes one record and ``check(records, file)`` judges the whole
    section; the records go to the data attribute ``field`` and their id -> index map to
    ``index`` (by default ``key`` + ``_index``); ``file`` defaults to ``field`` + ``.toml``. ``count`` is an exact count or an
    inclusive range (``plural`` names the items in its message). A section without ids
    (``ident=None``) checks each entry's keys just before building it, and its ``build`` names
    the entry.
    """

    key: str
    field: str
    build: Callable[[Entry, int, Ids], Any]
    required: tuple[str, ...]
    optional: tuple[str, ...] = ()
    file: str = ""
    index: str | None = None
    count: int | tuple[int, int] | None = None
    plural: str = ""
    ident: Callable[[Entry], str] | None = Entry.ident
    check: Callable[[tuple[Any, ...], str], None] | None = None

    def __post_init__(self) -> None:
        if not self.file:
            object.__setattr__(self, "file", f"{self.field}.toml")
        if self.index is None:
            object.__setattr__(self, "index", f"{self.key}_index" if self.ident else "")


def parse_section(
    section: Section, doc: Mapping[str, Any], ids: Ids | None = None, file: str = ""
) -> tuple[Any, ...]:
    """Validate one parsed document holding ``section`` and build its records."""
    file = file or section.file
    count = section.count
    raw = entries_of(doc, file, section.key, count if isinstance(count, int) else None)
    entries = [Entry(file, f"{section.key} #{i + 1}", table) for i, table in enumerate(raw)]
    if isinstance(count, tuple) and not count[0] <= len(entries) <= count[1]:
        raise DataError(
            f"{file}: expected {count[0]} to {count[1]} {section.plural}, found {len(entries)}"
        )
    known = dict(ids or {})
    if section.ident is not None:
        for e in entries:
            e.check_keys(section.required, section.optional)
        known[section.key] = unique_ids(file, section.key, [section.ident(e) for e in entries])
        for e in entries:
            e.label = f"{section.key} {e.table['id']!r}"
    items = []
    for i, e in enumerate(entries):
        if section.ident is None:
            e.check_keys(section.required, section.optional)
        items.append(section.build(e, i, known))
    if section.check is not None:
        section.check(tuple(items), file)
    return tuple(items)


def parse_all(parts: Iterable[tuple[Section, str, Any]], ids: Ids | None = None) -> dict[str, Any]:
    """Parse ``(section, file, document)`` in order into data fields: each section's records
    and id -> index map; a section's builds see the ids of those before it."""
    known = dict(ids or {})
    fields: dict[str, Any] = {}
    for section, file, doc in parts:
        items = parse_section(section, doc, known, file)
        fields[section.field] = items
        if section.index:
            known[section.key] = MappingProxyType({x.id: x.index for x in items})
            fields[section.index] = known[section.key]
    return fields


# ---------------------------------------------------------------------------- shared checks


@dataclass(frozen=True)
class Wording:
    """How a ruleset's messages word the shared checks (defaults: the base game's)."""

    unknown_symbol: str = "unknown symbol {s!r}"
    money: str = "money must be positive exactly when the card has one money symbol"
    unknown_effect: str = "unknown effect {effect!r}"
    scroll: str = "a card has an effect exactly when it has a scroll or interrupt symbol"
    interrupt: str = "interrupt_* effects belong exactly to the cards with the interrupt symbol"
    params: str = "parameters"
    goal_count: str = "{key} has player count {count!r}; expected one of {counts}"
    unknown_metric: str = "unknown metric {metric!r}"


def kind_params(
    e: Entry, what: str, kind: str, table: Mapping[str, frozenset[str]], word: str, key: str
) -> Entry:
    """The subtable ``key`` of ``e``, checked to hold exactly the parameters of ``kind``."""
    params = e.subtable(key)
    if set(params) != table[kind]:
        e.fail(f"{what} {kind!r} takes {word} {sorted(table[kind])}, got {sorted(params)}")
    return Entry(e.file, f"{e.label} {key}", params)


def goal_table(
    e: Entry, key: str, metrics: tuple[str, ...], say: Wording = Wording()
) -> dict[int, Mapping[str, int]]:
    """A goals table keyed by player count ("2".."4") -> {metric: threshold}, sorted."""
    goals = {}
    for count, table in e.subtable(key).items():
        if count not in {str(n) for n in PLAYER_COUNTS}:
            e.fail(say.goal_count.format(key=key, count=count, counts=PLAYER_COUNTS))
        me = Entry(e.file, f"{e.label} {key}[{count!r}]", table)
        if not me.table:
            me.fail("a goal needs at least one metric")
        for metric in me.table:
            if metric not in metrics:
                me.fail(say.unknown_metric.format(metric=metric, metrics=metrics))
        goals[int(count)] = MappingProxyType({m: me.integer(m, low=1) for m in me.table})
    return dict(sorted(goals.items()))


# ---------------------------------------------------------------------------- action cards


@dataclass(frozen=True)
class CardRules:
    """What a ruleset's action cards may show; ``own(entry)`` reads the ruleset's own fields
    (names, provenance ...) in its order, and ``record`` is the card class. Called with an
    entry, it builds the card (see :func:`parse_card`)."""

    record: Callable[..., Any]
    own: Callable[[Entry], dict[str, Any]]
    symbols: tuple[str, ...]
    decks: tuple[str, ...]
    effects: Mapping[str, frozenset[str]]
    say: Wording = Wording()
    max_symbols: int = 0  # 0: no limit
    interrupt_alone: bool = False

    def __call__(self, e: Entry, i: int, ids: Ids) -> Any:
        """Build one card (a card section's ``build``)."""
        return parse_card(e, i, ids, self)


def parse_card(e: Entry, i: int, ids: Ids, rules: CardRules) -> Any:
    """One action card: symbols, money and effect checked as ``rules`` says."""
    say = rules.say
    symbols = e.array("symbols")
    for s in symbols:
        if s not in rules.symbols:
            e.fail(say.unknown_symbol.format(s=s, symbols=rules.symbols))
    if rules.max_symbols and len(symbols) > rules.max_symbols:
        e.fail(f"symbols: at most {rules.max_symbols} symbols, got {len(symbols)}")
    money = e.integer("money", low=0)
    if symbols.count("money") > 1 or (money > 0) != ("money" in symbols):
        e.fail(say.money)
    interrupt = "interrupt" in symbols
    if rules.interrupt_alone and interrupt and symbols != ["interrupt"]:
        e.fail("symbols: an interrupt card shows the interrupt symbol alone")
    effect = e.text("effect", empty=True)
    if effect and effect not in rules.effects:
        e.fail(say.unknown_effect.format(effect=effect))
    if bool(effect) != ("scroll" in symbols or interrupt):
        e.fail(say.scroll)
    if effect.startswith("interrupt_") != interrupt:
        e.fail(say.interrupt)
    own = rules.own(e)
    return rules.record(
        index=i,
        id=e.table["id"],
        **own,
        deck=e.text("deck", choices=rules.decks),
        symbols=tuple(symbols),
        money=money,
        effect=effect,
        params=effect_params(e, effect, ids["area"], rules.effects, say.params),
        interrupt=interrupt,
        removed_with_two_players=e.flag("removed_with_two_players"),
    )


def effect_params(
    e: Entry,
    effect: str,
    area_index: Mapping[str, int],
    table: Mapping[str, frozenset[str]],
    word: str = "parameters",
) -> Mapping[str, Any]:
    """A card's effect parameters, checked against ``table`` (effect id -> its parameter
    names) and converted (area ids -> indices)."""
    if not effect:
        if e.subtable("params"):
            e.fail("params given for a card without an effect")
        return MappingProxyType({})
    pe = kind_params(e, "effect", effect, table, word, "params")
    values = {}
    for key in sorted(pe.table):
        if key == "outcomes":
            values[key] = _roll_outcomes(pe, area_index)
        else:
            values[key] = _param_value(pe, key, area_index)
    return MappingProxyType(values)


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
