"""Die-driven effects: Cmot Dibbler, Here'n'Now and Errol (one roll, outcome by number) and
Carcer / Jack the Ripper (two rolls, one pawn from each rolled area)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nanty_env.engine import actions as A
from nanty_env.engine import board
from nanty_env.engine.actions import CONFIRM
from nanty_env.engine.board import AREAS
from nanty_env.engine.effects.pieces import kill
from nanty_env.engine.effects.registry import effect
from nanty_env.engine.effects.targeted import TARGETED
from nanty_env.engine.events import murder_targets
from nanty_env.engine.frames import Frame, call, handler, pop
from nanty_env.engine.state import GameState

Params = Mapping[str, Any]


@effect("roll_die")
def roll_die(g: GameState, p: int, c: int, params: Params) -> None:
    value = g.roll() + 1
    if g.cfg.log:
        g.say(f"player {p} rolls {value}")
    for outcome in params["outcomes"]:
        if outcome["min"] <= value <= outcome["max"]:
            _outcome(g, p, c, outcome)
            return


def _outcome(g: GameState, p: int, c: int, o: Mapping[str, Any]) -> None:
    kind = o["effect"]
    if kind == "take_money":
        g.money[p] += o["amount"]
        if g.cfg.log:
            g.say(f"player {p} takes £{o['amount']}")
    elif kind == "pay_or_remove_own_agent":
        if g.money[p] >= o["amount"] or g.on_board[p]:
            call(g, {"k": "pay_or_lose_agent", "p": p, "amount": o["amount"]})
    elif kind == "steal_money":
        # the same choice as Nobby Nobbs: pick a player, who may answer with Mr. Goodyear
        if TARGETED["steal_money"][0](g, p, o):
            call(
                g,
                {
                    "k": "targeted",
                    "p": p,
                    "c": c,
                    "s": 0,
                    "t": -1,
                    "e": "steal_money",
                    "amount": o["amount"],
                },
            )
    elif kind == "remove_own_agent":
        call(g, {"k": "remove_own", "p": p, "src": p, "text": 1})
    elif kind == "remove_pawn_in_trouble_area":
        kill(g, p, p, board.assassination_targets(g, p), must=True)
    else:
        raise AssertionError(f"unknown roll outcome {kind!r}")


@handler("pay_or_lose_agent", "pay the bank, or remove one of your agents")
class PayOrLoseAgent:
    @staticmethod
    def options(g: GameState, f: Frame) -> list[int] | None:
        p = f["p"]
        out = [A.pawn_action(a, 0) for a in AREAS if g.agents[p][a]]
        if g.money[p] >= f["amount"]:
            out.insert(0, CONFIRM)
        return out

    @staticmethod
    def act(g: GameState, f: Frame, a: int) -> None:
        pop(g)
        p = f["p"]
        if a == CONFIRM:
            g.money[p] -= f["amount"]
            if g.cfg.log:
                g.say(f"player {p} pays £{f['amount']} to the bank")
        else:
            area, _ = A.split_pawn(a)
            board.take_pawn(g, p, area)
            if g.cfg.log:
                g.say(f"player {p} removes one of their agents from area {area + 1}")


@effect("roll_and_remove_pawns")
def roll_and_remove_pawns(g: GameState, p: int, c: int, params: Params) -> None:
    call(g, {"k": "ripper", "p": p, "left": params["rolls"]})


@handler("ripper", "Jack the Ripper: roll and remove a pawn from the rolled area (automatic)")
class Ripper:
    """Once started it goes on while there is something to kill (FAQ); you remove your own
    agent when it is the only pawn there."""

    @staticmethod
    def options(g: GameState, f: Frame) -> list[int] | None:
        if f["left"] <= 0:
            pop(g)
            return None
        f["left"] -= 1
        a = g.roll()
        if g.cfg.log:
            g.say(f"player {f['p']} rolls {a + 1}")
        targets = murder_targets(g, f["p"], a)
        if targets:
            kill(g, f["p"], f["p"], targets, must=True)
        return None
