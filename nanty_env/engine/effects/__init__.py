"""Scroll effects: one small handler per effect id of ``cards.toml``.

``start_effect`` runs when a player confirms a scroll symbol. A handler either acts at once
or pushes frames (decisions) that finish the work; see the modules for each family:
``simple`` (money, cards, placements), ``targeted`` (effects aimed at players),
``pieces`` (removals, moves, buildings) and ``rolls`` (die-driven effects).
"""

from __future__ import annotations

# Importing the families registers their handlers.
from nanty_env.engine.effects import pieces, rolls, simple, targeted  # noqa: F401
from nanty_env.engine.effects.registry import EFFECTS
from nanty_env.engine.state import GameState


def start_effect(g: GameState, p: int, c: int) -> None:
    """Carry out the scroll of card ``c`` for player ``p``."""
    card = g.t.data.cards[c]
    if not card.effect:
        return
    EFFECTS[card.effect](g, p, c, card.params)


__all__ = ["EFFECTS", "start_effect"]
