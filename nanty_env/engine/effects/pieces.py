"""Effects that move, remove or take over pieces: moving agents, The Dean, The Bursar's
swap, buying a building, and the effects that first pay another player."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nanty_env.engine import actions as A
from nanty_env.engine import board
from nanty_env.engine.actions import AREA, AREA_ACTIONS, PASS, SLOT_CITIZEN, SLOT_GRENADIER
from nanty_env.engine.board import AREAS
from nanty_env.engine.effects.registry import effect, others
from nanty_env.engine.effects.targeted import picked, player_action, transfer
from nanty_env.engine.frames import Frame, call, choices_or_pop, handler, pass_or_pop, pop
from nanty_env.engine.reactions import ask, blocked, move_pawn_by, remove_pawn
from nanty_env.engine.state import GameState
from nanty_env.engine.tables import BUILDINGS_PER_PLAYER

Params = Mapping[str, Any]


def all_pawns(g: GameState, p: int, areas: range | tuple[int, ...] = AREAS) -> list[int]:
    """PAWN actions (relative to ``p``) for every pawn in ``areas``, own agents included."""
    out = []
    for a in areas:
        for q in range(g.n):
            if g.agents[q][a]:
                out.append(A.pawn_action(a, board.owner_slot(g, p, q)))
        if g.gren[a]:
            out.append(A.pawn_action(a, SLOT_GRENADIER))
        if g.cit[a]:
            out.append(A.pawn_action(a, SLOT_CITIZEN))
    out.sort()
    return out


# ---------------------------------------------------------------------- removing pawns
@handler("remove_own", "choose one of your own agents to remove")
class RemoveOwn:
    """``src``: the seat whose card forces it (may be the player) ; ``text``: 1 if by text."""

    @staticmethod
    def options(g: GameState, f: Frame) -> list[int] | None:
        row = g.agents[f["p"]]
        return choices_or_pop(g, [A.pawn_action(a, 0) for a in AREAS if row[a]])

    @staticmethod
    def act(g: GameState, f: Frame, a: int) -> None:
        pop(g)
        area, _ = A.split_pawn(a)
        if f["src"] == f["p"]:
            board.take_pawn(g, f["p"], area)
            if g.cfg.log:
                g.say(f"player {f['p']} removes one of their own agents in area {area + 1}")
        else:
            remove_pawn(g, f["p"], area, f["src"], text=bool(f["text"]))


@handler("kill", "choose a pawn to remove")
class Kill:
    """``p`` picks one of ``targets`` (PAWN actions relative to ``p``) to remove on behalf of
    ``src``'s card text; ``must``: 1 = no declining."""

    @staticmethod
    def options(g: GameState, f: Frame) -> list[int] | None:
        out = sorted(f["targets"])
        if not out:
            pop(g)
            return None
        if not f.get("must"):
            out.insert(0, PASS)
        return out

    @staticmethod
    def act(g: GameState, f: Frame, a: int) -> None:
        pop(g)
        if a == PASS:
            return
        area, slot = A.split_pawn(a)
        remove_pawn(g, board.pawn_owner(g, f["p"], slot), area, f["src"], text=True)


def kill(g: GameState, chooser: int, src: int, targets: list[int], must: bool) -> None:
    call(g, {"k": "kill", "p": chooser, "src": src, "targets": tuple(targets), "must": int(must)})


@effect("remove_pawn_in_area")
def remove_pawn_in_area(g: GameState, p: int, c: int, params: Params) -> None:
    """The Dean: any one pawn in the area, your own agents included."""
    kill(g, p, p, all_pawns(g, p, (params["area"],)), must=True)


# ---------------------------------------------------------------------- paying first
@effect(
    "pay_player_to_assassinate", "pay_player_then_assassinate", "pay_player_then_move_own_agent"
)
def pay_first(g: GameState, p: int, c: int, params: Params) -> None:
    if g.money[p] >= params["amount"]:
        call(g, {"k": "pay_first", "p": p, "c": c})


