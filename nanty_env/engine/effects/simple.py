"""Effects that need no other player: money from the board, drawing, discarding, loans,
personality cards, placing agents and trouble markers, half-price building."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nanty_env.engine import board
from nanty_env.engine.abilities import discard_frame
from nanty_env.engine.actions import AREA, AREA_ACTIONS, PASS
from nanty_env.engine.board import AREAS
from nanty_env.engine.cards import draw_cards
from nanty_env.engine.effects.registry import effect
from nanty_env.engine.frames import Frame, call, choices_or_pop, handler, pass_or_pop, pop
from nanty_env.engine.knowledge import card_revealed, personalities_seen, personality_swapped
from nanty_env.engine.state import GameState, with_appended, with_item

Params = Mapping[str, Any]


def _earn(g: GameState, p: int, amount: int, why: str) -> None:
    g.money[p] += amount
    if g.cfg.log:
        g.say(f"player {p} takes £{amount} ({why})")


@effect("earn_per_pawn_in_area")
def earn_per_pawn_in_area(g: GameState, p: int, c: int, params: Params) -> None:
    _earn(g, p, params["amount"] * board.pawn_count(g, params["area"]), "pawns in the area")


@effect("earn_per_trouble")
def earn_per_trouble(g: GameState, p: int, c: int, params: Params) -> None:
    _earn(g, p, params["amount"] * board.trouble_count(g), "trouble markers")


@effect("earn_per_building")
def earn_per_building(g: GameState, p: int, c: int, params: Params) -> None:
    _earn(g, p, params["amount"] * board.buildings_on_board(g), "buildings on the board")


@effect("take_loan")
def take_loan(g: GameState, p: int, c: int, params: Params) -> None:
    """The loan card leaves play and lies in front of the player until the end."""
    g.in_play.remove(c)
    g.loans = with_appended(g.loans, p, c)
    _earn(g, p, params["amount"], "a loan")


@effect("draw_cards")
def draw(g: GameState, p: int, c: int, params: Params) -> None:
    draw_cards(g, p, params["count"])


@effect("draw_per_own_building")
def draw_per_own_building(g: GameState, p: int, c: int, params: Params) -> None:
    draw_cards(g, p, params["per_building"] * board.own_buildings(g, p))


@effect("draw_random_from_discard")
def draw_random_from_discard(g: GameState, p: int, c: int, params: Params) -> None:
    """Shuffle the discard pile and take cards at random; everyone sees which left the pile."""
    g.rng.shuffle(g.discard)
    k = min(params["count"], len(g.discard))
    taken = [g.discard.pop() for _ in range(k)]
    g.hands[p].extend(taken)
    for x in taken:
        card_revealed(g, p, x, to_hand=True)
    if g.cfg.log:
        g.say(f"player {p} takes {k} card(s) at random from the discard pile")


@effect("discard_cards")
def discard_cards(g: GameState, p: int, c: int, params: Params) -> None:
    call(g, discard_frame(p, need=0, most=params["max"]))


@effect("discard_any_for_money")
def discard_any_for_money(g: GameState, p: int, c: int, params: Params) -> None:
    call(g, discard_frame(p, need=0, most=len(g.hands[p]), pay=params["per_card"]))


@effect("discard_then_refill")
def discard_then_refill(g: GameState, p: int, c: int, params: Params) -> None:
    call(g, {"k": "refill_to", "p": p, "to": params["to"]})
    call(g, discard_frame(p, need=0, most=params["max"]))


@handler("refill_to", "draw back up to a hand size (automatic)")
class RefillTo:
    @staticmethod
    def options(g: GameState, f: Frame) -> list[int] | None:
        pop(g)
        p = f["p"]
        need = f.get("to", g.rules.hand_size) - len(g.hands[p]) - len(g.penalties[p])
        if need > 0:
            draw_cards(g, p, need)
        return None


@effect("view_unused_personalities")
def view_unused_personalities(g: GameState, p: int, c: int, params: Params) -> None:
    pool = list(g.persona_pool)
    g.rng.shuffle(pool)
    seen = pool[params["leave_out"] :]
    personalities_seen(g, p, seen)
    if g.cfg.log:
        g.say(f"player {p} looks at {len(seen)} unused personality card(s)")


@effect("swap_personality")
def swap_personality(g: GameState, p: int, c: int, params: Params) -> None:
    if not g.persona_pool:
        return
    pool = g.persona_pool
    i = int(g.rng.integers(len(pool)))
    new, old = pool[i], g.persona[p]
    g.persona = with_item(g.persona, p, new)
    g.persona_pool = tuple(sorted([*pool[:i], *pool[i + 1 :], old]))
    personality_swapped(g, p, old, new)
    if g.cfg.log:
        g.say(f"player {p} swaps their personality card for a random unused one")


def _place(
    g: GameState,
    p: int,
    areas: tuple[int, ...],
    no_trouble: bool = False,
    optional: bool = False,
) -> None:
    call(
        g,
        {
            "k": "place_agent",
            "p": p,
            "areas": areas,
            "not": -1,
            "nt": int(no_trouble),
            "opt": int(optional),
        },
    )


@effect("place_agent_anywhere_no_trouble")
def place_agent_anywhere_no_trouble(g: GameState, p: int, c: int, params: Params) -> None:
    _place(g, p, tuple(AREAS), no_trouble=True)


@effect("place_agent_in_own_building_area")
def place_agent_in_own_building_area(g: GameState, p: int, c: int, params: Params) -> None:
    areas = tuple(board.buildings_of(g, p))
    if areas:
        _place(g, p, areas)


@effect("place_agent_in_trouble_area")
def place_agent_in_trouble_area(g: GameState, p: int, c: int, params: Params) -> None:
    areas = tuple(a for a in AREAS if g.trouble[a])
    if areas:
        _place(g, p, areas)


@effect("place_agents_near_area")
def place_agents_near_area(g: GameState, p: int, c: int, params: Params) -> None:
    """One agent (then, for Ridcully / William Gladstone, optionally a second), one at a
    time, in the area or next to it."""
    areas = tuple(sorted(g.t.near[params["area"]]))
    for i in reversed(range(params["max"])):
        _place(g, p, areas, optional=i > 0)


@effect("place_trouble_anywhere")
def place_trouble_anywhere(g: GameState, p: int, c: int, params: Params) -> None:
    areas = tuple(a for a in AREAS if not g.trouble[a])
    call(g, {"k": "trouble_on", "p": p, "areas": areas})


@effect("place_trouble_adjacent_to_trouble")
def place_trouble_adjacent_to_trouble(g: GameState, p: int, c: int, params: Params) -> None:
    near = g.t.neighbours
    areas = tuple(a for a in AREAS if not g.trouble[a] and any(g.trouble[b] for b in near[a]))
    call(g, {"k": "trouble_on", "p": p, "areas": areas})


@effect("earn_per_pawn_in_trouble_area")
def earn_per_pawn_in_trouble_area(g: GameState, p: int, c: int, params: Params) -> None:
    call(g, {"k": "slant", "p": p, "amount": params["amount"]})


@handler("slant", "choose an area with a trouble marker to be paid for its pawns")
class Slant:
    @staticmethod
    def options(g: GameState, f: Frame) -> list[int] | None:
        return choices_or_pop(g, [AREA_ACTIONS[a] for a in AREAS if g.trouble[a]])

    @staticmethod
    def act(g: GameState, f: Frame, a: int) -> None:
        pop(g)
        area = a - AREA
        _earn(g, f["p"], f["amount"] * board.pawn_count(g, area), "pawns in a troubled area")


@effect("build_at_half_cost")
def build_at_half_cost(g: GameState, p: int, c: int, params: Params) -> None:
    call(g, {"k": "half_build", "p": p})


@handler("half_build", "build at half price (or decline)")
class HalfBuild:
    @staticmethod
    def options(g: GameState, f: Frame) -> list[int] | None:
        return pass_or_pop(g, [AREA_ACTIONS[a] for a in g.rules.buildable_areas(g, f["p"], 0.5)])

    @staticmethod
    def act(g: GameState, f: Frame, a: int) -> None:
        pop(g)
        if a != PASS:
            g.rules.build(g, f["p"], a - AREA, 0.5)


@effect("play_two_cards")
def play_two_cards(g: GameState, p: int, c: int, params: Params) -> None:
    call(g, {"k": "two", "p": p, "left": 2})
