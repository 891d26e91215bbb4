"""Sample a complete game from one seat's information set.

``sample_from_view(view, rng)`` builds a :class:`Game` that agrees with ``view`` (the output of
``Game.view(seat)``) on everything that seat knows, with everything else drawn afresh: other
players' unknown hand cards, the draw pile order, other players' personalities and the unseen
set-aside ones, the event deck order and the future dice. Search bots use it to determinise
without ever touching hidden state; the information-leak tests use ``determinize``.

Each ruleset samples through :func:`sample_game` with its own hidden fields: the expansion
resamples the other players' objectives and the set-aside ones, and the order of the event
cards never drawn, instead of personalities and the event deck
(``nanty_env.engine.cthulhu.determinize``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from nanty_env.engine.config import GameConfig
from nanty_env.engine.ruleset import find_ruleset, game_class
from nanty_env.engine.setup import personality_deck
from nanty_env.engine.tables import tables, tables_for
from nanty_env.engine.view import HIDDEN_CARD, used_mask

if TYPE_CHECKING:
    from nanty_env.engine.game import Game


def determinize(g: Game, seat: int, rng: np.random.Generator) -> Game:
    """A copy of ``g`` with everything ``seat`` cannot see resampled."""
    return sample_from_view(g.view(seat), rng, g.cfg)


def sample_from_view(view: dict[str, Any], rng: np.random.Generator, cfg: GameConfig) -> Game:
    """A full game consistent with ``view`` (see module docstring): the ruleset's sampler
    (``Ruleset.sample``)."""
    return find_ruleset(cfg.expansion).sample(view, rng, cfg)


def sample_hands(
    view: dict[str, Any], rng: np.random.Generator, ncards: int, extra_visible: tuple = ()
) -> tuple[list[list[int]], list[int]]:
    """Other players' hands (the cards the seat knows, topped up at random) and the draw pile
    (shuffled) from the cards the seat cannot see; ``extra_visible``: more cards in the open."""
    seat, n = view["seat"], view["num_players"]
    others = [q for q in range(n) if q != seat]
    # Cards whose place the seat knows; all others are spread over other hands and the deck.
    hands: list[list[int]] = [[] for _ in range(n)]
    hands[seat] = list(view["hand"])
    for q in others:
        hands[q] = list(view["known_cards"][q])
    # Cards a Stanley taker holds up are still in the victim's hand, and the viewer may see them.
    for f in view["stack"]:
        if f["k"] == "keep_one" and f["t"] != seat and HIDDEN_CARD not in f["cards"]:
            hands[f["t"]] += [c for c in f["cards"] if c not in hands[f["t"]]]
    visible = set(view["hand"]) | set(view["discard"]) | set(view["in_play"])
    visible |= set(view["removed"])
    for rows in (view["loans"], view["penalties"], [hands[q] for q in others]):
        for row in rows:
            visible |= set(row)
    visible |= set(extra_visible)
    pool = [c for c in range(ncards) if c not in visible]
    rng.shuffle(pool)
    for q in others:
        need = view["hand_sizes"][q] - len(hands[q])
        hands[q] += [pool.pop() for _ in range(need)]
    if len(pool) != view["deck_size"]:
        raise ValueError("view is inconsistent: hidden cards do not add up")
    return hands, pool


Hidden = Callable[[dict[str, Any], np.random.Generator, GameConfig], dict[str, Any]]


def sample_roles(
    rng: np.random.Generator, seat: int, n: int, own: int, unseen: list[int]
) -> list[int]:
    """Every seat's secret role: ``seat``'s ``own``, each other's drawn from ``unseen``
    (shuffled in place; the roles not drawn are left in it)."""
    rng.shuffle(unseen)
    return [own if q == seat else unseen.pop() for q in range(n)]


def sample_base(view: dict[str, Any], rng: np.random.Generator, cfg: GameConfig) -> Game:
    """The base game's sampler: hands and draw pile, then personalities and the event deck."""
    return sample_game(view, rng, cfg, base_hidden)


def base_hidden(view: dict[str, Any], rng: np.random.Generator, cfg: GameConfig) -> dict:
    """The base game's hidden state besides the cards: the personalities (own and seen
    set-aside ones fixed, the rest shuffled) and the order of the event deck."""
    seat, n = view["seat"], view["num_players"]
    own, seen = view["personality"], set(view["known_unused_personalities"])
    hidden = [x for x in personality_deck(cfg) if x != own and x not in seen]
    persona = sample_roles(rng, seat, n, own, hidden)
    events_left = [e for e in range(len(tables().data.events)) if e not in view["events_done"]]
    rng.shuffle(events_left)
    return {
        "persona": persona,
        "persona_pool": sorted(hidden + list(seen)),
        "event_deck": events_left,
        "known_unused": [sorted(seen) if q == seat else [] for q in range(n)],
    }


def sample_game(
    view: dict[str, Any],
    rng: np.random.Generator,
    cfg: GameConfig,
    hidden: Hidden,
    visible: tuple[int, ...] = (),
) -> Game:
    """The skeleton of every ruleset's sampler: the hands and the draw pile from the cards
    the seat cannot see (``visible``: the ruleset's other open cards), then the ruleset's
    ``hidden`` fields (drawn in its order, over the base fields taken from the view), then
    the pending frames and a fresh generator for the future dice."""
    seat, n = view["seat"], view["num_players"]
    hands, pool = sample_hands(view, rng, len(tables_for(cfg).data.cards), visible)
    own = hidden(view, rng, cfg)
    known = [[[] for _ in range(n)] for _ in range(n)]
    for q in range(n):
        if q != seat:
            known[seat][q] = list(view["known_cards"][q])
    stack = [_frame(f, hands, rng) for f in view["stack"]]
    turn = view["turn"]
    d = {
        "config": cfg.to_dict(),
        "n": n,
        "active": view["active"],
        "turn": turn,
        "first_player": view["first_player"],
        "ability_used": used_mask(view["abilities_used"]),
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
        "events_done": view["events_done"],
        "city_retired": view["city_retired"],
        "city_gained": [turn if x else -1 for x in view["city_gained_this_turn"]],
        "played": view["played_this_turn"],
        "agents": view["agents"],
        "hands": hands,
        "loans": view["loans"],
        "penalties": view["penalties"],
        "known": known,
        "stack": stack,
        "outcome": None,
        "rng": np.random.Generator(np.random.PCG64(int(rng.integers(2**63)))).bit_generator.state,
        "log": [],
        **own,
    }
    # built here from a view of a valid game (search bots draw thousands): not re-validated;
    # tests/engine/test_validation.py checks that such states pass the validator
    return game_class(cfg.expansion).from_dict(d, validate=False)


def _frame(f: dict[str, Any], hands: list[list[int]], rng: np.random.Generator) -> dict:
    out = dict(f)
    if f["k"] == "keep_one" and HIDDEN_CARD in f["cards"]:
        source = list(hands[f["t"]])
        rng.shuffle(source)
        out["cards"] = source[: len(f["cards"])]
    return out
