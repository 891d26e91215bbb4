"""Turn flow: start-of-turn win check, playing cards, their symbols in order, play-another
chains, the end of the turn and refilling the hand.

Frames: ``turn`` (automatic, bottom of the stack), ``main`` (choose the card of the turn),
``card`` (one card being resolved, symbol by symbol), ``two`` (Charles Babbage / Maycroft
Holmes: play up to two more cards), ``end`` (last chance for abilities; end the turn).
"""

from __future__ import annotations

from nanty_env.engine import board
from nanty_env.engine.abilities import usable_abilities, use_ability
from nanty_env.engine.actions import (
    ABILITY,
    ABILITY_ACTIONS,
    AREA,
    AREA_ACTIONS,
    DISCARD_CARD,
    DISCARD_CARD_ACTIONS,
    PASS,
    PAWN,
    PLAY_CARD,
    PLAY_CARD_ACTIONS,
    SELECT_CARD,
    pawn_action,
    split_pawn,
)
from nanty_env.engine.board import AREAS
from nanty_env.engine.cards import (
    WATSON,
    discard_from_hand,
    finish_card,
    play_card,
    play_watson,
    playable_cards,
    refill,
)
from nanty_env.engine.frames import Frame, handler, pop, push
from nanty_env.engine.state import GameState
from nanty_env.engine.tables import AGENTS_PER_PLAYER
from nanty_env.engine.victory import end_by_deck


# ---------------------------------------------------------------------- the base game's extras
def ability_actions(g: GameState, p: int) -> list[int]:
    """The City Area abilities ``p`` may use now (a new list)."""
    return [ABILITY_ACTIONS[a] for a in usable_abilities(g, p)] if board.has_building(g, p) else []


def extras(g: GameState, p: int) -> list[int]:
    """Actions open at every top-level decision of your own turn: the ruleset's abilities,
    discarding interrupt cards, and Doctor John H. Watson once a card has been played
    (unsorted: callers sort what they build)."""
    rules = g.rules
    return with_interrupt_extras(g, p, rules.ability_actions(g, p))


def with_interrupt_extras(g: GameState, p: int, out: list[int]) -> list[int]:
    """``out`` with the interrupt cards' own-turn extras appended: discarding each interrupt
    card in ``p``'s hand, and playing Doctor Watson once a card has been played (every
    ruleset)."""
    t = g.t
    is_interrupt = t.is_interrupt
    for c in g.hands[p]:
        if is_interrupt[c]:
            out.append(DISCARD_CARD_ACTIONS[c])
            if g.played and t.interrupt_kind[c] == WATSON:
                out.append(PLAY_CARD_ACTIONS[c])
    return out


def is_city_ability(a: int) -> bool:
    """The base game's ability actions: a City Area card's (ABILITY, the last family)."""
    return a >= ABILITY


def use_city_ability(g: GameState, p: int, a: int) -> None:
    use_ability(g, p, a - ABILITY)


def is_extra_action(g: GameState, a: int) -> bool:
    """The ruleset's abilities, interrupt discards and interrupt plays are never symbol
    targets."""
    rules = g.rules
    if rules.is_ability(a) or DISCARD_CARD <= a < SELECT_CARD:
        return True
    return PLAY_CARD <= a < DISCARD_CARD and g.t.is_interrupt[a - PLAY_CARD]


def handle_extra(g: GameState, p: int, action: int) -> bool:
    """Apply an extra action (the ruleset's ``use_ability`` for its abilities); False when
    ``action`` is not one."""
    rules = g.rules
    if rules.is_ability(action):
        rules.use_ability(g, p, action)
        return True
    if DISCARD_CARD <= action < SELECT_CARD:
        c = action - DISCARD_CARD
        if g.t.is_interrupt[c]:
            discard_from_hand(g, p, c)
            return True
        return False
    if PLAY_CARD <= action < DISCARD_CARD:
        c = action - PLAY_CARD
        if g.t.interrupt_kind[c] == WATSON:
            play_watson(g, p, c)
            return True
    return False


