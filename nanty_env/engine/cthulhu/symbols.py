"""The expansion's action symbols and the decisions they open.

* minion: place an agent (in or next to an area with one of your minions; anywhere if you have
  none) or move one of your minions (agents or Elder Ones) to an adjacent area;
* summon: roll the die; pay an Elder One's HP per point the roll is above the Insanity level
  (nothing at or below it) and place it where you have a minion, with a trouble marker;
* building: pick an area (your minion there, no building, no trouble), then a type from your
  reserve; with all six out, move one of yours there instead, paying its cost;
* assassinate: a pawn as in the base game (never a grenadier), or an Elder One of another
  player: one hit, then you may sacrifice your own minions there (agent 1 hit, Elder One its
  HP); hits reaching its HP send it back to the pool (its owner may react first). Hits last
  until the end of the turn;
* insanity (mandatory): see ``track``.

Frames: ``summon``, ``summon_place``, ``pick_minion``, ``move_minion``, ``sacrifice``,
``elder_rm``, ``build_type``, and the expansion's ``relocate_building``.
"""

from __future__ import annotations

from collections.abc import Mapping

from nanty_env.engine import actions as A
from nanty_env.engine import board
from nanty_env.engine.actions import (
    AREA,
    AREA_ACTIONS,
    BUILDING_TYPE,
    BUILDING_TYPE_ACTIONS,
    CONFIRM,
    ELDER,
    ELDER_ACTIONS,
    PASS,
    PAWN,
    PLAYER,
)
from nanty_env.engine.board import AREAS, area_name
from nanty_env.engine.cthulhu import pieces
from nanty_env.engine.cthulhu.pieces import MAX_OWN_ELDERS
from nanty_env.engine.cthulhu.state import CthulhuState
from nanty_env.engine.cthulhu.track import advance_insanity
from nanty_env.engine.frames import (
    CTHULHU,
    Frame,
    call,
    choices_or_pop,
    handler,
    pass_or_pop,
    pop,
    push,
)
from nanty_env.engine.reactions import ask, blocked
from nanty_env.engine.ruleset import Symbol
from nanty_env.engine.symbols import assassinate, confirm
from nanty_env.engine.tables import AGENTS_PER_PLAYER


def _elder(g: CthulhuState, e: int) -> str:
    return g.t.data.elder_ones[e].title


# ---------------------------------------------------------------------- minion
def minion_options(g: CthulhuState, p: int, c: int) -> list[int]:
    """Place an agent (AREA) or move one of your minions (PAWN of your agent, ELDER)."""
    out = []
    if g.on_board[p] < AGENTS_PER_PLAYER:
        out = [AREA_ACTIONS[a] for a in board.placement_areas(g, p)]
    row = g.agents[p]
    out += [A.pawn_action(a, 0) for a in AREAS if row[a]]
    out += [ELDER_ACTIONS[e] for e in pieces.own_elders(g, p)]
    return out


def do_minion(g: CthulhuState, p: int, c: int, a: int) -> None:
    """Place or move a minion (``c``: the card played, -1 for a scroll's move)."""
    if a < PAWN:
        board.place_agent(g, p, a - AREA)
    elif a < PLAYER:
        call(g, {"k": "move_minion", "p": p, "a": A.split_pawn(a)[0], "e": -1})
    else:
        e = a - ELDER
        call(g, {"k": "move_minion", "p": p, "a": g.elder_area[e], "e": e})


@handler("move_minion", "choose where your minion being moved goes", CTHULHU)
class MoveMinion:
    """``a``: the area it leaves; ``e``: the Elder One moving, -1 for an agent."""

    @staticmethod
    def options(g: CthulhuState, f: Frame) -> list[int] | None:
        return [AREA_ACTIONS[d] for d in g.t.neighbours[f["a"]]]

    @staticmethod
    def act(g: CthulhuState, f: Frame, a: int) -> None:
        pop(g)
        p, src, dst = f["p"], f["a"], a - AREA
        if f["e"] < 0:
            board.move_pawn(g, p, src, dst)
            if g.cfg.log:
                g.say(f"player {p} moves an agent from {area_name(g, src)} to {area_name(g, dst)}")
        else:
            pieces.move_elder(g, f["e"], dst)
            if g.cfg.log:
                g.say(f"player {p} moves {_elder(g, f['e'])} to {area_name(g, dst)}")


@handler("pick_minion", "choose one of your minions to move to an adjacent area", CTHULHU)
class PickMinion:
    """``ft``: 1 = only a minion in an area with a trouble marker (Samuel Pickwick)."""

    @staticmethod
    def options(g: CthulhuState, f: Frame) -> list[int] | None:
        p, ft = f["p"], f["ft"]
        row = g.agents[p]
        out = [A.pawn_action(a, 0) for a in AREAS if row[a] and (g.trouble[a] or not ft)]
        out += [
            ELDER_ACTIONS[e]
            for e in pieces.own_elders(g, p)
            if g.trouble[g.elder_area[e]] or not ft
        ]
        return choices_or_pop(g, out)

    @staticmethod
    def act(g: CthulhuState, f: Frame, a: int) -> None:
        pop(g)
        do_minion(g, f["p"], -1, a)


