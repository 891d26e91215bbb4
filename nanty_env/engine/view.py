"""A seat's information set as plain data: everything that seat knows, nothing it does not.

Hidden from a seat: other hands (except cards it has learnt about), other personalities
(until the game is over), the order of the draw pile and of the event deck, the set-aside
personality cards (except those it has seen). Public: the board, money, loans, penalty cards,
City Area cards, hand sizes, the discard pile, played events, the areas rolled by the event
being resolved, removed cards, cards in play.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from nanty_env.engine import board
from nanty_env.engine.reactions import EVENT

if TYPE_CHECKING:
    from nanty_env.engine.game import Game


def resolving_cards(g: Game) -> list[list[int]]:
    """[seat, card, next symbol index] of every card being resolved, oldest first (public).
    Lists, not tuples, so that the view survives a trip through JSON unchanged."""
    return [[f["p"], f["c"], f["i"]] for f in g.stack if f["k"] == "card"]


def event_areas(g: Game) -> list[int]:
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


def player_view(g: Game, seat: int) -> dict[str, Any]:
    """What ``seat`` knows, as JSON-safe data."""
    view = common_view(g, seat)
    view["personality"] = g.persona[seat]
    view["known_unused_personalities"] = list(g.known_unused[seat])
    view["persona_pool_size"] = len(g.persona_pool)
    if g.outcome is not None:
        view["personalities"] = g.persona[:]
    return view


def common_view(g: Game, seat: int) -> dict[str, Any]:
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
        "agents": [row[:] for row in g.agents],
        "grenadiers": g.gren[:],
        "citizens": g.cit[:],
        "trouble": g.trouble[:],
        "buildings": g.building[:],
        "city_retired": g.city_retired[:],
        "city_gained_this_turn": [int(t == g.turn) for t in g.city_gained],
        "abilities_used": [g.ability_used >> a & 1 for a in range(12)],
        "money": g.money[:],
        "loans": [row[:] for row in g.loans],
        "penalties": [row[:] for row in g.penalties],
        "hand_sizes": [len(h) for h in g.hands],
        "hand": sorted(g.hands[seat]),
        "known_cards": [sorted(g.known[seat][q]) if q != seat else [] for q in range(n)],
        "discard": g.discard[:],
        "in_play": g.in_play[:],
        "resolving": resolving_cards(g),
        "played_this_turn": g.played[:],
        "events_done": g.events_done[:],
        "event_areas": event_areas(g),
        "event_deck_size": len(g.event_deck),
        "deck_size": len(g.deck),
        "removed": g.removed[:],
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


def _context(f: dict[str, Any]) -> dict[str, Any]:
    """The pending decision's frame as JSON-safe data (all of it is known to the decider)."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in f.items() if k not in ("k",)}


HIDDEN_CARD = -1


def _public_frame(f: dict[str, Any], seat: int) -> dict[str, Any]:
    """A pending frame as ``seat`` may see it: the cards Stanley's taker holds up are known only
    to the taker and the player they came from."""
    out = _context(f)
    out["k"] = f["k"]
    if f["k"] == "keep_one" and seat not in (f["p"], f["t"]):
        out["cards"] = [HIDDEN_CARD] * len(f["cards"])
    return out
