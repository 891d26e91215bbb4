"""A seat's information set as plain data: everything that seat knows, nothing it does not.

Hidden from a seat: other hands (except cards it has learnt about), other personalities
(until the game is over), the order of the draw pile and of the event deck, the set-aside
personality cards (except those it has seen). Public: the board, money, loans, penalty cards,
City Area cards, hand sizes, the discard pile, played events, the areas rolled by the event
being resolved, removed cards, cards in play.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from nanty_env.engine import board
from nanty_env.engine.board import AREAS
from nanty_env.engine.reactions import EVENT
from nanty_env.engine.state import GameState


def used_bits(mask: int, first: int, count: int) -> list[int]:
    """Bits ``first`` to ``first + count - 1`` of an ``ability_used`` mask, as a view lists
    them (1: that ability already used this turn)."""
    return [mask >> (first + i) & 1 for i in range(count)]


def used_mask(bits: Iterable[int], first: int = 0) -> int:
    """The ``ability_used`` bits of a view's list (:func:`used_bits`) that starts at bit
    ``first``."""
    return sum(bit << (first + i) for i, bit in enumerate(bits))


def resolving_cards(g: GameState) -> list[list[int]]:
    """[seat, card, next symbol index] of every card being resolved, oldest first (public).
    Lists, not tuples, so that the view survives a trip through JSON unchanged."""
    return [[f["p"], f["c"], f["i"]] for f in g.stack if f["k"] == "card"]


def event_areas(g: GameState) -> list[int]:
    """Areas the random event being resolved has rolled and still has to deal with, next
    first (public: everyone sees the die). The FAQ has every roll made before anyone decides,
    so that a Holborn owner knows all the affected areas; this is where a seat learns them."""
    out: list[int] = []
    for f in reversed(g.stack):
        k = f["k"]
        if k == "arrive":
            found = f["rolls"]
        elif k == "flood":
            found = f["fl"]
        elif (
            k in ("rmb", "ev_clear_trouble", "inigo")
            or (k in ("rm", "react") and f["src"] == EVENT)
            or (k == "murders" and f["s"] >= 1)
        ):
            found = (f["a"],)
        else:
            continue
        out += [a for a in found if a not in out]
    return out


def player_view(g: GameState, seat: int) -> dict[str, Any]:
    """What ``seat`` knows, as JSON-safe data."""
    view = common_view(g, seat)
    view["personality"] = g.persona[seat]
    view["known_unused_personalities"] = list(g.known_unused[seat])
    view["persona_pool_size"] = len(g.persona_pool)
    if g.cfg.expansion is not None:  # a ruleset derived from the base game: its name
        view["expansion"] = g.cfg.expansion
    if g.outcome is not None:
        view["personalities"] = list(g.persona)
    return view


def common_view(g: GameState, seat: int) -> dict[str, Any]:
    """The part of a seat's view that the base game and the expansion share (everything but
    the secret role cards)."""
    n = g.n
    over = g.outcome is not None
    me_deciding = not over and g.stack[-1]["p"] == seat
    view: dict[str, Any] = {
        "seat": seat,
        "num_players": n,
        "turn": g.turn,
        "active": g.active,
        "first_player": g.first_player,
        "agents": [list(row) for row in g.agents],
        "grenadiers": list(g.gren),
        "citizens": list(g.cit),
        "trouble": g.trouble[:],
        "buildings": list(g.building),
        "city_retired": list(g.city_retired),
        "city_gained_this_turn": [int(t == g.turn) for t in g.city_gained],
        "abilities_used": used_bits(g.ability_used, 0, len(AREAS)),
        "money": g.money[:],
        "loans": [list(row) for row in g.loans],
        "penalties": [list(row) for row in g.penalties],
        "hand_sizes": [len(h) for h in g.hands],
        "hand": sorted(g.hands[seat]),
        "known_cards": [sorted(g.known[seat][q]) if q != seat else [] for q in range(n)],
        "discard": g.discard[:],
        "in_play": g.in_play[:],
        "resolving": resolving_cards(g),
        "played_this_turn": g.played[:],
        "events_done": list(g.events_done),
        "event_areas": event_areas(g),
        "event_deck_size": len(g.event_deck),
        "deck_size": len(g.deck),
        "removed": list(g.removed),
        "trouble_count": board.trouble_count(g),
        "current_player": -1 if over else g.stack[-1]["p"],
        "decision": g.stack[-1]["k"] if me_deciding else "",
        "context": _context(g.stack[-1]) if me_deciding else {},
        "legal_actions": g.legal_actions() if me_deciding else [],
        "stack": [_public_frame(f, seat) for f in g.stack],
        "terminal": over,
    }
    if over:
        view["winners"] = list(g.outcome.winners)
        view["reason"] = g.outcome.reason
    return view


# ---------------------------------------------------------------------- frame fields
FIELD_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "k": "kind",  # the frame kind (the decision kind when it waits for one)
        "p": "player",  # the seat that decides (or acts, for an automatic frame)
        "a": "area",  # the area it is about
        "o": "owner",  # whose pawn: a seat, or -1 grenadier / -2 new citizen
        "s": "step",  # how far a frame of several steps has got
        "c": "card",  # the card in play (or whose text this is)
        "i": "symbol_index",  # the next symbol of that card to resolve
        "t": "target",  # the player the card's text is aimed at
        "w": "threat",  # what a reaction window answers: remove, move, text, building, ...
        "src": "source",  # the seat whose card causes it (-1: a random event)
        "text": "by_text",  # 1 when caused by a card's text (Mr. Goodyear may answer)
        "r": "verdict",  # a reaction's answer written back by a child frame
        "up": "parent",  # the stack position of the frame that asked for this one
        "e": "elder",  # the Elder One (expansion)
        "any": "anywhere",  # the agent may go to any area, not only a neighbour
        "ask": "to_ask",  # seats still to be asked (Holborn, arrivals)
        "dests": "destinations",  # areas the pawn may be moved to
        "fl": "flooded",  # the flooded areas
        "ft": "from_trouble",  # only a minion standing with a trouble marker
        "half": "half_price",  # a building at half price
        "not": "excluded_area",  # an area the agent may not go to
        "nt": "no_trouble",  # a placement that brings no trouble marker
        "opt": "optional",  # the player may decline
        "stay": "staying",  # per flooded area, agents kept there by paying Holborn
    }
)
"""Frames keep short keys (internal); views name them (``context`` and :func:`frame_fields`).
The keys in :data:`KEPT_FIELDS` are words already and keep their names."""
KEPT_FIELDS = frozenset(
    {
        "amount",  # pounds to pay or be paid
        "areas",  # areas allowed for a placement or a marker
        "cards",  # cards held up (Stanley's taker) or chosen from
        "first",  # the first pawn of a swap
        "second",  # ... and the second
        "left",  # how many more to do (cards, discards, rolls)
        "lifted",  # 1 once an agent was lifted to be placed again
        "must",  # 1 when a removal cannot be declined
        "need",  # discards still compulsory
        "need_trouble",  # a building to buy must stand with a trouble marker (or without)
        "pay",  # pounds paid per card discarded
        "payer",  # the seat that pays (Hubert / Karl Marx)
        "roll",  # the die number rolled (expansion summon)
        "rolls",  # areas rolled for arrivals
        "seats",  # seats still to act, in order
        "targets",  # the pawns that may be removed
        "to",  # the seat that receives
    }
)
KIND_FIELD_NAMES: Mapping[tuple[str, str], str] = MappingProxyType(
    {  # (kind, key): the name for that kind
        ("targeted", "e"): "effect",  # an effect id standing in for the card's
        ("move_own", "src"): "from_area",  # the area the agent leaves (-1: not chosen yet)
        ("place_agent", "src"): "from_area",  # the area a re-placed agent was lifted from
    }
)
_FRAME_KEYS: Mapping[str, str] = MappingProxyType(
    {v: k for k, v in FIELD_NAMES.items()}
    | {name: key for (_, key), name in KIND_FIELD_NAMES.items()}
)


def frame_fields(f: Mapping[str, Any]) -> dict[str, Any]:
    """A frame of the engine (e.g. one of a view's ``stack``) with readable field names
    (:data:`FIELD_NAMES`) and lists for tuples: ``{"kind": "card", "player": 0, "card": 12,
    "symbol_index": 1}``."""
    kind = f.get("k", "")
    names = FIELD_NAMES
    return {
        KIND_FIELD_NAMES.get((kind, k)) or names.get(k, k): list(v) if isinstance(v, tuple) else v
        for k, v in f.items()
    }


def frame_from_fields(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's frame of :func:`frame_fields` output (the inverse, tuples as lists)."""
    return {_FRAME_KEYS.get(k, k): v for k, v in fields.items()}


def _context(f: dict[str, Any]) -> dict[str, Any]:
    """The pending decision's frame as JSON-safe data with readable names, without its kind
    (all of it is known to the decider)."""
    out = frame_fields(f)
    del out["kind"]
    return out


HIDDEN_CARD = -1


def _public_frame(f: dict[str, Any], seat: int) -> dict[str, Any]:
    """A pending frame as ``seat`` may see it, in the engine's own form (what determinisation
    rebuilds the stack from): the cards Stanley's taker holds up are known only to the taker
    and the player they came from."""
    out = {k: list(v) if isinstance(v, tuple) else v for k, v in f.items() if k != "k"}
    out["k"] = f["k"]
    if f["k"] == "keep_one" and seat not in (f["p"], f["t"]):
        out["cards"] = [HIDDEN_CARD] * len(f["cards"])
    return out
