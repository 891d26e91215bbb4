"""Out-of-turn reactions: interrupt cards and Holborn, offered as ordinary decisions of the
affected seat, and the removal/move frames that ask for them.

A ``react`` frame answers its parent with a verdict in ``r``: ``PROCEED`` (nothing played),
``BLOCKED`` (Toby, Mr. Goodyear, Little Dorrit or a Holborn payment stopped it) or ``REPLACE``
(the agent is removed, then Red-Headed League / Victor Frankenstein put it back elsewhere).
"""

from __future__ import annotations

from nanty_env.engine import board
from nanty_env.engine.actions import (
    ABILITY,
    ABILITY_ACTIONS,
    AREA,
    AREA_ACTIONS,
    PASS,
    PLAY_CARD,
    PLAY_CARD_ACTIONS,
)
from nanty_env.engine.board import AREAS, CITIZEN, GRENADIER
from nanty_env.engine.frames import Frame, call, handler, pop, push, reply
from nanty_env.engine.knowledge import card_revealed
from nanty_env.engine.state import GameState

PROCEED, BLOCKED, REPLACE = 0, 1, 2
EVENT = -1  # ``src`` of a random event
HOLBORN_COST = 3

TOBY = "interrupt_prevent_move_or_removal"
GOODYEAR = "interrupt_immune_to_text"
DORRIT = "interrupt_prevent_removal"
REPLACER = "interrupt_replace_removed_agent"

# what is threatened -> which interrupt kinds could answer it (before looking at who caused it)
_WHAT = ("remove", "move", "text", "building", "holborn", "remove_elder")


def answer_kinds(p: int, what: str, src: int, text: bool) -> list[str]:
    """Interrupt effect kinds that the rules let ``p`` play against this threat."""
    other_player = src >= 0 and src != p
    kinds = []
    if what in ("remove", "move") and other_player:
        kinds.append(TOBY)
    if text and other_player:
        kinds.append(GOODYEAR)
    if what == "remove" and (src == EVENT or other_player):
        kinds += [DORRIT, REPLACER]
    elif what == "remove_elder" and other_player:  # the expansion: an Elder One is killed
        kinds += [TOBY, DORRIT]
    return kinds


def holborn_usable(g: GameState, p: int) -> bool:
    """Whether ``p`` can pay Holborn now (working card, not gained this turn, £3)."""
    h = g.t.holborn
    return (
        h >= 0
        and board.ability_active(g, p, h)
        and g.city_gained[h] != g.turn
        and g.money[p] >= HOLBORN_COST
    )


def window_actions(g: GameState, p: int, what: str, src: int, text: bool) -> list[int]:
    """Everything ``p`` could answer with (PASS included)."""
    kinds = answer_kinds(p, what, src, text)
    t = g.t
    out = [PASS]
    if kinds:
        out += [PLAY_CARD_ACTIONS[c] for c in g.hands[p] if t.interrupt_kind[c] in kinds]
    if src == EVENT and what in ("remove", "building", "holborn") and holborn_usable(g, p):
        out.append(ABILITY_ACTIONS[t.holborn])
    out.sort()
    return out


def offer_window(g: GameState, p: int, what: str, src: int, text: bool) -> bool:
    """Whether to stop and ask ``p``. Under the ``public`` policy the answer depends only on
    public facts (the rules, hand size, Holborn, money), never on which cards ``p`` holds."""
    if p < 0:
        return False
    if g.cfg.interrupt_windows == "holders":
        return len(window_actions(g, p, what, src, text)) > 1
    if answer_kinds(p, what, src, text) and g.hands[p]:
        return True
    return src == EVENT and what in ("remove", "building", "holborn") and holborn_usable(g, p)


def ask(g: GameState, p: int, what: str, area: int, src: int, text: bool) -> bool:
    """Push a reaction window for ``p`` as a child of the top frame when it should be offered;
    the parent then finds the verdict in its ``r`` (default PROCEED)."""
    g.stack[-1]["r"] = PROCEED
    if not offer_window(g, p, what, src, text):
        return False
    call(g, {"k": "react", "p": p, "w": what, "a": area, "src": src, "text": int(text)})
    return True


def blocked(f: Frame) -> bool:
    """Whether the reaction window that frame ``f`` asked (``ask``) blocked what it was about
    (no window asked, or no answer yet: not blocked)."""
    return f.get("r", PROCEED) == BLOCKED


def react_options(g: GameState, f: Frame) -> list[int] | None:
    return window_actions(g, f["p"], f["w"], f["src"], bool(f["text"]))


