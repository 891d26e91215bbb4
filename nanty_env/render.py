"""Text rendering of one seat's view: the board per area, money, and only that seat's hand."""

from __future__ import annotations

from typing import TYPE_CHECKING

from nanty_env.engine.tables import tables

if TYPE_CHECKING:
    from nanty_env.engine.game import Game


def render_text(g: Game, seat: int) -> str:
    """What ``seat`` may see, as text (never another seat's hand or personality)."""
    d = tables().data
    theme = g.cfg.theme
    terms = d.themes[theme]
    cur = "-" if g.is_terminal else str(g.current_player)
    lines = [
        f"{terms['game_title']} — turn {g.turn}, player {g.active}'s turn, "
        f"decision of player {cur}; you are player {seat}",
        f"{'area':<16} {'agents':<14} {'bldg':<5} {'gren':<5} {'cit':<4} trouble",
    ]
    for a in d.areas:
        i = a.index
        agents = ",".join(str(g.agents[q][i]) for q in range(g.n))
        b = g.building[i]
        bldg = "-" if b < 0 else f"P{b}" + ("x" if g.city_retired[i] else "")
        lines.append(
            f"{a.name(theme):<16} {agents:<14} {bldg:<5} {g.gren[i]:<5} {g.cit[i]:<4} "
            f"{'T' if g.trouble[i] else ''}"
        )
    money = terms["money_symbol"]
    for q in range(g.n):
        extra = []
        if g.loans[q]:
            extra.append(f"{len(g.loans[q])} loan(s)")
        if g.penalties[q]:
            extra.append(f"{len(g.penalties[q])} penalty card(s)")
        lines.append(
            f"player {q}: {money}{g.money[q]}, {len(g.hands[q])} cards in hand"
            + (f", {', '.join(extra)}" if extra else "")
        )
    hand = ", ".join(sorted(d.cards[c].name(theme) for c in g.hands[seat]))
    me = d.personalities[g.persona[seat]].name(theme)
    lines.append(f"your personality: {me}")
    lines.append(f"your hand: {hand or '(empty)'}")
    lines.append(f"draw pile: {len(g.deck)} cards, discard pile: {len(g.discard)} cards")
    if g.is_terminal:
        lines.append(f"game over ({g.outcome.reason}); winners {list(g.outcome.winners)}")
    elif g.current_player == seat:
        legal = ", ".join(g.action_to_string(a, seat) for a in g.legal_actions()[:12])
        more = "" if len(g.legal_actions()) <= 12 else ", ..."
        lines.append(f"your decision ({g.decision}): {legal}{more}")
    return "\n".join(lines)
