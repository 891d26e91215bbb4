"""City Area abilities: once per turn, at any top-level decision of your own turn, not in the
turn the card was gained, and void while a grenadier stands in the area. Holborn is reactive
(see ``reactions``) and never an own-turn action."""

from __future__ import annotations

from nanty_env.engine import board
from nanty_env.engine.actions import AREA, AREA_ACTIONS, DISCARD_CARD, DISCARD_CARD_ACTIONS, PASS
from nanty_env.engine.board import AREAS
from nanty_env.engine.cards import discard_from_hand, draw_cards
from nanty_env.engine.frames import Frame, call, choices_or_pop, handler, pop
from nanty_env.engine.state import GameState


def _possible(g: GameState, p: int, a: int) -> bool:
    t = g.t
    kind, params = t.ability[a], t.ability_params[a]
    if kind == "take_money":
        return True
    if kind == "pay_to_place_agent":
        return g.money[p] >= params["cost"]
    if kind == "draw_then_discard":
        return bool(g.deck)
    if kind == "discard_for_money":
        return bool(g.hands[p])
    if kind == "pay_to_remove_trouble":
        return g.money[p] >= params["cost"] and any(g.trouble)
    if kind == "place_trouble_nearby":
        return bool(trouble_nearby_targets(g, a))
    return False  # event_protection: only as a reaction


def trouble_nearby_targets(g: GameState, a: int) -> list[int]:
    """East End: the area or a neighbour with at least one pawn and no trouble marker yet."""
    return [x for x in sorted(g.t.near[a]) if not g.trouble[x] and board.pawn_count(g, x)]


def usable_abilities(g: GameState, p: int) -> list[int]:
    """Areas whose City Area ability ``p`` may use right now."""
    used, turn = g.ability_used, g.turn
    return [
        a
        for a, owner in enumerate(g.building)
        if owner == p
        and not g.city_retired[a]
        and not g.gren[a]
        and g.city_gained[a] != turn
        and not used >> a & 1
        and _possible(g, p, a)
    ]


def use_ability(g: GameState, p: int, a: int) -> None:
    """Use the ability of area ``a`` (legality already checked)."""
    t = g.t
    kind, params = t.ability[a], t.ability_params[a]
    g.ability_used |= 1 << a
    name = t.data.areas[a].name(g.cfg.theme) if g.cfg.log else ""  # only for the log
    if kind == "take_money":
        g.money[p] += params["amount"]
        if g.cfg.log:
            g.say(f"player {p} uses {name}: takes £{params['amount']}")
    elif kind == "pay_to_place_agent":
        g.money[p] -= params["cost"]
        if g.cfg.log:
            g.say(f"player {p} uses {name}: pays £{params['cost']} to place an agent")
        call(g, {"k": "place_agent", "p": p, "areas": tuple(sorted(t.near[a])), "not": -1})
    elif kind == "draw_then_discard":
        if g.cfg.log:
            g.say(f"player {p} uses {name}: draws one card, then discards one")
        draw_cards(g, p, 1)
        call(g, discard_frame(p, need=1, most=1))
    elif kind == "discard_for_money":
        if g.cfg.log:
            g.say(f"player {p} uses {name}: discards a card for £{params['amount']}")
        call(g, discard_frame(p, need=1, most=1, pay=params["amount"]))
    elif kind == "pay_to_remove_trouble":
        g.money[p] -= params["cost"]
        if g.cfg.log:
            g.say(f"player {p} uses {name}: pays £{params['cost']} to remove a trouble marker")
        call(
            g,
            {"k": "trouble_off", "p": p, "areas": tuple([x for x in AREAS if g.trouble[x]])},
        )
    elif kind == "place_trouble_nearby":
        if g.cfg.log:
            g.say(f"player {p} uses {name}: places a trouble marker")
        call(g, {"k": "trouble_on", "p": p, "areas": tuple(trouble_nearby_targets(g, a))})


def discard_frame(p: int, *, need: int, most: int, pay: int = 0) -> Frame:
    """A frame where ``p`` discards at least ``need`` and at most ``most`` cards from the hand,
    taking ``pay`` from the bank per card."""
    return {"k": "discard", "p": p, "need": need, "left": most, "pay": pay}


def discard_options(g: GameState, f: Frame) -> list[int] | None:
    hand = g.hands[f["p"]]
    if f["left"] <= 0 or not hand:
        pop(g)
        return None
    out = sorted([DISCARD_CARD_ACTIONS[c] for c in hand])
    if f["need"] <= 0:
        out.insert(0, PASS)
    return out


def discard_act(g: GameState, f: Frame, a: int) -> None:
    if a == PASS:
        pop(g)
        return
    p = f["p"]
    discard_from_hand(g, p, a - DISCARD_CARD)
    if f["pay"]:
        g.money[p] += f["pay"]
    f["left"] -= 1
    f["need"] -= 1


@handler("discard", "discard a card from your hand (or stop)")
class Discard:
    options = staticmethod(discard_options)
    act = staticmethod(discard_act)


def trouble_off_options(g: GameState, f: Frame) -> list[int] | None:
    return choices_or_pop(g, [AREA_ACTIONS[a] for a in f["areas"] if g.trouble[a]])


def trouble_off_act(g: GameState, f: Frame, a: int) -> None:
    pop(g)
    g.trouble[a - AREA] = 0
    if g.cfg.log:
        g.say(f"player {f['p']} removes the trouble marker in area {a - AREA + 1}")


@handler("trouble_off", "choose a trouble marker to remove")
class TroubleOff:
    options = staticmethod(trouble_off_options)
    act = staticmethod(trouble_off_act)


def trouble_on_options(g: GameState, f: Frame) -> list[int] | None:
    return choices_or_pop(g, [AREA_ACTIONS[a] for a in f["areas"] if not g.trouble[a]])


def trouble_on_act(g: GameState, f: Frame, a: int) -> None:
    pop(g)
    g.trouble[a - AREA] = 1
    if g.cfg.log:
        g.say(f"player {f['p']} places a trouble marker in area {a - AREA + 1}")


@handler("trouble_on", "choose where to place a trouble marker")
class TroubleOn:
    options = staticmethod(trouble_on_options)
    act = staticmethod(trouble_on_act)
