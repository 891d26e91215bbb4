"""What the side panel of the board tells, as data: each player's facts, the piles, the hand.

One source for two drawings: the SVG picture (:mod:`nanty_env.presentation.board_svg`) draws these
lines beside its map, and the browser shows them as HTML text that wraps at a readable size. Like
the picture, the facts are read from a *view* only (a seat's view, the public view or a
``revealed_view``), so they tell nothing that view does not know.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from nanty_env.engine import NUM_AREAS, GameConfig, tables_for
from nanty_env.presentation.base_words import goal_words
from nanty_env.presentation.theme_text import notes_for, themed
from nanty_env.presentation.words import card_words, has_expansion_pieces, words_for

View = Mapping[str, Any]


@dataclass(frozen=True)
class Line:
    """One line of facts; ``kind`` says how it is shown: ``fact``, ``secret`` (unknown),
    ``role`` (a personality, goal or objective), ``elder`` or ``hand`` (a revealed hand)."""

    text: str
    kind: str = "fact"


@dataclass(frozen=True)
class SeatFacts:
    """One player's block: its label, whether it is on turn or won, its money and facts."""

    seat: int
    label: str
    mark: str
    money: str
    deciding: bool
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class HandCard:
    """A card of the viewing seat's hand: its name and what it does."""

    card: int
    name: str
    text: str


@dataclass(frozen=True)
class Panel:
    """Everything the panel shows. ``hand`` is ``None`` when the view has no hand of its own
    (everything revealed, or the public view)."""

    seats: tuple[SeatFacts, ...]
    piles: tuple[str, ...]
    hand: tuple[HandCard, ...] | None
    known: tuple[str, ...]
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """As the web page receives it (tuples become lists)."""
        return json.loads(json.dumps(asdict(self)))


def seat_label(view: View, q: int, players: Sequence[str]) -> str:
    """``Player 1 · heuristic``, with ``(you)`` for the viewing seat."""
    label = f"Player {q}"
    if q < len(players) and players[q]:
        label += f" · {players[q]}"
    if not view.get("revealed") and q == view["seat"] and "you" not in label:
        label += " (you)"
    return label


def panel(view: View, cfg: GameConfig, players: Sequence[str] = ()) -> Panel:
    """The panel of ``view`` in ``cfg``'s theme and ruleset (every word in that theme, and a
    note on the mark of a borrowed card name when one is shown)."""
    return _Facts(view, cfg, list(players)).panel()


