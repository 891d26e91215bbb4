"""Plain words for people in the base game: what the pending decision asks and what each legal
action does (:class:`Words`), what a card does and how a game ended. The expansion's words
(:mod:`nanty_env.presentation.cthulhu_words`) build on these; :mod:`nanty_env.presentation.words`
picks a game's.

Everything here reads a seat's view (``Game.view``: its public ``stack`` of pending frames and
its ``legal_actions``), so the words can never reveal what that seat does not know. Internal
names (``trouble_on``, ``PLAY_CARD``, frame fields) never reach the screen: each decision kind
has a question, and each action family a phrase that depends on the decision it answers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from nanty_env.engine import GameConfig, Outcome, Termination, tables, tables_for
from nanty_env.engine import actions as A
from nanty_env.engine.phrases import Book, Field, Fields, absent, say
from nanty_env.presentation.theme_text import card_name, personality_name, themed

Frame = Mapping[str, Any]  # a frame with readable names (``nanty_env.engine.frame_fields``)
HIDDEN_CARD = -1  # a card shown face down in a view (``view.HIDDEN_CARD``)

SYMBOL_WORDS: Mapping[str, str] = {
    "agent": "place {a_agent}",
    "building": "build a building",
    "assassinate": "assassinate a piece",
    "remove_trouble": "remove a trouble marker",
    "money": "take money",
    "scroll": "carry out the card's text",
    "event": "draw a random event",
    "play_another": "play another card",
    "interrupt": "interrupt",
}

ABILITY_WORDS: Mapping[str, str] = {
    "pay_to_place_agent": "pay £{cost} to place {a_agent} here or next door",
    "draw_then_discard": "draw a card, then discard one",
    "take_money": "take £{amount}",
    "event_protection": "pay £{cost} to shield a piece from a random event",
    "discard_for_money": "discard a card and take £{amount}",
    "place_trouble_nearby": "put a trouble marker here or next door",
    "pay_to_remove_trouble": "pay £{cost} to remove a trouble marker",
}

THREATS: Mapping[str, str] = {
    "remove": "your {piece} in {area} is about to be removed",
    "move": "your {piece} in {area} is about to be moved",
    "text": "the text of player {src}'s card is aimed at you",
    "building": "your building in {area} is about to be destroyed by a random event",
    "holborn": "a random event is about to strike {area}",
}


def _card_question(w: Words, f: Frame) -> str:
    sym = w._symbol(f)
    skip = "" if sym == "event" else ", or skip it"  # a random event must be drawn
    return f"{w.card(f['card'])}: {w.symbol(sym)}{skip}"


def _react_question(w: Words, f: Frame) -> str:
    threat = w.threats.get(f["threat"], "something is about to happen to you").format(
        piece=w.terms["agent"],
        area=w.area(f["area"]) if f.get("area", -1) >= 0 else "the city",
        src=f.get("source", ""),
    )
    return f"Out of turn: {threat}. Play an interrupt card, or let it happen"


def _discard_question(w: Words, f: Frame) -> str:
    if f.get("pay"):
        return f"Discard a card for £{f['pay']}"
    if f.get("need", 0) > 0:
        return "Discard a card"
    return "Discard a card, or stop discarding"


def _move_own_question(w: Words, f: Frame) -> str:
    if f.get("from_area", -1) < 0:
        if f.get("from_trouble"):
            return f"Choose one of your {w.terms['agents']} in an area with trouble to move"
        return f"Choose one of your {w.terms['agents']} to move"
    where = "any area" if f.get("anywhere") else "a neighbouring area"
    return f"Move your {w.terms['agent']} from {w.area(f['from_area'])} to {where}"


def _swap_question(w: Words, f: Frame) -> str:
    if f.get("step", 0) == 0:
        return "Choose the first of two pieces in different areas to swap"
    return "Choose the piece to swap it with"


def _transfer_question(w: Words, f: Frame) -> str:
    amount = w.t.data.cards[f["card"]].params.get("amount", "")
    if f.get("step", 0) == 0:
        return f"{w.card(f['card'])}: choose the player who pays £{amount}"
    return f"{w.card(f['card'])}: choose the player who receives it from player {f['payer']}"


def _pay_first_question(w: Words, f: Frame) -> str:
    amount = w.t.data.cards[f["card"]].params.get("amount", "")
    return f"{w.card(f['card'])}: choose the player you pay £{amount}"


QUESTIONS: Mapping[str, Callable[[Words, Frame], str]] = {
    "main": lambda w, f: "Choose the card to play this turn",
    "end": lambda w, f: "End your turn (or first use a City Area card)",
    "two": lambda w, f: f"Play up to {f.get('left', 2)} more card(s), or stop",
    "card": _card_question,
    "discard": _discard_question,
    "discard_theirs": lambda w, f: f"Choose a card of player {f['target']}'s hand to discard",
    "give_cards": lambda w, f: f"Choose a card to give to player {f['to']}",
    "keep_one": lambda w, f: f"Keep one of the cards taken from player {f['target']}",
    "money_or_card": lambda w, f: f"Give player {f['to']} £{f['amount']} or a card",
    "move_own": _move_own_question,
    "mv": lambda w, f: f"Choose where the piece from {w.area(f['area'])} goes",
    "pay_first": _pay_first_question,
    "pay_or": lambda w, f: f"Pay player {f['to']} £{f['amount']}, or suffer {w.card(f['card'])}",
    "pay_or_lose_agent": lambda w, f: (
        f"Pay £{f['amount']} to the bank, or remove one of your {w.terms['agents']}"
    ),
    "pick_foreign": lambda w, f: (
        f"Choose another player's {w.terms['agent']} to move to a neighbouring area"
    ),
    "place_agent": lambda w, f: f"Choose where to place {w.a_agent}",
    "react": _react_question,
    "relocate_building": lambda w, f: (
        f"All your buildings are out: choose the one to move to {w.area(f['area'])}"
    ),
    "remove_own": lambda w, f: f"Choose one of your {w.terms['agents']} to remove",
    "kill": lambda w, f: "Choose a piece to remove",
    "sell": lambda w, f: f"Choose the card you sell to player {f['target']} for £{f['amount']}",
    "slant": lambda w, f: (
        f"Choose an area with a trouble marker: £{f['amount']} for each piece there"
    ),
    "subsidence": lambda w, f: "Subsidence: you cannot pay £2 per building; choose one to lose",
    "swap": _swap_question,
    "targeted": lambda w, f: f"Choose the player {w.card(f['card'])} is aimed at",
    "transfer": _transfer_question,
    "trouble_off": lambda w, f: "Choose a trouble marker to remove",
    "trouble_on": lambda w, f: "Choose where to put a trouble marker",
    "flood": lambda w, f: (
        f"Flood: move your {w.terms['agent']} out of the flooded area to a dry neighbour"
    ),
    "murders": lambda w, f: f"Mysterious Murders: choose a piece to remove in {w.area(f['area'])}",
    "burn_building": lambda w, f: f"You may remove one of player {f['target']}'s buildings",
    "buy_building": lambda w, f: "Choose another player's building to buy at its cost, or none",
    "half_build": lambda w, f: "Build at half price, or decline",
}
"""The question of every kind of decision a seat can be asked (automatic kinds are absent)."""

PASS_WORDS: Mapping[str, str] = {
    "main": "pass (no card can be played)",
    "end": "end your turn",
    "two": "stop playing cards",
    "discard": "stop discarding",
    "react": "let it happen",
    "pay_or": "do not pay",
    "place_agent": "place no agent",
    "kill": "remove nothing",
    "burn_building": "leave their buildings",
    "buy_building": "buy nothing",
    "half_build": "do not build",
}

REACT_WORDS: Mapping[str, str] = {
    "interrupt_prevent_move_or_removal": "play {card}: stop it",
    "interrupt_prevent_removal": "play {card}: stop the removal",
    "interrupt_immune_to_text": "play {card}: ignore that card's text",
    "interrupt_replace_removed_agent": (
        "play {card}: your {agent} is still removed, then you place it in another area"
    ),
}
"""What playing an interrupt card in reply does, by its effect (it does not always block)."""

INTERRUPT_DISCARD = "an interrupt card may be discarded at any time of your turn"
"""Why a card can be discarded in the middle of a decision about something else."""

PRIVATE_SELECT = ("give_cards", "sell", "keep_one", "money_or_card")
"""Decisions where the chosen card changes hands face down."""

SELECT_VERBS: Mapping[str, str] = {
    "give_cards": "give {card} to player {to}",
    "sell": "sell {card} to player {t}",
    "discard_theirs": "discard their {card}",
    "keep_one": "keep {card}",
    "money_or_card": "give {card} to player {to}",
}

PLAYER_VERBS: Mapping[str, str] = {
    "targeted": "aim it at player {q}",
    "pay_first": "pay player {q}",
}

AREA_VERBS: Mapping[str, str] = {
    "place_agent": "place {a_agent} in {area}",
    "trouble_on": "put a trouble marker in {area}",
    "trouble_off": "remove the trouble marker in {area}",
    "mv": "move it to {area}",
    "move_own": "move it to {area}",
    "flood": "move it to {area}",
    "slant": "be paid for the pieces in {area}",
    "burn_building": "remove their building in {area}",
    "relocate_building": "move your building from {area}",
    "subsidence": "lose your building in {area}",
}

PAWN_VERBS: Mapping[str, str] = {
    "kill": "remove {pawn}",
    "murders": "remove {pawn}",
    "remove_own": "remove {pawn}",
    "pay_or_lose_agent": "remove {pawn}",
    "move_own": "move {pawn}",
    "pick_foreign": "move {pawn}",
    "swap": "swap {pawn}",
    "place_agent": "take {pawn} to place it elsewhere",
}


def _owner(c: Choice) -> int:
    """The seat whose agent a PAWN action names (-1 grenadier, -2 new citizen)."""
    slot = c.arg % A.PAWN_SLOTS
    if slot == A.SLOT_GRENADIER:
        return -1
    if slot == A.SLOT_CITIZEN:
        return -2
    return (c.seat + slot) % c.w.n


def _piece(c: Choice) -> str:
    area = c.area()
    if _owner(c) == c.seat:
        return f"your {c.w.terms['agent']} in {c.w.area(area)}"
    return c.w.pawn(_owner(c), area)


def _react(c: Choice) -> str:
    says = REACT_WORDS.get(c.w.t.data.cards[c.arg].effect, "play {card} in reply")
    return says.format(card=c.w.card(c.arg), agent=c.w.terms["agent"])


def _ability(c: Choice) -> str:
    t = c.w.t
    words = ABILITY_WORDS.get(t.ability[c.arg], "use it")
    return words.format(a_agent=c.w.a_agent, **t.ability_params[c.arg])


BASE_FIELDS: Mapping[str, Field] = {
    "card": lambda c: "a card" if c.hide_card and c.family == "SELECT_CARD" else c.w.card(c.arg),
    "react": _react,
    "interrupt": lambda c: (
        INTERRUPT_DISCARD if "interrupt" in c.w.t.data.cards[c.arg].symbols else absent("none")
    ),
    "to": lambda c: c.frame.get("to", ""),
    "t": lambda c: c.frame.get("target", ""),
    "q": lambda c: (c.seat + c.arg) % c.w.n,
    "transfer_role": lambda c: "pays" if c.frame.get("step", 0) == 0 else "receives",
    "amount": lambda c: c.frame["amount"],
    "area": lambda c: c.w.area(c.arg),
    "area_cost": lambda c: c.w.t.cost[c.arg],
    "half_cost": lambda c: -(-c.w.t.cost[c.arg] // 2),
    "ability": _ability,
    "safe_cost": lambda c: c.w.t.ability_params[c.arg].get("cost", 3),
    "agent": lambda c: c.w.terms["agent"],
    "a_agent": lambda c: c.w.a_agent,
    "symbol_words": lambda c: c.w.symbol(c.symbol),
    "money": lambda c: c.w.t.money[c.frame["card"]],
    "played": lambda c: c.w.card(c.frame["card"]),
    "piece": _piece,
    "pawn": lambda c: c["piece"] if _owner(c) == c.seat else f"the {c['piece']}",
}
"""The values the phrases name, from a :class:`Choice` (a ruleset adds its own)."""

_SAFE = "pay £{safe_cost} to {area} to stay safe"
_PAY_TO = "pay £{amount} to player {to}"

BASE_PHRASES: Book = {
    "PASS": {"card": "don't {symbol_words} (skip this symbol)", **PASS_WORDS, "*": "pass"},
    "CONFIRM": {
        "card:money": "take £{money}",
        "card:scroll": "carry out the text of {played}",
        "card": "{symbol_words}",
        "pay_or": _PAY_TO,
        "money_or_card": _PAY_TO,
        "pay_or_lose_agent": "pay £{amount} to the bank",
        "*": "confirm",
    },
    "PLAY_CARD": {"react": "{react}", "*": "play {card}"},
    "DISCARD_CARD": {
        "discard": "discard {card}",
        "*": ("discard {card} ({interrupt})", "discard {card}"),
    },
    "SELECT_CARD": {**SELECT_VERBS, "*": "choose {card}"},
    "ABILITY": {"react": _SAFE, "flood": _SAFE, "*": "use {area}: {ability}"},
    "PLAYER": {**PLAYER_VERBS, "transfer": "player {q} {transfer_role}", "*": "player {q}"},
    "AREA": {
        "card:building": "build in {area} for £{area_cost}",
        "card:remove_trouble": "remove the trouble marker in {area}",
        "card": "place {a_agent} in {area}",
        "half_build": "build in {area} for £{half_cost}",
        "buy_building": "buy the building in {area} for £{area_cost}",
        **AREA_VERBS,
        "*": "{area}",
    },
    "PAWN": {
        "card:agent": "take {piece} to place it elsewhere",
        "card": "assassinate {pawn}",
        **PAWN_VERBS,
        "*": "{pawn}",
    },
}
"""What each action family says, by the decision it answers (see
:mod:`nanty_env.engine.phrases`); a ruleset's ``Words`` lays its own over them."""


