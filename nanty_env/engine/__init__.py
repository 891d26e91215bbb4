"""The Nanty Narking rules engine: pure Python, no gymnasium / pettingzoo / torch.

Everything a bot, an environment face or a test needs is exported here (``docs/engine.md``
describes it); the modules behind it are internals and may move.
"""

from nanty_env.engine import cthulhu as _cthulhu  # noqa: F401  (registers the expansion)
from nanty_env.engine.actions import (
    NUM_ACTIONS,
    NUM_ACTIONS_CTHULHU,
    NUM_AREAS,
    decode,
    encode,
    space_for,
)
from nanty_env.engine.config import GameConfig
from nanty_env.engine.coverage import Coverage, count_coverage
from nanty_env.engine.cthulhu.position import build_position as build_cthulhu_position
from nanty_env.engine.determinize import determinize, sample_from_view
from nanty_env.engine.errors import EngineError, IllegalActionError, InvalidStateError
from nanty_env.engine.frames import frame_kinds
from nanty_env.engine.game import Game
from nanty_env.engine.outcome import Outcome, Termination
from nanty_env.engine.position import build_position
from nanty_env.engine.scoring import (
    AGENT_POINTS,
    BASE_LOAN,
    Control,
    PublicBoard,
    area_control,
    board_of_view,
    control,
    control_margins,
    controlled_areas,
    controls,
    net_worth,
    net_worth_of,
    pieces_to_control,
    points,
    settle_loans,
)
from nanty_env.engine.setup import personality_deck
from nanty_env.engine.tables import Tables, tables, tables_for
from nanty_env.engine.validation import check_game
from nanty_env.engine.victory import goal_met
from nanty_env.engine.view import (
    FIELD_NAMES,
    HIDDEN_CARD,
    KEPT_FIELDS,
    KIND_FIELD_NAMES,
    frame_fields,
    frame_from_fields,
)

__all__ = [
    "AGENT_POINTS",
    "BASE_LOAN",
    "FIELD_NAMES",
    "HIDDEN_CARD",
    "KEPT_FIELDS",
    "KIND_FIELD_NAMES",
    "NUM_ACTIONS",
    "NUM_ACTIONS_CTHULHU",
    "NUM_AREAS",
    "Control",
    "Coverage",
    "EngineError",
    "Game",
    "GameConfig",
    "IllegalActionError",
    "InvalidStateError",
    "Outcome",
    "PublicBoard",
    "Tables",
    "Termination",
    "area_control",
    "board_of_view",
    "build_cthulhu_position",
    "build_position",
    "check_game",
    "control",
    "control_margins",
    "controlled_areas",
    "controls",
    "count_coverage",
    "decode",
    "determinize",
    "encode",
    "frame_fields",
    "frame_from_fields",
    "frame_kinds",
    "goal_met",
    "net_worth",
    "net_worth_of",
    "personality_deck",
    "pieces_to_control",
    "points",
    "sample_from_view",
    "settle_loans",
    "space_for",
    "tables",
    "tables_for",
]
