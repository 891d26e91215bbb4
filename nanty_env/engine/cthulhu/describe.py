"""Expansion actions in words (``Game.action_to_string``): the phrases and fields by which
*The Rise of Cthulhu* extends the base game's :data:`~nanty_env.engine.describe.BASE_VOCABULARY`
(read in the light of the pending decision when it is the describing seat's own)."""

from __future__ import annotations

from collections.abc import Mapping

from nanty_env.engine import actions as A
from nanty_env.engine.cthulhu.symbols import summon_price
from nanty_env.engine.describe import BASE_VOCABULARY
from nanty_env.engine.phrases import Book, Field, absent, read_words

CTHULHU_FIELDS: Mapping[str, Field] = {
    "elder": lambda s: s.d.elder_ones[s.arg],
    "price": lambda s: summon_price(s.g, s.arg, s.frame["roll"]),
    "elder_area": lambda s: s.area(s.g.elder_area[s.arg]),
    "elder_from": lambda s: s.area(w) if (w := s.g.elder_area[s.arg]) >= 0 else absent("pool"),
    "elders": lambda s: len(s.d.elder_ones),
    "arriving": lambda s: s.d.elder_ones[s.frame["e"]].title,
    "goo": lambda s: (
        s.d.great_old_ones[s.g.goo[s.seat]] if 0 <= s.seat < s.g.n else absent("no seat")
    ),
    "building": lambda s: s.d.buildings[s.arg],
    "built": lambda s: s.d.buildings[k].title if (k := s.g.btype[s.arg]) >= 0 else absent("none"),
    "building_there": lambda s: s.d.buildings[s.g.btype[s.arg]].title,
    "own_area": lambda s: absent("another's") if s.arg % A.PAWN_SLOTS else s.pawn_area(),
}

CTHULHU_PHRASES: Book = read_words(__package__, "describe.toml")
"""The expansion's phrases (``describe.toml``), laid over the base game's."""

CTHULHU_VOCABULARY = BASE_VOCABULARY.extend(A.CTHULHU_SPACE, CTHULHU_PHRASES, CTHULHU_FIELDS)
