"""Immutable records of game content, and the vocabularies the data files may use.

The records live apart from the TOML loader because the engine uses them everywhere while only
the loader knows about files. Every record is a frozen, slotted dataclass holding tuples and
read-only mappings, so the single cached :class:`GameData` can be shared by every game, clone and
worker without anyone being able to change the rules under another's feet.

Vocabularies (symbols, effect ids, metrics, ...) are spelled out here rather than derived from
the data: they are the contract between the data files and the engine's handlers, and the loader
rejects anything outside them, so a typo in a TOML file fails at load time, not mid-game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Any, Self, TypeVar, dataclass_transform

__all__ = [
    "ABILITIES",
    "DECKS",
    "DEFAULT_THEME",
    "EFFECT_PARAMS",
    "END_RULES",
    "EVENTS",
    "METRICS",
    "NAME_CONFIDENCES",
    "NUM_AREAS",
    "PERSONALITY_SETS",
    "PLAYER_COUNTS",
    "ROLL_OUTCOME_PARAMS",
    "SYMBOLS",
    "THEMES",
    "THEME_KEYS",
    "THRESHOLD_SETS",
    "Area",
    "Card",
    "Event",
    "GameData",
    "Personality",
    "record",
    "themed_names",
]

NUM_AREAS = 12
"""Areas on the board, indexed 0-11 in die order (area index = die number - 1)."""

THEMES: tuple[str, ...] = ("nanty", "discworld")
"""Display themes sharing one rule set; ``nanty`` (London) is the default."""

DEFAULT_THEME = "nanty"

THEME_KEYS: frozenset[str] = frozenset(
    {
        "game_title",
        "agent",
        "agents",
        "grenadier",
        "grenadiers",
        "citizen",
        "citizens",
        "trouble_marker",
        "building",
        "money_symbol",
    }
)
"""The terms every theme must name (see :meth:`GameData.term`)."""

SYMBOLS: tuple[str, ...] = (
    "agent",
    "building",
    "assassinate",
    "remove_trouble",
    "money",
    "scroll",
    "event",
    "play_another",
    "interrupt",
)
"""Action symbols a card may show, in a fixed order (handy for one-hot encodings)."""

DECKS: tuple[str, ...] = ("grey", "red")
"""Card decks in dealing order: the grey deck is stacked on top of the red one."""


def _frozen(table: dict[str, tuple[str, ...]]) -> Mapping[str, frozenset[str]]:
    return MappingProxyType({key: frozenset(value) for key, value in table.items()})


ABILITIES: Mapping[str, frozenset[str]] = _frozen(
    {
        "pay_to_place_agent": ("cost",),
        "draw_then_discard": (),
        "take_money": ("amount",),
        "event_protection": ("cost",),
        "discard_for_money": ("amount",),
        "place_trouble_nearby": (),
        "pay_to_remove_trouble": ("cost",),
    }
)
"""City-area ability kinds, each with the exact set of parameter keys it takes."""

EFFECT_PARAMS: Mapping[str, frozenset[str]] = _frozen(
    {
        "take_money_from_each_opponent": ("amount",),
        "take_loan": ("amount", "repay", "penalty"),
        "target_gives_cards": ("count",),
        "each_opponent_gives_money_or_card": ("amount",),
        "earn_per_pawn_in_area": ("area", "amount"),
        "move_opponent_agent": (),
        "play_two_cards": (),
        "roll_die": ("outcomes",),
        "view_unused_personalities": ("leave_out",),
        "interrupt_prevent_move_or_removal": (),
        "interrupt_replace_removed_agent": (),
        "pay_or_take_penalty_card": ("amount",),
        "pay_or_lose_building": ("amount",),
        "draw_random_from_discard": ("count",),
        "draw_cards": ("count",),
        "discard_any_for_money": ("per_card",),
        "steal_money": ("amount",),
        "discard_cards": ("max",),
        "earn_per_trouble": ("amount",),
        "sell_card_to_player": ("amount",),
        "move_own_agent_out_of_trouble": (),
        "swap_personality": (),
        "interrupt_immune_to_text": (),
        "pay_player_to_assassinate": ("amount",),
        "remove_pawn_in_area": ("area",),
        "pay_player_then_assassinate": ("amount",),
        "swap_two_pawns": (),
        "look_at_hand_and_discard": (),
        "roll_and_remove_pawns": ("rolls",),
        "exchange_hands": (),
        "earn_per_building": ("amount",),
        "move_own_agent_anywhere": (),
        "place_agent_anywhere_no_trouble": (),
        "discard_then_refill": ("max", "to"),
        "each_opponent_removes_own_agent": (),
        "interrupt_prevent_removal": (),
        "buy_opponent_building": ("trouble",),
        "build_at_half_cost": (),
        "place_agent_in_own_building_area": (),
        "place_agents_near_area": ("area", "max"),
        "earn_per_pawn_in_trouble_area": ("amount",),
        "place_agent_in_trouble_area": (),
        "take_random_cards_keep_one": ("look",),
        "interrupt_end_turn_recover_previous": (),
        "place_trouble_anywhere": (),
        "pay_player_then_move_own_agent": ("amount",),
        "force_transfer": ("amount",),
        "place_trouble_adjacent_to_trouble": (),
        "draw_per_own_building": ("per_building",),
    }
)
"""Every card effect id the engine knows, with the exact set of parameter keys it takes.

