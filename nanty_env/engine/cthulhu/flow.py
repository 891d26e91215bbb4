"""The expansion's turn, as what it changes in the base game's (``flow``): Elder One hits
cleared at the start of a turn, and refilling the hand one card at a time from the draw pile
or the three face-up cards (no discarding down). The sudden-death announcement is the ruleset's
``start_of_turn_win`` (``victory``); its symbols are ``symbols.CTHULHU_SYMBOLS``, its
own-turn abilities ``abilities.ability_actions`` and ``abilities.use_ability``.
"""

from __future__ import annotations

from nanty_env.engine.actions import CONFIRM, SELECT_CARD, SELECT_CARD_ACTIONS
from nanty_env.engine.cards import draw_cards
from nanty_env.engine.cthulhu.cards import cards_left, take_face_up
from nanty_env.engine.cthulhu.state import CthulhuState
from nanty_env.engine.cthulhu.victory import end_by_deck
from nanty_env.engine.frames import CTHULHU, Frame, handler, pop, push


# ---------------------------------------------------------------------- the turn's steps
def start_turn(g: CthulhuState) -> None:
    """Hits on Elder Ones last until the end of the turn."""
    g.elder_hits = (0,) * len(g.elder_hits)


def refill_step(g: CthulhuState, f: Frame) -> bool:
    """Refill one card at a time (the ``refill`` frame); the game ends first when the pile and
    the face-up cards together are too few. Always False: the turn passes on in step 3."""
    p = g.active
    need = g.rules.hand_size - len(g.hands[p]) - len(g.penalties[p])
    if need > 0 and cards_left(g) < need:
        end_by_deck(g)
        return False
    f["s"] = 3
    if need > 0:
        push(g, {"k": "refill", "p": p, "left": need})
    return False


@handler("refill", "draw your next card from the pile or take a face-up card", CTHULHU)
class Refill:
    """CONFIRM draws the top card of the pile; SELECT_CARD takes that face-up card (which is
    replaced from the pile)."""

    @staticmethod
    def options(g: CthulhuState, f: Frame) -> list[int] | None:
        if f["left"] <= 0:
            pop(g)
            return None
        out = [SELECT_CARD_ACTIONS[c] for c in g.faceup]
        if g.deck:
            out.append(CONFIRM)
        out.sort()
        return out

    @staticmethod
    def act(g: CthulhuState, f: Frame, a: int) -> None:
        f["left"] -= 1
        if a == CONFIRM:
            draw_cards(g, f["p"], 1)
        else:
            take_face_up(g, f["p"], a - SELECT_CARD)
