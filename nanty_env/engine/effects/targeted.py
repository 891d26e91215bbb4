"""Effects aimed at other players. A targeted player is asked first whether to answer with
Mr. Goodyear (the text of another player's card); a blocked effect is not redirected."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from nanty_env.engine import board
from nanty_env.engine.actions import (
    AREA,
    AREA_ACTIONS,
    CONFIRM,
    PASS,
    PLAYER,
    PLAYER_ACTIONS,
    SELECT_CARD,
    SELECT_CARD_ACTIONS,
)
from nanty_env.engine.effects.registry import effect, others
from nanty_env.engine.frames import Frame, call, handler, pass_or_pop, pop
from nanty_env.engine.knowledge import (
    card_given,
    card_revealed,
    forget,
    hand_seen,
    hands_exchanged,
    set_known,
)
from nanty_env.engine.reactions import ask, blocked
from nanty_env.engine.state import GameState, with_appended

Params = Mapping[str, Any]
Eligible = Callable[["GameState", int, Params], list[int]]
OnTarget = Callable[["GameState", int, int, int, Params], None]

# effect id -> (who may be picked, what happens to the picked player)
TARGETED: dict[str, tuple[Eligible, OnTarget]] = {}


def player_action(g: GameState, p: int, q: int) -> int:
    return PLAYER_ACTIONS[(q - p) % g.n]


def picked(g: GameState, p: int, a: int) -> int:
    return (p + a - PLAYER) % g.n


def transfer(g: GameState, payer: int, payee: int, amount: int) -> int:
    """Move up to ``amount`` from ``payer`` to ``payee`` (what the payer has); returns it."""
    paid = min(amount, g.money[payer])
    g.money[payer] -= paid
    g.money[payee] += paid
    if paid and g.cfg.log:
        g.say(f"player {payer} pays £{paid} to player {payee}")
    return paid


def targeted(name: str, eligible: Eligible) -> Callable[[OnTarget], OnTarget]:
    """Register an effect that picks one other player, who may block it with Mr. Goodyear."""

    def deco(on_target: OnTarget) -> OnTarget:
        TARGETED[name] = (eligible, on_target)

        @effect(name)
        def start(g: GameState, p: int, c: int, params: Params) -> None:
            call(g, {"k": "targeted", "p": p, "c": c, "s": 0, "t": -1})

        return on_target

    return deco


def _params(g: GameState, c: int) -> Params:
    return g.t.effect_params[c]


def targeted_options(g: GameState, f: Frame) -> list[int] | None:
    p, c = f["p"], f["c"]
    eligible, on_target = TARGETED[f.get("e") or g.t.effect[c]]
    params = {"amount": f["amount"]} if "amount" in f else _params(g, c)
    if f["s"] == 0:
        opts = eligible(g, p, params)
        if not opts:
            pop(g)
            return None
        return sorted([player_action(g, p, q) for q in opts])
    if f["s"] == 1:
        f["s"] = 2
        ask(g, f["t"], "text", -1, p, True)
        return None
    pop(g)
    if blocked(f):
        if g.cfg.log:
            g.say(f"player {f['t']} is not affected")
        return None
    on_target(g, p, f["t"], c, params)
    return None


def targeted_act(g: GameState, f: Frame, a: int) -> None:
    f["t"] = picked(g, f["p"], a)
    f["s"] = 1
    if g.cfg.log:
        g.say(f"player {f['p']} picks player {f['t']}")


@handler("targeted", "choose the player your card's text is aimed at")
class Targeted:
    options = staticmethod(targeted_options)
    act = staticmethod(targeted_act)


def _others(g: GameState, p: int, params: Params) -> list[int]:
    return list(others(g, p))


def _others_with_cards(g: GameState, p: int, params: Params) -> list[int]:
    return [q for q in others(g, p) if g.hands[q]]


def _others_with_buildings(g: GameState, p: int, params: Params) -> list[int]:
    return [q for q in others(g, p) if board.has_building(g, q)]


def _others_if_i_have_cards(g: GameState, p: int, params: Params) -> list[int]:
    return list(others(g, p)) if g.hands[p] else []


@targeted("steal_money", _others)
def steal_money(g: GameState, p: int, t: int, c: int, params: Params) -> None:
    transfer(g, t, p, params["amount"])


@targeted("target_gives_cards", _others_with_cards)
def target_gives_cards(g: GameState, p: int, t: int, c: int, params: Params) -> None:
    call(g, {"k": "give_cards", "p": t, "to": p, "left": params["count"]})


def give_cards_options(g: GameState, f: Frame) -> list[int] | None:
    hand = g.hands[f["p"]]
    if f["left"] <= 0 or not hand:
        pop(g)
        return None
    return sorted([SELECT_CARD_ACTIONS[x] for x in hand])


def give_cards_act(g: GameState, f: Frame, a: int) -> None:
    give_card(g, f["p"], f["to"], a - SELECT_CARD)
    f["left"] -= 1


@handler("give_cards", "choose a card from your hand to give away")
class GiveCards:
    options = staticmethod(give_cards_options)
    act = staticmethod(give_cards_act)


def give_card(g: GameState, giver: int, receiver: int, c: int) -> None:
    g.hands[giver].remove(c)
    g.hands[receiver].append(c)
    card_given(g, giver, receiver, c)
    if g.cfg.log:
        g.say(f"player {giver} gives a card to player {receiver}")


@targeted("pay_or_take_penalty_card", _others)
def pay_or_take_penalty_card(g: GameState, p: int, t: int, c: int, params: Params) -> None:
    call(g, {"k": "pay_or", "p": t, "to": p, "c": c, "amount": params["amount"]})


@targeted("pay_or_lose_building", _others_with_buildings)
def pay_or_lose_building(g: GameState, p: int, t: int, c: int, params: Params) -> None:
    call(g, {"k": "pay_or", "p": t, "to": p, "c": c, "amount": params["amount"]})


def pay_or_options(g: GameState, f: Frame) -> list[int] | None:
    if g.money[f["p"]] >= f["amount"]:
        return [PASS, CONFIRM]
    return [PASS]


def pay_or_act(g: GameState, f: Frame, a: int) -> None:
    pop(g)
    t, p, c = f["p"], f["to"], f["c"]
    if a == CONFIRM:
        transfer(g, t, p, f["amount"])
        return
    if g.t.effect[c] == "pay_or_take_penalty_card":
        g.in_play.remove(c)
        g.penalties = with_appended(g.penalties, t, c)
        if g.cfg.log:
            g.say(f"player {t} must keep {g.t.data.cards[c].name(g.cfg.theme)}")
    else:
        call(g, {"k": "burn_building", "p": p, "t": t})


@handler("pay_or", "pay the card's player, or suffer the card's text")
class PayOr:
    options = staticmethod(pay_or_options)
    act = staticmethod(pay_or_act)


def burn_building_options(g: GameState, f: Frame) -> list[int] | None:
    return pass_or_pop(g, [AREA_ACTIONS[a] for a in board.buildings_of(g, f["t"])])


def burn_building_act(g: GameState, f: Frame, a: int) -> None:
    pop(g)
    if a != PASS:
        board.remove_building(g, a - AREA)
        if g.cfg.log:
            g.say(f"player {f['p']} removes the building in area {a - AREA + 1}")


@handler("burn_building", "you may remove one of that player's buildings")
class BurnBuilding:
    options = staticmethod(burn_building_options)
    act = staticmethod(burn_building_act)


@targeted("sell_card_to_player", _others_if_i_have_cards)
def sell_card_to_player(g: GameState, p: int, t: int, c: int, params: Params) -> None:
    call(g, {"k": "sell", "p": p, "t": t, "amount": params["amount"]})


def sell_options(g: GameState, f: Frame) -> list[int] | None:
    hand = g.hands[f["p"]]
    if not hand:
        pop(g)
        return None
    return sorted([SELECT_CARD_ACTIONS[x] for x in hand])


def sell_act(g: GameState, f: Frame, a: int) -> None:
    pop(g)
    give_card(g, f["p"], f["t"], a - SELECT_CARD)
    transfer(g, f["t"], f["p"], f["amount"])


@handler("sell", "choose the card you give (the player pays you for it)")
class Sell:
    options = staticmethod(sell_options)
    act = staticmethod(sell_act)


@targeted("look_at_hand_and_discard", _others_with_cards)
def look_at_hand_and_discard(g: GameState, p: int, t: int, c: int, params: Params) -> None:
    hand_seen(g, p, t)
    call(g, {"k": "discard_theirs", "p": p, "t": t})


def discard_theirs_options(g: GameState, f: Frame) -> list[int] | None:
    hand = g.hands[f["t"]]
    if not hand:
        pop(g)
        return None
    return sorted([SELECT_CARD_ACTIONS[x] for x in hand])


def discard_theirs_act(g: GameState, f: Frame, a: int) -> None:
    pop(g)
    t, x = f["t"], a - SELECT_CARD
    g.hands[t].remove(x)
    g.discard.append(x)
    card_revealed(g, t, x)
    if g.cfg.log:
        g.say(
            f"player {f['p']} discards {g.t.data.cards[x].name(g.cfg.theme)} from player {t}'s hand"
        )


@handler("discard_theirs", "choose one card of that player's hand to discard")
class DiscardTheirs:
    options = staticmethod(discard_theirs_options)
    act = staticmethod(discard_theirs_act)


@targeted("exchange_hands", _others)
def exchange_hands(g: GameState, p: int, t: int, c: int, params: Params) -> None:
    g.hands[p], g.hands[t] = g.hands[t], g.hands[p]
    hands_exchanged(g, p, t)
    if g.cfg.log:
        g.say(f"players {p} and {t} exchange hands")


@targeted("take_random_cards_keep_one", _others_with_cards)
def take_random_cards_keep_one(g: GameState, p: int, t: int, c: int, params: Params) -> None:
    hand = g.hands[t]
    k = min(params["look"], len(hand))
    picks = sorted(int(i) for i in g.rng.choice(len(hand), size=k, replace=False))
    taken = tuple(hand[i] for i in picks)
    call(g, {"k": "keep_one", "p": p, "t": t, "cards": taken})


def keep_one_options(g: GameState, f: Frame) -> list[int] | None:
    return sorted([SELECT_CARD_ACTIONS[x] for x in f["cards"]])


def keep_one_act(g: GameState, f: Frame, a: int) -> None:
    pop(g)
    keep = a - SELECT_CARD
    give_card(g, f["t"], f["p"], keep)
    row = g.known[f["p"]][f["t"]]
    back = [x for x in f["cards"] if x != keep and x not in row]
    if back:  # the taker saw the cards that went back
        set_known(g, f["p"], f["t"], (*row, *back))
    for q in range(g.n):
        if q not in (f["p"], f["t"]):
            forget(g, q, f["t"])


@handler("keep_one", "keep one of the cards you took; the other goes back")
class KeepOne:
    options = staticmethod(keep_one_options)
    act = staticmethod(keep_one_act)


# ---------------------------------------------------------------------- each other player
EACH: dict[str, tuple[bool, OnTarget]] = {}


def each_opponent(name: str, *, window: bool) -> Callable[[OnTarget], OnTarget]:
    """Register an effect applied to every other player in turn order (each may block it with
    Mr. Goodyear first when ``window``)."""

    def deco(on_each: OnTarget) -> OnTarget:
        EACH[name] = (window, on_each)

        @effect(name)
        def start(g: GameState, p: int, c: int, params: Params) -> None:
            call(g, {"k": "each", "p": p, "c": c, "seats": others(g, p), "s": 0})

        return on_each

    return deco


def each_options(g: GameState, f: Frame) -> list[int] | None:
    p, c = f["p"], f["c"]
    window, on_each = EACH[g.t.effect[c]]
    if not f["seats"]:
        pop(g)
        return None
    q = f["seats"][0]
    if f["s"] == 0:
        f["s"] = 1
        if window and _affected(g, q, g.t.effect[c]):
            ask(g, q, "text", -1, p, True)
        else:
            f["r"] = 0
        return None
    f["s"], f["seats"] = 0, f["seats"][1:]
    if blocked(f):
        if g.cfg.log:
            g.say(f"player {q} is not affected")
    elif _affected(g, q, g.t.effect[c]):
        on_each(g, p, q, c, _params(g, c))
    return None


@handler("each", "apply the card's text to each other player (automatic)")
class Each:
    options = staticmethod(each_options)


def _affected(g: GameState, q: int, name: str) -> bool:
    if name == "take_money_from_each_opponent":
        return g.money[q] > 0
    if name == "each_opponent_gives_money_or_card":
        return g.money[q] > 0 or bool(g.hands[q])
    return g.on_board[q] > 0


@each_opponent("take_money_from_each_opponent", window=True)
def take_money_from_each(g: GameState, p: int, q: int, c: int, params: Params) -> None:
    transfer(g, q, p, params["amount"])


@each_opponent("each_opponent_gives_money_or_card", window=True)
def money_or_card(g: GameState, p: int, q: int, c: int, params: Params) -> None:
    call(g, {"k": "money_or_card", "p": q, "to": p, "amount": params["amount"]})


def money_or_card_options(g: GameState, f: Frame) -> list[int] | None:
    out = sorted([SELECT_CARD_ACTIONS[x] for x in g.hands[f["p"]]])
    if g.money[f["p"]] >= f["amount"]:
        out.insert(0, CONFIRM)
    if not out:
        pop(g)
        return None
    return out


def money_or_card_act(g: GameState, f: Frame, a: int) -> None:
    pop(g)
    if a == CONFIRM:
        transfer(g, f["p"], f["to"], f["amount"])
    else:
        give_card(g, f["p"], f["to"], a - SELECT_CARD)


@handler("money_or_card", "give the card's player money or one card from your hand")
class MoneyOrCard:
    options = staticmethod(money_or_card_options)
    act = staticmethod(money_or_card_act)


@each_opponent("each_opponent_removes_own_agent", window=False)
def removes_own_agent(g: GameState, p: int, q: int, c: int, params: Params) -> None:
    call(g, {"k": "remove_own", "p": q, "src": p, "text": 1})


# ---------------------------------------------------------------------- Hubert / Karl Marx
@effect("force_transfer")
def force_transfer(g: GameState, p: int, c: int, params: Params) -> None:
    call(g, {"k": "transfer", "p": p, "c": c, "payer": -1, "s": 0})


def transfer_options(g: GameState, f: Frame) -> list[int] | None:
    p = f["p"]
    if f["s"] == 0:
        return sorted([player_action(g, p, q) for q in others(g, p)])
    if f["s"] == 1:
        out = sorted([player_action(g, p, q) for q in others(g, p) if q != f["payer"]])
        if not out:
            pop(g)
            return None
        return out
    if f["s"] == 2:
        f["s"] = 3
        ask(g, f["payer"], "text", -1, p, True)
        return None
    pop(g)
    if blocked(f):
        if g.cfg.log:
            g.say(f"player {f['payer']} is not affected")
    else:
        transfer(g, f["payer"], f["to"], _params(g, f["c"])["amount"])
    return None


def transfer_act(g: GameState, f: Frame, a: int) -> None:
    if f["s"] == 0:
        f["payer"], f["s"] = picked(g, f["p"], a), 1
    else:
        f["to"], f["s"] = picked(g, f["p"], a), 2


@handler("transfer", "choose who pays, then who receives")
class Transfer:
    options = staticmethod(transfer_options)
    act = staticmethod(transfer_act)
