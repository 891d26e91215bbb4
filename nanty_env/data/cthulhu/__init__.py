"""The Rise of Cthulhu expansion's content: the shipped pack (TOML files in this folder, see
its README) and the loader that validates it or a user's own pack."""

from nanty_env.data.cthulhu.loader import PACK_FILES, load_cthulhu_data, pack_sources
from nanty_env.data.cthulhu.model import (
    ABILITY_KINDS,
    CTHULHU_EFFECT_PARAMS,
    CTHULHU_EVENTS,
    CTHULHU_SYMBOLS,
    MAX_ELDER_ONES,
    NUM_BUILDING_TYPES,
    OBJECTIVE_METRICS,
    BuildingType,
    CthulhuCard,
    CthulhuData,
    CthulhuEvent,
    ElderOne,
    GreatOldOne,
    Objective,
    TrackLevel,
)

__all__ = [
    "ABILITY_KINDS",
    "CTHULHU_EFFECT_PARAMS",
    "CTHULHU_EVENTS",
    "CTHULHU_SYMBOLS",
    "MAX_ELDER_ONES",
    "NUM_BUILDING_TYPES",
    "OBJECTIVE_METRICS",
    "PACK_FILES",
    "BuildingType",
    "CthulhuCard",
    "CthulhuData",
    "CthulhuEvent",
    "ElderOne",
    "GreatOldOne",
    "Objective",
    "TrackLevel",
    "load_cthulhu_data",
    "pack_sources",
]
