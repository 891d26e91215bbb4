"""Setting up an expansion game, in the rulebook's order: the track at 1 (its grenadiers on
their boxes), a Great Old One board for each player at random, pieces and building cards, the
starting agents and trouble markers, £10 each, the Elder Ones in the pool, the shuffled event
deck, the yellow deck on the purple one, five cards each, three cards face up, one secret
objective each (the others set aside unseen), and the first player. With two players
Henry "Holy" Peter leaves the deck."""

from __future__ import annotations

import numpy as np

from nanty_env.engine import board
from nanty_env.engine.actions import NUM_AREAS
from nanty_env.engine.config import GameConfig
from nanty_env.engine.cthulhu.cards import refill_face_up
from nanty_env.engine.cthulhu.state import CthulhuState
from nanty_env.engine.frames import push
from nanty_env.engine.game_log import GameLog
from nanty_env.engine.knowledge import no_knowledge
from nanty_env.engine.state import empty_rows
from nanty_env.engine.tables import HAND_SIZE, START_MONEY, tables_for

START_LEVEL = 1


def empty_state(g: CthulhuState, cfg: GameConfig) -> None:
    """Every field of ``g`` at its empty value (no pieces, cards or frames yet)."""
    t = g.t = tables_for(cfg)
    n = cfg.num_players
    g.cfg, g.n = cfg, n
    g.agents = ((0,) * NUM_AREAS,) * n
    g.on_board = [0] * n
    g.gren, g.cit, g.trouble = (0,) * NUM_AREAS, (0,) * NUM_AREAS, [0] * NUM_AREAS
    g.building, g.btype = (-1,) * NUM_AREAS, (-1,) * NUM_AREAS
    g.city_retired, g.city_gained = (0,) * NUM_AREAS, (-1,) * NUM_AREAS
    g.money = [START_MONEY] * n
    g.loans = g.penalties = empty_rows(n)
    g.known = no_knowledge(n)
    g.known_unused = empty_rows(n)
    g.persona, g.persona_pool = (), ()
    g.log, g.stack, g.outcome, g._legal, g._dice = GameLog(), [], None, None, None
    g.turn, g.ability_used, g.played, g.in_play = 0, 0, [], []
    g.discard, g.events_done, g.removed, g.faceup = [], (), (), []
    g.insanity = START_LEVEL
    r = t.num_elders
    g.elder_area, g.elder_owner, g.elder_arrived = (-1,) * r, (-1,) * r, (-1,) * r
    g.elder_hits = (0,) * r
    g.eo = (0,) * NUM_AREAS


def deal(g: CthulhuState, cfg: GameConfig, rng: np.random.Generator) -> None:
    """Fill ``g`` with a freshly set-up expansion game."""
    empty_state(g, cfg)
    t, n = g.t, g.n
    g.rng = rng

    boards = list(range(len(t.data.great_old_ones)))
    rng.shuffle(boards)
    g.goo = tuple(boards[:n])

    for a in t.start_areas:  # one agent each and a trouble marker in the three start areas
        for seat in range(n):
            board.set_pawns(g, seat, a, 1)
        g.trouble[a] = 1

    events = list(range(len(t.data.events)))
    rng.shuffle(events)
    g.event_deck = tuple(events)

    removed = t.removed_with_two if n == 2 else frozenset()
    purple = [c for c in t.red_cards if c not in removed]
    yellow = [c for c in t.grey_cards if c not in removed]
    rng.shuffle(purple)
    rng.shuffle(yellow)
    g.removed = tuple(sorted(removed))
    g.deck = purple + yellow  # top of the pile = end of the list: yellow on top of purple
    g.hands = [[g.deck.pop() for _ in range(HAND_SIZE)] for _ in range(n)]
    refill_face_up(g)

    objectives = list(range(len(t.data.objectives)))
    rng.shuffle(objectives)
    g.objective = tuple(objectives[:n])
    g.objective_pool = tuple(sorted(objectives[n:]))  # set aside unseen: their order says nothing

    g.first_player = int(rng.integers(n))
    g.active = g.first_player
    g.turn = 1
    push(g, {"k": "turn", "p": g.active, "s": 0})
    g.say(f"game starts; player {g.active} goes first")