def react_act(g: GameState, f: Frame, a: int) -> None:
    p = f["p"]
    pop(g)
    if a == PASS:
        reply(g, f, PROCEED)
        return
    if a >= ABILITY:
        g.money[p] -= HOLBORN_COST
        if g.cfg.log:
            g.say(f"player {p} pays £{HOLBORN_COST} to Holborn to ignore the event here")
        reply(g, f, BLOCKED)
        return
    c = a - PLAY_CARD
    g.hands[p].remove(c)
    g.discard.append(c)
    card_revealed(g, p, c)
    if g.cfg.log:
        g.say(f"player {p} plays {g.t.data.cards[c].name(g.cfg.theme)}")
    reply(g, f, REPLACE if g.t.interrupt_kind[c] == REPLACER else BLOCKED)


@handler("react", "react out of turn: play an interrupt card, pay Holborn, or let it happen")
class React:
    options = staticmethod(react_options)
    act = staticmethod(react_act)


def remove_pawn(g: GameState, owner: int, area: int, src: int, text: bool) -> None:
    """Queue the removal of one ``owner`` pawn from ``area`` caused by ``src`` (a seat, or
    ``EVENT``); the owner of an agent gets a reaction window first."""
    push(
        g,
        {"k": "rm", "p": max(src, 0), "a": area, "o": owner, "src": src, "text": int(text), "s": 0},
    )


def rm_options(g: GameState, f: Frame) -> list[int] | None:
    o, a = f["o"], f["a"]
    if f["s"] == 0:
        f["s"] = 1
        if o >= 0 and board.pawns_of(g, o, a):
            ask(g, o, "remove", a, f["src"], bool(f["text"]))
        return None
    pop(g)
    if blocked(f):
        if g.cfg.log:
            g.say(f"the removal in {_area(g, a)} is stopped")
        return None
    if not board.pawns_of(g, o, a):
        return None
    board.take_pawn(g, o, a)
    if g.cfg.log:
        g.say(f"{_pawn(g, o)} removed from {_area(g, a)}")
    if f.get("r") == REPLACE:
        push(g, {"k": "place_agent", "p": o, "areas": tuple(AREAS), "not": a})
    return None


@handler("rm", "remove a pawn (automatic; asks its owner first)")
class Remove:
    options = staticmethod(rm_options)


def remove_building_event(g: GameState, area: int) -> None:
    """Queue the removal of the building in ``area`` by a random event (Holborn may save it)."""
    push(g, {"k": "rmb", "p": 0, "a": area, "s": 0})


def rmb_options(g: GameState, f: Frame) -> list[int] | None:
    a = f["a"]
    owner = g.building[a]
    if f["s"] == 0:
        f["s"] = 1
        if owner >= 0:
            ask(g, owner, "building", a, EVENT, False)
        return None
    pop(g)
    if owner < 0:
        return None
    if blocked(f):
        if g.cfg.log:
            g.say(f"the building in {_area(g, a)} is saved")
        return None
    board.remove_building(g, a)
    if g.cfg.log:
        g.say(f"the building of player {owner} in {_area(g, a)} is destroyed")
    return None


@handler("rmb", "a random event removes a building (automatic; asks Holborn first)")
class RemoveBuilding:
    options = staticmethod(rmb_options)


def move_pawn_by(
    g: GameState, actor: int, owner: int, src_area: int, dests: tuple[int, ...]
) -> None:
    """Queue ``actor`` moving an ``owner`` pawn out of ``src_area`` to one of ``dests`` (a text
    effect); the owner may answer with Toby or Mr. Goodyear first."""
    call(g, {"k": "mv", "p": actor, "a": src_area, "o": owner, "dests": dests, "s": 0})


def mv_options(g: GameState, f: Frame) -> list[int] | None:
    o, a, actor = f["o"], f["a"], f["p"]
    if f["s"] == 0:
        f["s"] = 1
        if o >= 0 and o != actor:
            ask(g, o, "move", a, actor, True)
        return None
    if blocked(f) or not board.pawns_of(g, o, a) or not f["dests"]:
        pop(g)
        return None
    return [AREA_ACTIONS[d] for d in sorted(f["dests"])]  # a hand-built frame may list any order


def mv_act(g: GameState, f: Frame, a: int) -> None:
    pop(g)
    board.move_pawn(g, f["o"], f["a"], a - AREA)
    if g.cfg.log:
        g.say(f"{_pawn(g, f['o'])} moved from {_area(g, f['a'])} to {_area(g, a - AREA)}")


@handler("mv", "choose where the pawn being moved goes")
class Move:
    options = staticmethod(mv_options)
    act = staticmethod(mv_act)


def _area(g: GameState, a: int) -> str:
    return g.t.data.areas[a].name(g.cfg.theme)


def _pawn(g: GameState, owner: int) -> str:
    theme = g.t.data.themes[g.cfg.theme]
    if owner == GRENADIER:
        return theme["grenadier"]
    if owner == CITIZEN:
        return theme["citizen"]
    return f"{theme['agent']} of player {owner}"
