"""Cards moving between the draw pile, hands, play and the discard pile: drawing, playing,
discarding, finishing a card, Doctor Watson's recall and refilling the hand.

The base game's turn (``flow``) and the expansion's (``cthulhu.flow``) both move cards this
way; effects draw and discard with the same functions.
"""

from __future__ import annotations

from nanty_env.engine.knowledge import card_revealed, cards_drawn
from nanty_env.engine.state import GameState

WATSON = "interrupt_end_turn_recover_previous"  # Doctor John H. Watson's interrupt kind


def card_name(g: GameState, c: int) -> str:
    return g.t.data.cards[c].name(g.cfg.theme)


def discard_from_hand(g: GameState, p: int, c: int) -> None:
    g.hands[p].remove(c)
    g.discard.append(c)
    card_revealed(g, p, c)
    if g.cfg.log:
        g.say(f"player {p} discards {card_name(g, c)}")


def draw_cards(g: GameState, p: int, count: int) -> int:
    """Draw up to ``count`` cards from the draw pile; returns how many were drawn."""
    deck = g.deck
    k = min(count, len(deck))
    drawn = deck[-k:][::-1] if k else []  # popped one by one from the top (the end)
    del deck[len(deck) - k :]
    g.hands[p].extend(drawn)
    cards_drawn(g, p, drawn)
    if k and g.cfg.log:
        g.say(f"player {p} draws {k} card(s)")
    return k


def play_card(g: GameState, p: int, c: int) -> None:
    """Take ``c`` from the hand into play and start resolving its symbols."""
    g.hands[p].remove(c)
    card_revealed(g, p, c)
    g.in_play.append(c)
    g.played.append(c)
    if g.cfg.log:
        g.say(f"player {p} plays {card_name(g, c)}")
    g.stack.append({"k": "card", "p": p, "c": c, "i": 0})


def finish_card(g: GameState, c: int) -> None:
    """A card whose symbols are done goes to the discard pile (unless it went elsewhere)."""
    if c in g.in_play:
        g.in_play.remove(c)
        g.discard.append(c)


def playable_cards(g: GameState, p: int) -> list[int]:
    """Cards that can be played as the card of a turn, a play-another or a two-card play."""
    inter = g.t.is_interrupt
    out = [c for c in g.hands[p] if not inter[c]]
    out.sort()
    return out


def play_watson(g: GameState, p: int, c: int) -> None:
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
    if g.cfg.log:
        g.say(
            f"player {p} plays {card_name(g, c)}: turn ends"
            + (f", {card_name(g, prev)} back to hand" if back else "")
        )
    while g.stack[-1]["k"] != "turn":
        g.stack.pop()
    g.stack[-1]["s"] = 2


def refill(g: GameState, p: int) -> bool:
    """Draw back up to the ruleset's hand size (penalty cards count); False when the draw
    pile is too short."""
    need = g.rules.hand_size - len(g.hands[p]) - len(g.penalties[p])
    if need <= 0:
        return True
    if len(g.deck) < need:
        return False
    draw_cards(g, p, need)
    return True
