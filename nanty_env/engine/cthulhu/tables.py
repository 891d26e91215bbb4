"""The expansion's lookup tables: the base game's fields (for the shared handlers) filled from an
expansion content pack, plus the expansion's own, cached per pack."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from nanty_env.data.cthulhu import CthulhuData, load_cthulhu_data
from nanty_env.data.cthulhu.loader import pack_sources
from nanty_env.data.cthulhu.model import DOOMSDAY_LEVEL
from nanty_env.data.packs import cached_by_pack
from nanty_env.engine.tables import Tables, area_fields, card_fields, interned


# keyword-only: its fields follow the base's defaulted ones; no slots, as the compiled build's
# Tables is an extension type whose fields this class's ``__init__`` sets (_build)
@dataclass(frozen=True, kw_only=True)
class CthulhuTables(Tables):
    """Per-card, per-type and per-level facts of one content pack as flat tuples.

    Of the base fields, ``ability``/``ability_params`` are empty (no City Area cards), ``holborn``
    is -1, ``grey_cards``/``red_cards`` hold the yellow (top) and purple (bottom) decks, and
    ``cost`` keeps the board's circled costs, which the expansion does not use. Pickled as the
    pack it comes from (``Tables.__reduce__``: ``ruleset`` and ``content``).
    """

    building_cost: tuple[int, ...]
    building_ability: tuple[str, ...]
    building_params: tuple[Any, ...]
    elder_hp: tuple[int, ...]
    elder_ability: tuple[str, ...]
    elder_params: tuple[Any, ...]
    goo_ability: tuple[str, ...]
    goo_params: tuple[Any, ...]
    track_grenadier: tuple[bool, ...]  # by level 0..13 (index 0 unused)
    track_event: tuple[bool, ...]
    loan_repay: tuple[int, ...]  # by card (0 for non-loans)
    loan_penalty: tuple[int, ...]

    @property
    def num_elders(self) -> int:
        return len(self.elder_hp)

    @property
    def grenadier_levels(self) -> tuple[int, ...]:
        return tuple(lv for lv in range(DOOMSDAY_LEVEL + 1) if self.track_grenadier[lv])


def build_tables(d: CthulhuData, content: str | None = None) -> CthulhuTables:
    """The tables of content pack ``d`` (read from ``content``; None: the shipped pack)."""
    areas, cards = d.areas, d.cards
    flags = {lv.level: lv for lv in d.track}
    return CthulhuTables(
        data=d,  # type: ignore[arg-type]  (duck-typed like GameData)
        neighbours=tuple(tuple(a.neighbours) for a in areas),
        ability=("",) * len(areas),
        ability_params=tuple({} for _ in areas),
        holborn=-1,
        **area_fields(areas),
        **card_fields(cards, "yellow", "purple"),
        building_cost=tuple(b.cost for b in d.buildings),
        building_ability=interned(b.ability for b in d.buildings),
        building_params=tuple(b.params for b in d.buildings),
        elder_hp=tuple(e.hp for e in d.elder_ones),
        elder_ability=interned(e.ability for e in d.elder_ones),
        elder_params=tuple(e.params for e in d.elder_ones),
        goo_ability=interned(x.ability for x in d.great_old_ones),
        goo_params=tuple(x.params for x in d.great_old_ones),
        track_grenadier=(False, *tuple(flags[lv].grenadier for lv in range(1, 14))),
        track_event=(False, *tuple(flags[lv].event for lv in range(1, 14))),
        loan_repay=tuple(c.params["repay"] if c.effect == "take_loan" else 0 for c in cards),
        loan_penalty=tuple(c.params["penalty"] if c.effect == "take_loan" else 0 for c in cards),
        ruleset="cthulhu",
        content=content,
    )


cthulhu_tables = cached_by_pack(load_cthulhu_data, build_tables)
"""The tables of the shipped pack (``None``, built once) or of the user's pack at ``content``,
cached by the SHA-256 of its files (re-read only when a file changes)."""


__all__ = ["CthulhuTables", "build_tables", "cthulhu_tables", "pack_sources"]
