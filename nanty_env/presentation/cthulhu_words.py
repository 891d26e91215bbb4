"""Plain words for *The Rise of Cthulhu* expansion: its symbols, decisions and actions (Elder
Ones, the Great Old One, building types, the face-up cards), objectives and endings.

Like :mod:`nanty_env.presentation.words`, everything is read from a seat's view (its public
``stack`` and ``legal_actions``) and the content pack's tables, so the words never tell a seat what
it does not know. :func:`nanty_env.presentation.words.words_for` hands out a :class:`CthulhuWords`
for an expansion game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from nanty_env.engine import GameConfig, Termination
from nanty_env.engine import actions as A
from nanty_env.engine.cthulhu.tables import CthulhuTables, cthulhu_tables
from nanty_env.engine.phrases import Book, Field, Phrase, absent, extend, read_words
from nanty_env.presentation.base_words import (
    BASE_FIELDS,
    BASE_PHRASES,
    EFFECT_WORDS,
    QUESTION_FIELDS,
    QUESTIONS,
    SYMBOL_WORDS,
    THREATS,
    Choice,
    Words,
    ending,
)
from nanty_env.presentation.theme_text import themed

_OWN = read_words(__package__, "cthulhu_words.toml")
CTHULHU_SYMBOL_WORDS: Mapping[str, str] = {**SYMBOL_WORDS, **_OWN["symbol_words"]}
CTHULHU_EFFECT_WORDS: Mapping[str, str] = {**EFFECT_WORDS, **_OWN["effect_words"]}
CTHULHU_THREATS: Mapping[str, str] = {**THREATS, **_OWN["threats"]}
CTHULHU_QUESTIONS: Mapping[str, Phrase] = {**QUESTIONS, **_OWN["questions"]}

CTHULHU_QUESTION_FIELDS: Mapping[str, Field] = {
    **QUESTION_FIELDS,
    "elder": lambda q: q.w.elder(q.frame["elder"]),
    "refills_left": lambda q: q.frame.get("left", 1),
}


def _building_price(c: Choice) -> int:
    cost = c.w.t.data.buildings[c.arg].cost
    return -(-cost // 2) if c.frame.get("half_price") else cost


CTHULHU_FIELDS: Mapping[str, Field] = {
    **BASE_FIELDS,
    "elder": lambda c: c.w.t.data.elder_ones[c.arg],
    "arriving": lambda c: c.w.elder(c.frame["elder"]),
    "building": lambda c: c.w.t.data.buildings[c.arg],
    "building_price": _building_price,
    "face_up": lambda c: c.w.card(c.arg),
    "own_area": lambda c: absent("another's") if c.arg % A.PAWN_SLOTS else c.w.area(c.area()),
}

CTHULHU_PHRASES: Book = extend(BASE_PHRASES, _OWN["phrases"])
"""The expansion's phrases (``cthulhu_words.toml``), laid over the base game's."""


class CthulhuWords(Words):
    """:class:`~nanty_env.presentation.base_words.Words` for an expansion game (``config``: its content
    pack)."""

    space = A.CTHULHU_SPACE
    questions = CTHULHU_QUESTIONS
    question_fields = CTHULHU_QUESTION_FIELDS
    phrases = CTHULHU_PHRASES
    fields = CTHULHU_FIELDS
    threats = CTHULHU_THREATS
    symbol_words = CTHULHU_SYMBOL_WORDS
    effect_words = CTHULHU_EFFECT_WORDS

    def __init__(self, theme: str, num_players: int, config: GameConfig | None = None) -> None:
        self.config = config or GameConfig(num_players=num_players, expansion="cthulhu")
        super().__init__(theme, num_players, self.config)

    # ------------------------------------------------------------------ names
    def elder(self, e: int) -> str:
        return self.t.data.elder_ones[e].title

    def building_type(self, k: int) -> str:
        return themed(self.t.data.buildings[k].title, self.theme)

    def great_old_one(self, k: int) -> str:
        return self.t.data.great_old_ones[k].title

    def objective(self, k: int) -> str:
        return self.t.data.objectives[k].title

    def objective_text(self, k: int) -> str:
        """The objective's goal at this player count, in words (its printed text, in the
        theme's words)."""
        return themed(self.t.data.objectives[k].text, self.theme)


def cthulhu_outcome_words(
    winners: Sequence[int], reason: str, config: GameConfig | None = None
) -> str:
    """How an expansion game ended, in a sentence."""
    t = cthulhu_tables(None if config is None else config.content)
    who, verb, kind, detail = ending(winners, reason)
    if kind is Termination.SUDDEN_DEATH:
        idx = t.data.objective_index.get(detail)
        if idx is None:
            return f"{who} {verb}: the secret objective {detail} is met"
        objective = t.data.objectives[idx]
        return f"{who} {verb}: the secret objective {objective.title} is met ({objective.text.rstrip('.')})"
    if kind is Termination.DECK and detail == "objective":
        return (
            f"The draw pile ran out: {who} {verb} with the secret objective Sloth "
            "(it wins when the game ends by the draw pile or by doomsday)"
        )
    if kind is Termination.DECK:
        return f"The draw pile ran out and no objective was met: {who} {verb} on points"
    if kind is Termination.DOOMSDAY:
        return f"Doomsday: the Insanity marker reached 13 and Azathoth awakes: {who} {verb}"
    return f"{who} {verb} ({reason})"


def track_words(view: Mapping[str, Any], t: CthulhuTables) -> str:
    """The Insanity track in a line: the level, the grenadiers still on it, the next box."""
    level = view["insanity"]
    out = f"Insanity {level}/13 · {view['grenadiers_on_track']} grenadier(s) on the track"
    if level < 13:
        nxt = [
            what
            for what, on in (
                ("a grenadier", t.track_grenadier[level + 1]),
                ("an event", t.track_event[level + 1]),
            )
            if on
        ]
        out += f" · next box: {' and '.join(nxt) or 'nothing'}"
    return out


def elder_line(view: Mapping[str, Any], t: CthulhuTables, theme: str) -> list[str]:
    """Every Elder One: where it is and whose, or in the pool."""
    areas = t.data.areas
    out = []
    for e, (a, o) in enumerate(zip(view["elder_area"], view["elder_owner"], strict=True)):
        elder = t.data.elder_ones[e]
        if a < 0:
            out.append(f"{elder.title} (HP {elder.hp}) in the pool")
            continue
        hits = view["elder_hits"][e]
        hit = f", {hits} hit(s)" if hits else ""
        out.append(f"{elder.title} (HP {elder.hp}{hit}) of player {o} in {areas[a].name(theme)}")
    return out
