"""Build any expansion position by hand (tests, puzzles, debugging).

``build_position`` starts from a seeded new expansion game, overwrites what you give, puts every
card you did not place on the draw pile, and starts the turn of ``active`` (its sudden-death
check included). Areas, cards, events, Elder Ones, Great Old Ones, objectives and building types
are named by their data ids (areas and cards also by name).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from nanty_env.engine.config import GameConfig
from nanty_env.engine.cthulhu import pieces, setup
from nanty_env.engine.cthulhu.game import CthulhuGame
from nanty_env.engine.cthulhu.tables import cthulhu_tables
from nanty_env.engine.game import Game
from nanty_env.engine.position import area_row, finder, place_board, place_cards, start_position

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
    agents: Mapping[int, Mapping[str, int]] | None = None,
    buildings: Mapping[str, tuple[int, str]] | None = None,
    elders: Mapping[str, tuple[int, str]] | None = None,
    trouble: Sequence[str] = (),
    grenadiers: Mapping[str, int] | None = None,
    citizens: Mapping[str, int] | None = None,
    money: Sequence[int] | None = None,
    hands: Sequence[Sequence[str]] | None = None,
    deck_top: Sequence[str] = (),
    discard: Sequence[str] = (),
    face_up: Sequence[str] | None = None,
    events: Sequence[str] | None = None,
    objectives: Sequence[str] | None = None,
    great_old_ones: Sequence[str] | None = None,
    insanity: int = 1,
    loans: Mapping[int, Sequence[str]] | None = None,
    penalties: Mapping[int, Sequence[str]] | None = None,
    active: int = 0,
    turn: int = 9,
    deck_size: int | None = None,
    rolls: Sequence[str | int] | None = None,
) -> CthulhuGame:
    """An expansion game at the start of ``active``'s turn with the given board and cards.

    ``agents`` (seat -> {area: count}) replaces the starting agents and their trouble markers;
    ``buildings`` maps an area to (seat, building type); ``elders`` maps an Elder One to
    (seat, area) (arrived in an earlier turn; the others are in the pool); ``face_up`` replaces
    the three face-up cards; ``events`` lists the event deck, next first; ``deck_top`` the next
    cards to be drawn, first drawn first; ``deck_size`` trims the draw pile (unplaced cards
    beyond it are set aside in ``removed``). ``turn`` defaults to a turn after the first round.
    ``rolls`` fixes the next die rolls as in the base game's builder (areas by id or name, or
    area indices): a summon roll of ``k`` is the area index ``k - 1``, e.g. ``rolls=[5]`` for
    a summon rolling 6 (:meth:`Game.fix_rolls`).
    """
    cfg = config or GameConfig(num_players=num_players, expansion="cthulhu")
    g = Game.new(cfg, seed)
    if not isinstance(g, CthulhuGame):
        raise ValueError("build_position here builds expansion positions (expansion='cthulhu')")
    t = g.t
    place_board(g, agents, trouble, grenadiers, citizens, money)
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

    place_cards(
        g,
        hands=hands,
        loans=loans,
        penalties=penalties,
        discard=discard,
        deck_top=deck_top,
        deck_size=deck_size,
        open_cards=g.faceup,
        settle=settle,
    )
    if events is not None:
        g.event_deck = tuple(event(x, t) for x in reversed(events))
        g.events_done = ()
    return start_position(g, active, turn, rolls)  # type: ignore[return-value]
