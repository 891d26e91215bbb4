"""Setting up an expansion game, in the rulebook's order: the track at 1 (its grenadiers on
their boxes), a Great Old One board for each player at random, pieces and building cards, the
starting agents and trouble markers, £10 each, the Elder Ones in the pool, the shuffled event
deck, the yellow deck on the purple one, five cards each, three cards face up, one secret
objective each (the others set aside unseen), and the first player. With two players
Henry "Holy" Peter leaves the deck."""

from __future__ import annotations

import numpy as np

from nanty_env.engine import setup
from nanty_env.engine.actions import NUM_AREAS
from nanty_env.engine.config import GameConfig
from nanty_env.engine.cthulhu.cards import refill_face_up
from nanty_env.engine.cthulhu.state import CthulhuState

START_LEVEL = 1


def empty_state(g: CthulhuState, cfg: GameConfig) -> None:
    """Every field of ``g`` at its empty value (no pieces, cards or frames yet)."""
    setup.empty_state(g, cfg)
    g.btype, g.faceup = (-1,) * NUM_AREAS, []
    g.insanity = START_LEVEL
    empty_elders(g)


def empty_elders(g: CthulhuState) -> None:
    """Every Elder One of the pack in the pool (none on the board, none arrived or hit)."""
    r = g.t.num_elders
    g.elder_area, g.elder_owner, g.elder_arrived = (-1,) * r, (-1,) * r, (-1,) * r
    g.elder_hits, g.eo = (0,) * r, (0,) * NUM_AREAS


def deal(g: CthulhuState, cfg: GameConfig, rng: np.random.Generator) -> None:
    """Fill ``g`` with a freshly set-up expansion game."""
    empty_state(g, cfg)
    g.rng = rng
    g.goo = setup.deal_roles(rng, list(range(len(g.t.data.great_old_ones))), g.n)[0]
    setup.place_start_agents(g)
    setup.shuffle_events(g, rng)
    setup.deal_decks(g, rng, top_first=False)  # purple, then yellow on top of it
    refill_face_up(g)
    g.objective, g.objective_pool = setup.deal_roles(
        rng, list(range(len(g.t.data.objectives))), g.n
    )
    setup.start_game(g, rng)
