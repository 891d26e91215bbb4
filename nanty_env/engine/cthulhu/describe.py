"""Expansion actions in words (``Game.action_to_string``): the phrases and fields by which
*The Rise of Cthulhu* extends the base game's :data:`~nanty_env.engine.describe.BASE_VOCABULARY`
(read in the light of the pending decision when it is the describing seat's own)."""

from __future__ import annotations

from collections.abc import Mapping

from nanty_env.engine import actions as A
from nanty_env.engine.cthulhu.symbols import summon_price
from nanty_env.engine.describe import BASE_VOCABULARY
from nanty_env.engine.phrases import Book, Field, absent

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

_NO_ELDER = "<Elder One {arg}: the content pack has {elders}>"
_MOVE_MINION = "move your agent from {own_area}"

CTHULHU_PHRASES: Book = {
    "ELDER": {
        "summon": "summon {elder.title} (HP {elder.hp}, £{price})",
        "sacrifice": "sacrifice {elder.title} ({elder.hp} hits)",
        "card:assassinate": "attack {elder.title} in {elder_area}",
        "*": ("move {elder.title} from {elder_from}", "Elder One {elder.title}", _NO_ELDER),
    },
    "ELDER_ABILITY": {"*": ("use {elder.title}: {elder.text}", _NO_ELDER)},
    "GOO_ABILITY": {"*": ("use {goo.title}: {goo.text}", "use your Great Old One")},
    "BUILDING_TYPE": {"*": "place a {building.title} (£{building.cost})"},
    "ABILITY": {"*": ("use the {built} in {area}", "use the building in {area}")},
    "PASS": {
        "card": "skip the {symbol_text} action",
        "summon": "summon nothing",
        "sacrifice": "stop sacrificing",
        "end": "end the turn",
    },
    "CONFIRM": {
        "refill": "draw the top card of the pile",
        "card:money": "take £{money}",
        "card:scroll": "carry out the text of {played}",
        "card:insanity": "advance the Insanity marker",
        "card:summon": "roll the die to summon an Elder One",
    },
    "SELECT_CARD": {"refill": "take the face-up {card}", "take_faceup": "take the face-up {card}"},
    "AREA": {
        "card:minion": "place an agent in {area}",
        "card:building": "build in {area}",
        "summon_place": "{arriving} arrives in {area}",
        "move_minion": "move it to {area}",
        "relocate_building": "move your {building_there} from {area}",
    },
    "PAWN": {
        "card:minion": _MOVE_MINION,
        "pick_minion": _MOVE_MINION,
        "sacrifice": "sacrifice your agent in {own_area} (1 hit)",
    },
}
"""The expansion's phrases, laid over the base game's."""

CTHULHU_VOCABULARY = BASE_VOCABULARY.extend(A.CTHULHU_SPACE, CTHULHU_PHRASES, CTHULHU_FIELDS)
