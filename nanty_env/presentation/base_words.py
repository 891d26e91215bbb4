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

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from nanty_env.engine import GameConfig, Outcome, Termination, tables, tables_for
from nanty_env.engine import actions as A
from nanty_env.engine.phrases import Book, Field, Fields, Phrase, absent, read_words, say
from nanty_env.presentation.theme_text import card_name, personality_name, themed

Frame = Mapping[str, Any]  # a frame with readable names (``nanty_env.engine.frame_fields``)
HIDDEN_CARD = -1  # a card shown face down in a view (``view.HIDDEN_CARD``)

_WORDS = read_words(__package__, "base_words.toml")  # the tables of words below

SYMBOL_WORDS: Mapping[str, str] = _WORDS["symbol_words"]

ABILITY_WORDS: Mapping[str, str] = _WORDS["ability_words"]

THREATS: Mapping[str, str] = _WORDS["threats"]


QUESTIONS: Mapping[str, Phrase] = _WORDS["questions"]
"""The question of every kind of decision a seat can be asked (automatic kinds are absent:
``"*"`` asks them to "decide"), as templates (``base_words.toml``)."""


def _threat(q: Question) -> str:
    w, f = q.w, q.frame
    return w.threats.get(f["threat"], "something is about to happen to you").format(
        piece=w.terms["agent"],
        area=w.area(f["area"]) if f.get("area", -1) >= 0 else "the city",
        src=f.get("source", ""),
    )


def _when(holds: bool) -> str:
    """Nothing, where a template holds; else the template is passed over."""
    return "" if holds else absent("does not hold")


QUESTION_FIELDS: Mapping[str, Field] = {
    "card": lambda q: q.w.card(q.frame["card"]),
    "area": lambda q: q.w.area(q.frame["area"]),
    "agent": lambda q: q.w.terms["agent"],
    "agents": lambda q: q.w.terms["agents"],
    "a_agent": lambda q: q.w.a_agent,
    "symbol_words": lambda q: q.w.symbol(q.w._symbol(q.frame)),
    "skippable": lambda q: _when(q.w._symbol(q.frame) != "event"),  # an event must be drawn
    "plays_left": lambda q: q.frame.get("left", 2),
    "pay": lambda q: q.frame.get("pay") or absent("no pay"),
    "must": lambda q: _when(q.frame.get("need", 0) > 0),
    "from_area": lambda q: q.w.area(a) if (a := q.frame.get("from_area", -1)) >= 0 else absent(""),
    "from_trouble": lambda q: _when(bool(q.frame.get("from_trouble"))),
    "anywhere": lambda q: _when(bool(q.frame.get("anywhere"))),
    "first_step": lambda q: _when(q.frame.get("step", 0) == 0),
    "card_amount": lambda q: q.w.t.data.cards[q.frame["card"]].params.get("amount", ""),
    "threat": _threat,
}
"""The values the questions name, from a :class:`Question` (a ruleset adds its own); any
other name is the frame's field of that name."""


REACT_WORDS: Mapping[str, str] = _WORDS["react_words"]
"""What playing an interrupt card in reply does, by its effect (it does not always block)."""

INTERRUPT_DISCARD = "an interrupt card may be discarded at any time of your turn"
"""Why a card can be discarded in the middle of a decision about something else."""

PRIVATE_SELECT = ("give_cards", "sell", "keep_one", "money_or_card")
"""Decisions where the chosen card changes hands face down."""


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

BASE_PHRASES: Book = _WORDS["phrases"]
"""What each action family says, by the decision it answers (see
:mod:`nanty_env.engine.phrases`); a ruleset's ``Words`` lays its own over them."""


METRIC_WORDS: Mapping[str, str] = _WORDS["metric_words"]

END_RULE_WORDS: Mapping[str, str] = _WORDS["end_rule_words"]


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


EFFECT_WORDS: Mapping[str, str] = _WORDS["effect_words"]

ROLL_WORDS: Mapping[str, str] = _WORDS["roll_words"]


class Words:
    """Phrases for one game's theme and player count (cheap to build)."""

    # the ruleset's vocabulary (an expansion's ``Words`` subclass replaces them)
    space: ClassVar[A.ActionSpace] = A.BASE_SPACE
    questions: ClassVar[Mapping[str, Phrase]] = QUESTIONS
    question_fields: ClassVar[Mapping[str, Field]] = QUESTION_FIELDS
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
        return themed(say(self.questions, Question(self, frame)), self.theme)

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


class Question(Fields):
    """The decision ``frame`` as :class:`Words` asks it: the values of its question's
    templates (:data:`QUESTION_FIELDS` and a ruleset's own, else the frame's fields)."""

    def __init__(self, w: Words, frame: Frame) -> None:
        super().__init__(w.question_fields, 0, frame["kind"], "")
        self.w, self.frame = w, frame

    def __missing__(self, key: str) -> object:
        if key in self.fields:
            return super().__missing__(key)
        return self.frame[key]


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
