"""Records and vocabularies of *The Rise of Cthulhu* content (the expansion's data files).

The expansion shares the base game's board and themes and brings its own action cards, events,
Elder Ones, Great Old Ones, objectives, Insanity track and building types. Every item carries
its provenance: ``source`` is ``"rulebook"`` when the expansion rulebook prints it and
``"assumed"`` when it does not (``reason`` says why the item is what it is), so a user who owns
the game can see at a glance what to type in from the real cards.

The vocabularies (symbols, effect ids, ability kinds, metrics) are the contract between the data
files and the engine's handlers: the loader rejects anything outside them.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from nanty_env.data.model import (
    EFFECT_PARAMS,
    EVENTS,
    Card,
    Event,
    GameData,
    _Record,
    _Titled,
    record,
)

SOURCES: tuple[str, ...] = ("rulebook", "assumed")
"""Where an item comes from: printed in the expansion rulebook, or assumed (with a reason)."""

# Component counts printed in the rulebook's component list.
NUM_ACTION_CARDS = 101
NUM_EVENT_CARDS = 9
NUM_GREAT_OLD_ONES = 4
NUM_OBJECTIVES = 7
NUM_BUILDING_TYPES = 6  # 24 building cards, 6 per player
DOOMSDAY_LEVEL = 13  # the Insanity marker reaching it ends the game (Azathoth awakes)
TRACK_GRENADIERS = 4  # the base game's four grenadier pawns stand on the track at the start

MAX_ELDER_ONES = 8
"""Largest Elder One roster a content pack may have (the rulebook does not print the count;
eight lets four players hold two each). The action space reserves this many slots."""

MAX_SYMBOLS = 5
"""Most symbols a card may show (as in the base game)."""

CTHULHU_SYMBOLS: tuple[str, ...] = (
    "minion",
    "summon",
    "building",
    "assassinate",
    "money",
    "scroll",
    "insanity",
    "play_another",
    "interrupt",
)
"""The expansion's actions, as its rulebook lists them: place or move a minion, summon,
place a building, assassination, take money, scroll, insanity (the only mandatory one), play
another card, interrupt."""

CTHULHU_DECKS: tuple[str, ...] = ("yellow", "purple")
"""Action decks in dealing order: the yellow deck is shuffled on top of the purple one."""

_NO_EXPANSION_EFFECTS = ("view_unused_personalities", "swap_personality", "buy_opponent_building")

CTHULHU_EFFECT_PARAMS: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        **{k: v for k, v in EFFECT_PARAMS.items() if k not in _NO_EXPANSION_EFFECTS},
        "move_own_minion_out_of_trouble": frozenset(),
        "take_face_up_card": frozenset(),
        "advance_insanity": frozenset(),
        "earn_per_elder_one": frozenset({"amount"}),
    }
)
"""Scroll effects an expansion card may name: the base game's, except those about personality
cards and buying City Area buildings (the expansion has neither), plus the expansion's own."""

_NO_EXPANSION_EVENTS = ("zeppelin_crash", "riots", "martial_law", "inigo_jones")

CTHULHU_EVENTS: tuple[str, ...] = (
    *(event for event in EVENTS if event not in _NO_EXPANSION_EVENTS),
    "stars_are_right",
)
"""Event effects the engine implements for the expansion's event deck: the base game's, except
those about the grenadiers (on the track), City Area cards or riots, and one of its own."""

ABILITY_KINDS: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "take_money": frozenset({"amount"}),
        "discard_for_money": frozenset({"amount"}),
        "place_minion_here": frozenset(),
        "pay_to_place_minion_nearby": frozenset({"cost"}),
        "place_trouble_here": frozenset(),
        "place_trouble_nearby": frozenset(),
        "collect_per_minion_here": frozenset({"amount"}),
        "remove_minion_or_grenadier_here": frozenset(),
        "pay_to_advance_insanity": frozenset({"cost"}),
        "place_trouble_near_own_minion": frozenset(),
        "move_own_minion": frozenset(),
        "take_money_per_elder_one": frozenset({"base", "per_elder"}),
    }
)
"""Once-per-turn abilities of buildings, Elder Ones and Great Old Ones, with their parameters."""

ANCHORED_ABILITIES: frozenset[str] = frozenset(
    kind for kind in ABILITY_KINDS if kind.endswith(("_here", "_nearby"))
)
"""Abilities that act on "the area with" their holder (a building or an Elder One), named
``..._here`` or ``..._nearby``; a Great Old One has no area, so it cannot have one of these."""

OBJECTIVE_METRICS: tuple[str, ...] = (
    "controlled_areas",
    "occupied_areas",
    "trouble_markers",
    "net_worth",
    "building_value",
    "own_buildings",
    "pieces_on_board",
    "elder_hp",
)
"""Quantities an objective can set a threshold on (minions = agents and your Elder Ones)."""

OBJECTIVE_RULES: tuple[str, ...] = ("", "sloth")
"""``""``: a threshold goal checked at the start of the owner's turn; ``"sloth"``: never checked
then, wins when the game ends by the draw pile or by doomsday."""


@record
class CthulhuCard(Card):
    """An expansion action card (a :class:`Card` with its provenance)."""

    source: str
    reason: str


@record
class CthulhuEvent(Event):
    """An expansion event card (its ``effect`` one of ``CTHULHU_EVENTS``), with its
    provenance."""

    source: str
    reason: str


@record
class _PackItem(_Titled):
    """An item of the pack with a name, rules text and provenance; the kinds below add their
    own fields."""

    index: int
    id: str
    title: str
    text: str
    source: str
    reason: str


@record
class ElderOne(_PackItem):
    """An Elder One: hit points (HP) and a once-per-turn ability acting on its area."""

    hp: int
    ability: str
    params: Mapping[str, int]


@record
class GreatOldOne(_PackItem):
    """A Great Old One player board: its once-per-turn ability (not an action)."""

    ability: str
    params: Mapping[str, int]


@record
class Objective(_PackItem):
    """A secret objective: thresholds by player count (any one met wins) or the Sloth rule."""

    rule: str
    goals: Mapping[int, Mapping[str, int]]

    def goal(self, num_players: int) -> Mapping[str, int]:
        """The thresholds for ``num_players`` (empty for Sloth)."""
        return self.goals.get(num_players, MappingProxyType({}))


@record
class TrackLevel(_Record):
    """One box of the Insanity (Doomsday) track."""

    level: int
    grenadier: bool
    event: bool
    source: str
    reason: str


@record
class BuildingType(_PackItem):
    """A building type: its Building card's cost and ability."""

    number: int
    cost: int
    ability: str
    params: Mapping[str, int]


@record
class CthulhuData(GameData):
    """All content of one expansion pack, validated (see ``load_cthulhu_data``).

    ``areas`` and ``themes`` are the base game's; ``personalities`` is empty (objectives replace
    them); ``digest`` identifies the pack's files (SHA-256 over their contents). Its sections by
    key: ``loader.pack_items``.
    """

    cards: tuple[CthulhuCard, ...]
    events: tuple[CthulhuEvent, ...]
    elder_ones: tuple[ElderOne, ...]
    great_old_ones: tuple[GreatOldOne, ...]
    objectives: tuple[Objective, ...]
    track: tuple[TrackLevel, ...]
    buildings: tuple[BuildingType, ...]
    elder_index: Mapping[str, int]
    goo_index: Mapping[str, int]
    objective_index: Mapping[str, int]
    building_index: Mapping[str, int]
    digest: str

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.digest))