METRIC_WORDS: Mapping[str, str] = {
    "occupied_areas": "{agents} in {k} areas",
    "controlled_areas": "control {k} areas",
    "trouble_markers": "{k} trouble markers on the board",
    "net_worth": "money and buildings worth £{k}",
    "building_value": "buildings worth £{k}",
    "own_buildings": "{k} of your buildings on the board",
    "pieces_on_board": "{k} of your {agents} and buildings on the board",
    "buildings_on_board": "{k} buildings of any colour on the board",
}

END_RULE_WORDS: Mapping[str, str] = {
    "holmes": "win if nobody has won when the draw pile runs out",
    "holmes_v": (
        "lose on Riots; win when the draw pile runs out if you have more {agents} on the "
        "board than there are trouble markers"
    ),
    "fagin_v": (
        "also win when the draw pile runs out if there are more trouble markers than any "
        "other player has {agents} on the board"
    ),
}


def goal_words(personality: int, num_players: int, threshold_set: str, theme: str) -> str:
    """A personality's secret goal for this player count, in words."""
    d = tables().data
    p = d.personalities[personality]
    agents = d.themes[theme]["agents"]
    parts = [
        METRIC_WORDS.get(m, m).format(k=k, agents=agents)
        for m, k in p.goal(num_players, threshold_set).items()
    ]
    text = " or ".join(parts)
    if text:
        text += " at the start of a turn"
    if p.end_rule:
        rule = END_RULE_WORDS.get(p.end_rule, "").format(agents=agents)
        text = f"{text}; {rule}" if text else rule
    return themed(text, theme)


