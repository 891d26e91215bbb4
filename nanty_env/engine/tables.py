"""Flat lookup tables derived once from the game data, for the engine's hot paths.

Every game holds the tables of its ruleset in ``g.t``: the base game's are built once per
process (:func:`tables`); another ruleset's come from its ``Ruleset.tables`` (through
:func:`tables_for`; the expansion caches them by content pack).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from nanty_env.data import GameData, load_game_data
from nanty_env.engine.config import GameConfig
from nanty_env.engine.dataclass_repr import fields_repr
from nanty_env.engine.ruleset import find_ruleset

AGENTS_PER_PLAYER = 12
BUILDINGS_PER_PLAYER = 6
GRENADIERS = 4
CITIZENS = 3
TROUBLE_MARKERS = 12
START_MONEY = 10
HAND_SIZE = 5
LOAN_NET_WORTH = -12


@dataclass(frozen=True)  # no slots: the compiled build makes it an extension type (_build)
class Tables:
    """Per-area and per-card facts as tuples indexed by area or card index."""

    data: GameData
    neighbours: tuple[tuple[int, ...], ...]
    near: tuple[frozenset[int], ...]  # the area and its neighbours
    near_mask: tuple[int, ...]  # the same as bits (bit x: area x)
    cost: tuple[int, ...]
    river: tuple[bool, ...]
    start_areas: tuple[int, ...]
    ability: tuple[str, ...]
    ability_params: tuple[dict[str, int], ...]
    symbols: tuple[tuple[str, ...], ...]
    money: tuple[int, ...]
    effect: tuple[str, ...]
    effect_params: tuple[Mapping[str, Any], ...]  # each card's effect's parameters
    is_interrupt: bytes  # 1 for an interrupt card, else 0 (bytes: compiled, an item is a C int)
    interrupt_kind: tuple[str, ...]  # effect id for interrupt cards, "" otherwise
    grey_cards: tuple[int, ...]
    red_cards: tuple[int, ...]
    removed_with_two: frozenset[int]
    holborn: int
    loan_cards: frozenset[int]
    # the ruleset whose ``Ruleset.tables`` built these (None: the base game's own), and the
    # path of the content pack they come from (None: the ruleset's shipped content)
    ruleset: str | None = field(default=None, compare=False)
    content: str | None = None

    def __repr__(self) -> str:
        return fields_repr(self)

    def card_id(self, card: int) -> str:
        return self.data.cards[card].id

    def __reduce__(self) -> tuple[Callable[..., Tables], tuple[Any, ...]]:
        """Pickled as a reference to the tables (the base game's are built once per process;
        another ruleset's are asked of it again for the same content pack, and refused if
        the pack's files have changed meanwhile), not as their 23 KB of data: a pickled game
        stays small and quick to move between processes."""
        if self.ruleset is None:
            return tables, ()
        return ruleset_tables, (self.ruleset, self.content, getattr(self.data, "digest", None))


def tables_for(cfg: GameConfig) -> Tables:
    """The tables of ``cfg``'s ruleset (``Ruleset.tables``): the base game's, or an
    expansion's content pack."""
    if cfg.expansion is None:
        return tables()
    return find_ruleset(cfg.expansion).tables(cfg)


def base_tables(cfg: GameConfig) -> Tables:
    """The base game's tables whatever ``cfg`` says (the base ruleset's ``tables``)."""
    return tables()


def interned(names: Iterable[str]) -> tuple[str, ...]:
    """``names`` as interned strings: the rules compare them with their own literals (``kind ==
    "take_money"``) and look them up in tables keyed by literals, where an equal string that
    is the same object is found by a pointer test (content read from files is not interned)."""
    return tuple([sys.intern(name) for name in names])


def area_fields(areas: Sequence[Any]) -> dict[str, Any]:
    """The :class:`Tables` fields every ruleset fills from its board the same way."""
    near = tuple(frozenset((a.index, *a.neighbours)) for a in areas)
    return {
        "near": near,
        "near_mask": tuple(sum(1 << x for x in s) for s in near),
        "cost": tuple(a.cost for a in areas),
        "river": tuple(a.river for a in areas),
        "start_areas": tuple(a.index for a in areas if a.start),
    }


def card_fields(cards: Sequence[Any], top: str, bottom: str) -> dict[str, Any]:
    """The :class:`Tables` fields every ruleset fills from its cards the same way (``top`` and
    ``bottom``: the names of its two decks, as ``grey_cards`` and ``red_cards``)."""
    return {
        "symbols": tuple(interned(c.symbols) for c in cards),
        "money": tuple(c.money for c in cards),
        "effect": interned(c.effect for c in cards),
        "effect_params": tuple(c.params for c in cards),
        "is_interrupt": bytes(c.interrupt for c in cards),
        "interrupt_kind": interned(c.effect if c.interrupt else "" for c in cards),
        "grey_cards": tuple(c.index for c in cards if c.deck == top),
        "red_cards": tuple(c.index for c in cards if c.deck == bottom),
        "removed_with_two": frozenset(c.index for c in cards if c.removed_with_two_players),
        "loan_cards": frozenset(c.index for c in cards if c.effect == "take_loan"),
    }


def ruleset_tables(expansion: str, content: str | None = None, digest: str | None = None) -> Tables:
    """The tables of the ruleset selected by ``expansion`` for the content pack at
    ``content`` (None: its shipped content); ``digest``: the pack's as it was (a pack that
    differs now is refused)."""
    t = find_ruleset(expansion).tables(GameConfig(expansion=expansion, content=content))
    if digest is not None and getattr(t.data, "digest", None) != digest:
        raise ValueError(
            f"the content pack {content or '(shipped)'} has changed since this game was saved"
        )
    return t


@cache
def tables() -> Tables:
    """The base game's lookup tables (built once per process)."""
    return build_tables(load_game_data())


def build_tables(d: GameData, ruleset: str | None = None) -> Tables:
    """The lookup tables of base-game content ``d`` (a house ruleset's content built by
    ``ruleset`` pickles as a reference to that ruleset's tables)."""
    areas = d.areas
    holborn = next(a.index for a in areas if a.ability == "event_protection")
    return Tables(
        ruleset=ruleset,
        data=d,
        neighbours=tuple(tuple(sorted(a.neighbours)) for a in areas),  # ascending: options
        ability=interned(a.ability for a in areas),
        ability_params=tuple(dict(a.ability_params) for a in areas),
        holborn=holborn,
        **area_fields(areas),
        **card_fields(d.cards, "grey", "red"),
    )
