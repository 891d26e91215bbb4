"""Setting up a game: pieces, money, personalities, the two decks and the first player."""

from __future__ import annotations

import numpy as np

from nanty_env.engine.actions import NUM_AREAS
from nanty_env.engine.board import add_pawn
from nanty_env.engine.config import GameConfig
from nanty_env.engine.frames import push
from nanty_env.engine.game_log import GameLog
from nanty_env.engine.knowledge import no_knowledge
from nanty_env.engine.state import GameState, empty_rows
from nanty_env.engine.tables import HAND_SIZE, START_MONEY, tables, tables_for


def personality_deck(cfg: GameConfig) -> list[int]:
    """The personality cards shuffled for dealing under ``cfg`` (by index)."""
    wanted = cfg.personality_set
    return [
        p.index
        for p in tables().data.personalities
        if p.set == wanted and (cfg.num_players > 2 or p.two_players)
    ]


def deal(g: GameState, cfg: GameConfig, rng: np.random.Generator) -> None:
    """Fill ``g`` with a freshly set-up game (rulebook 'Starting the game')."""
    t = g.t = tables_for(cfg)
    n = cfg.num_players
    g.cfg, g.n, g.rng = cfg, n, rng
    g.agents = ((0,) * NUM_AREAS,) * n
    g.on_board = [0] * n
    g.gren, g.cit, g.trouble = (0,) * NUM_AREAS, (0,) * NUM_AREAS, [0] * NUM_AREAS
    g.building = (-1,) * NUM_AREAS
    g.city_retired, g.city_gained = (0,) * NUM_AREAS, (-1,) * NUM_AREAS
    g.money = [START_MONEY] * n
    g.loans = g.penalties = empty_rows(n)
    g.known = no_knowledge(n)
    g.known_unused = empty_rows(n)
    g.log, g.stack, g.outcome, g._legal, g._dice = GameLog(), [], None, None, None
    g.turn, g.ability_used, g.played, g.in_play = 0, 0, [], []
    g.discard, g.events_done = [], ()

    # One agent of each player and one trouble marker in each starting area.
    for a in t.start_areas:
        for seat in range(n):
            add_pawn(g, seat, a, trouble=False)
        g.trouble[a] = 1

    pool = personality_deck(cfg)
    rng.shuffle(pool)
    g.persona = tuple(pool[:n])
    g.persona_pool = tuple(sorted(pool[n:]))  # set aside unseen: their order carries no information

    events = list(range(len(t.data.events)))
    rng.shuffle(events)
    g.event_deck = tuple(events)

    removed = t.removed_with_two if n == 2 else frozenset()
    grey = [c for c in t.grey_cards if c not in removed]
    red = [c for c in t.red_cards if c not in removed]
    rng.shuffle(grey)
    rng.shuffle(red)
    g.removed = tuple(sorted(removed))
    g.deck = red + grey  # the top of the draw pile is the end of the list: grey on top of red
    g.hands = []
    for _ in range(n):
        hand = [g.deck.pop() for _ in range(HAND_SIZE)]
        g.hands.append(hand)

    g.first_player = int(rng.integers(n))
    g.active = g.first_player
    g.turn = 1
    start_game(g)


def start_game(g: GameState) -> None:
    """The first player's first turn begins (the ``turn`` frame at the bottom of the stack)."""
    push(g, {"k": "turn", "p": g.active, "s": 0})
    g.say(f"game starts; player {g.active} goes first")