EFFECT_WORDS: Mapping[str, str] = {
    "take_money_from_each_opponent": "every other player pays you £{amount}",
    "take_loan": "take a £{amount} loan: repay £{repay} at the end or lose {penalty} points",
    "target_gives_cards": "a player of your choice gives you {count} cards",
    "each_opponent_gives_money_or_card": "every other player gives you £{amount} or a card",
    "earn_per_pawn_in_area": "take £{amount} per piece in {area}",
    "move_opponent_agent": "move another player's {agent} to a neighbouring area",
    "play_two_cards": "play two more cards",
    "roll_die": "roll the die: {outcomes}",
    "view_unused_personalities": "look at the unused personality cards",
    "interrupt_prevent_move_or_removal": (
        "interrupt: stop another player moving or removing one of your {agents}"
    ),
    "interrupt_replace_removed_agent": (
        "interrupt: when one of your {agents} is removed, place it in another area"
    ),
    "pay_or_take_penalty_card": (
        "a player pays you £{amount} or must keep this card (it fills a place in their hand)"
    ),
    "pay_or_lose_building": "a player pays you £{amount} or you may remove one of their buildings",
    "draw_random_from_discard": "take {count} cards at random from the discard pile",
    "draw_cards": "draw {count} cards",
    "discard_any_for_money": "discard any number of cards for £{per_card} each",
    "steal_money": "take £{amount} from a player of your choice",
    "discard_cards": "discard up to {max} card(s)",
    "earn_per_trouble": "take £{amount} per trouble marker on the board",
    "sell_card_to_player": "give a player one of your cards; they pay you £{amount}",
    "move_own_agent_out_of_trouble": (
        "move one of your {agents} from an area with trouble to a neighbouring area"
    ),
    "swap_personality": "swap your personality for an unused one",
    "interrupt_immune_to_text": "interrupt: ignore the text of another player's card aimed at you",
    "pay_player_to_assassinate": (
        "pay a player £{amount}; they remove a piece (not yours) from an area with trouble"
    ),
    "remove_pawn_in_area": "remove one piece from {area}",
    "pay_player_then_assassinate": "pay a player £{amount}, then assassinate a piece",
    "swap_two_pawns": "swap two pieces in different areas",
    "look_at_hand_and_discard": "look at a player's hand and discard one of its cards",
    "roll_and_remove_pawns": "roll {rolls} times and remove a piece from each rolled area",
    "exchange_hands": "exchange hands with a player of your choice",
    "earn_per_building": "take £{amount} per building on the board",
    "move_own_agent_anywhere": "move one of your {agents} to any area",
    "place_agent_anywhere_no_trouble": "place {a_agent} in any area, with no trouble marker",
    "discard_then_refill": "discard up to {max} cards, then draw back up to {to}",
    "each_opponent_removes_own_agent": "every other player removes one of their {agents}",
    "interrupt_prevent_removal": "interrupt: stop one of your {agents} being removed",
    "buy_opponent_building": "buy another player's building {trouble} at its cost",
    "build_at_half_cost": "build a building at half price",
    "place_agent_in_own_building_area": "place {a_agent} in an area with one of your buildings",
    "place_agents_near_area": "place up to {max} {agents} in or next to {area}",
    "earn_per_pawn_in_trouble_area": "choose an area with trouble: take £{amount} per piece there",
    "place_agent_in_trouble_area": "place {a_agent} in an area with trouble",
    "take_random_cards_keep_one": (
        "take {look} random cards from a player, keep one and give the other back"
    ),
    "interrupt_end_turn_recover_previous": (
        "play after another card: your turn ends and that card goes back to your hand"
    ),
    "place_trouble_anywhere": "put a trouble marker in any area",
    "pay_player_then_move_own_agent": (
        "pay a player £{amount}, then move one of your {agents} to any area"
    ),
    "force_transfer": "choose a player who pays another player £{amount}",
    "place_trouble_adjacent_to_trouble": "put a trouble marker next to an area with trouble",
    "draw_per_own_building": "draw {per_building} card per building of yours",
}

