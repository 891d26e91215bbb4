"""Sample a complete expansion game from one seat's information set (``Game.view(seat)``).

Kept: everything the seat knows (the board, its hand, the cards it has learnt, the face-up
cards, its objective, the events drawn so far and where they now lie). Drawn afresh: the other
players' unknown hand cards, the draw pile's order, the other players' objectives and the
set-aside ones, the order of the events never drawn, and the future dice. The skeleton is the
base game's (``determinize.sample_game``); this module gives the expansion's hidden fields.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from nanty_env.engine.config import GameConfig
from nanty_env.engine.cthulhu.state import ELDER_BIT, GOO_BIT
from nanty_env.engine.cthulhu.tables import cthulhu_tables
from nanty_env.engine.determinize import sample_game, sample_roles
from nanty_env.engine.game import Game
from nanty_env.engine.view import used_mask


def sample_cthulhu_from_view(
    view: dict[str, Any], rng: np.random.Generator, cfg: GameConfig
) -> Game:
    """A full expansion game consistent with ``view`` (the face-up cards are open)."""
    return sample_game(view, rng, cfg, cthulhu_hidden, tuple(view["face_up"]))


def cthulhu_hidden(view: dict[str, Any], rng: np.random.Generator, cfg: GameConfig) -> dict:
    """The objectives (own fixed, the rest shuffled), the order of the events never drawn,
    and the expansion's public fields as the view shows them."""
    t = cthulhu_tables(cfg.content)
    seat, n, turn = view["seat"], view["num_players"], view["turn"]
    own = view["objective"]
    hidden = [x for x in range(len(t.data.objectives)) if x != own]
    objective = sample_roles(rng, seat, n, own, hidden)
    bottom = list(view["event_deck_bottom"])
    never_drawn = [e for e in range(len(t.data.events)) if e not in bottom]
    rng.shuffle(never_drawn)
    used = used_mask(view["abilities_used"]) | view["goo_ability_used"] << GOO_BIT
    used |= used_mask(view["elder_abilities_used"], ELDER_BIT)
    arrived = [
        turn if now else (-1 if area < 0 else 0)
        for now, area in zip(view["elder_arrived_this_turn"], view["elder_area"], strict=True)
    ]
    return {
        "ability_used": used,
        "event_deck": bottom + never_drawn,
        "persona": [],
        "persona_pool": [],
        "known_unused": [[] for _ in range(n)],
        "insanity": view["insanity"],
        "elder_area": view["elder_area"],
        "elder_owner": view["elder_owner"],
        "elder_arrived": arrived,
        "elder_hits": view["elder_hits"],
        "goo": view["great_old_ones"],
        "objective": objective,
        "objective_pool": sorted(hidden),
        "faceup": view["face_up"],
        "btype": view["building_types"],
    }
