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
from typing import Any

from nanty_env.engine import GameConfig, Outcome, Termination, tables
from nanty_env.engine import actions as A
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


class Words:
    """Phrases for one game's theme and player count (cheap to build)."""

    def __init__(self, theme: str, num_players: int) -> None:
        self.theme = theme
        self.n = num_players
        self.t = tables()
        self.terms = self.t.data.themes[theme]
        agent = self.terms["agent"]
        self.a_agent = ("an " if agent[0] in "aeiou" else "a ") + agent
        # the ruleset's vocabulary (an expansion's ``Words`` subclass replaces them)
        self.space = A.BASE_SPACE
        self.questions = QUESTIONS
        self.pass_words = PASS_WORDS
        self.threats = THREATS
        self.symbol_words = SYMBOL_WORDS

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
        return themed(self._choice(frame, action, hide_card=hide_card), self.theme)

    def _choice(self, frame: Frame, action: int, *, hide_card: bool = False) -> str:
        """:meth:`choice` in the working vocabulary (a ruleset's subclass adds its own)."""
        act = self.space.decode(action)
        seat, kind = frame["player"], frame["kind"]
        fam, arg = act.family, act.arg
        if fam == "PASS":
            return self._pass(frame)
        if fam == "CONFIRM":
            return self._confirm(frame)
        if fam == "PLAY_CARD":
            if kind == "react":
                says = REACT_WORDS.get(self.t.data.cards[arg].effect, "play {card} in reply")
                return says.format(card=self.card(arg), agent=self.terms["agent"])
            return f"play {self.card(arg)}"
        if fam == "DISCARD_CARD":
            if kind != "discard" and "interrupt" in self.t.data.cards[arg].symbols:
                return f"discard {self.card(arg)} ({INTERRUPT_DISCARD})"
            return f"discard {self.card(arg)}"
        if fam == "SELECT_CARD":
            verb = SELECT_VERBS.get(kind, "choose {card}")
            card = "a card" if hide_card else self.card(arg)
            return verb.format(card=card, **_players(frame))
        if fam == "ABILITY":
            return self._ability(arg, kind)
        if fam == "PLAYER":
            q = (seat + arg) % self.n
            verb = PLAYER_VERBS.get(kind, "player {q}")
            if kind == "transfer":
                verb = "player {q} pays" if frame.get("step", 0) == 0 else "player {q} receives"
            return verb.format(q=q)
        if fam == "AREA":
            return self._area_choice(frame, arg)
        area, slot = divmod(arg, A.PAWN_SLOTS)
        return self._pawn_choice(frame, area, slot)

    def hint(self, action: int) -> str:
        """What the card an action names does ("" for actions naming no card)."""
        act = A.decode(action)
        if act.family in ("PLAY_CARD", "DISCARD_CARD", "SELECT_CARD"):
            return themed(base_card_words(act.arg, self.theme), self.theme)
        return ""

    def _symbol(self, frame: Frame) -> str:
        syms = self.t.symbols[frame["card"]]
        i = frame["symbol_index"]
        return syms[i] if i < len(syms) else ""

    def _pass(self, frame: Frame) -> str:
        kind = frame["kind"]
        if kind == "card":
            return f"don't {self.symbol(self._symbol(frame))} (skip this symbol)"
        return self.pass_words.get(kind, "pass")

    def _confirm(self, frame: Frame) -> str:
        kind = frame["kind"]
        if kind == "card":
            sym = self._symbol(frame)
            if sym == "money":
                return f"take £{self.t.money[frame['card']]}"
            if sym == "scroll":
                return f"carry out the text of {self.card(frame['card'])}"
            if sym == "event":
                return "draw a random event"
            return self.symbol(sym)
        if kind == "pay_or":
            return f"pay £{frame['amount']} to player {frame['to']}"
        if kind == "money_or_card":
            return f"pay £{frame['amount']} to player {frame['to']}"
        if kind == "pay_or_lose_agent":
            return f"pay £{frame['amount']} to the bank"
        return "confirm"

    def _ability(self, a: int, kind: str) -> str:
        t = self.t
        if kind in ("react", "flood"):
            return f"pay £{t.ability_params[a].get('cost', 3)} to {self.area(a)} to stay safe"
        words = ABILITY_WORDS.get(t.ability[a], "use it")
        words = words.format(a_agent=self.a_agent, **t.ability_params[a])
        return f"use {self.area(a)}: {words}"

    def _area_choice(self, frame: Frame, a: int) -> str:
        kind, name = frame["kind"], self.area(a)
        if kind == "card":
            sym = self._symbol(frame)
            if sym == "building":
                return f"build in {name} for £{self.t.cost[a]}"
            if sym == "remove_trouble":
                return f"remove the trouble marker in {name}"
            return f"place {self.a_agent} in {name}"
        if kind == "half_build":
            return f"build in {name} for £{-(-self.t.cost[a] // 2)}"
        if kind == "buy_building":
            return f"buy the building in {name} for £{self.t.cost[a]}"
        verb = AREA_VERBS.get(kind, "{area}")
        return verb.format(area=name, a_agent=self.a_agent)

    def _pawn_choice(self, frame: Frame, area: int, slot: int) -> str:
        kind, seat = frame["kind"], frame["player"]
        if slot == A.SLOT_GRENADIER:
            owner = -1
        elif slot == A.SLOT_CITIZEN:
            owner = -2
        else:
            owner = (seat + slot) % self.n
        own = owner == seat
        pawn = f"your {self.terms['agent']} in {self.area(area)}" if own else self.pawn(owner, area)
        if kind == "card":
            sym = self._symbol(frame)
            if sym == "agent":  # all twelve agents are out: one is lifted first
                return f"take {pawn} to place it elsewhere"
            return f"assassinate the {pawn}" if not own else f"assassinate {pawn}"
        verb = PAWN_VERBS.get(kind, "{pawn}")
        return verb.format(pawn=pawn if own else f"the {pawn}")


def _players(frame: Frame) -> dict[str, Any]:
    return {"to": frame.get("to", ""), "t": frame.get("target", "")}


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
    who = " and ".join(f"player {s}" for s in winners) or "nobody"
    verb = "wins" if len(winners) == 1 else "win"
    try:
        o = Outcome(tuple(winners), reason)
        kind, detail = o.termination, o.detail
    except KeyError:  # a reason this version does not know: shown as it is
        kind, detail = None, ""
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


def base_card_words(c: int, theme: str) -> str:
    """What a base-game card does, symbol by symbol (``"place an agent · take £3"``)."""
    return themed(symbols_words(c, theme, tables(), SYMBOL_WORDS, EFFECT_WORDS), theme)


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
