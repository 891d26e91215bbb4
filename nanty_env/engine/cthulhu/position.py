"""Build any expansion position by hand (tests, puzzles, debugging).

``build_position`` starts from a seeded new expansion game, overwrites what you give, puts every
card you did not place on the draw pile, and starts the turn of ``active`` (its sudden-death
check included). Areas, cards, events, Elder Ones, Great Old Ones, objectives and building types
are named by their data ids (areas and cards also by name).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from nanty_env.engine.actions import NUM_AREAS
from nanty_env.engine.config import GameConfig
from nanty_env.engine.cthulhu import pieces
from nanty_env.engine.cthulhu.game import CthulhuGame
from nanty_env.engine.cthulhu.tables import CthulhuTables, cthulhu_tables
from nanty_env.engine.game import Game
from nanty_env.engine.game_log import GameLog
from nanty_env.engine.knowledge import no_knowledge


def _find(kind: str, index: Mapping[str, int], items, name: str) -> int:
    if name in index:
        return index[name]
    for x in items:
        if name == x.name():
            return x.index
    raise KeyError(f"unknown {kind} {name!r}")


def area(name: str, t: CthulhuTables | None = None) -> int:
    d = (t or cthulhu_tables()).data
    for a in d.areas:
        if name in (a.id, a.names["nanty"], a.names["discworld"]):
            return a.index
    raise KeyError(f"unknown area {name!r}")


def card(name: str, t: CthulhuTables | None = None) -> int:
    d = (t or cthulhu_tables()).data
    return _find("card", d.card_index, d.cards, name)


def event(name: str, t: CthulhuTables | None = None) -> int:
    d = (t or cthulhu_tables()).data
    return _find("event", d.event_index, d.events, name)


def elder(name: str, t: CthulhuTables | None = None) -> int:
    d = (t or cthulhu_tables()).data
    return _find("Elder One", d.elder_index, d.elder_ones, name)


def great_old_one(name: str, t: CthulhuTables | None = None) -> int:
    d = (t or cthulhu_tables()).data
    return _find("Great Old One", d.goo_index, d.great_old_ones, name)


def objective(name: str, t: CthulhuTables | None = None) -> int:
    d = (t or cthulhu_tables()).data
    return _find("objective", d.objective_index, d.objectives, name)


def building_type(name: str, t: CthulhuTables | None = None) -> int:
    d = (t or cthulhu_tables()).data
    return _find("building type", d.building_index, d.buildings, name)


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
) -> CthulhuGame:
    """An expansion game at the start of ``active``'s turn with the given board and cards.

    ``agents`` (seat -> {area: count}) replaces the starting agents and their trouble markers;
    ``buildings`` maps an area to (seat, building type); ``elders`` maps an Elder One to
    (seat, area) (arrived in an earlier turn; the others are in the pool); ``face_up`` replaces
    the three face-up cards; ``events`` lists the event deck, next first; ``deck_top`` the next
    cards to be drawn, first drawn first; ``deck_size`` trims the draw pile (unplaced cards
    beyond it are set aside in ``removed``). ``turn`` defaults to a turn after the first round.
    """
    cfg = config or GameConfig(num_players=num_players, expansion="cthulhu")
    if cfg.expansion != "cthulhu":
        raise ValueError("build_position here builds expansion positions (expansion='cthulhu')")
    g = Game.new(cfg, seed)
    assert isinstance(g, CthulhuGame)
    t, n = g.t, g.n

    def area_row(values: Mapping[str, int], empty: int) -> tuple[int, ...]:
        row = [empty] * NUM_AREAS
        for name, value in values.items():
            row[area(name, t)] = value
        return tuple(row)

    if agents is not None:
        if not set(agents) <= set(range(n)):
            raise ValueError(f"agents: seats are 0..{n - 1}, got {sorted(agents)}")
        g.agents = tuple(area_row(agents.get(seat, {}), 0) for seat in range(n))
        g.on_board = [sum(row) for row in g.agents]
        g.trouble = [0] * NUM_AREAS
    for name in trouble:
        g.trouble[area(name, t)] = 1
    g.gren, g.cit = area_row(grenadiers or {}, 0), area_row(citizens or {}, 0)
    g.building = area_row({name: seat for name, (seat, _) in (buildings or {}).items()}, -1)
    g.btype = area_row(
        {name: building_type(kind, t) for name, (_, kind) in (buildings or {}).items()}, -1
    )
    g.city_gained = (-1,) * NUM_AREAS
    r = t.num_elders
    g.elder_area, g.elder_owner, g.elder_arrived = (-1,) * r, (-1,) * r, (-1,) * r
    g.elder_hits, g.eo = (0,) * r, (0,) * NUM_AREAS
    for name, (seat, where) in (elders or {}).items():
        pieces.set_elder(g, elder(name, t), area(where, t), seat, 0)
    if money is not None:
        g.money = list(money)
    g.insanity = insanity
    if objectives is not None:
        g.objective = tuple(objective(x, t) for x in objectives)
        g.objective_pool = tuple(sorted(set(range(len(t.data.objectives))) - set(g.objective)))
    if great_old_ones is not None:
        g.goo = tuple(great_old_one(x, t) for x in great_old_ones)

    used: set[int] = set(g.removed)
    if hands is not None:
        g.hands = [[card(x, t) for x in h] for h in hands]
    g.loans = tuple(tuple(card(x, t) for x in (loans or {}).get(s, ())) for s in range(n))
    g.penalties = tuple(tuple(card(x, t) for x in (penalties or {}).get(s, ())) for s in range(n))
    g.discard = [card(x, t) for x in discard]
    default_face_up = g.faceup
    g.faceup = [card(x, t) for x in face_up] if face_up is not None else []
    top = [card(x, t) for x in deck_top]
    for group in (*g.hands, *g.loans, *g.penalties, g.discard, g.faceup, top):
        for c in group:
            if c in used:
                raise ValueError(f"card {t.card_id(c)} placed twice")
            used.add(c)
    rest = [c for c in g.deck if c not in used]
    rest += [c for c in range(len(t.data.cards)) if c not in used and c not in rest]
    if face_up is None:  # the dealt face-up cards where still free, else the next free ones
        g.faceup = [c for c in default_face_up if c not in used]
        g.faceup += [c for c in reversed(rest) if c not in g.faceup][: 3 - len(g.faceup)]
        rest = [c for c in rest if c not in g.faceup]
    if deck_size is not None:
        keep = max(0, deck_size - len(top))
        g.removed = tuple(sorted({*g.removed, *rest[: len(rest) - keep]}))
        rest = rest[len(rest) - keep :]
    g.deck = rest + list(reversed(top))
    g.in_play = []
    if events is not None:
        g.event_deck = tuple(event(x, t) for x in reversed(events))
        g.events_done = ()
    g.known = no_knowledge(n)
    g.active, g.turn = active, turn
    g.outcome, g.log = None, GameLog()
    g.stack = [{"k": "turn", "p": active, "s": 0}]
    g._advance()
    return g
