"""The board as text (``render_mode="ansi"``, the terminal game and replays).

Drawn from a view dict, like the picture: a seat's view (``Game.view``) shows only what that
seat knows; a ``board_svg.revealed_view`` shows everything. ``color=True`` adds ANSI colours
for the players (the terminal game turns it on for a terminal).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from nanty_env.engine import NUM_AREAS, GameConfig, tables_for
from nanty_env.presentation.base_words import goal_words
from nanty_env.presentation.theme_text import game_title, notes_for, themed
from nanty_env.presentation.words import (
    card_words,
    decision_words,
    has_expansion_pieces,
    outcome_words,
    view_config,
    words_for,
)

if TYPE_CHECKING:
    from nanty_env.engine import Game

ANSI_SEAT = ("\x1b[31m", "\x1b[34m", "\x1b[32m", "\x1b[33m")  # red, blue, green, yellow
ANSI_BOLD, ANSI_RESET = "\x1b[1m", "\x1b[0m"
COLOUR_NAMES = ("red", "blue", "green", "yellow")


def render_text(g: Game, seat: int) -> str:
    """What ``seat`` may see, as text (never another seat's hand or personality)."""
    return render_view_text(g.view(seat), g.cfg)


def render_view_text(
    view: Mapping[str, Any],
    config: GameConfig | None = None,
    players: Sequence[str] | None = None,
    *,
    color: bool = False,
    choices: bool = True,
    part: str = "all",
) -> str:
    """``view`` as text: the areas, the players, the piles, the hand, the decision and (for
    the deciding seat, with ``choices``) its legal actions numbered from 1. ``part``:
    ``"board"`` the table alone (title, areas, players, piles), ``"decision"`` the rest (the
    hand, what the seat knows of others' cards, the decision), ``"all"`` both."""
    cfg = view_config(view, config) or GameConfig(num_players=view["num_players"])
    text = themed(_Text(view, cfg, list(players or []), color).draw(choices, part), cfg.theme)
    notes = notes_for([text], cfg.theme)
    return "\n".join([text, *notes]) if notes else text


class _Text:
    def __init__(self, view: Mapping[str, Any], cfg: GameConfig, players: list[str], color: bool):
        self.v, self.cfg, self.players, self.color = view, cfg, players, color
        self.n = view["num_players"]
        self.x = has_expansion_pieces(cfg)  # the track, Elder Ones, objectives
        self.w = words_for(cfg.theme, self.n, cfg)
        self.t = tables_for(cfg)
        self.terms = self.t.data.themes[cfg.theme]
        self.revealed = bool(view.get("revealed"))

    def paint(self, q: int, s: str) -> str:
        return f"{ANSI_SEAT[q]}{s}{ANSI_RESET}" if self.color and q >= 0 else s

    def bold(self, s: str) -> str:
        return f"{ANSI_BOLD}{s}{ANSI_RESET}" if self.color else s

    def who(self, q: int) -> str:
        label = f"player {q} ({COLOUR_NAMES[q]}"
        if q < len(self.players) and self.players[q]:
            label += f", {self.players[q]}"
        if not self.revealed and q == self.v["seat"] and "you" not in label:
            label += ", you"
        return self.paint(q, label + ")")

    def draw(self, choices: bool, part: str = "all") -> str:
        lines = self.board() if part in ("all", "board") else []
        if part in ("all", "decision"):
            lines += self.hand_and_decision(choices)
        return "\n".join(lines).rstrip("\n")

    def board(self) -> list[str]:
        v = self.v
        see = "everything revealed" if self.revealed else f"seen by player {v['seat']}"
        state = "game over" if v["terminal"] else f"turn {v['turn']}, player {v['active']}'s turn"
        title = game_title(self.cfg.theme, self.cfg.expansion)
        lines = [self.bold(f"{title} — {state} — {see}"), ""]
        lines += self.areas()
        lines.append("")
        for q in range(self.n):
            lines += self.player(q)
        lines.append("")
        lines += self.piles()
        return lines

    def hand_and_decision(self, choices: bool) -> list[str]:
        v = self.v
        lines = []
        if not self.revealed:
            lines.append(self.bold("Your hand:") + ("" if v["hand"] else " (empty)"))
            lines += [
                f"  - {self.w.card(c)}: {card_words(c, self.cfg.theme, self.cfg)}"
                for c in v["hand"]
            ]
            for q, cs in enumerate(v.get("known_cards", [])):
                if cs and q != v["seat"]:
                    known = ", ".join(self.w.card(c) for c in cs)
                    lines.append(f"You know {self.who(q)} holds: {known}")
        lines.append("")
        lines += self.decision(choices)
        return lines

    def areas(self) -> list[str]:
        v = self.v
        agents_head = self.terms["agents"]
        lines = [
            f"{'':>2} {'area':<16} {'cost':>4}  {agents_head:<22} {'building':<14} "
            f"{'others':<22} trouble"
        ]
        for a in self.t.data.areas:
            i = a.index
            groups = [
                self.paint(q, f"P{q}×{v['agents'][q][i]}")
                for q in range(self.n)
                if v["agents"][q][i]
            ]
            pad = 22 + (len(ANSI_SEAT[0]) + len(ANSI_RESET)) * len(groups) if self.color else 22
            agents = " ".join(groups)
            b = v["buildings"][i]
            label = f"P{b}"
            if self.x and b >= 0:
                label += " " + self.w.building_type(v["building_types"][i])
            building = "" if b < 0 else self.paint(b, label)
            bpad = 14 + (len(ANSI_SEAT[0]) + len(ANSI_RESET) if self.color and b >= 0 else 0)
            if b >= 0 and v["city_retired"][i]:
                building += " (card gone)"
            others = []
            if self.x:
                others += [
                    f"{self.w.elder(e)} (P{o})"
                    for e, (where, o) in enumerate(
                        zip(v["elder_area"], v["elder_owner"], strict=True)
                    )
                    if where == i
                ]
            if v["grenadiers"][i]:
                others.append(f"{v['grenadiers'][i]} {self.terms['grenadier']}")
            if v["citizens"][i]:
                others.append(f"{v['citizens'][i]} {self.terms['citizen']}")
            trouble = "TROUBLE" if v["trouble"][i] else ""
            lines.append(
                f"{a.number:>2} {a.name(self.cfg.theme):<16} £{a.cost:>3}  {agents:<{pad}} "
                f"{building:<{bpad}} {', '.join(others):<22} {trouble}".rstrip()
            )
        return lines

    def player(self, q: int) -> list[str]:
        v = self.v
        money = f"{self.terms['money_symbol']}{v['money'][q]}"
        facts = [money, f"{v['hand_sizes'][q]} cards in hand"]
        if v["loans"][q]:
            facts.append(f"{len(v['loans'][q])} loan(s)")
        facts += [f"stuck with {self.w.card(c)}" for c in v["penalties"][q]]
        held = [
            self.w.area(a)
            for a in range(NUM_AREAS)
            if v["buildings"][a] == q and not v["city_retired"][a]
        ]
        if held and not self.x:
            facts.append("City Area cards: " + ", ".join(held))
        if self.x:
            facts.append(f"Great Old One: {self.w.great_old_one(v['great_old_ones'][q])}")
        mark = ""
        if v["terminal"] and q in v.get("winners", []):
            mark = " ★ winner"
        elif q == v["active"] and not v["terminal"]:
            mine = not self.revealed and q == v["seat"]
            mark = " ◆ your turn" if mine else " ◆ on turn"
        out = [f"{self.who(q)}{mark}: " + " · ".join(facts)]
        if self.x:
            k = self.objective(q)
            if k is not None:
                out.append(f"    objective: {self.w.objective(k)} — {self.w.objective_text(k)}")
            if self.revealed:
                hand = ", ".join(self.w.card(c) for c in v["hands"][q]) or "(empty)"
                out.append(f"    hand: {hand}")
            return out
        persona = self.personality(q)
        if persona is not None:
            goal = goal_words(persona, self.n, self.cfg.threshold_set, self.cfg.theme)
            out.append(f"    personality: {self.w.personality(persona)} — goal: {goal}")
        if self.revealed:
            hand = ", ".join(self.w.card(c) for c in v["hands"][q]) or "(empty)"
            out.append(f"    hand: {hand}")
        return out

    def objective(self, q: int) -> int | None:
        """``q``'s objective if this view may know it (its own, or everyone's at the end)."""
        v = self.v
        if v.get("objectives") is not None:
            return v["objectives"][q]
        return v["objective"] if q == v["seat"] else None

    def personality(self, q: int) -> int | None:
        v = self.v
        if self.revealed or v.get("personalities") is not None:
            return v["personalities"][q]
        return v["personality"] if q == v["seat"] else None

    def piles(self) -> list[str]:
        v, w = self.v, self.w
        top = f" (top: {w.card(v['discard'][-1])})" if v["discard"] else ""
        events = self.t.data.events
        line = f"Draw pile {v['deck_size']} · discard pile {len(v['discard'])}{top}"
        if self.x:
            line += f" · events drawn {len(v['events_done'])}"
        else:
            line += f" · random events left {v['event_deck_size']}"
        if v["events_done"]:
            line += f" (last: {events[v['events_done'][-1]].name(self.cfg.theme)})"
        out = [line]
        if self.x:
            from nanty_env.presentation.cthulhu_words import elder_line, track_words

            out.append(track_words(v, self.t))  # type: ignore[arg-type]
            face_up = ", ".join(w.card(c) for c in v["face_up"]) or "(none)"
            out.append(f"Face up: {face_up}")
            out.append("Elder Ones: " + "; ".join(elder_line(v, self.t, self.cfg.theme)))  # type: ignore[arg-type]
        if v.get("resolving"):
            out.append(
                "In play: " + ", ".join(f"{w.card(c)} (player {p})" for p, c, _ in v["resolving"])
            )
        if self.revealed:
            nxt = ", ".join(w.card(c) for c in reversed(v["deck"])) or "(empty)"
            out.append(f"Draw pile, top first: {nxt}")
            order = ", ".join(events[e].name(self.cfg.theme) for e in reversed(v["event_deck"]))
            out.append(f"Random events, next first: {order or '(none)'}")
        return out

    def decision(self, choices: bool) -> list[str]:
        v = self.v
        if v["terminal"]:
            line = outcome_words(
                v.get("winners", []),
                v.get("reason", ""),
                self.cfg.theme,
                self.cfg,
                v.get("personalities"),
            )
            out = [self.bold("Game over. ") + line]
            if v.get("points"):
                out.append(
                    "Points: " + ", ".join(f"player {q} {p}" for q, p in enumerate(v["points"]))
                )
            return out
        question, options = decision_words(v, self.cfg.theme, self.cfg)
        cp = v["current_player"]
        mine = not self.revealed and cp == v["seat"]
        head = "Your decision" if mine else f"{self.who(cp)} decides"
        out = [self.bold(f"{head}: {question}")]
        if choices and options:
            out += [f"  {i:>2}. {text}" for i, (_, text) in enumerate(options, start=1)]
        return out
