"""Turn flow: start-of-turn win check, playing cards, their symbols in order, play-another
chains, the end of the turn and refilling the hand.

Frames: ``turn`` (automatic, bottom of the stack), ``main`` (choose the card of the turn),
``card`` (one card being resolved, symbol by symbol), ``two`` (Charles Babbage / Maycroft
Holmes: play up to two more cards), ``end`` (last chance for abilities; end the turn).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nanty_env.engine import actions as A
from nanty_env.engine import board
from nanty_env.engine.abilities import usable_abilities, use_ability
from nanty_env.engine.frames import Frame, call, handler, pop, push
from nanty_env.engine.knowledge import card_revealed, cards_drawn
from nanty_env.engine.tables import AGENTS_PER_PLAYER, BUILDINGS_PER_PLAYER, HAND_SIZE
from nanty_env.engine.victory import end_by_deck, start_of_turn_win

if TYPE_CHECKING:
    from nanty_env.engine.game import Game

WATSON = "interrupt_end_turn_recover_previous"


def start_game(g: Game) -> None:
    push(g, {"k": "turn", "p": g.active, "s": 0})
    g.say(f"game starts; player {g.active} goes first")


def card_name(g: Game, c: int) -> str:
    return g.t.data.cards[c].name(g.cfg.theme)


# ---------------------------------------------------------------------- own-turn extras
def extras(g: Game, p: int) -> list[int]:
    """Actions open at every top-level decision of your own turn: City Area abilities,
    discarding interrupt cards, and Doctor John H. Watson once a card has been played."""
    t = g.t
    out = [A.ABILITY + a for a in usable_abilities(g, p)] if p in g.building else []
    for c in g.hands[p]:
        if t.is_interrupt[c]:
            out.append(A.DISCARD_CARD + c)
            if g.played and t.interrupt_kind[c] == WATSON:
                out.append(A.PLAY_CARD + c)
    return out


def is_extra_action(g: Game, a: int) -> bool:
    """Abilities, interrupt discards and interrupt plays are never symbol targets."""
    if a >= A.ABILITY or A.DISCARD_CARD <= a < A.SELECT_CARD:
        return True
    return A.PLAY_CARD <= a < A.DISCARD_CARD and g.t.is_interrupt[a - A.PLAY_CARD]


def handle_extra(g: Game, p: int, action: int) -> bool:
    """Apply an extra action; False when ``action`` is not one."""
    if action >= A.ABILITY:
        use_ability(g, p, action - A.ABILITY)
        return True
    if A.DISCARD_CARD <= action < A.SELECT_CARD:
        c = action - A.DISCARD_CARD
        if g.t.is_interrupt[c]:
            discard_from_hand(g, p, c)
            return True
        return False
    if A.PLAY_CARD <= action < A.DISCARD_CARD:
        c = action - A.PLAY_CARD
        if g.t.interrupt_kind[c] == WATSON:
            play_watson(g, p, c)
            return True
    return False


def _has_ability(g: Game, p: int) -> bool:
    return p in g.building and bool(usable_abilities(g, p))


# ---------------------------------------------------------------------- card movements
def discard_from_hand(g: Game, p: int, c: int) -> None:
    g.hands[p].remove(c)
    g.discard.append(c)
    card_revealed(g, p, c)
    g.say(f"player {p} discards {card_name(g, c)}")


def draw_cards(g: Game, p: int, count: int) -> int:
    """Draw up to ``count`` cards from the draw pile; returns how many were drawn."""
    k = min(count, len(g.deck))
    drawn = [g.deck.pop() for _ in range(k)]
    g.hands[p].extend(drawn)
    cards_drawn(g, p, drawn)
    if k:
        g.say(f"player {p} draws {k} card(s)")
    return k


def play_card(g: Game, p: int, c: int) -> None:
    """Take ``c`` from the hand into play and start resolving its symbols."""
    g.hands[p].remove(c)
    card_revealed(g, p, c)
    g.in_play.append(c)
    g.played.append(c)
    g.say(f"player {p} plays {card_name(g, c)}")
    push(g, {"k": "card", "p": p, "c": c, "i": 0})


def finish_card(g: Game, c: int) -> None:
    """A card whose symbols are done goes to the discard pile (unless it went elsewhere)."""
    if c in g.in_play:
        g.in_play.remove(c)
        g.discard.append(c)


def playable_cards(g: Game, p: int) -> list[int]:
    """Cards that can be played as the card of a turn, a play-another or a two-card play."""
    inter = g.t.is_interrupt
    return sorted(c for c in g.hands[p] if not inter[c])


def play_watson(g: Game, p: int, c: int) -> None:
    """Doctor John H. Watson: the turn ends now; the card played just before returns to the
    hand (if it is in play or on the discard pile), the rest in play is discarded."""
    g.hands[p].remove(c)
    card_revealed(g, p, c)
    g.discard.append(c)
    prev = g.played[-1]
    for other in list(g.in_play):
        if other != prev:
            g.in_play.remove(other)
            g.discard.append(other)
    back = False
    if prev in g.in_play:
        g.in_play.remove(prev)
        back = True
    elif prev in g.discard:
        g.discard.remove(prev)
        back = True
    if back:
        g.hands[p].append(prev)
        card_revealed(g, p, prev, to_hand=True)
    g.say(
        f"player {p} plays {card_name(g, c)}: turn ends"
        + (f", {card_name(g, prev)} back to hand" if back else "")
    )
    while g.stack[-1]["k"] != "turn":
        g.stack.pop()
    g.stack[-1]["s"] = 2


def refill(g: Game, p: int) -> bool:
    """Draw back up to five (penalty cards count); False when the draw pile is too short."""
    need = HAND_SIZE - len(g.hands[p]) - len(g.penalties[p])
    if need <= 0:
        return True
    if len(g.deck) < need:
        return False
    draw_cards(g, p, need)
    return True


# ---------------------------------------------------------------------- frames
@handler("turn", "the turn cycle (automatic)")
class Turn:
    @staticmethod
    def options(g: Game, f: Frame) -> list[int] | None:
        s = f["s"]
        if s == 0:
            g.ability_used = 0
            g.played = []
            f["p"] = g.active
            if start_of_turn_win(g, g.active):
                return None
            f["s"] = 1
            push(g, {"k": "main", "p": g.active})
        elif s == 1:
            f["s"] = 2
            push(g, {"k": "end", "p": g.active})
        else:
            if not refill(g, g.active):
                end_by_deck(g)
                return None
            g.active = (g.active + 1) % g.n
            g.turn += 1
            f["s"] = 0
            f["p"] = g.active
        return None


@handler("main", "choose the card to play this turn")
class Main:
    @staticmethod
    def options(g: Game, f: Frame) -> list[int] | None:
        p = f["p"]
        out = [A.PLAY_CARD + c for c in playable_cards(g, p)]
        if not out:
            out.append(A.PASS)
        out += extras(g, p)
        out.sort()
        return out

    @staticmethod
    def act(g: Game, f: Frame, a: int) -> None:
        p = f["p"]
        if A.PLAY_CARD <= a < A.DISCARD_CARD and not g.t.is_interrupt[a - A.PLAY_CARD]:
            pop(g)
            play_card(g, p, a - A.PLAY_CARD)
        elif a == A.PASS:
            g.say(f"player {p} has no card to play and passes")
            pop(g)
        else:
            handle_extra(g, p, a)


@handler("end", "use abilities or end the turn")
class End:
    @staticmethod
    def options(g: Game, f: Frame) -> list[int] | None:
        out = [A.PASS, *extras(g, f["p"])]
        out.sort()
        return out

    @staticmethod
    def act(g: Game, f: Frame, a: int) -> None:
        if a == A.PASS:
            pop(g)
        else:
            handle_extra(g, f["p"], a)


@handler("two", "play up to two more cards, one after the other")
class TwoCards:
    @staticmethod
    def options(g: Game, f: Frame) -> list[int] | None:
        p = f["p"]
        if f["left"] <= 0:
            pop(g)
            return None
        cards = playable_cards(g, p)
        out = [A.PASS, *(A.PLAY_CARD + c for c in cards), *extras(g, p)]
        out.sort()
        return out

    @staticmethod
    def act(g: Game, f: Frame, a: int) -> None:
        p = f["p"]
        if a == A.PASS:
            pop(g)
        elif A.PLAY_CARD <= a < A.DISCARD_CARD and not g.t.is_interrupt[a - A.PLAY_CARD]:
            f["left"] -= 1
            play_card(g, p, a - A.PLAY_CARD)
        else:
            handle_extra(g, p, a)


# ---------------------------------------------------------------------- symbols
def symbol_options(g: Game, p: int, sym: str, c: int) -> list[int]:
    """Targets of symbol ``sym`` for ``p`` (without PASS and extras)."""
    t = g.t
    if sym == "agent":
        if g.on_board[p] < AGENTS_PER_PLAYER:
            return [A.AREA + a for a in board.placement_areas(g, p)]
        row = g.agents[p]
        return [A.pawn_action(a, 0) for a in range(12) if row[a]]
    if sym == "building":
        return [A.AREA + a for a in buildable_areas(g, p, 1.0)]
    if sym == "assassinate":
        return assassination_targets(g, p)
    if sym == "remove_trouble":
        return [A.AREA + a for a in range(12) if g.trouble[a]]
    if sym in ("money", "scroll"):
        return [A.CONFIRM]
    if sym == "event":
        return [A.CONFIRM] if g.event_deck else []
    if sym == "play_another":
        return [A.PLAY_CARD + x for x in playable_cards(g, p)]
    if sym == "interrupt":
        return []
    raise AssertionError(f"unknown symbol {sym!r} on card {t.card_id(c)}")


def buildable_areas(g: Game, p: int, cost_factor: float) -> list[int]:
    """Areas where ``p`` may build now: own agent there, no building, no trouble, affordable."""
    cost = g.t.cost
    row, money = g.agents[p], g.money[p]
    return [
        a
        for a in range(12)
        if row[a]
        and g.building[a] < 0
        and not g.trouble[a]
        and money >= building_price(cost[a], cost_factor)
    ]


def building_price(cost: int, factor: float) -> int:
    """The price of a building (half price rounds up)."""
    return cost if factor >= 1 else -(-cost // 2)


def assassination_targets(
    g: Game, p: int, *, need_trouble: bool = True, grenadiers: bool | None = None
) -> list[int]:
    """PAWN actions for every pawn ``p`` may remove (not ``p``'s own agents). Grenadiers are
    included unless ``grenadiers`` is False; by default they are in the base game and not in
    the expansion, whose assassination spares them."""
    out = []
    n = g.n
    if grenadiers is None:
        grenadiers = not g.has_elders
    for a in range(12):
        if need_trouble and not g.trouble[a]:
            continue
        for q in range(n):
            if q != p and g.agents[q][a]:
                out.append(A.pawn_action(a, (q - p) % n))
        if grenadiers and g.gren[a]:
            out.append(A.pawn_action(a, A.SLOT_GRENADIER))
        if g.cit[a]:
            out.append(A.pawn_action(a, A.SLOT_CITIZEN))
    out.sort()  # relative slots are not in absolute-seat order
    return out


def pawn_owner(g: Game, p: int, slot: int) -> int:
    """Owner code of a PAWN slot relative to ``p``."""
    if slot == A.SLOT_GRENADIER:
        return board.GRENADIER
    if slot == A.SLOT_CITIZEN:
        return board.CITIZEN
    return (p + slot) % g.n


def owner_slot(g: Game, p: int, owner: int) -> int:
    """PAWN slot of ``owner`` relative to ``p``."""
    if owner == board.GRENADIER:
        return A.SLOT_GRENADIER
    if owner == board.CITIZEN:
        return A.SLOT_CITIZEN
    return (owner - p) % g.n


@handler("card", "resolve the next symbol of the card in play (or skip it)")
class CardInPlay:
    @staticmethod
    def options(g: Game, f: Frame) -> list[int] | None:
        c, p = f["c"], f["p"]
        syms = g.t.symbols[c]
        i = f["i"]
        if i >= len(syms):
            pop(g)
            finish_card(g, c)
            return None
        targets = symbol_options(g, p, syms[i], c)
        # Skip a symbol without targets, but only on public grounds (no ability to use first;
        # a play-another always asks), so that others cannot read the hand from the pause.
        if not targets and syms[i] != "play_another" and not _has_ability(g, p):
            f["i"] = i + 1
            return None
        out = targets + extras(g, p)
        if syms[i] != "event" or not targets:
            out.append(A.PASS)
        out.sort()
        return out

    @staticmethod
    def act(g: Game, f: Frame, a: int) -> None:
        p, c = f["p"], f["c"]
        sym = g.t.symbols[c][f["i"]]
        if a == A.PASS:
            f["i"] += 1
            return
        if is_extra_action(g, a):
            handle_extra(g, p, a)
            return
        f["i"] += 1
        do_symbol(g, p, c, sym, a)


def do_symbol(g: Game, p: int, c: int, sym: str, a: int) -> None:
    """Carry out symbol ``sym`` of card ``c`` with target action ``a``."""
    t = g.t
    if sym == "agent":
        if a >= A.PAWN:
            src, _ = A.split_pawn(a)
            board.take_pawn(g, p, src)
            g.say(f"player {p} lifts an agent from {area_name(g, src)} to place it again")
            call(g, {"k": "place_agent", "p": p, "areas": (), "not": src, "src": src})
        else:
            place_agent(g, p, a - A.AREA)
    elif sym == "building":
        build(g, p, a - A.AREA, 1.0)
    elif sym == "assassinate":
        area, slot = A.split_pawn(a)
        owner = pawn_owner(g, p, slot)
        g.say(f"player {p} assassinates in {area_name(g, area)}")
        call(g, {"k": "rm", "p": p, "a": area, "o": owner, "src": p, "text": 0, "s": 0})
    elif sym == "remove_trouble":
        g.trouble[a - A.AREA] = 0
        g.say(f"player {p} removes the trouble marker in {area_name(g, a - A.AREA)}")
    elif sym == "money":
        g.money[p] += t.money[c]
        g.say(f"player {p} takes £{t.money[c]}")
    elif sym == "scroll":
        from nanty_env.engine.effects import start_effect

        start_effect(g, p, c)
    elif sym == "event":
        from nanty_env.engine.events import draw_event

        draw_event(g, p)
    elif sym == "play_another":
        # The card in play is finished before the next one is resolved.
        pop(g)
        finish_card(g, c)
        play_card(g, p, a - A.PLAY_CARD)


def area_name(g: Game, a: int) -> str:
    return g.t.data.areas[a].name(g.cfg.theme)


def place_agent(g: Game, p: int, a: int, *, trouble: bool = True) -> None:
    board.add_pawn(g, p, a, trouble=trouble)
    g.say(f"player {p} places an agent in {area_name(g, a)}")


def build(g: Game, p: int, a: int, factor: float) -> None:
    """Pay for and place a building in ``a``; with all six out, one is moved (chosen next)."""
    price = building_price(g.t.cost[a], factor)
    g.money[p] -= price
    if board.own_buildings(g, p) >= BUILDINGS_PER_PLAYER:
        call(g, {"k": "relocate_building", "p": p, "a": a})
        g.say(f"player {p} pays £{price} to build in {area_name(g, a)}")
        return
    board.place_building(g, p, a)
    g.say(f"player {p} pays £{price} and builds in {area_name(g, a)}")


@handler("relocate_building", "all six buildings are out: choose the one to move")
class RelocateBuilding:
    @staticmethod
    def options(g: Game, f: Frame) -> list[int] | None:
        return [A.AREA + a for a in board.buildings_of(g, f["p"])]

    @staticmethod
    def act(g: Game, f: Frame, a: int) -> None:
        pop(g)
        board.remove_building(g, a - A.AREA)
        board.place_building(g, f["p"], f["a"])
        g.say(f"player {f['p']} moves the building from {area_name(g, a - A.AREA)}")


@handler("place_agent", "choose where to place an agent")
class PlaceAgent:
    """Place one agent. ``areas``: allowed areas (empty tuple: the normal agent rule);
    ``not``: an area excluded (where a re-placed agent was lifted from); ``nt``: 1 = no
    trouble marker for this placement; ``opt``: 1 = the player may decline. When all twelve
    agents are out, one is lifted first (and may not go back where it came from)."""

    @staticmethod
    def options(g: Game, f: Frame) -> list[int] | None:
        p = f["p"]
        if g.on_board[p] >= AGENTS_PER_PLAYER:
            row = g.agents[p]
            # Only lifts that leave somewhere to go (a given list minus the lift's own area;
            # the normal rule always leaves a neighbour of the other eleven).
            out = [
                A.pawn_action(a, 0)
                for a in range(12)
                if row[a] and (not f["areas"] or any(x != a for x in f["areas"]))
            ]
        else:
            allowed = f["areas"] or board.placement_areas(g, p)
            out = [A.AREA + a for a in allowed if a != f.get("not", -1)]
        if not out:
            pop(g)
            return None
        if f.get("opt") and not f.get("lifted"):
            out.insert(0, A.PASS)
        return out

    @staticmethod
    def act(g: Game, f: Frame, a: int) -> None:
        p = f["p"]
        if a == A.PASS:
            pop(g)
            return
        if a >= A.PAWN:
            src, _ = A.split_pawn(a)
            board.take_pawn(g, p, src)
            f["not"], f["lifted"] = src, 1
            g.say(f"player {p} lifts an agent from {area_name(g, src)} to place it again")
            return
        pop(g)
        place_agent(g, p, a - A.AREA, trouble=not f.get("nt", 0))
