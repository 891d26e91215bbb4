"""Build any expansion position by hand (tests, puzzles, debugging).

``build_position`` starts from a seeded new expansion game, overwrites what you give, puts every
card you did not place on the draw pile, and starts the turn of ``active`` (its sudden-death
check included). Areas, cards, events, Elder Ones, Great Old Ones, objectives and building types
are named by their data ids (areas and cards also by name).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from nanty_env.engine.config import GameConfig
from nanty_env.engine.cthulhu import pieces, setup
from nanty_env.engine.cthulhu.game import CthulhuGame
from nanty_env.engine.cthulhu.tables import cthulhu_tables
from nanty_env.engine.game import Game
from nanty_env.engine.position import area_row, finder, finish_position

area = finder("area", "area_index", "areas", cthulhu_tables)
card = finder("card", "card_index", "cards", cthulhu_tables)
event = finder("event", "event_index", "events", cthulhu_tables)
elder = finder("Elder One", "elder_index", "elder_ones", cthulhu_tables)
great_old_one = finder("Great Old One", "goo_index", "great_old_ones", cthulhu_tables)
objective = finder("objective", "objective_index", "objectives", cthulhu_tables)
building_type = finder("building type", "building_index", "buildings", cthulhu_tables)


def build_position(
    num_players: int = 4,
    *,
    config: GameConfig | None = None,
    seed: int = 0,
    buildings: Mapping[str, tuple[int, str]] | None = None,
    elders: Mapping[str, tuple[int, str]] | None = None,
    face_up: Sequence[str] | None = None,
    objectives: Sequence[str] | None = None,
    great_old_ones: Sequence[str] | None = None,
    insanity: int = 1,
    turn: int = 9,
    **board_and_cards: Any,
) -> CthulhuGame:
    """An expansion game at the start of ``active``'s turn with the given board and cards.

    ``buildings`` maps an area to (seat, building type); ``elders`` maps an Elder One to
    (seat, area) (arrived in an earlier turn; the others are in the pool); ``face_up``
    replaces the three face-up cards; ``objectives`` and ``great_old_ones`` deal them by seat.
    ``turn`` defaults to a turn after the first round. The board, the cards, the events
    (the deck cycles: ``events`` lists all of them, next first), ``active`` and ``rolls`` are
    the keywords of the base game's builder (:func:`nanty_env.engine.position.finish_position`:
    ``agents``, ``trouble``, ``grenadiers``, ``citizens``, ``money``, ``hands``, ``deck_top``,
    ``discard``, ``events``, ``loans``, ``penalties``, ``active``, ``deck_size``, ``rolls``);
    a summon roll of ``k`` is the area index ``k - 1``, e.g. ``rolls=[5]`` for a summon
    rolling 6 (:meth:`Game.fix_rolls`).
    """
    cfg = config or GameConfig(num_players=num_players, expansion="cthulhu")
    g = Game.new(cfg, seed)
    if not isinstance(g, CthulhuGame):
        raise ValueError("build_position here builds expansion positions (expansion='cthulhu')")
    t = g.t
    g.building = area_row({name: seat for name, (seat, _) in (buildings or {}).items()}, -1, t)
    g.btype = area_row(
        {name: building_type(kind, t) for name, (_, kind) in (buildings or {}).items()}, -1, t
    )
    setup.empty_elders(g)
    for name, (seat, where) in (elders or {}).items():
        pieces.set_elder(g, elder(name, t), area(where, t), seat, 0)
    g.insanity = insanity
    if objectives is not None:
        g.objective = tuple(objective(x, t) for x in objectives)
        g.objective_pool = tuple(sorted(set(range(len(t.data.objectives))) - set(g.objective)))
    if great_old_ones is not None:
        g.goo = tuple(great_old_one(x, t) for x in great_old_ones)

    dealt = g.faceup
    g.faceup = [card(x, t) for x in face_up] if face_up is not None else []

    def settle(rest: list[int]) -> list[int]:
        """The dealt face-up cards where still free, else the next free ones."""
        if face_up is not None:
            return rest
        g.faceup = [c for c in dealt if c in rest]
        g.faceup += [c for c in reversed(rest) if c not in g.faceup][: 3 - len(g.faceup)]
        return [c for c in rest if c not in g.faceup]

    finish_position(g, turn, open_cards=g.faceup, settle=settle, **board_and_cards)
    return g
