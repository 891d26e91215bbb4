"""Build any position by hand (for tests, puzzles and debugging).

``build_position`` starts from a seeded new game, overwrites what you give, puts every card
you did not place on the draw pile, and starts the turn of ``active`` (its start-of-turn win
check included). Areas, cards, events and personalities are named by their data ids.
It builds the positions of every ruleset set up as the base game is (a house variant's too);
the expansion's: ``nanty_env.engine.build_cthulhu_position``, which shares the helpers here.
See ``docs/engine.md`` (State schema) for the full state schema.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from nanty_env.engine.actions import NUM_AREAS
from nanty_env.engine.config import GameConfig
from nanty_env.engine.game import Game
from nanty_env.engine.game_log import GameLog
from nanty_env.engine.knowledge import no_knowledge
from nanty_env.engine.ruleset import game_class
from nanty_env.engine.setup import personality_deck
from nanty_env.engine.state import empty_rows
from nanty_env.engine.tables import Tables, tables


def find(kind: str, index: Mapping[str, int], items: Sequence[Any], name: str) -> int:
    """The index of the item of ``items`` whose id (``index``) or any themed name is ``name``."""
    if name in index:
        return index[name]
    for x in items:
        names = getattr(x, "names", None)
        if name in (names.values() if names is not None else (x.name(),)):
            return x.index
    raise KeyError(f"unknown {kind} {name!r}")


def finder(
    kind: str, index: str, items: str, default: Callable[[], Tables] = tables
) -> Callable[[str, Tables | None], int]:
    """The lookup of a ``kind`` of item by id or themed name (``area("dolly_sisters")``,
    ``area("Chelsea")``): ``index`` and ``items`` name the content's id -> index map and its
    records; the lookup reads the tables it is given, else ``default()`` (a ruleset's own)."""

    def lookup(name: str, t: Tables | None = None) -> int:
        d = (t or default()).data
        return find(kind, getattr(d, index), getattr(d, items), name)

    lookup.__doc__ = f"The index of the {kind} named ``name`` (an id or a themed name)."
    return lookup


area = finder("area", "area_index", "areas")
card = finder("card", "card_index", "cards")
event = finder("event", "event_index", "events")


def area_row(values: Mapping[str, int], empty: int, t: Tables | None = None) -> tuple[int, ...]:
    """One value per area: ``values`` by area name, ``empty`` elsewhere."""
    row = [empty] * NUM_AREAS
    for name, value in values.items():
        row[area(name, t)] = value
    return tuple(row)


def personality(name: str) -> int:
    return tables().data.personality_index[name]


def place_board(
    g: Game,
    agents: Mapping[int, Mapping[str, int]] | None,
    trouble: Sequence[str],
    grenadiers: Mapping[str, int] | None,
    citizens: Mapping[str, int] | None,
    money: Sequence[int] | None,
) -> None:
    """Every ruleset's pieces and money: ``agents`` (seat -> {area: count}) replaces the
    starting agents and their trouble markers; ``trouble`` adds markers."""
    t, n = g.t, g.n
    if agents is not None:
        if not set(agents) <= set(range(n)):
            raise ValueError(f"agents: seats are 0..{n - 1}, got {sorted(agents)}")
        g.agents = tuple(area_row(agents.get(seat, {}), 0, t) for seat in range(n))
        g.on_board = [sum(row) for row in g.agents]
        g.trouble = [0] * NUM_AREAS
    for name in trouble:
        g.trouble[area(name, t)] = 1
    g.gren = area_row(grenadiers or {}, 0, t)
    g.cit = area_row(citizens or {}, 0, t)
    g.city_gained = (-1,) * NUM_AREAS
    if money is not None:
        g.money = list(money)


def place_cards(
    g: Game,
    *,
    hands: Sequence[Sequence[str]] | None,
    loans: Mapping[int, Sequence[str]] | None,
    penalties: Mapping[int, Sequence[str]] | None,
    discard: Sequence[str],
    deck_top: Sequence[str],
    deck_size: int | None,
    open_cards: Sequence[int] = (),
    settle: Callable[[list[int]], list[int]] | None = None,
) -> None:
    """Every ruleset's cards: hands, loans, penalties, the discard pile and the next cards to
    draw as given (each card once), every other card on the draw pile. ``open_cards``: the
    ruleset's other cards already placed; ``settle(rest)``: lets the ruleset take its cards
    from the rest before ``deck_size`` trims it."""
    t, n = g.t, g.n
    used: set[int] = set(g.removed)
    if hands is not None:
        g.hands = [[card(x, t) for x in h] for h in hands]
    g.loans = tuple(tuple(card(x, t) for x in (loans or {}).get(s, ())) for s in range(n))
    g.penalties = tuple(tuple(card(x, t) for x in (penalties or {}).get(s, ())) for s in range(n))
    g.discard = [card(x, t) for x in discard]
    top = [card(x, t) for x in deck_top]
    for group in (*g.hands, *g.loans, *g.penalties, g.discard, open_cards, top):
        for c in group:
            if c in used:
                raise ValueError(f"card {t.card_id(c)} placed twice")
            used.add(c)
    rest = [c for c in g.deck if c not in used]
    rest += [c for c in range(len(t.data.cards)) if c not in used and c not in rest]
    if settle is not None:
        rest = settle(rest)
    if deck_size is not None:
        keep = max(0, deck_size - len(top))
        g.removed = tuple(sorted({*g.removed, *rest[: len(rest) - keep]}))
        rest = rest[len(rest) - keep :]
    g.deck = rest + list(reversed(top))
    g.in_play = []


def start_position(
    g: Game, active: int, turn: int, rolls: Sequence[str | int] | None = None
) -> Game:
    """Start ``active``'s turn ``turn`` (its start-of-turn check included), nobody knowing any
    other's cards, with the next die rolls fixed to ``rolls`` (areas by id or name, or area
    indices: die number - 1) when given."""
    g.known = no_knowledge(g.n)
    g.active = active
    g.turn = turn
    g.outcome = None
    g.log = GameLog()
    g.stack = [{"k": "turn", "p": active, "s": 0}]
    if rolls is not None:
        g.fix_rolls(area(r, g.t) if isinstance(r, str) else r for r in rolls)
    g.resume()
    return g


def finish_position(
    g: Game,
    turn: int,
    *,
    agents: Mapping[int, Mapping[str, int]] | None = None,
    trouble: Sequence[str] = (),
    grenadiers: Mapping[str, int] | None = None,
    citizens: Mapping[str, int] | None = None,
    money: Sequence[int] | None = None,
    hands: Sequence[Sequence[str]] | None = None,
    deck_top: Sequence[str] = (),
    discard: Sequence[str] = (),
    events: Sequence[str] | None = None,
    loans: Mapping[int, Sequence[str]] | None = None,
    penalties: Mapping[int, Sequence[str]] | None = None,
    active: int = 0,
    deck_size: int | None = None,
    rolls: Sequence[str | int] | None = None,
    open_cards: Sequence[int] = (),
    settle: Callable[[list[int]], list[int]] | None = None,
) -> Game:
    """Every ruleset's part of a position built by hand, once the ruleset's builder has placed
    its own pieces: the board, the cards and the events as given, then ``active``'s turn
    ``turn`` started (each builder passes these keywords on, so every ruleset's builder
    takes the same ones).

    ``agents`` maps seat -> {area: count} and replaces the starting agents together with the
    starting trouble markers (omit it to keep both); ``trouble`` lists areas given a marker;
    ``deck_top`` lists the next cards to be drawn, first drawn first; ``events`` lists
    the event deck, next first (in the base game the events not listed have happened;
    an event deck that cycles holds them all); ``deck_size`` trims the draw pile (unplaced
    cards beyond it are set aside in ``removed``); ``rolls`` fixes the next die rolls (areas
    by id or name, or area indices), after which a further roll is an error
    (:meth:`Game.fix_rolls`). ``open_cards`` and ``settle``: see :func:`place_cards`.
    """
    t = g.t
    place_board(g, agents, trouble, grenadiers, citizens, money)
    place_cards(
        g,
        hands=hands,
        loans=loans,
        penalties=penalties,
        discard=discard,
        deck_top=deck_top,
        deck_size=deck_size,
        open_cards=open_cards,
        settle=settle,
    )
    if events is not None:
        g.event_deck = tuple(event(x, t) for x in reversed(events))
        g.events_done = (
            ()
            if g.rules.events_cycle
            else tuple(e for e in range(len(t.data.events)) if e not in g.event_deck)
        )
    return start_position(g, active, turn, rolls)


def build_position(
    num_players: int = 4,
    *,
    config: GameConfig | None = None,
    seed: int = 0,
    buildings: Mapping[str, int] | None = None,
    personalities: Sequence[str] | None = None,
    retired: Sequence[str] = (),
    turn: int = 5,
    **board_and_cards: Any,
) -> Game:
    """A game at the start of ``active``'s turn with the given board and cards.

    ``buildings`` maps an area to its building's owner; ``personalities`` deals the
    personality cards (the others are set aside); ``retired`` lists City Area cards set aside
    for good. The board, the cards, the events, ``active`` and ``rolls`` are the keywords of
    :func:`finish_position` (``agents``, ``trouble``, ``grenadiers``, ``citizens``,
    ``money``, ``hands``, ``deck_top``, ``discard``, ``events``, ``loans``, ``penalties``,
    ``active``, ``deck_size``, ``rolls``), the same for every ruleset's builder.
    """
    cfg = config or GameConfig(num_players=num_players)
    if game_class(cfg.expansion).deal is not Game.deal:  # a ruleset with state of its own
        raise ValueError("for an expansion position use build_cthulhu_position")
    g = Game.new(cfg, seed)
    g.building = area_row(buildings or {}, -1)
    g.city_retired = area_row(dict.fromkeys(retired, 1), 0)
    if personalities is not None:
        g.persona = tuple(personality(x) for x in personalities)
        g.persona_pool = tuple(sorted(p for p in personality_deck(cfg) if p not in g.persona))
    g.known_unused = empty_rows(g.n)
    return finish_position(g, turn, **board_and_cards)
