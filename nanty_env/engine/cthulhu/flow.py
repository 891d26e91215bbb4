"""The expansion's turn: the sudden-death announcement first (never in the first round), the
card of the turn and its symbols top to bottom (each optional but Insanity), play-another
chains, the once-per-turn abilities, and refilling the hand to five from the draw pile or the
three face-up cards (no discarding down).

These frames replace the base game's ``turn`` and ``card`` in expansion games; ``main``,
``end`` and ``two`` are the base game's decisions (``register_own_turn_frames``) offering the
expansion's extras; ``refill`` and ``take_faceup`` are new.
"""

from __future__ import annotations

from nanty_env.engine import actions as A
from nanty_env.engine.cards import (
    discard_from_hand,
    draw_cards,
    finish_card,
    play_card,
    play_watson,
    playable_cards,
)
from nanty_env.engine.cthulhu import abilities, symbols
from nanty_env.engine.cthulhu.cards import cards_left, take_face_up
from nanty_env.engine.cthulhu.effects import start_effect
from nanty_env.engine.cthulhu.state import CthulhuState
from nanty_env.engine.cthulhu.track import advance_insanity
from nanty_env.engine.cthulhu.victory import end_by_deck, start_of_turn_win
from nanty_env.engine.flow import register_own_turn_frames, with_interrupt_extras, with_sorted
from nanty_env.engine.frames import CTHULHU, Frame, handler, pop, push
from nanty_env.engine.tables import HAND_SIZE


# ---------------------------------------------------------------------- own-turn extras
def extras(g: CthulhuState, p: int, usable: list[int] | None = None) -> list[int]:
    """Open at every top-level decision of your own turn: building, Great Old One and Elder
    One abilities (``usable``, when the caller has them already), discarding interrupt cards,
    and Watson once a card has been played (unsorted: callers sort what they build)."""
    out = abilities.ability_actions(g, p) if usable is None else usable
    return with_interrupt_extras(g, p, out)


def is_extra_action(g: CthulhuState, a: int) -> bool:
    if A.ABILITY <= a < A.ELDER or (a >= A.ELDER_ABILITY and a < A.BUILDING_TYPE):
        return True
    if A.DISCARD_CARD <= a < A.SELECT_CARD:
        return True
    return A.PLAY_CARD <= a < A.DISCARD_CARD and g.t.is_interrupt[a - A.PLAY_CARD]


def handle_extra(g: CthulhuState, p: int, a: int) -> None:
    if A.ABILITY <= a < A.ELDER:
        abilities.use_building(g, p, a - A.ABILITY)
    elif a == A.GOO_ABILITY:
        abilities.use_goo(g, p)
    elif A.ELDER_ABILITY <= a < A.GOO_ABILITY:
        abilities.use_elder(g, p, a - A.ELDER_ABILITY)
    elif A.DISCARD_CARD <= a < A.SELECT_CARD:
        discard_from_hand(g, p, a - A.DISCARD_CARD)
    else:
        play_watson(g, p, a - A.PLAY_CARD)


# ---------------------------------------------------------------------- frames
@handler("turn", "the turn cycle (automatic)", CTHULHU)
class Turn:
    """``s``: 0 start (announcement), 1 after the card of the turn, 2 refill, 3 next player.
    Doctor Watson ends a turn by setting ``s`` to 2, as in the base game."""

    @staticmethod
    def options(g: CthulhuState, f: Frame) -> list[int] | None:
        s = f["s"]
        if s == 0:
            g.ability_used = 0
            g.played = []
            g.elder_hits = (0,) * len(g.elder_hits)
            f["p"] = g.active
            if start_of_turn_win(g, g.active):
                return None
            f["s"] = 1
            push(g, {"k": "main", "p": g.active})
        elif s == 1:
            f["s"] = 2
            push(g, {"k": "end", "p": g.active})
        elif s == 2:
            p = g.active
            need = HAND_SIZE - len(g.hands[p]) - len(g.penalties[p])
            if need > 0 and cards_left(g) < need:
                end_by_deck(g)
                return None
            f["s"] = 3
            if need > 0:
                push(g, {"k": "refill", "p": p, "left": need})
        else:
            g.active = (g.active + 1) % g.n
            g.turn += 1
            f["s"] = 0
            f["p"] = g.active
        return None