@handler("pay_first", "choose the player you pay")
class PayFirst:
    @staticmethod
    def options(g: GameState, f: Frame) -> list[int] | None:
        return sorted(player_action(g, f["p"], q) for q in others(g, f["p"]))

    @staticmethod
    def act(g: GameState, f: Frame, a: int) -> None:
        pop(g)
        p, c = f["p"], f["c"]
        q = picked(g, p, a)
        name = g.t.effect[c]
        transfer(g, p, q, g.t.effect_params[c]["amount"])
        if name == "pay_player_to_assassinate":
            # Henry "Holy" Peter: the paid player removes a pawn (not the card player's) from
            # an area with trouble; the money stays paid whatever happens next (FAQ).
            targets = [
                x
                for x in board.assassination_targets(g, q)
                if board.pawn_owner(g, q, A.split_pawn(x)[1]) != p
            ]
            targets += [A.pawn_action(x, 0) for x in AREAS if g.trouble[x] and g.agents[q][x]]
            kill(g, q, p, sorted(targets), must=True)
        elif name == "pay_player_then_assassinate":
            kill(g, p, p, board.assassination_targets(g, p), must=False)
        else:
            call(g, own_move_frame(g, p, from_trouble=False, anywhere=True))


# ---------------------------------------------------------------------- moving agents
def own_move_frame(g: GameState, p: int, from_trouble: bool, anywhere: bool) -> Frame:
    return {"k": "move_own", "p": p, "ft": int(from_trouble), "any": int(anywhere), "src": -1}


@effect("move_own_agent_out_of_trouble")
def move_own_out_of_trouble(g: GameState, p: int, c: int, params: Params) -> None:
    call(g, own_move_frame(g, p, from_trouble=True, anywhere=False))


@effect("move_own_agent_anywhere")
def move_own_anywhere(g: GameState, p: int, c: int, params: Params) -> None:
    call(g, own_move_frame(g, p, from_trouble=False, anywhere=True))


@handler("move_own", "choose one of your agents to move, then where it goes")
class MoveOwn:
    @staticmethod
    def options(g: GameState, f: Frame) -> list[int] | None:
        p, src = f["p"], f["src"]
        if src < 0:
            row = g.agents[p]
            return choices_or_pop(
                g,
                [A.pawn_action(a, 0) for a in AREAS if row[a] and (g.trouble[a] or not f["ft"])],
            )
        dests = AREAS if f["any"] else g.t.neighbours[src]
        return [AREA_ACTIONS[d] for d in dests if d != src]

    @staticmethod
    def act(g: GameState, f: Frame, a: int) -> None:
        if f["src"] < 0:
            f["src"] = A.split_pawn(a)[0]
            return
        pop(g)
        board.move_pawn(g, f["p"], f["src"], a - AREA)
        if g.cfg.log:
            g.say(f"player {f['p']} moves an agent from area {f['src'] + 1} to {a - AREA + 1}")


@effect("move_opponent_agent")
def move_opponent_agent(g: GameState, p: int, c: int, params: Params) -> None:
    call(g, {"k": "pick_foreign", "p": p})


@handler("pick_foreign", "choose another player's agent to move to a neighbouring area")
class PickForeign:
    @staticmethod
    def options(g: GameState, f: Frame) -> list[int] | None:
        p = f["p"]
        out = [
            A.pawn_action(a, board.owner_slot(g, p, q))
            for a in AREAS
            for q in range(g.n)
            if q != p and g.agents[q][a]
        ]
        if not out:
            pop(g)
            return None
        out.sort()
        return out

    @staticmethod
    def act(g: GameState, f: Frame, a: int) -> None:
        pop(g)
        p = f["p"]
        area, slot = A.split_pawn(a)
        move_pawn_by(g, p, board.pawn_owner(g, p, slot), area, g.t.neighbours[area])