# ---------------------------------------------------------------------- summon
def summon_possible(g: CthulhuState, p: int) -> bool:
    """An Elder One in the pool, fewer than two controlled, and a minion to place it by."""
    return (
        -1 in g.elder_area
        and len(pieces.own_elders(g, p)) < MAX_OWN_ELDERS
        and bool(pieces.minion_areas(g, p))
    )


def summon_price(g: CthulhuState, e: int, roll: int) -> int:
    """HP x the points the roll is above the Insanity level (0 at or below it)."""
    return g.t.elder_hp[e] * max(0, roll - g.insanity)


def do_summon(g: CthulhuState, p: int, c: int, a: int) -> None:
    roll = g.roll() + 1
    if g.cfg.log:
        g.say(f"player {p} rolls {roll} to summon (Insanity {g.insanity})")
    call(g, {"k": "summon", "p": p, "roll": roll})


@handler("summon", "choose an Elder One to summon (paying for a roll above the level)", CTHULHU)
class Summon:
    @staticmethod
    def options(g: CthulhuState, f: Frame) -> list[int] | None:
        p, roll = f["p"], f["roll"]
        money = g.money[p]
        out = [ELDER_ACTIONS[e] for e in pieces.pool(g) if summon_price(g, e, roll) <= money]
        if not out:  # public grounds: the roll, the money and the pool are known to all
            pop(g)
            if g.cfg.log:
                g.say(f"player {p} cannot summon")
            return None
        return [PASS, *out]

    @staticmethod
    def act(g: CthulhuState, f: Frame, a: int) -> None:
        pop(g)
        if a == PASS:
            return
        p, e = f["p"], a - ELDER
        price = summon_price(g, e, f["roll"])
        g.money[p] -= price
        if g.cfg.log:
            g.say(f"player {p} summons {_elder(g, e)}" + (f" for £{price}" if price else ""))
        push(g, {"k": "summon_place", "p": p, "e": e})


@handler("summon_place", "choose where the summoned Elder One arrives", CTHULHU)
class SummonPlace:
    @staticmethod
    def options(g: CthulhuState, f: Frame) -> list[int] | None:
        return [AREA_ACTIONS[a] for a in pieces.minion_areas(g, f["p"])]

    @staticmethod
    def act(g: CthulhuState, f: Frame, a: int) -> None:
        pop(g)
        pieces.place_elder(g, f["e"], f["p"], a - AREA)
        if g.cfg.log:
            g.say(f"{_elder(g, f['e'])} arrives in {area_name(g, a - AREA)}")


# ---------------------------------------------------------------------- assassinate
def assassinate_options(g: CthulhuState, p: int, c: int) -> list[int]:
    """Pawns as in the base game but no grenadiers, and other players' Elder Ones, in areas
    with a trouble marker."""
    out = board.assassination_targets(g, p)
    elder_area = g.elder_area
    out += [
        ELDER_ACTIONS[e]
        for e, o in enumerate(g.elder_owner)
        if o >= 0 and o != p and g.trouble[elder_area[e]]
    ]
    return out


def do_assassinate(g: CthulhuState, p: int, c: int, a: int) -> None:
    if a < PLAYER:  # a pawn, as in the base game
        assassinate(g, p, c, a)
        return
    e = a - ELDER
    pieces.set_hits(g, e, g.elder_hits[e] + 1)
    if g.cfg.log:
        g.say(f"player {p} hits {_elder(g, e)} ({g.elder_hits[e]} of {g.t.elder_hp[e]} HP)")
    call(g, {"k": "sacrifice", "p": p, "e": e})


@handler("sacrifice", "sacrifice your own minions there for more hits, or stop", CTHULHU)
class Sacrifice:
    """An agent of yours in the Elder One's area adds 1 hit, an Elder One of yours its HP."""

    @staticmethod
    def options(g: CthulhuState, f: Frame) -> list[int] | None:
        p, e = f["p"], f["e"]
        a = g.elder_area[e]
        if g.elder_hits[e] >= g.t.elder_hp[e]:
            pop(g)
            push(g, {"k": "elder_rm", "p": p, "e": e, "s": 0})
            return None
        out = [A.pawn_action(a, 0)] if g.agents[p][a] else []
        out += [ELDER_ACTIONS[x] for x in pieces.own_elders(g, p) if g.elder_area[x] == a]
        return pass_or_pop(g, out)

    @staticmethod
    def act(g: CthulhuState, f: Frame, a: int) -> None:
        p, e = f["p"], f["e"]
        if a == PASS:
            pop(g)
            return
        area = g.elder_area[e]
        if a < PLAYER:
            board.take_pawn(g, p, area)
            pieces.set_hits(g, e, g.elder_hits[e] + 1)
            if g.cfg.log:
                g.say(f"player {p} sacrifices an agent in {area_name(g, area)}")
        else:
            x = a - ELDER
            pieces.set_hits(g, e, g.elder_hits[e] + g.t.elder_hp[x])
            if g.cfg.log:
                g.say(f"player {p} sacrifices {_elder(g, x)}")
            pieces.remove_elder(g, x)


