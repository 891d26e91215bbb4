"""Human-readable action descriptions (``Game.action_to_string``): one skeleton that reads a
ruleset's :class:`Vocabulary` (its action space, phrase book and fields, see
:mod:`nanty_env.engine.phrases`). The base game's is :data:`BASE_VOCABULARY`; the expansion's,
``cthulhu.describe``'s, extends it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from nanty_env.engine import actions as A
from nanty_env.engine.actions import PAWN_SLOTS, SLOT_CITIZEN, SLOT_GRENADIER
from nanty_env.engine.phrases import Book, Field, Fields, absent, extend, read_words, say
from nanty_env.engine.state import GameState


class Said(Fields):
    """An action of ``seat``'s in the light of the decision it answers, when that decision
    is pending and ``seat``'s (``kind`` and ``symbol`` are ``""`` otherwise)."""

    def __init__(self, g: GameState, seat: int, arg: int, fields: Mapping[str, Field]) -> None:
        own = g.outcome is None and bool(g.stack) and g.stack[-1]["p"] == seat
        frame: dict[str, Any] = g.stack[-1] if own else {}
        kind = frame.get("k", "")
        syms = g.t.symbols[frame["c"]] if kind == "card" else ()
        symbol = syms[frame["i"]] if frame.get("i", 0) < len(syms) else ""
        super().__init__(fields, arg, kind, symbol)
        self.g, self.seat, self.d, self.frame = g, seat, g.t.data, frame

    def area(self, a: int) -> str:
        return self.d.areas[a].name(self.g.cfg.theme)

    def card(self, c: int) -> str:
        return self.d.cards[c].name(self.g.cfg.theme)

    def pawn_area(self) -> str:
        """The area of the piece a PAWN action names."""
        return self.area(self.arg // PAWN_SLOTS)


def _piece(s: Said) -> str:
    slot, terms = s.arg % PAWN_SLOTS, s.d.themes[s.g.cfg.theme]
    if slot == SLOT_GRENADIER:
        return terms["grenadier"]
    if slot == SLOT_CITIZEN:
        return terms["citizen"]
    owner = (s.seat + slot) % s.g.n if s.seat >= 0 else f"+{slot}"
    return f"{terms['agent']} of player {owner}"


BASE_FIELDS: Mapping[str, Field] = {
    "area": lambda s: s.area(s.arg),
    "card": lambda s: s.card(s.arg),
    "player": lambda s: (s.seat + s.arg) % s.g.n if s.seat >= 0 else f"+{s.arg}",
    "piece": _piece,
    "pawn_area": Said.pawn_area,
    "symbol_text": lambda s: s.symbol.replace("_", " ") if s.symbol else absent("no symbol"),
    "money": lambda s: s.g.t.money[s.frame["c"]],
    "played": lambda s: s.card(s.frame["c"]),
}
"""The fields of the base game's phrases (a :class:`Said` -> a value)."""

BASE_PHRASES: Book = read_words(__package__, "describe.toml")
"""The base game's phrases (``describe.toml``): each family said alike whatever the decision."""


@dataclass(frozen=True)
class Vocabulary:
    """A ruleset's words for its actions: its action space, phrases and their fields."""

    space: A.ActionSpace
    phrases: Book
    fields: Mapping[str, Field]

    def extend(
        self, space: A.ActionSpace, phrases: Book, fields: Mapping[str, Field]
    ) -> Vocabulary:
        """A child ruleset's vocabulary: its own phrases and fields laid over these."""
        return Vocabulary(space, extend(self.phrases, phrases), {**self.fields, **fields})


BASE_VOCABULARY = Vocabulary(A.BASE_SPACE, BASE_PHRASES, BASE_FIELDS)


def describe_action(
    g: GameState, action: int, seat: int, vocabulary: Vocabulary = BASE_VOCABULARY
) -> str:
    """What ``action`` means for ``seat`` (player-relative arguments made absolute), in the
    words of ``vocabulary`` (the game's ruleset's)."""
    try:
        act = vocabulary.space.decode(action)
    except ValueError:
        return f"<invalid action {action!r}>"
    s = Said(g, seat, act.arg, vocabulary.fields)
    return say(vocabulary.phrases[act.family], s)
