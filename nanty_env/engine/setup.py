"""Setting up a game: pieces, money, personalities, the two decks and the first player.

The steps every ruleset shares (``empty_state``, ``place_start_agents``, ``deal_roles``,
``shuffle_events``, ``deal_decks``, ``start_game``) are here; a ruleset's game class deals with
them in its own order (``cthulhu.setup``)."""

from __future__ import annotations

import numpy as np

from nanty_env.engine.actions import NUM_AREAS
from nanty_env.engine.board import add_pawn
from nanty_env.engine.config import GameConfig
from nanty_env.engine.frames import push
from nanty_env.engine.game_log import GameLog
from nanty_env.engine.knowledge import no_knowledge
from nanty_env.engine.state import GameState, empty_rows
from nanty_env.engine.tables import START_MONEY, tables, tables_for


def personality_deck(cfg: GameConfig) -> list[int]:
    """The personality cards shuffled for dealing under ``cfg`` (by index)."""
    wanted = cfg.personality_set
    return [
        p.index
        for p in tables().data.personalities
        if p.set == wanted and (cfg.num_players > 2 or p.two_players)
    ]


def empty_state(g: GameState, cfg: GameConfig) -> None:
    """Every base field of ``g`` at its empty value (no pieces, cards or frames yet); a
    ruleset with fields of its own empties them after this."""
    g.t = tables_for(cfg)
    n = cfg.num_players
    g.cfg, g.n = cfg, n
    g.agents = ((0,) * NUM_AREAS,) * n
    g.on_board = [0] * n
    g.gren, g.cit, g.trouble = (0,) * NUM_AREAS, (0,) * NUM_AREAS, [0] * NUM_AREAS
    g.building = (-1,) * NUM_AREAS
    g.city_retired, g.city_gained = (0,) * NUM_AREAS, (-1,) * NUM_AREAS
    g.money = [START_MONEY] * n
    g.loans = g.penalties = empty_rows(n)
    g.known = no_knowledge(n)
    g.known_unused = empty_rows(n)
    g.persona, g.persona_pool = (), ()
    g.log, g.stack, g.outcome, g._legal, g._dice = GameLog(), [], None, None, None
    g.turn, g.ability_used, g.played, g.in_play = 0, 0, [], []
    g.discard, g.events_done, g.removed = [], (), ()


def place_start_agents(g: GameState) -> None:
    """One agent of each player and one trouble marker in each starting area."""
    for a in g.t.start_areas:
        for seat in range(g.n):
            add_pawn(g, seat, a, trouble=False)
        g.trouble[a] = 1


def deal_roles(
    rng: np.random.Generator, pool: list[int], n: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Shuffle ``pool`` (secret roles: personalities, objectives ...) and deal one to each of
    ``n`` seats; the rest are set aside unseen (sorted: their order says nothing)."""
    rng.shuffle(pool)
    return tuple(pool[:n]), tuple(sorted(pool[n:]))


def shuffle_events(g: GameState, rng: np.random.Generator) -> None:
    events = list(range(len(g.t.data.events)))
    rng.shuffle(events)
    g.event_deck = tuple(events)


def deal_decks(g: GameState, rng: np.random.Generator, top_first: bool) -> None:
    """Shuffle the two decks (the top one first, or the bottom one first, as the ruleset's
    rulebook does it), stack the top deck (``grey_cards``) on the bottom one (``red_cards``)
    and deal each player the ruleset's hand; with two players some cards leave the game."""
    t = g.t
    removed = t.removed_with_two if g.n == 2 else frozenset()
    top = [c for c in t.grey_cards if c not in removed]
    bottom = [c for c in t.red_cards if c not in removed]
    for deck in (top, bottom) if top_first else (bottom, top):
        rng.shuffle(deck)
    g.removed = tuple(sorted(removed))
    g.deck = bottom + top  # the top of the draw pile is the end of the list
    size = g.rules.hand_size
    g.hands = [[g.deck.pop() for _ in range(size)] for _ in range(g.n)]


def deal(g: GameState, cfg: GameConfig, rng: np.random.Generator) -> None:
    """Fill ``g`` with a freshly set-up game (rulebook 'Starting the game')."""
    empty_state(g, cfg)
    g.rng = rng
    place_start_agents(g)
    g.persona, g.persona_pool = deal_roles(rng, personality_deck(cfg), g.n)
    shuffle_events(g, rng)
    deal_decks(g, rng, top_first=True)  # grey, then red
    start_game(g, rng)


def start_game(g: GameState, rng: np.random.Generator) -> None:
    """Draw the first player, whose first turn begins (the ``turn`` frame at the bottom of
    the stack)."""
    g.first_player = int(rng.integers(g.n))
    g.active = g.first_player
    g.turn = 1
    push(g, {"k": "turn", "p": g.active, "s": 0})
    if g.cfg.log:
        g.say(f"game starts; player {g.active} goes first")
