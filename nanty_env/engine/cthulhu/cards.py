"""The three face-up cards beside the draw pile: topping the row up and taking from it."""

from __future__ import annotations

from nanty_env.engine.cthulhu.state import CthulhuState
from nanty_env.engine.knowledge import card_revealed

FACE_UP = 3  # cards lying face up beside the draw pile


def refill_face_up(g: CthulhuState) -> None:
    """Top the face-up row back up to three from the draw pile (while it lasts)."""
    while len(g.faceup) < FACE_UP and g.deck:
        g.faceup.append(g.deck.pop())


def take_face_up(g: CthulhuState, p: int, c: int) -> None:
    """``p`` takes face-up card ``c`` into their hand (everyone sees which)."""
    g.faceup.remove(c)
    g.hands[p].append(c)
    card_revealed(g, p, c, to_hand=True)
    refill_face_up(g)
    if g.cfg.log:
        g.say(f"player {p} takes {g.t.data.cards[c].name(g.cfg.theme)} from the face-up cards")


def cards_left(g: CthulhuState) -> int:
    """Cards a refill can still come from: the draw pile and the face-up row."""
    return len(g.deck) + len(g.faceup)