@handler("refill", "draw your next card from the pile or take a face-up card", CTHULHU)
class Refill:
    """CONFIRM draws the top card of the pile; SELECT_CARD takes that face-up card (which is
    replaced from the pile)."""

    @staticmethod
    def options(g: CthulhuState, f: Frame) -> list[int] | None:
        if f["left"] <= 0:
            pop(g)
            return None
        out = [A.SELECT_CARD + c for c in g.faceup]
        if g.deck:
            out.append(A.CONFIRM)
        out.sort()
        return out

    @staticmethod
    def act(g: CthulhuState, f: Frame, a: int) -> None:
        f["left"] -= 1
        if a == A.CONFIRM:
            draw_cards(g, f["p"], 1)
        else:
            take_face_up(g, f["p"], a - A.SELECT_CARD)


register_own_turn_frames(CTHULHU, extras, handle_extra)


# ---------------------------------------------------------------------- the card in play
def symbol_options(g: CthulhuState, p: int, sym: str) -> list[int]:
    """Targets of symbol ``sym`` for ``p`` (without PASS and extras)."""
    if sym == "minion":
        return symbols.minion_options(g, p)
    if sym == "insanity" or sym == "money" or sym == "scroll":
        return [A.CONFIRM]
    if sym == "play_another":
        return [A.PLAY_CARD + x for x in playable_cards(g, p)]
    if sym == "assassinate":
        return symbols.assassinate_options(g, p)
    if sym == "building":
        return [A.AREA + a for a in symbols.buildable_areas(g, p, symbols.FULL)]
    if sym == "summon":
        return [A.CONFIRM] if symbols.summon_possible(g, p) else []
    return []  # interrupt: never a symbol of a played card


@handler("card", "resolve the next symbol of the card in play (or skip it)", CTHULHU)
class CardInPlay:
    @staticmethod
    def options(g: CthulhuState, f: Frame) -> list[int] | None:
        c, p, i = f["c"], f["p"], f["i"]
        syms = g.t.symbols[c]
        if i >= len(syms):
            pop(g)
            finish_card(g, c)
            return None
        sym = syms[i]
        targets = symbol_options(g, p, sym)  # a new sorted list, without PASS (0)
        usable = abilities.ability_actions(g, p)
        # As in the base game: skip a symbol without targets, but only on public grounds.
        if not targets and sym != "play_another" and not usable:
            f["i"] = i + 1
            return None
        with_sorted(targets, extras(g, p, usable))
        if sym != "insanity":
            targets.insert(0, A.PASS)
        return targets

    @staticmethod
    def act(g: CthulhuState, f: Frame, a: int) -> None:
        p, c = f["p"], f["c"]
        if a == A.PASS:
            f["i"] += 1
            return
        sym = g.t.symbols[c][f["i"]]
        if is_extra_action(g, a):
            handle_extra(g, p, a)
            return
        f["i"] += 1
        do_symbol(g, p, c, sym, a)


def do_symbol(g: CthulhuState, p: int, c: int, sym: str, a: int) -> None:
    """Carry out symbol ``sym`` of card ``c`` with target action ``a``."""
    if sym == "minion":
        symbols.do_minion(g, p, a)
    elif sym == "insanity":
        advance_insanity(g, p)
    elif sym == "money":
        g.money[p] += g.t.money[c]
        g.say(f"player {p} takes £{g.t.money[c]}")
    elif sym == "scroll":
        start_effect(g, p, c)
    elif sym == "assassinate":
        symbols.do_assassinate(g, p, a)
    elif sym == "building":
        symbols.do_building(g, p, a - A.AREA, symbols.FULL)
    elif sym == "summon":
        symbols.do_summon(g, p)
    elif sym == "play_another":
        pop(g)
        finish_card(g, c)
        play_card(g, p, a - A.PLAY_CARD)
