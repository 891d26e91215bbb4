"""A house variant, "Sixes", written as a ruleset: what it changes in the base game.

* a hand of six (dealt and refilled to six);
* each building scores two points more at the end;
* one new card, The House Cat (£4 and an agent), in place of Mr Boggis, through a content pack
  (``house_pack/cards.toml``, laid over the shipped content by ``nanty_env.data.overlay``).

Play it with ``Game.new(GameConfig(expansion="house_sixes"))`` once this module is imported
(``docs/rulesets.md`` walks through it). Everything else is the base game's: the frames, the
observation layout and the action space, so the base game's bots and envs play it.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from nanty_env.data.overlay import load_game_data_with
from nanty_env.engine import Game, GameConfig, Tables, board, points
from nanty_env.engine.base_ruleset import BASE_RULESET
from nanty_env.engine.frames import Registry
from nanty_env.engine.ruleset import register_ruleset
from nanty_env.engine.state import GameState
from nanty_env.engine.tables import build_tables

NAME = "house_sixes"
PACK = Path(__file__).with_name("house_pack")
HAND_SIZE = 6
BUILDING_BONUS = 2


@cache
def _tables() -> Tables:
    return build_tables(load_game_data_with(PACK), ruleset=NAME)


def house_tables(cfg: GameConfig) -> Tables:
    """The base game's content with the pack's card."""
    return _tables()


def house_points(g: GameState, seat: int) -> int:
    """The base game's points, and two more for each of ``seat``'s buildings."""
    return points(g, seat) + BUILDING_BONUS * board.own_buildings(g, seat)


HOUSE_SIXES = BASE_RULESET.derive(
    NAME,
    NAME,
    Registry(NAME, {}, {}, {}),  # no frames of its own
    hand_size=HAND_SIZE,
    points=house_points,
    tables=house_tables,
    title="Sixes (a house variant)",
)


class HouseGame(Game):
    """A game of Sixes (no state of its own; a class of its own so that games pickle)."""

    __slots__ = ()


register_ruleset(HOUSE_SIXES, HouseGame)
