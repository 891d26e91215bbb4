"""The base game as a :class:`~nanty_env.engine.ruleset.Ruleset`: the defaults every other
ruleset derives from (``BASE_RULESET.derive(...)``), registered with ``Game`` by
``nanty_env.engine.game``."""

from __future__ import annotations

from nanty_env.engine import board, flow
from nanty_env.engine.determinize import sample_base
from nanty_env.engine.effects import EFFECTS
from nanty_env.engine.events import EVENT_START
from nanty_env.engine.frames import BASE
from nanty_env.engine.ruleset import Ruleset
from nanty_env.engine.scoring import best_city_card, control, points
from nanty_env.engine.symbols import BASE_SYMBOLS
from nanty_env.engine.tables import HAND_SIZE, base_tables
from nanty_env.engine.victory import start_of_turn_win

BASE_RULESET = Ruleset(
    name="base",
    expansion=None,
    parent=None,
    handlers=BASE,
    symbols=BASE_SYMBOLS,
    effects=EFFECTS,
    event_effects=EVENT_START,
    ability_actions=flow.ability_actions,
    is_ability=flow.is_city_ability,
    use_ability=flow.use_city_ability,
    start_of_turn_win=start_of_turn_win,
    refill=flow.refill_hand,
    buildable_areas=board.buildable_areas,
    build=board.build,
    tables=base_tables,
    sample=sample_base,
    control=control,
    points=points,
    tie_break=best_city_card,
    hand_size=HAND_SIZE,
)