class _Facts:
    def __init__(self, view: View, cfg: GameConfig, players: list[str]) -> None:
        self.v = view
        self.cfg = cfg
        self.n = view["num_players"]
        self.theme = cfg.theme
        self.x = has_expansion_pieces(cfg)
        self.words: Any = words_for(cfg.theme, self.n, cfg)
        self.t: Any = tables_for(cfg)
        self.terms = self.t.data.themes[cfg.theme]
        self.revealed = bool(view.get("revealed"))
        self.players = players

    def panel(self) -> Panel:
        v = self.v
        own_hand = not self.revealed and v["seat"] >= 0
        hand = None
        if own_hand:
            hand = tuple(
                HandCard(c, self.words.card(c), card_words(c, self.theme, self.cfg))
                for c in v["hand"]
            )
        th = self.theme
        seats = tuple(
            replace(
                s,
                label=themed(s.label, th),
                lines=tuple(Line(themed(line.text, th), line.kind) for line in s.lines),
            )
            for s in (self.seat(q) for q in range(self.n))
        )
        piles = tuple(themed(r, th) for r in self.piles())
        known = tuple(themed(k, th) for k in self.known()) if own_hand else ()
        shown = [line.text for s in seats for line in s.lines] + list(piles) + list(known)
        shown += [c.name for c in hand or ()]
        return Panel(seats, piles, hand, known, tuple(notes_for(shown, th)))

    def seat(self, q: int) -> SeatFacts:
        v = self.v
        n_cards = v["hand_sizes"][q]
        facts = [f"{n_cards} card{'s' if n_cards != 1 else ''} in hand"]
        if v["loans"][q]:
            facts.append(f"{len(v['loans'][q])} loan{'s' if len(v['loans'][q]) > 1 else ''}")
        for c in v["penalties"][q]:
            facts.append(f"stuck with {self.words.card(c)}")
        lines = [Line(" · ".join(facts))]
        lines += self.expansion_lines(q) if self.x else self.base_lines(q)
        if self.revealed:
            hand = [self.words.card(c) for c in v["hands"][q]]
            lines.append(Line("Hand: " + (", ".join(hand) or "empty"), "hand"))
        mark = ""
        if v["terminal"] and q in v.get("winners", []):
            mark = "★ winner"
        elif q == v["active"] and not v["terminal"]:
            mark = "◆ your turn" if not self.revealed and q == v["seat"] else "◆ on turn"
        return SeatFacts(
            seat=q,
            label=seat_label(v, q, self.players),
            mark=mark,
            money=f"{self.terms['money_symbol']}{v['money'][q]}",
            deciding=v["current_player"] == q,
            lines=tuple(lines),
        )

    def base_lines(self, q: int) -> list[Line]:
        """A player's City Area cards and (when this view may know it) personality and goal."""
        v = self.v
        held = [
            self.words.area(a)
            for a in range(NUM_AREAS)
            if v["buildings"][a] == q and not v["city_retired"][a]
        ]
        out = [Line("City Area cards: " + ", ".join(held))] if held else []
        persona = self.known_personality(q)
        if persona is None:
            return [*out, Line("Personality: secret", "secret")]
        out.append(Line(f"Personality: {self.words.personality(persona)}", "role"))
        goal = goal_words(persona, self.n, self.cfg.threshold_set, self.theme)
        if goal and (q == v["seat"] or self.revealed):
            out.append(Line("Goal: " + goal, "role"))
        return out

    def expansion_lines(self, q: int) -> list[Line]:
        """A player's Great Old One, Elder Ones and (when this view may know it) objective."""
        v, w = self.v, self.words
        out = [Line(f"Great Old One: {w.great_old_one(v['great_old_ones'][q])}")]
        mine = [w.elder(e) for e, o in enumerate(v["elder_owner"]) if o == q]
        if mine:
            out.append(Line("Elder Ones: " + ", ".join(mine), "elder"))
        k = None
        if v.get("objectives") is not None:
            k = v["objectives"][q]
        elif q == v["seat"]:
            k = v["objective"]
        if k is None:
            out.append(Line("Objective: secret", "secret"))
        else:
            out.append(Line(f"Objective: {w.objective(k)} — {w.objective_text(k)}", "role"))
        return out

    def known_personality(self, q: int) -> int | None:
        v = self.v
        if self.revealed or v.get("personalities") is not None:  # revealed, or the game is over
            return v["personalities"][q]
        return v["personality"] if q == v["seat"] else None

    def piles(self) -> list[str]:
        v, w = self.v, self.words
        top = f" (top: {w.card(v['discard'][-1])})" if v["discard"] else ""
        rows = [
            f"Draw pile {v['deck_size']} · discard pile {len(v['discard'])}{top}",
            f"Events drawn {len(v['events_done'])}"
            if self.x
            else f"Random events left {v['event_deck_size']}",
        ]
        if self.x:
            rows.append("Face up: " + (", ".join(w.card(c) for c in v["face_up"]) or "none"))
            pool = [w.elder(e) for e, a in enumerate(v["elder_area"]) if a < 0]
            rows.append("Elder Ones in the pool: " + (", ".join(pool) or "none"))
        if v["events_done"]:
            last = self.t.data.events[v["events_done"][-1]].name(self.theme)
            rows[-1] += f" · last: {last}"
        resolving = v.get("resolving") or []
        if resolving:
            rows.append(
                "In play: " + ", ".join(f"{w.card(c)} (player {p})" for p, c, _ in resolving)
            )
        if self.revealed:
            nxt = [w.card(c) for c in reversed(v["deck"][-3:])]
            rows.append("Next cards: " + (", ".join(nxt) or "none"))
            if v["event_deck"]:
                rows.append(
                    "Next event: " + self.t.data.events[v["event_deck"][-1]].name(self.theme)
                )
        return rows

    def known(self) -> list[str]:
        """What the viewing seat alone knows of others' hands."""
        v = self.v
        return [
            f"You know player {q} holds: " + ", ".join(self.words.card(c) for c in cs)
            for q, cs in enumerate(v.get("known_cards", []))
            if cs and q != v["seat"]
        ]
