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

from nanty_env.engine import GameConfig, Outcome, Termination
from nanty_env.engine import actions as A
from nanty_env.engine.cthulhu.tables import CthulhuTables, cthulhu_tables
from nanty_env.presentation.base_words import (
    EFFECT_WORDS,
    PASS_WORDS,
    QUESTIONS,
    SYMBOL_WORDS,
    THREATS,
    Frame,
    Words,
    symbols_words,
)
from nanty_env.presentation.theme_text import themed

CTHULHU_SYMBOL_WORDS: Mapping[str, str] = {
    **SYMBOL_WORDS,
    "minion": "place or move a minion",
    "summon": "summon an Elder One",
    "insanity": "advance the Insanity marker",
}

CTHULHU_EFFECT_WORDS: Mapping[str, str] = {
    **EFFECT_WORDS,
    "move_own_minion_out_of_trouble": (
        "move one of your minions from an area with trouble to a neighbouring area"
    ),
    "take_face_up_card": "take one of the three face-up cards",
    "advance_insanity": "you may advance the Insanity marker by one",
    "earn_per_elder_one": "take £{amount} per Elder One you control",
}

CTHULHU_THREATS: Mapping[str, str] = {
    **THREATS,
    "remove_elder": "your Elder One in {area} is about to be removed",
}


def _refill_question(w: Words, f: Frame) -> str:
    left = f.get("left", 1)
    return f"Refill your hand ({left} to go): draw from the pile or take a face-up card"


CTHULHU_QUESTIONS: Mapping[str, Any] = {
    **QUESTIONS,
    "end": lambda w, f: "End your turn (or first use an ability)",
    "refill": _refill_question,
    "move_minion": lambda w, f: f"Choose where your minion from {w.area(f['area'])} goes",
    "pick_minion": lambda w, f: (
        "Choose one of your minions in an area with trouble to move"
        if f.get("from_trouble")
        else "Choose one of your minions to move"
    ),
    "summon": lambda w, f: f"You rolled {f['roll']}: choose an Elder One to summon, or none",
    "summon_place": lambda w, f: f"Choose where {w.elder(f['elder'])} arrives",
    "sacrifice": lambda w, f: (
        f"{w.elder(f['elder'])} has taken hits: sacrifice your own minions there for more, or stop"
    ),
    "build_type": lambda w, f: f"Choose the type of the building you place in {w.area(f['area'])}",
    "relocate_building": lambda w, f: (
        f"All six of your buildings are out: choose the one to move to {w.area(f['area'])}"
    ),
    "half_build": lambda w, f: "Build at half price, or decline",
    "take_faceup": lambda w, f: "Take one of the face-up cards",
}

CTHULHU_PASS_WORDS: Mapping[str, str] = {
    **PASS_WORDS,
    "summon": "summon nothing",
    "sacrifice": "stop sacrificing",
}


