"""The base game's card symbols as a table: symbol name -> its targets and what it does.

The ``card`` frame (``flow``) resolves a played card symbol by symbol through the game's
ruleset's table (``Ruleset.symbols``); this module holds the base game's. ``money``,
``scroll``, ``building`` and ``play_another`` are the same in every ruleset (a scroll runs the
ruleset's own effect table, a building its ``buildable_areas`` and ``build``), so an
expansion keeps them and adds or replaces the others.
"""

from __future__ import annotations

from collections.abc import Mapping

from nanty_env.engine import board
from nanty_env.engine.actions import (
    AREA,
    AREA_ACTIONS,
    CONFIRM,
    PAWN,
    PLAY_CARD,
    PLAY_CARD_ACTIONS,
    pawn_action,
    split_pawn,
)
from nanty_env.engine.board import AREAS
from nanty_env.engine.cards import finish_card, play_card, playable_cards
from nanty_env.engine.events import draw_event
from nanty_env.engine.frames import call, pop
from nanty_env.engine.ruleset import Symbol
from nanty_env.engine.state import GameState
from nanty_env.engine.tables import AGENTS_PER_PLAYER


def confirm(g: GameState, p: int, c: int) -> list[int]:
    """A symbol that only asks to be done (or skipped)."""
    return [CONFIRM]


def no_targets(g: GameState, p: int, c: int) -> list[int]:
    """A symbol with nothing to do when played (the interrupt symbol)."""
    return []


def never(g: GameState, p: int, c: int, a: int) -> None:
    raise AssertionError("a symbol without targets was carried out")


def start_effect(g: GameState, p: int, c: int) -> None:
    """Carry out the scroll of card ``c`` for player ``p`` (the ruleset's effect table)."""
    t = g.t
    effect = t.effect[c]
    if effect:
        g.rules.effects[effect](g, p, c, t.effect_params[c])


# ---------------------------------------------------------------------- shared by every ruleset
def take_money(g: GameState, p: int, c: int, a: int) -> None:
    g.money[p] += g.t.money[c]
    if g.cfg.log:
        g.say(f"player {p} takes £{g.t.money[c]}")


def do_scroll(g: GameState, p: int, c: int, a: int) -> None:
    start_effect(g, p, c)


def another_options(g: GameState, p: int, c: int) -> list[int]:
    return [PLAY_CARD_ACTIONS[x] for x in playable_cards(g, p)]


def building_options(g: GameState, p: int, c: int) -> list[int]:
    return [AREA_ACTIONS[a] for a in g.rules.buildable_areas(g, p, 1.0)]


def build(g: GameState, p: int, c: int, a: int) -> None:
    g.rules.build(g, p, a - AREA, 1.0)


def play_another(g: GameState, p: int, c: int, a: int) -> None:
    # The card in play is finished before the next one is resolved.
    pop(g)
    finish_card(g, c)
    play_card(g, p, a - PLAY_CARD)


# ---------------------------------------------------------------------- the base game's own
def agent_options(g: GameState, p: int, c: int) -> list[int]:
    if g.on_board[p] < AGENTS_PER_PLAYER:
        return [AREA_ACTIONS[a] for a in board.placement_areas(g, p)]
    row = g.agents[p]
    return [pawn_action(a, 0) for a in AREAS if row[a]]


def place_agent(g: GameState, p: int, c: int, a: int) -> None:
    if a >= PAWN:
        src, _ = split_pawn(a)
        board.take_pawn(g, p, src)
        if g.cfg.log:
            g.say(f"player {p} lifts an agent from {board.area_name(g, src)} to place it again")
        call(g, {"k": "place_agent", "p": p, "areas": (), "not": src, "src": src})
    else:
        board.place_agent(g, p, a - AREA)


def assassination_options(g: GameState, p: int, c: int) -> list[int]:
    return board.assassination_targets(g, p)


def assassinate(g: GameState, p: int, c: int, a: int) -> None:
    area, slot = split_pawn(a)
    owner = board.pawn_owner(g, p, slot)
    if g.cfg.log:
        g.say(f"player {p} assassinates in {board.area_name(g, area)}")
    call(g, {"k": "rm", "p": p, "a": area, "o": owner, "src": p, "text": 0, "s": 0})


def trouble_options(g: GameState, p: int, c: int) -> list[int]:
    return [AREA_ACTIONS[a] for a in AREAS if g.trouble[a]]


def remove_trouble(g: GameState, p: int, c: int, a: int) -> None:
    g.trouble[a - AREA] = 0
    if g.cfg.log:
        g.say(f"player {p} removes the trouble marker in {board.area_name(g, a - AREA)}")


def event_options(g: GameState, p: int, c: int) -> list[int]:
    return [CONFIRM] if g.event_deck else []


def random_event(g: GameState, p: int, c: int, a: int) -> None:
    draw_event(g, p)


MONEY = Symbol(confirm, take_money)
SCROLL = Symbol(confirm, do_scroll)
BUILDING = Symbol(building_options, build)
PLAY_ANOTHER = Symbol(another_options, play_another, always_asks=True)
INTERRUPT = Symbol(no_targets, never)

BASE_SYMBOLS: Mapping[str, Symbol] = {
    "agent": Symbol(agent_options, place_agent),
    "building": BUILDING,
    "assassinate": Symbol(assassination_options, assassinate),
    "remove_trouble": Symbol(trouble_options, remove_trouble),
    "money": MONEY,
    "scroll": SCROLL,
    "event": Symbol(event_options, random_event, mandatory=True),  # when it can happen, it must
    "play_another": PLAY_ANOTHER,
    "interrupt": INTERRUPT,
}
