"""Sample a complete expansion game from one seat's information set (``Game.view(seat)``).

Kept: everything the seat knows (the board, its hand, the cards it has learnt, the face-up
cards, its objective, the events drawn so far and where they now lie). Drawn afresh: the other
players' unknown hand cards, the draw pile's order, the other players' objectives and the
set-aside ones, the order of the events never drawn, and the future dice.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from nanty_env.engine.config import GameConfig
from nanty_env.engine.cthulhu.state import ELDER_BIT, GOO_BIT
from nanty_env.engine.cthulhu.tables import cthulhu_tables
from nanty_env.engine.determinize import _frame, sample_hands
from nanty_env.engine.game import Game


def sample_cthulhu_from_view(
    view: dict[str, Any], rng: np.random.Generator, cfg: GameConfig
) -> Game:
    """A full expansion game consistent with ``view``."""
    t = cthulhu_tables(cfg.content)
    seat, n = view["seat"], view["num_players"]
    others = [q for q in range(n) if q != seat]
    hands, pool = sample_hands(view, rng, len(t.data.cards), tuple(view["face_up"]))

    own = view["objective"]
    hidden = [x for x in range(len(t.data.objectives)) if x != own]
    rng.shuffle(hidden)
    objective = [own if q == seat else hidden.pop() for q in range(n)]

    bottom = list(view["event_deck_bottom"])
    never_drawn = [e for e in range(len(t.data.events)) if e not in bottom]
    rng.shuffle(never_drawn)

    known = [[[] for _ in range(n)] for _ in range(n)]
    for q in others:
        known[seat][q] = list(view["known_cards"][q])
    stack = [_frame(f, hands, rng) for f in view["stack"]]
    turn = view["turn"]
    used = sum(bit << a for a, bit in enumerate(view["abilities_used"]))
    used |= view["goo_ability_used"] << GOO_BIT
    used |= sum(bit << (ELDER_BIT + e) for e, bit in enumerate(view["elder_abilities_used"]))
    arrived = [
        turn if now else (-1 if area < 0 else 0)
        for now, area in zip(view["elder_arrived_this_turn"], view["elder_area"], strict=True)
    ]
    d = {
        "config": cfg.to_dict(),
        "n": n,
        "active": view["active"],
        "turn": turn,
        "first_player": view["first_player"],
        "ability_used": used,
        "gren": view["grenadiers"],
        "cit": view["citizens"],
        "trouble": view["trouble"],
        "building": view["buildings"],
        "money": view["money"],
        "on_board": [sum(row) for row in view["agents"]],
        "deck": pool,
        "discard": view["discard"],
        "in_play": view["in_play"],
        "removed": view["removed"],
        "event_deck": bottom + never_drawn,
        "events_done": view["events_done"],
        "persona": [],
        "persona_pool": [],
        "city_retired": view["city_retired"],
        "city_gained": [turn if x else -1 for x in view["city_gained_this_turn"]],
        "played": view["played_this_turn"],
        "agents": view["agents"],
        "hands": hands,
        "loans": view["loans"],
        "penalties": view["penalties"],
        "known_unused": [[] for _ in range(n)],
        "known": known,
        "stack": stack,
        "outcome": None,
        "rng": np.random.Generator(np.random.PCG64(int(rng.integers(2**63)))).bit_generator.state,
        "log": [],
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
    # built from a view of a valid game (bots draw many): tests check that it validates
    return Game.from_dict(d, validate=False)