def refill_hand(g: GameState, f: Frame) -> bool:
    """The base game's refill step: draw back up to the hand size at once; when the pile is
    too short the game ends (``end_by_deck``)."""
    if refill(g, g.active):
        return True
    end_by_deck(g)
    return False


# ---------------------------------------------------------------------- frames
def turn_options(g: GameState, f: Frame) -> list[int] | None:
    s = f["s"]
    if s == 0:
        g.ability_used = 0
        g.played = []
        rules = g.rules
        rules.start_turn(g)
        f["p"] = g.active
        if rules.start_of_turn_win(g, g.active):
            return None
        f["s"] = 1
        push(g, {"k": "main", "p": g.active})
    elif s == 1:
        f["s"] = 2
        push(g, {"k": "end", "p": g.active})
    elif s == 2 and not g.rules.refill(g, f):
        return None
    else:
        g.active = (g.active + 1) % g.n
        g.turn += 1
        f["s"] = 0
        f["p"] = g.active
    return None


@handler("turn", "the turn cycle (automatic)")
class Turn:
    """``s``: 0 start (win check), 1 after the card of the turn, 2 refill (the ruleset's
    step, which may add a step 3), then the next player. Doctor Watson ends a turn by
    setting ``s`` to 2."""

    options = staticmethod(turn_options)


def with_sorted(out: list[int], more: list[int]) -> list[int]:
    """``out`` (sorted) with ``more`` added, sorted again only if there was anything to add."""
    if more:
        out += more
        out.sort()
    return out


def is_card_of_turn(g: GameState, a: int) -> bool:
    return PLAY_CARD <= a < DISCARD_CARD and not g.t.is_interrupt[a - PLAY_CARD]


def with_extras(g: GameState, p: int, out: list[int]) -> list[int]:
    return with_sorted(out, extras(g, p))


def main_options(g: GameState, f: Frame) -> list[int] | None:
    p = f["p"]
    return with_extras(g, p, [PLAY_CARD_ACTIONS[c] for c in playable_cards(g, p)] or [PASS])


def main_act(g: GameState, f: Frame, a: int) -> None:
    p = f["p"]
    if is_card_of_turn(g, a):
        pop(g)
        play_card(g, p, a - PLAY_CARD)
    elif a == PASS:
        if g.cfg.log:
            g.say(f"player {p} has no card to play and passes")
        pop(g)
    else:
        handle_extra(g, p, a)


@handler("main", "choose the card to play this turn")
class Main:
    options = staticmethod(main_options)
    act = staticmethod(main_act)


def end_options(g: GameState, f: Frame) -> list[int] | None:
    return with_extras(g, f["p"], [PASS])  # PASS (0) stays first


def end_act(g: GameState, f: Frame, a: int) -> None:
    if a == PASS:
        pop(g)
    else:
        handle_extra(g, f["p"], a)


@handler("end", "use abilities or end the turn")
class End:
    options = staticmethod(end_options)
    act = staticmethod(end_act)


def two_options(g: GameState, f: Frame) -> list[int] | None:
    p = f["p"]
    if f["left"] <= 0:
        pop(g)
        return None
    return with_extras(g, p, [PASS, *[PLAY_CARD_ACTIONS[c] for c in playable_cards(g, p)]])


def two_act(g: GameState, f: Frame, a: int) -> None:
    p = f["p"]
    if a == PASS:
        pop(g)
    elif is_card_of_turn(g, a):
        f["left"] -= 1
        play_card(g, p, a - PLAY_CARD)
    else:
        handle_extra(g, p, a)


@handler("two", "play up to two more cards, one after the other")
class TwoCards:
    options = staticmethod(two_options)
    act = staticmethod(two_act)


