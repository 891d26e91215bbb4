"""Scroll effects: one small handler per effect id of ``cards.toml``.

A scroll symbol runs its card's handler from the ruleset's effect table (``Ruleset.effects``:
the base game's ``EFFECTS``, which other rulesets extend). A handler either acts at once
or pushes frames (decisions) that finish the work; see the modules for each family:
``simple`` (money, cards, placements), ``targeted`` (effects aimed at players),
``pieces`` (removals, moves, buildings) and ``rolls`` (die-driven effects).
"""

from __future__ import annotations

# Importing the families registers their handlers.
from nanty_env.engine.effects import pieces, rolls, simple, targeted  # noqa: F401
from nanty_env.engine.effects.registry import EFFECTS

__all__ = ["EFFECTS"]