ROLL_WORDS: Mapping[str, str] = {
    "take_money": "take £{amount}",
    "pay_or_remove_own_agent": "pay £{amount} or remove one of your {agents}",
    "steal_money": "take £{amount} from a player",
    "remove_own_agent": "remove one of your {agents}",
    "remove_pawn_in_trouble_area": "remove a piece from an area with trouble",
}


class Words:
    """Phrases for one game's theme and player count (cheap to build)."""

    # the ruleset's vocabulary (an expansion's ``Words`` subclass replaces them)
    space: ClassVar[A.ActionSpace] = A.BASE_SPACE
    questions: ClassVar[Mapping[str, Callable[[Words, Frame], str]]] = QUESTIONS
    phrases: ClassVar[Book] = BASE_PHRASES
    fields: ClassVar[Mapping[str, Field]] = BASE_FIELDS
    threats: ClassVar[Mapping[str, str]] = THREATS
    symbol_words: ClassVar[Mapping[str, str]] = SYMBOL_WORDS
    effect_words: ClassVar[Mapping[str, str]] = EFFECT_WORDS

    def __init__(self, theme: str, num_players: int, config: GameConfig | None = None) -> None:
        self.theme = theme
        self.n = num_players
        self.t = tables() if config is None else tables_for(config)
        self.terms = self.t.data.themes[theme]
        agent = self.terms["agent"]
        self.a_agent = ("an " if agent[0] in "aeiou" else "a ") + agent

    def symbol(self, sym: str) -> str:
        """What a card symbol does, in words."""
        return self.symbol_words.get(sym, sym).format(a_agent=self.a_agent)

    # ------------------------------------------------------------------ names
    def card(self, c: int) -> str:
        if c == HIDDEN_CARD:
            return "a hidden card"
        card = self.t.data.cards[c]
        return card_name(card.id, self.theme, card.name(self.theme))

    def area(self, a: int) -> str:
        return self.t.data.areas[a].name(self.theme)

    def player(self, seat: int) -> str:
        return f"player {seat}"

    def pawn(self, owner: int, area: int) -> str:
        """``owner``: a seat, or -1 grenadier / -2 new citizen (``board.GRENADIER/CITIZEN``)."""
        if owner == -1:
            what = self.terms["grenadier"]
        elif owner == -2:
            what = self.terms["citizen"]
        else:
            what = f"{self.terms['agent']} of player {owner}"
        return f"{what} in {self.area(area)}"

    def personality(self, k: int) -> str:
        return personality_name(k, self.theme)

    # ------------------------------------------------------------------ decisions
    def question(self, frame: Frame) -> str:
        """What the decision at the top of the stack asks its seat, as a sentence."""
        ask = self.questions.get(frame["kind"])
        if ask is None:
            return "decide"
        return themed(ask(self, frame), self.theme)

    def knowers(self, frame: Frame, action: int) -> tuple[int, ...] | None:
        """The only seats allowed to know which card ``action`` names (giving, selling or
        keeping a card passes it face down), or ``None`` when the choice is public."""
        if self.space.decode(action).family == "SELECT_CARD" and frame["kind"] in PRIVATE_SELECT:
            other = frame.get("to", frame.get("target", frame["player"]))
            return tuple(sorted({frame["player"], other}))
        return None

    def choice(self, frame: Frame, action: int, *, hide_card: bool = False) -> str:
        """What ``action`` does at the decision ``frame`` (taken by ``frame["player"]``); with
        ``hide_card`` a card passed face down is called "a card" (see :meth:`knowers`)."""
        act = self.space.decode(action)
        c = Choice(self, frame, act, hide_card)
        return themed(say(self.phrases[act.family], c), self.theme)

    def hint(self, action: int) -> str:
        """What the card an action names does ("" for actions naming no card)."""
        act = self.space.decode(action)
        if act.family in ("PLAY_CARD", "DISCARD_CARD", "SELECT_CARD"):
            return self.card_words(act.arg)
        return ""

    def card_words(self, c: int) -> str:
        """What card ``c`` does, symbol by symbol (``"place an agent · take £3"``)."""
        said = symbols_words(c, self.theme, self.t, self.symbol_words, self.effect_words)
        return themed(said, self.theme)

    def _symbol(self, frame: Frame) -> str:
        syms = self.t.symbols[frame["card"]]
        i = frame["symbol_index"]
        return syms[i] if i < len(syms) else ""