Effects whose id starts with ``interrupt_`` belong to interrupt cards and to no others.
"""

ROLL_OUTCOME_PARAMS: Mapping[str, frozenset[str]] = _frozen(
    {
        "take_money": ("amount",),
        "pay_or_remove_own_agent": ("amount",),
        "steal_money": ("amount",),
        "remove_own_agent": (),
        "remove_pawn_in_trouble_area": (),
    }
)
"""Sub-effects a ``roll_die`` outcome may name, with their parameter keys (besides min/max)."""

EVENTS: tuple[str, ...] = (
    "zeppelin_crash",
    "flood",
    "fire",
    "fog",
    "riots",
    "explosion",
    "mysterious_murders",
    "martial_law",
    "subsidence",
    "inigo_jones",
    "immigrants",
    "earthquake",
)
"""Random-event ids the engine knows."""

METRICS: tuple[str, ...] = (
    "occupied_areas",
    "controlled_areas",
    "trouble_markers",
    "net_worth",
    "building_value",
    "own_buildings",
    "pieces_on_board",
    "buildings_on_board",
)
"""Quantities a personality goal can set a threshold on."""

END_RULES: tuple[str, ...] = ("", "holmes", "holmes_v", "fagin_v")
"""Personality rules judged when the game ends rather than at the start of a turn."""

PERSONALITY_SETS: tuple[str, ...] = ("standard", "variant")
PLAYER_COUNTS: tuple[int, ...] = (2, 3, 4)
THRESHOLD_SETS: tuple[str, ...] = ("rulebook", "player_aid")
"""Where goal thresholds come from; the player aid prints other values for two personalities."""

NAME_CONFIDENCES: tuple[str, ...] = ("high", "medium-high", "medium", "low")

_NO_GOAL: Mapping[str, int] = MappingProxyType({})


def _thaw(value: Any) -> Any:
    """Read-only mappings back to dicts (recursively), so a record can be pickled."""
    if isinstance(value, MappingProxyType):
        return {key: _thaw(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return tuple(_thaw(item) for item in value)
    return value


def _freeze(value: Any) -> Any:
    """The inverse of :func:`_thaw`: dicts to read-only mappings (recursively)."""
    if isinstance(value, dict):
        return MappingProxyType({key: _freeze(item) for key, item in value.items()})
    if isinstance(value, tuple):
        return tuple(_freeze(item) for item in value)
    return value


def _rebuild(cls: type[Any], values: tuple[Any, ...]) -> Any:
    return cls(*(_freeze(value) for value in values))


class _Record:
    """Makes immutable records picklable and free to copy.

    ``MappingProxyType`` cannot be pickled or deep-copied, yet environments get pickled (vector
    envs, PettingZoo's tests) and game states get copied. Pickling goes through plain dicts;
    copying returns the record itself, which is safe because nothing in it can change.
    """

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, ...]:
        values = tuple(_thaw(getattr(self, f.name)) for f in fields(self))  # type: ignore[arg-type]
        return (_rebuild, (type(self), values))

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self


_R = TypeVar("_R")


def _item_hash(self: Any) -> int:
    return hash((type(self).__name__, self.index, self.id))


@dataclass_transform(frozen_default=True)
def record(cls: type[_R]) -> type[_R]:
    """A frozen, slotted dataclass (subclass :class:`_Record`); one with an ``id`` and no hash
    of its own is hashed by its kind, index and id (the read-only mappings inside are not)."""
    own_hash = "__hash__" in vars(cls)
    cls = dataclass(frozen=True, slots=True)(cls)
    if not own_hash and "id" in {f.name for f in fields(cls)}:  # type: ignore[arg-type]
        cls.__hash__ = _item_hash  # type: ignore[assignment,method-assign]
    return cls


def _check_theme(theme: str) -> None:
    if theme not in THEMES:
        raise ValueError(f"unknown theme {theme!r}; expected one of {THEMES}")


def themed_names(nanty: str, discworld: str) -> Mapping[str, str]:
    """A theme -> name table with every theme filled in (each falls back on the other)."""
    return MappingProxyType({"nanty": nanty or discworld, "discworld": discworld or nanty})


class _Themed(_Record):
    """An item named in each theme (``names``)."""

    __slots__ = ()
    names: Mapping[str, str]

    def name(self, theme: str = DEFAULT_THEME) -> str:
        """The item's display name in ``theme``."""
        _check_theme(theme)
        return self.names[theme]


class _Titled(_Record):
    """An item with one name in every theme (``title``)."""

    __slots__ = ()
    title: str

    def name(self, theme: str = DEFAULT_THEME) -> str:
        """The item's display name (the same in every theme)."""
        _check_theme(theme)
        return self.title


@record
class Area(_Themed):
    """One of the twelve areas of the city, with its City Area card's ability.

    ``neighbours`` holds sorted 0-based area indices; ``ability_params`` maps parameter names
    to amounts in pounds (see :data:`ABILITIES`).
    """

    index: int
    number: int
    id: str
    names: Mapping[str, str]
    cost: int
    neighbours: tuple[int, ...]
    river: bool
    start: bool
    ability: str
    ability_params: Mapping[str, int]


@record
class Card(_Themed):
    """An action card: its symbols in printed order and, if it has text, an effect id.

    ``params`` is read-only: area ids are already turned into 0-based area indices, lists into
    tuples and nested tables into read-only mappings. ``names`` has an entry for every theme;
    where the London name is unknown (``nanty_name_known`` is false) the ``nanty`` entry repeats
    the Discworld name.
    """

    index: int
    id: str
    names: Mapping[str, str]
    nanty_name_known: bool
    deck: str
    symbols: tuple[str, ...]
    money: int
    effect: str
    params: Mapping[str, Any]
    interrupt: bool
    removed_with_two_players: bool


@record
class Event(_Themed):
    """A random event card. ``aid_name`` is the player aid's London name (often the same);
    ``effect`` is what the engine carries out (the ruleset's ``event_effects``; in the base
    game, its id)."""

    index: int
    id: str
    names: Mapping[str, str]
    aid_name: str
    summary: str
    effect: str


@record
class Personality(_Themed):
    """A secret-goal card.

    ``goals[threshold_set][num_players]`` maps metric names to thresholds; reaching any one of
    them wins. ``threshold_set`` is ``"rulebook"`` or ``"player_aid"`` (the latter repeats the
    rulebook wherever the aid prints nothing different). A player count may be missing: then the
    personality has no threshold goal there (Holmes never has one; de Sidonia has none for two
    players in the rulebook). Variant cards have no Discworld name and show the London one.
    """

    index: int
    id: str
    set: str
    names: Mapping[str, str]
    two_players: bool
    end_rule: str
    goals: Mapping[str, Mapping[int, Mapping[str, int]]]

    def goal(self, num_players: int, threshold_set: str = "rulebook") -> Mapping[str, int]:
        """Thresholds for ``num_players`` players; an empty mapping means "no threshold goal"."""
        if num_players not in PLAYER_COUNTS:
            raise ValueError(f"num_players must be one of {PLAYER_COUNTS}, got {num_players!r}")
        if threshold_set not in THRESHOLD_SETS:
            raise ValueError(
                f"threshold_set must be one of {THRESHOLD_SETS}, got {threshold_set!r}"
            )
        return self.goals[threshold_set].get(num_players, _NO_GOAL)


@record
class GameData(_Record):
    """All game content, validated. Obtain it with ``load_game_data()``."""

    areas: tuple[Area, ...]
    cards: tuple[Card, ...]
    events: tuple[Event, ...]
    personalities: tuple[Personality, ...]
    themes: Mapping[str, Mapping[str, str]]
    card_index: Mapping[str, int]
    area_index: Mapping[str, int]
    event_index: Mapping[str, int]
    personality_index: Mapping[str, int]

    def __hash__(self) -> int:  # the read-only mappings inside are not hashable
        return hash((self.areas, self.cards, self.events, self.personalities))

    def term(self, theme: str, key: str) -> str:
        """The display word for a piece or term (e.g. ``"agent"``) in ``theme``.

        Raises:
            ValueError: for an unknown theme.
            KeyError: for a key that no theme defines (see :data:`THEME_KEYS`).
        """
        _check_theme(theme)
        table = self.themes[theme]
        if key not in table:
            raise KeyError(f"unknown theme term {key!r}; expected one of {sorted(table)}")
        return table[key]