# ---------------------------------------------------------------------- the card in play
def card_options(g: GameState, f: Frame) -> list[int] | None:
    c, p, i = f["c"], f["p"], f["i"]
    syms = g.t.symbols[c]
    if i >= len(syms):
        g.stack.pop()
        finish_card(g, c)
        return None
    rules = g.rules
    symbol = rules.symbols[syms[i]]
    targets = symbol.options(g, p, c)  # a new sorted list, without PASS (0)
    usable = rules.ability_actions(g, p)
    # Skip a symbol without targets, but only on public grounds (no ability to use first;
    # a play-another always asks), so that others cannot read the hand from the pause.
    if not targets and not symbol.always_asks and not usable:
        f["i"] = i + 1
        return None
    passable = not (targets and symbol.mandatory)
    with_sorted(targets, with_interrupt_extras(g, p, usable))
    if passable:
        targets.insert(0, PASS)
    return targets


def card_act(g: GameState, f: Frame, a: int) -> None:
    if a == PASS:
        f["i"] += 1
        return
    p, c = f["p"], f["c"]
    if is_extra_action(g, a):
        handle_extra(g, p, a)
        return
    sym = g.t.symbols[c][f["i"]]
    f["i"] += 1
    rules = g.rules
    symbol = rules.symbols[sym]
    symbol.do(g, p, c, a)


@handler("card", "resolve the next symbol of the card in play (or skip it)")
class CardInPlay:
    """One played card, symbol by symbol (``i``: the next), through the ruleset's symbol
    table (``Ruleset.symbols``)."""

    options = staticmethod(card_options)
    act = staticmethod(card_act)


def relocate_building_options(g: GameState, f: Frame) -> list[int] | None:
    return [AREA_ACTIONS[a] for a in board.buildings_of(g, f["p"])]


def relocate_building_act(g: GameState, f: Frame, a: int) -> None:
    pop(g)
    board.remove_building(g, a - AREA)
    board.place_building(g, f["p"], f["a"])
    if g.cfg.log:
        g.say(f"player {f['p']} moves the building from {board.area_name(g, a - AREA)}")


@handler("relocate_building", "all six buildings are out: choose the one to move")
class RelocateBuilding:
    options = staticmethod(relocate_building_options)
    act = staticmethod(relocate_building_act)


def place_agent_options(g: GameState, f: Frame) -> list[int] | None:
    p = f["p"]
    if g.on_board[p] >= AGENTS_PER_PLAYER:
        row, areas = g.agents[p], f["areas"]
        # Only lifts that leave somewhere to go (a given list with an area other than the
        # lift's own; the normal rule always leaves a neighbour of the other eleven).
        out = [
            pawn_action(a, 0)
            for a in AREAS
            if row[a] and (not areas or areas.count(a) < len(areas))
        ]
    else:
        allowed = sorted(f["areas"]) if f["areas"] else board.placement_areas(g, p)
        out = [AREA_ACTIONS[a] for a in allowed if a != f.get("not", -1)]
    if not out:
        pop(g)
        return None
    if f.get("opt") and not f.get("lifted"):
        out.insert(0, PASS)
    return out


def place_agent_act(g: GameState, f: Frame, a: int) -> None:
    p = f["p"]
    if a == PASS:
        pop(g)
        return
    if a >= PAWN:
        src, _ = split_pawn(a)
        board.take_pawn(g, p, src)
        f["not"], f["lifted"] = src, 1
        if g.cfg.log:
            g.say(f"player {p} lifts an agent from {board.area_name(g, src)} to place it again")
        return
    pop(g)
    board.place_agent(g, p, a - AREA, trouble=not f.get("nt", 0))


@handler("place_agent", "choose where to place an agent")
class PlaceAgent:
    """Place one agent. ``areas``: allowed areas (empty tuple: the normal agent rule);
    ``not``: an area excluded (where a re-placed agent was lifted from); ``nt``: 1 = no
    trouble marker for this placement; ``opt``: 1 = the player may decline. When all twelve
    agents are out, one is lifted first (and may not go back where it came from)."""

    options = staticmethod(place_agent_options)
    act = staticmethod(place_agent_act)