class Choice(Fields):
    """An action of family ``family`` at the decision ``frame``, as :class:`Words` says it
    (the values of its phrases: :data:`BASE_FIELDS` and a ruleset's own)."""

    def __init__(self, w: Words, frame: Frame, act: A.Action, hide_card: bool) -> None:
        kind = frame["kind"]
        super().__init__(w.fields, act.arg, kind, w._symbol(frame) if kind == "card" else "")
        self.w, self.frame, self.family, self.hide_card = w, frame, act.family, hide_card
        self.seat: int = frame["player"]

    def area(self) -> int:
        """The area of the piece a PAWN action names."""
        return self.arg // A.PAWN_SLOTS


def ending(winners: Sequence[int], reason: str) -> tuple[str, str, Termination | None, str]:
    """Who won (``"player 1 and player 3"``), the verb that agrees, and the saved ``reason``'s
    termination and detail (``None`` and ``""`` for a reason this version does not know)."""
    who = " and ".join(f"player {s}" for s in winners) or "nobody"
    verb = "wins" if len(winners) == 1 else "win"
    o = Outcome(tuple(winners), reason)
    try:
        return who, verb, o.termination, o.detail
    except KeyError:  # a reason this version does not know: shown as it is
        return who, verb, None, ""


def base_outcome_words(
    winners: Sequence[int],
    reason: str,
    theme: str,
    config: GameConfig | None,
    personalities: Sequence[int] | None,
) -> str:
    """How a base game ended, in a sentence (not yet themed; :func:`nanty_env.presentation.words.outcome_words`
    themes it and hands an expansion game to its own words)."""
    d = tables().data
    who, verb, kind, detail = ending(winners, reason)
    if kind is Termination.GOAL:
        idx = d.personality_index.get(detail)
        name = personality_name(idx, theme) if idx is not None else detail
        goal = ""
        if idx is not None and config is not None:
            goal = goal_words(idx, config.num_players, config.threshold_set, theme)
        said = f"{who} {verb} as {name}: the secret goal is met"
        return f"{said} ({goal})" if goal else said
    if kind is Termination.DECK and detail == "personality":
        known = personalities is not None and len(winners) == 1
        if known:
            k = personalities[winners[0]]
            rule = END_RULE_WORDS.get(d.personalities[k].end_rule, "")
            rule = rule.format(agents=d.themes[theme]["agents"])
            name = personality_name(k, theme)
            said = f"The draw pile ran out: {who} {verb} by their personality, {name}"
            return said + (f" ({rule})" if rule else "")
        return f"The draw pile ran out: {who} {verb} by their personality"
    if kind is Termination.DECK:
        return f"The draw pile ran out and no goal was met: {who} {verb} on points"
    if kind is Termination.RIOTS:
        return f"Riots with eight trouble markers end the game: {who} {verb} on points"
    return f"{who} {verb} ({reason})"


