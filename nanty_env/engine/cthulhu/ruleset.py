"""*The Rise of Cthulhu* as a ruleset: the list of what it changes in the base game.

Its frames (``frames.CTHULHU``: summoning, minions, buildings by type, the face-up refill ...)
add to or replace the base game's; everything below is named here once.
"""

from __future__ import annotations

from nanty_env.engine.base_ruleset import BASE_RULESET
from nanty_env.engine.config import GameConfig
from nanty_env.engine.cthulhu import abilities, flow, pieces, symbols, track, victory
from nanty_env.engine.cthulhu.determinize import sample_cthulhu_from_view
from nanty_env.engine.cthulhu.effects import X_EFFECTS
from nanty_env.engine.cthulhu.symbols import CTHULHU_SYMBOLS
from nanty_env.engine.cthulhu.tables import CthulhuTables, cthulhu_tables
from nanty_env.engine.frames import CTHULHU


def tables_of(cfg: GameConfig) -> CthulhuTables:
    """The tables of the config's content pack (None: the shipped one)."""
    return cthulhu_tables(cfg.content)


CTHULHU_RULESET = BASE_RULESET.derive(
    "cthulhu",
    "cthulhu",
    CTHULHU,
    title="The Rise of Cthulhu",
    symbols=CTHULHU_SYMBOLS,
    effects=X_EFFECTS,
    event_effects={"stars_are_right": track.stars_are_right},
    events_cycle=True,
    ability_actions=abilities.ability_actions,
    is_ability=abilities.is_ability,
    use_ability=abilities.use_ability,
    start_turn=flow.start_turn,
    start_of_turn_win=victory.start_of_turn_win,
    refill=flow.refill_step,
    buildable_areas=symbols.buildable_areas,
    build=symbols.do_building,
    tables=tables_of,
    sample=sample_cthulhu_from_view,
    roles="objective",
    control=pieces.control,
    points=victory.points,
    tie_break=pieces.best_building,
)
