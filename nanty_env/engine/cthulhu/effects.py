"""Scroll effects of the expansion's cards: the base game's handlers, plus the expansion's own
(``X_EFFECTS``), which its ruleset merges over the base game's for the ids they name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nanty_env.engine.actions import SELECT_CARD, SELECT_CARD_ACTIONS
from nanty_env.engine.cthulhu import pieces
from nanty_env.engine.cthulhu.cards import take_face_up
from nanty_env.engine.cthulhu.state import CthulhuState
from nanty_env.engine.cthulhu.track import advance_insanity
from nanty_env.engine.effects.registry import Effect
from nanty_env.engine.frames import CTHULHU, Frame, call, handler, pop

Params = Mapping[str, Any]


def move_own_minion_out_of_trouble(g: CthulhuState, p: int, c: int, params: Params) -> None:
    """Samuel Pickwick: move one of your minions from an area with a trouble marker to an
    adjacent area."""
    call(g, {"k": "pick_minion", "p": p, "ft": 1})


def take_face_up_card(g: CthulhuState, p: int, c: int, params: Params) -> None:
    if g.faceup:
        call(g, {"k": "take_faceup", "p": p})


def advance_insanity_effect(g: CthulhuState, p: int, c: int, params: Params) -> None:
    advance_insanity(g, p)


def earn_per_elder_one(g: CthulhuState, p: int, c: int, params: Params) -> None:
    amount = params["amount"] * len(pieces.own_elders(g, p))
    g.money[p] += amount
    if g.cfg.log:
        g.say(f"player {p} takes £{amount} for their Elder Ones")


@handler("take_faceup", "take one of the face-up cards into your hand", CTHULHU)
class TakeFaceUp:
    @staticmethod
    def options(g: CthulhuState, f: Frame) -> list[int] | None:
        return sorted(SELECT_CARD_ACTIONS[c] for c in g.faceup)

    @staticmethod
    def act(g: CthulhuState, f: Frame, a: int) -> None:
        pop(g)
        take_face_up(g, f["p"], a - SELECT_CARD)


X_EFFECTS: Mapping[str, Effect] = {
    "move_own_minion_out_of_trouble": move_own_minion_out_of_trouble,
    "take_face_up_card": take_face_up_card,
    "advance_insanity": advance_insanity_effect,
    "earn_per_elder_one": earn_per_elder_one,
}