def symbols_words(
    c: int,
    theme: str,
    t: Any,
    symbol_words: Mapping[str, str],
    effect_phrases: Mapping[str, str],
) -> str:
    """Card ``c`` of tables ``t`` symbol by symbol, in a ruleset's phrases (``symbol_words``
    for the symbols, ``effect_phrases`` for its scroll effects)."""
    card = t.data.cards[c]
    terms = t.data.themes[theme]
    agent = terms["agent"]
    names = {
        "agent": agent,
        "agents": terms["agents"],
        "a_agent": ("an " if agent[0] in "aeiou" else "a ") + agent,
    }
    parts = []
    for sym in card.symbols:
        if sym == "money":
            parts.append(f"take £{card.money}")
        elif sym in ("scroll", "interrupt") and card.effect:
            parts.append(effect_words(card.effect, card.params, theme, names, effect_phrases, t))
        else:
            parts.append(symbol_words.get(sym, sym).format(**names))
    return " · ".join(parts) or "no effect"


def effect_words(
    effect: str,
    params: Mapping[str, Any],
    theme: str,
    names: dict,
    table: Mapping[str, str] = EFFECT_WORDS,
    t: Any = None,
) -> str:
    """A scroll effect in words (``table``: the ruleset's phrases; ``t`` its tables)."""
    d = (t or tables()).data
    values: dict[str, Any] = {**names, **{k: v for k, v in params.items()}}
    if "area" in params:
        values["area"] = d.areas[params["area"]].name(theme)
    if effect == "buy_opponent_building":
        values["trouble"] = (
            "in an area with trouble"
            if params["trouble"] == "present"
            else ("in an area without trouble")
        )
    if effect == "roll_die":
        outcomes = []
        for o in params["outcomes"]:
            span = str(o["min"]) if o["min"] == o["max"] else f"{o['min']}-{o['max']}"
            what = ROLL_WORDS.get(o["effect"], o["effect"]).format(**names, **o)
            outcomes.append(f"{span}: {what}")
        values["outcomes"] = "; ".join(outcomes)
    try:
        return table.get(effect, effect.replace("_", " ")).format(**values)
    except (KeyError, IndexError):
        return effect.replace("_", " ")
