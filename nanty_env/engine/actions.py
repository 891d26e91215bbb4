"""The flat action space: one ``Discrete(N)`` built from action families with computed offsets.

Every decision of the game is answered with one integer of this space; what it means depends on
the decision kind, which is part of every observation. Player-indexed actions are *relative* to
the deciding seat (0 = me, 1 = the next player to my left, ...), so one policy serves every seat.

| family        | size | argument                                     |
|---------------|------|----------------------------------------------|
| PASS          | 1    | skip / decline / done / end the turn         |
| CONFIRM       | 1    | do it (take money, resolve a scroll, pay...) |
| PLAY_CARD     | 101  | card index                                   |
| DISCARD_CARD  | 101  | card index                                   |
| SELECT_CARD   | 101  | card index (give, keep, take)                |
| AREA          | 12   | area index                                   |
| PAWN          | 72   | area * 6 + slot (slot 0-3: agent of relative seat, 4 grenadier, 5 citizen) |
| PLAYER        | 4    | relative seat                                |
| ABILITY       | 12   | city-area card (area index) whose ability is used |

The Rise of Cthulhu expansion keeps these families and offsets and appends its own
(``CTHULHU_FAMILIES``), so its space is ``Discrete(NUM_ACTIONS_CTHULHU)``:

| family        | size | argument                                     |
|---------------|------|----------------------------------------------|
| ELDER         | 8    | Elder One (roster index): summon, attack, sacrifice, move |
| ELDER_ABILITY | 8    | Elder One (roster index) whose ability is used |
| GOO_ABILITY   | 1    | use your Great Old One's ability             |
| BUILDING_TYPE | 6    | building type (index in the content pack) to place |

In the expansion, ABILITY names the area of the player's building whose Building card ability
is used. ``space_for(expansion)`` gives the :class:`ActionSpace` of a ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass

from nanty_env.data.cthulhu.model import MAX_ELDER_ONES, NUM_BUILDING_TYPES
from nanty_env.data.model import NUM_AREAS
from nanty_env.engine.ruleset import find_ruleset

NUM_CARDS = 101
MAX_PLAYERS = 4
PAWN_SLOTS = 6  # agents of the 4 relative seats, grenadier, new citizen
SLOT_GRENADIER = 4
SLOT_CITIZEN = 5

FAMILIES: tuple[tuple[str, int], ...] = (
    ("PASS", 1),
    ("CONFIRM", 1),
    ("PLAY_CARD", NUM_CARDS),
    ("DISCARD_CARD", NUM_CARDS),
    ("SELECT_CARD", NUM_CARDS),
    ("AREA", NUM_AREAS),
    ("PAWN", NUM_AREAS * PAWN_SLOTS),
    ("PLAYER", MAX_PLAYERS),
    ("ABILITY", NUM_AREAS),
)


def _offsets() -> dict[str, int]:
    out, pos = {}, 0
    for name, size in FAMILIES:
        out[name] = pos
        pos += size
    return out


OFFSETS = _offsets()
SIZES = dict(FAMILIES)
NUM_ACTIONS = sum(SIZES.values())

PASS = OFFSETS["PASS"]
CONFIRM = OFFSETS["CONFIRM"]
PLAY_CARD = OFFSETS["PLAY_CARD"]
DISCARD_CARD = OFFSETS["DISCARD_CARD"]
SELECT_CARD = OFFSETS["SELECT_CARD"]
AREA = OFFSETS["AREA"]
PAWN = OFFSETS["PAWN"]
PLAYER = OFFSETS["PLAYER"]
ABILITY = OFFSETS["ABILITY"]


@dataclass(frozen=True, slots=True)
class Action:
    """A decoded action: its family and argument (``None`` for PASS and CONFIRM)."""

    family: str
    arg: int | None = None


def encode(family: str, arg: int | None = None) -> int:
    """The integer for ``family`` with argument ``arg``; raises ``ValueError`` when out of range."""
    if family not in OFFSETS:
        raise ValueError(f"unknown action family {family!r}")
    size = SIZES[family]
    if size == 1:
        if arg not in (None, 0):
            raise ValueError(f"{family} takes no argument")
        return OFFSETS[family]
    if arg is None or not 0 <= arg < size:
        raise ValueError(f"{family} argument must be in [0, {size}), got {arg!r}")
    return OFFSETS[family] + arg


def decode(action: int) -> Action:
    """The family and argument of an action integer."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action must be in [0, {NUM_ACTIONS}), got {action!r}")
    for name, size in FAMILIES:
        start = OFFSETS[name]
        if action < start + size:
            return Action(name, None if size == 1 else action - start)
    raise AssertionError("unreachable")