class CthulhuWords(Words):
    """:class:`~nanty_env.presentation.base_words.Words` for an expansion game (``config``: its content
    pack)."""

    def __init__(self, theme: str, num_players: int, config: GameConfig | None = None) -> None:
        super().__init__(theme, num_players)
        self.config = config or GameConfig(num_players=num_players, expansion="cthulhu")
        self.t: CthulhuTables = cthulhu_tables(self.config.content)  # type: ignore[assignment]
        self.space = A.CTHULHU_SPACE
        self.questions = CTHULHU_QUESTIONS
        self.pass_words = CTHULHU_PASS_WORDS
        self.threats = CTHULHU_THREATS
        self.symbol_words = CTHULHU_SYMBOL_WORDS

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

    # ------------------------------------------------------------------ actions
    def _choice(self, frame: Frame, action: int, *, hide_card: bool = False) -> str:
        act = self.space.decode(action)
        fam, arg, kind = act.family, act.arg, frame["kind"]
        if fam == "ELDER":
            return self._elder_choice(frame, arg)
        if fam == "ELDER_ABILITY":
            e = self.t.data.elder_ones[arg]
            return f"use {e.title}: {e.text}"
        if fam == "GOO_ABILITY":
            return "use your Great Old One's ability"
        if fam == "BUILDING_TYPE":
            b = self.t.data.buildings[arg]
            price = -(-b.cost // 2) if frame.get("half_price") else b.cost
            return f"place a {b.title} (£{price})"
        if fam == "ABILITY" and kind not in ("react", "flood"):
            return f"use your building in {self.area(arg)}"
        if fam == "CONFIRM" and kind == "refill":
            return "draw the top card of the pile"
        if fam == "SELECT_CARD" and kind in ("refill", "take_faceup"):
            return f"take the face-up {self.card(arg)}"
        if fam == "AREA":
            return self._cthulhu_area(frame, arg)
        if fam == "PAWN":
            area, slot = divmod(arg, A.PAWN_SLOTS)
            if slot == 0 and kind == "sacrifice":
                return f"sacrifice your {self.terms['agent']} in {self.area(area)} (1 hit)"
            if slot == 0 and (kind == "pick_minion" or self._card_symbol(frame) == "minion"):
                return f"move your {self.terms['agent']} from {self.area(area)}"
        return super()._choice(frame, action, hide_card=hide_card)

    def _card_symbol(self, frame: Frame) -> str:
        return self._symbol(frame) if frame["kind"] == "card" else ""

    def _elder_choice(self, frame: Frame, e: int) -> str:
        elder = self.t.data.elder_ones[e]
        kind = frame["kind"]
        if kind == "summon":
            return f"summon {elder.title} (HP {elder.hp})"
        if kind == "sacrifice":
            return f"sacrifice {elder.title} ({elder.hp} hits)"
        if self._card_symbol(frame) == "assassinate":
            return f"attack {elder.title}"
        return f"move {elder.title}"

    def _cthulhu_area(self, frame: Frame, a: int) -> str:
        kind, name = frame["kind"], self.area(a)
        sym = self._card_symbol(frame)
        if sym == "minion":
            return f"place {self.a_agent} in {name}"
        if sym == "building" or kind == "half_build":
            return f"build in {name}"
        if kind == "summon_place":
            return f"{self.elder(frame['elder'])} arrives in {name}"
        if kind == "move_minion":
            return f"move it to {name}"
        if kind == "relocate_building":
            return f"move your building from {name}"
        return super()._choice(frame, A.AREA + a)

    def _confirm(self, frame: Frame) -> str:
        if frame["kind"] == "card":
            sym = self._symbol(frame)
            if sym == "summon":
                return "roll the die to summon an Elder One"
            if sym == "insanity":
                return "advance the Insanity marker"
        return super()._confirm(frame)

    def hint(self, action: int) -> str:
        act = self.space.decode(action)
        if act.family in ("PLAY_CARD", "DISCARD_CARD", "SELECT_CARD"):
            return themed(cthulhu_card_words(act.arg, self.theme, self.config), self.theme)
        return ""


def cthulhu_card_words(c: int, theme: str, config: GameConfig | None = None) -> str:
    """What an expansion card does, symbol by symbol."""
    t = cthulhu_tables(None if config is None else config.content)
    return symbols_words(c, theme, t, CTHULHU_SYMBOL_WORDS, CTHULHU_EFFECT_WORDS)


def cthulhu_outcome_words(
    winners: Sequence[int], reason: str, config: GameConfig | None = None
) -> str:
    """How an expansion game ended, in a sentence."""
    t = cthulhu_tables(None if config is None else config.content)
    who = " and ".join(f"player {s}" for s in winners) or "nobody"
    verb = "wins" if len(winners) == 1 else "win"
    try:
        o = Outcome(tuple(winners), reason)
        kind, detail = o.termination, o.detail
    except KeyError:  # a reason this version does not know: shown as it is
        kind, detail = None, ""
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