@handler("elder_rm", "an Elder One's hits reach its HP (automatic; asks its owner first)", CTHULHU)
class ElderRemove:
    @staticmethod
    def options(g: CthulhuState, f: Frame) -> list[int] | None:
        e = f["e"]
        owner = g.elder_owner[e]
        if f["s"] == 0:
            f["s"] = 1
            if owner >= 0:
                ask(g, owner, "remove_elder", g.elder_area[e], f["p"], False)
            return None
        pop(g)
        if owner < 0:
            return None
        if blocked(f):
            pieces.set_hits(g, e, 0)
            if g.cfg.log:
                g.say(f"{_elder(g, e)} is saved")
            return None
        if g.cfg.log:
            g.say(f"{_elder(g, e)} returns to the pool; player {owner} loses it")
        pieces.remove_elder(g, e)
        return None


# ---------------------------------------------------------------------- buildings
def _cheapest(g: CthulhuState, p: int) -> int:
    """The cheapest building ``p`` could place now (from reserve, or moved if all are out)."""
    cost = g.t.building_cost
    kinds = pieces.reserve(g, p) or pieces.types_on_board(g, p)
    return min([cost[k] for k in kinds])


def buildable_areas(g: CthulhuState, p: int, factor: float) -> list[int]:
    """Areas with one of ``p``'s minions, no building and no trouble marker, when ``p`` can pay
    ``factor`` times the price of some building there (the ruleset's ``buildable_areas``)."""
    if g.money[p] < board.building_price(_cheapest(g, p), factor):
        return []
    return [a for a in pieces.minion_areas(g, p) if g.building[a] < 0 and not g.trouble[a]]


def do_building(g: CthulhuState, p: int, area: int, factor: float) -> None:
    """Build in ``area``: a type from the reserve, or, with all six out, one moved (the
    ruleset's ``build``; the frame's ``half``: the half price)."""
    kind = "build_type" if pieces.reserve(g, p) else "relocate_building"
    call(g, {"k": kind, "p": p, "a": area, "half": int(factor < 1.0)})


def _price(g: CthulhuState, kind: int, half: int) -> int:
    return board.building_price(g.t.building_cost[kind], 0.5 if half else 1.0)


@handler("build_type", "choose the type of the building you place", CTHULHU)
class BuildType:
    @staticmethod
    def options(g: CthulhuState, f: Frame) -> list[int] | None:
        p, half = f["p"], f["half"]
        return [
            BUILDING_TYPE_ACTIONS[k]
            for k in pieces.reserve(g, p)
            if _price(g, k, half) <= g.money[p]
        ]

    @staticmethod
    def act(g: CthulhuState, f: Frame, a: int) -> None:
        pop(g)
        p, area, k = f["p"], f["a"], a - BUILDING_TYPE
        price = _price(g, k, f["half"])
        g.money[p] -= price
        pieces.place_building(g, p, area, k)
        if g.cfg.log:
            name = g.t.data.buildings[k].name(g.cfg.theme)
            g.say(f"player {p} pays £{price} for a {name} in {area_name(g, area)}")


@handler("relocate_building", "all six buildings are out: choose the one to move", CTHULHU)
class RelocateBuilding:
    """The moved building keeps its type; you pay its cost; its card counts as gained now."""

    @staticmethod
    def options(g: CthulhuState, f: Frame) -> list[int] | None:
        p, half = f["p"], f["half"]
        return [
            AREA_ACTIONS[b]
            for b in board.buildings_of(g, p)
            if _price(g, g.btype[b], half) <= g.money[p]
        ]

    @staticmethod
    def act(g: CthulhuState, f: Frame, a: int) -> None:
        pop(g)
        p, src, dst = f["p"], a - AREA, f["a"]
        k = g.btype[src]
        price = _price(g, k, f["half"])
        g.money[p] -= price
        board.remove_building(g, src)
        pieces.place_building(g, p, dst, k)
        if g.cfg.log:
            g.say(f"player {p} pays £{price} and moves a building to {area_name(g, dst)}")


# ---------------------------------------------------------------------- the symbol table
def summon_options(g: CthulhuState, p: int, c: int) -> list[int]:
    return [CONFIRM] if summon_possible(g, p) else []


def insanity(g: CthulhuState, p: int, c: int, a: int) -> None:
    advance_insanity(g, p)


# What the expansion's cards show, over the base game's table (money, scroll, building, play
# another and interrupt are the base game's, the building through the ruleset's
# ``buildable_areas`` and ``build``; None removes a symbol no expansion card shows).
CTHULHU_SYMBOLS: Mapping[str, Symbol | None] = {
    "agent": None,
    "remove_trouble": None,
    "event": None,
    "minion": Symbol(minion_options, do_minion),
    "insanity": Symbol(confirm, insanity, mandatory=True),
    "assassinate": Symbol(assassinate_options, do_assassinate),
    "summon": Symbol(summon_options, do_summon),
}
