"""Build any position by hand (for tests, puzzles and debugging).

``build_position`` starts from a seeded new game, overwrites what you give, puts every card
you did not place on the draw pile, and starts the turn of ``active`` (its start-of-turn win
check included). Areas, cards, events and personalities are named by their data ids.
Expansion positions: ``nanty_env.engine.build_cthulhu_position``
(``cthulhu.position.build_position``).
See ``docs/engine.md`` (State schema) for the full state schema.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from nanty_env.engine.actions import NUM_AREAS
from nanty_env.engine.config import GameConfig
from nanty_env.engine.game import Game
from nanty_env.engine.game_log import GameLog
from nanty_env.engine.knowledge import no_knowledge
from nanty_env.engine.setup import personality_deck
from nanty_env.engine.state import empty_rows
from nanty_env.engine.tables import tables


def area(name: str) -> int:
    """Area index from an area id (e.g. ``"dolly_sisters"``) or Nanty name (``"Chelsea"``)."""
    for a in tables().data.areas:
        if name in (a.id, a.names["nanty"], a.names["discworld"]):
            return a.index
    raise KeyError(f"unknown area {name!r}")


def area_row(values: Mapping[str, int], empty: int) -> tuple[int, ...]:
    """One value per area: ``values`` by area name, ``empty`` elsewhere."""
    row = [empty] * NUM_AREAS
    for name, value in values.items():
        row[area(name)] = value
    return tuple(row)


def card(name: str) -> int:
    """Card index from a card id or a themed name."""
    d = tables().data
    if name in d.card_index:
        return d.card_index[name]
    for c in d.cards:
        if name in c.names.values():
            return c.index
    raise KeyError(f"unknown card {name!r}")


def event(name: str) -> int:
    return tables().data.event_index[name]


def personality(name: str) -> int:
    return tables().data.personality_index[name]


def build_position(
    num_players: int = 4,
    *,
    config: GameConfig | None = None,
    seed: int = 0,
    agents: Mapping[int, Mapping[str, int]] | None = None,
    buildings: Mapping[str, int] | None = None,
    trouble: Sequence[str] = (),
    grenadiers: Mapping[str, int] | None = None,
    citizens: Mapping[str, int] | None = None,
    money: Sequence[int] | None = None,
    hands: Sequence[Sequence[str]] | None = None,
    deck_top: Sequence[str] = (),
    discard: Sequence[str] = (),
    events: Sequence[str] | None = None,
    personalities: Sequence[str] | None = None,
    loans: Mapping[int, Sequence[str]] | None = None,
    penalties: Mapping[int, Sequence[str]] | None = None,
    retired: Sequence[str] = (),
    active: int = 0,
    turn: int = 5,
    deck_size: int | None = None,
    rolls: Sequence[str | int] | None = None,
) -> Game:
    """A game at the start of ``active``'s turn with the given board and cards.

    ``agents`` maps seat -> {area: count} and replaces the starting agents together with the
    starting trouble markers (omit it to keep both); ``trouble`` lists areas given a marker;
    ``deck_top`` lists the next cards to be drawn, first drawn first; ``events`` lists
    the random-event deck, next first; ``deck_size`` trims the draw pile (unplaced cards
    beyond it are set aside in ``removed``); ``rolls`` fixes the next die rolls (areas by
    id or name, or area indices), after which a further roll is an error
    (:meth:`Game.fix_rolls`).
    """
    cfg = config or GameConfig(num_players=num_players)
    if cfg.expansion is not None:
        raise ValueError("for an expansion position use build_cthulhu_position")
    g = Game.new(cfg, seed)
    n = g.n
    if agents is not None:
        if not set(agents) <= set(range(n)):
            raise ValueError(f"agents: seats are 0..{n - 1}, got {sorted(agents)}")
        g.agents = tuple(area_row(agents.get(seat, {}), 0) for seat in range(n))
        g.on_board = [sum(row) for row in g.agents]
        g.trouble = [0] * NUM_AREAS
    for name in trouble:
        g.trouble[area(name)] = 1
    g.gren = area_row(grenadiers or {}, 0)
    g.cit = area_row(citizens or {}, 0)
    g.building = area_row(buildings or {}, -1)
    g.city_gained = (-1,) * NUM_AREAS
    g.city_retired = area_row(dict.fromkeys(retired, 1), 0)
    if money is not None:
        g.money = list(money)

    used: set[int] = set(g.removed)
    g.hands = [[card(x) for x in h] for h in hands] if hands is not None else g.hands
    g.loans = tuple(tuple(card(x) for x in (loans or {}).get(s, ())) for s in range(n))
    g.penalties = tuple(tuple(card(x) for x in (penalties or {}).get(s, ())) for s in range(n))
    g.discard = [card(x) for x in discard]
    top = [card(x) for x in deck_top]
    for group in (*g.hands, *g.loans, *g.penalties, g.discard, top):
        for c in group:
            if c in used:
                raise ValueError(f"card {tables().card_id(c)} placed twice")
            used.add(c)
    rest = [c for c in g.deck if c not in used]
    rest += [c for c in range(len(tables().data.cards)) if c not in used and c not in rest]
    if deck_size is not None:
        keep = max(0, deck_size - len(top))
        g.removed = tuple(sorted({*g.removed, *rest[: len(rest) - keep]}))
        rest = rest[len(rest) - keep :]
    g.deck = rest + list(reversed(top))
    g.in_play = []
    if events is not None:
        g.event_deck = tuple(event(x) for x in reversed(events))
        g.events_done = tuple(e for e in range(len(tables().data.events)) if e not in g.event_deck)
    if personalities is not None:
        g.persona = tuple(personality(x) for x in personalities)
        g.persona_pool = tuple(sorted(p for p in personality_deck(cfg) if p not in g.persona))
    g.known = no_knowledge(n)
    g.known_unused = empty_rows(n)
    g.active = active
    g.turn = turn
    g.outcome = None
    g.log = GameLog()
    g.stack = [{"k": "turn", "p": active, "s": 0}]
    if rolls is not None:
        g.fix_rolls(area(r) if isinstance(r, str) else r for r in rolls)
    g.resume()
    return g