@effect("swap_two_pawns")
def swap_two_pawns(g: GameState, p: int, c: int, params: Params) -> None:
    call(g, {"k": "swap", "p": p, "first": -1, "s": 0})


@handler("swap", "choose two pawns in different areas to swap")
class Swap:
    """The Bursar / Tracy Tupman: both pawns come off, then each goes where the other was
    (FAQ); the owner of each other player's agent may stop it with Toby or Mr. Goodyear."""

    @staticmethod
    def options(g: GameState, f: Frame) -> list[int] | None:
        p, s = f["p"], f["s"]
        if s == 0:
            out = all_pawns(g, p)
            areas = {A.split_pawn(x)[0] for x in out}
            if len(areas) < 2:
                pop(g)
                return None
            return out
        if s == 1:
            first_area = A.split_pawn(f["first"])[0]
            return [x for x in all_pawns(g, p) if A.split_pawn(x)[0] != first_area]
        owners = [_owner(g, p, f["first"]), _owner(g, p, f["second"])]
        if s in (2, 3):
            o = owners[s - 2]
            f["s"] = s + 1
            if not blocked(f) and o >= 0 and o != p:
                ask(g, o, "move", A.split_pawn(f["first" if s == 2 else "second"])[0], p, True)
            return None
        pop(g)
        if blocked(f):
            if g.cfg.log:
                g.say("the swap is stopped")
            return None
        a1, a2 = A.split_pawn(f["first"])[0], A.split_pawn(f["second"])[0]
        board.take_pawn(g, owners[0], a1)
        board.take_pawn(g, owners[1], a2)
        board.add_pawn(g, owners[0], a2)
        board.add_pawn(g, owners[1], a1)
        if g.cfg.log:
            g.say(f"player {p} swaps pawns between areas {a1 + 1} and {a2 + 1}")
        return None

    @staticmethod
    def act(g: GameState, f: Frame, a: int) -> None:
        if f["s"] == 0:
            f["first"], f["s"] = a, 1
        else:
            f["second"], f["s"] = a, 2
            f["r"] = 0


def _owner(g: GameState, p: int, action: int) -> int:
    return board.pawn_owner(g, p, A.split_pawn(action)[1])


# ---------------------------------------------------------------------- buildings
@effect("buy_opponent_building")
def buy_opponent_building(g: GameState, p: int, c: int, params: Params) -> None:
    call(
        g,
        {
            "k": "buy_building",
            "p": p,
            "need_trouble": int(params["trouble"] == "present"),
            "a": -1,
            "s": 0,
        },
    )


@handler("buy_building", "choose another player's building to buy at its cost")
class BuyBuilding:
    @staticmethod
    def options(g: GameState, f: Frame) -> list[int] | None:
        p = f["p"]
        if f["s"] == 0:
            cost = g.t.cost
            out = [
                AREA_ACTIONS[a]
                for a in AREAS
                if g.building[a] >= 0
                and g.building[a] != p
                and bool(g.trouble[a]) == bool(f["need_trouble"])
                and g.money[p] >= cost[a]
            ]
            return pass_or_pop(g, out)
        a = f["a"]
        owner = g.building[a]
        if f["s"] == 1:
            f["s"] = 2
            ask(g, owner, "text", a, p, True)
            return None
        pop(g)
        if blocked(f):
            if g.cfg.log:
                g.say(f"player {owner} keeps the building")
            return None
        transfer(g, p, owner, g.t.cost[a])
        board.remove_building(g, a)
        if board.own_buildings(g, p) >= BUILDINGS_PER_PLAYER:
            call(g, {"k": "relocate_building", "p": p, "a": a})
        else:
            board.place_building(g, p, a)
        if g.cfg.log:
            g.say(f"player {p} takes over the building in area {a + 1}")
        return None

    @staticmethod
    def act(g: GameState, f: Frame, a: int) -> None:
        if a == PASS:
            pop(g)
            return
        f["a"], f["s"] = a - AREA, 1