class ActionSpace:
    """A flat action space built from ``(family, size)`` pairs: offsets, encoding, decoding."""

    __slots__ = ("families", "n", "offsets", "sizes")

    def __init__(self, families: tuple[tuple[str, int], ...]) -> None:
        self.families = families
        self.offsets: dict[str, int] = {}
        pos = 0
        for name, size in families:
            self.offsets[name] = pos
            pos += size
        self.sizes = dict(families)
        self.n = pos

    def encode(self, family: str, arg: int | None = None) -> int:
        """The integer for ``family`` with argument ``arg``; ``ValueError`` when out of range."""
        if family not in self.offsets:
            raise ValueError(f"unknown action family {family!r}")
        size = self.sizes[family]
        if size == 1:
            if arg not in (None, 0):
                raise ValueError(f"{family} takes no argument")
            return self.offsets[family]
        if arg is None or not 0 <= arg < size:
            raise ValueError(f"{family} argument must be in [0, {size}), got {arg!r}")
        return self.offsets[family] + arg

    def family(self, name: str) -> tuple[int, ...]:
        """Every action of family ``name`` in order: ``AREA_ACTIONS[a] == AREA + a``. The
        rules build actions by indexing these: one shared int each, where the sum makes a new
        int for every action above 256 (CPython keeps only the small ones), and faster in both
        builds."""
        start = self.offsets[name]
        return tuple(range(start, start + self.sizes[name]))

    def decode(self, action: int) -> Action:
        """The family and argument of an action integer."""
        if not 0 <= action < self.n:
            raise ValueError(f"action must be in [0, {self.n}), got {action!r}")
        for name, size in self.families:
            start = self.offsets[name]
            if action < start + size:
                return Action(name, None if size == 1 else action - start)
        raise AssertionError("unreachable")


CTHULHU_FAMILIES: tuple[tuple[str, int], ...] = (
    ("ELDER", MAX_ELDER_ONES),
    ("ELDER_ABILITY", MAX_ELDER_ONES),
    ("GOO_ABILITY", 1),
    ("BUILDING_TYPE", NUM_BUILDING_TYPES),
)
BASE_SPACE = ActionSpace(FAMILIES)
CTHULHU_SPACE = ActionSpace(FAMILIES + CTHULHU_FAMILIES)
NUM_ACTIONS_CTHULHU = CTHULHU_SPACE.n
ELDER = CTHULHU_SPACE.offsets["ELDER"]
ELDER_ABILITY = CTHULHU_SPACE.offsets["ELDER_ABILITY"]
GOO_ABILITY = CTHULHU_SPACE.offsets["GOO_ABILITY"]
BUILDING_TYPE = CTHULHU_SPACE.offsets["BUILDING_TYPE"]
PLAY_CARD_ACTIONS = BASE_SPACE.family("PLAY_CARD")
DISCARD_CARD_ACTIONS = BASE_SPACE.family("DISCARD_CARD")
SELECT_CARD_ACTIONS = BASE_SPACE.family("SELECT_CARD")
AREA_ACTIONS = BASE_SPACE.family("AREA")
PAWN_ACTIONS = BASE_SPACE.family("PAWN")  # area * PAWN_SLOTS + slot: see pawn_action
PLAYER_ACTIONS = BASE_SPACE.family("PLAYER")
ABILITY_ACTIONS = BASE_SPACE.family("ABILITY")
ELDER_ACTIONS = CTHULHU_SPACE.family("ELDER")
ELDER_ABILITY_ACTIONS = CTHULHU_SPACE.family("ELDER_ABILITY")
BUILDING_TYPE_ACTIONS = CTHULHU_SPACE.family("BUILDING_TYPE")
_SPACES = {None: BASE_SPACE, "cthulhu": CTHULHU_SPACE}


def space_for(expansion: str | None = None) -> ActionSpace:
    """The action space of the base game (``None``) or of another ruleset (its own, or its
    nearest ancestor's: a house variant keeps its parent's)."""
    if expansion in _SPACES:
        return _SPACES[expansion]
    for r in reversed(find_ruleset(expansion).lineage()):  # ValueError: unknown expansion
        if r.expansion in _SPACES:
            return _SPACES[r.expansion]
    raise ValueError(f"unknown expansion {expansion!r}")  # pragma: no cover


def pawn_action(area: int, slot: int) -> int:
    return PAWN_ACTIONS[area * PAWN_SLOTS + slot]


def split_pawn(action: int) -> tuple[int, int]:
    """(area, slot) of a PAWN action."""
    return divmod(action - PAWN, PAWN_SLOTS)
