"""The board as an SVG picture: the map of London with every piece, the players, the piles, the
hand and the pending decision in words.

The picture is drawn from a *view* dict only: a seat's view (``Game.view``) shows what that seat
knows and nothing else, so hidden cards cannot leak into it; :func:`revealed_view` adds
everything (all hands and personalities, the order of the draw pile and of the events) for
replays and researchers. The browser shows this SVG as it is; ``render_image`` turns it into
pixels for ``render_mode="rgb_array"``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape

from nanty_env.engine import Game, GameConfig, tables_for
from nanty_env.presentation.board_layout import (
    AREAS,
    BRIDGES,
    MAP_H,
    MAP_W,
    RIVER_HALF_WIDTH,
    bank,
    outline_points,
    river_y,
)
from nanty_env.presentation.render_panel import HandCard, Panel, SeatFacts, panel, seat_label
from nanty_env.presentation.theme_text import RIVERS, themed
from nanty_env.presentation.words import (
    decision_words,
    has_expansion_pieces,
    outcome_words,
    view_config,
    words_for,
)

View = Mapping[str, Any]

SEAT_COLOURS = ("#d1342f", "#2f6bd6", "#2f9e4a", "#e8b400")
SEAT_COLOUR_NAMES = ("red", "blue", "green", "yellow")
WIDTH, HEIGHT = 1280, 760
MAP_X, MAP_Y = 12.0, 58.0
PANEL_X, PANEL_W = 888.0, 380.0
MAP_ONLY_W = int(2 * MAP_X + MAP_W)  # the picture without its panel (the browser's)
STRIP_Y = MAP_Y + MAP_H + 12  # where the map-only picture's legend or track strip starts
MAP_ONLY_H = int(STRIP_Y + 44)
INK = "#3b2f20"
PAPER = "#f5edd9"
WATER = "#8db3d4"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


def revealed_view(game: Game) -> dict[str, Any]:
    """The view of the deciding seat plus everything hidden: every hand and personality, the
    draw pile and the event deck in order (next card last), the set-aside personalities."""
    state = game.to_dict()
    seat = max(game.current_player, 0)
    view = game.view(seat)
    if game.outcome is not None and game.outcome.points is not None:
        view["points"] = list(game.outcome.points)
    view.update(
        revealed=True,
        hands=[sorted(h) for h in state["hands"]],
        personalities=list(state["persona"]),
        deck=list(state["deck"]),
        event_deck=list(state["event_deck"]),
        persona_pool=list(state["persona_pool"]),
    )
    if "objective" in state:  # the expansion: every secret objective and the set-aside ones
        view.update(objectives=list(state["objective"]), objective_pool=state["objective_pool"])
    return view


def board_svg(
    view: View,
    config: GameConfig | None = None,
    players: Sequence[str] | None = None,
    *,
    with_panel: bool = True,
) -> str:
    """The SVG picture of ``view`` (a seat's view, or a :func:`revealed_view`).

    ``config`` supplies the theme and the goal thresholds (default: the standard game);
    ``players`` optional labels per seat (e.g. ``["you", "heuristic", "random"]``). Without
    the panel (``with_panel=False``) the picture is the map alone with its title, status and
    legend, ``MAP_ONLY_W`` wide: the browser shows the panel's facts
    (:mod:`nanty_env.presentation.render_panel`) and the decision as page text beside it.
    """
    cfg = view_config(view, config) or GameConfig(num_players=view["num_players"])
    pic = _Picture(view, cfg, list(players or []), with_panel)
    return pic.draw()


ELDER_FILL = "#3c6e5a"  # an Elder One's body; its owner's colour rings it
TRACK_LEVELS = 13
LINE_INK = {"fact": INK, "secret": "#777", "role": "#5b2c6f", "elder": ELDER_FILL}
LINE_INK["hand"] = "#1f3b57"


class _Picture:
    def __init__(self, view: View, cfg: GameConfig, players: list[str], with_panel: bool) -> None:
        self.with_panel = with_panel
        self.dense = False  # the panel in smaller lines (set when it is drawn)
        self.v = view
        self.cfg = cfg
        self.n = view["num_players"]
        self.theme = cfg.theme
        self.x = has_expansion_pieces(cfg)  # the track, Elder Ones, building types
        self.words: Any = words_for(cfg.theme, self.n, cfg)
        self.t: Any = tables_for(cfg)
        self.terms = self.t.data.themes[cfg.theme]
        self.revealed = bool(view.get("revealed"))
        self.players = players
        self.out: list[str] = []

    # ------------------------------------------------------------------ helpers
    def add(self, s: str) -> None:
        self.out.append(s)

    def text(
        self,
        x: float,
        y: float,
        s: str,
        size: float = 12,
        *,
        weight: str = "normal",
        anchor: str = "start",
        fill: str = INK,
        style: str = "",
        cls: str = "",
    ) -> None:
        s = themed(s, self.theme)
        extra = f' font-style="{style}"' if style else ""
        extra += f' class="{cls}"' if cls else ""
        self.add(
            f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" font-weight="{weight}" '
            f'text-anchor="{anchor}" fill="{fill}"{extra}>{escape(s)}</text>'
        )

    def seat_label(self, q: int) -> str:
        return seat_label(self.v, q, self.players)

    # ------------------------------------------------------------------ whole picture
    def draw(self) -> str:
        w, h = (WIDTH, HEIGHT) if self.with_panel else (MAP_ONLY_W, MAP_ONLY_H)
        self.add(
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" '
            f'width="{w}" height="{h}" font-family="{FONT}" class="nanty-board">'
        )
        self.add(f'<rect width="{w}" height="{h}" fill="{PAPER}"/>')
        self.header()
        self.add(f'<g transform="translate({MAP_X},{MAP_Y})">')
        self.map()
        self.add("</g>")
        if self.with_panel:
            self.panel()
            self.decision_bar()
        self.add("</svg>")
        return "\n".join(self.out)

    def header(self) -> None:
        """The title and, under it (never over it, however long the theme's title), the status;
        the track or legend beside them, or in a strip under the map when there is no panel."""
        v = self.v
        self.text(MAP_X, 26, self.terms["game_title"], 22, weight="bold", cls="title")
        who = "everything revealed" if self.revealed else f"seen by player {v['seat']}"
        status = "game over" if v["terminal"] else f"turn {v['turn']} · player {v['active']}'s turn"
        if self.x:
            status = f"The Rise of Cthulhu · {status}"
        self.text(MAP_X, 47, f"{status} · {who}", 13, cls="status")
        if self.with_panel:
            x, y = PANEL_X - 4, 8.0
        else:
            x, y = MAP_X, STRIP_Y
        if self.x:
            self.track(x, y)
        else:
            self.legend_row(x + 8, y + 22)

    def track(self, x: float, y: float) -> None:
        """The Insanity track: thirteen boxes, the marker's level filled, a grenadier still
        standing in a box as a dot, an event box marked E."""
        level = self.v["insanity"]
        w, h = 28.0, 28
        self.add(f'<g class="track" data-level="{level}"><title>Insanity {level} of 13</title>')
        for lv in range(1, TRACK_LEVELS + 1):
            bx = x + (lv - 1) * w
            current = lv == level
            fill = "#7d1f4f" if current else ("#e7d9f0" if lv < level else "#fffdf7")
            if lv == TRACK_LEVELS:
                fill = "#2b0f1f" if current else "#d9c2cf"
            self.add(
                f'<rect x="{bx:.1f}" y="{y}" width="{w - 3}" height="{h}" rx="3" fill="{fill}" '
                f'stroke="#5b2c6f" stroke-width="{2 if current else 1}"/>'
            )
            ink = "#ffffff" if current else INK
            self.text(
                bx + (w - 3) / 2, y + 12, str(lv), 11, weight="bold", anchor="middle", fill=ink
            )
            if self.t.track_grenadier[lv] and lv > level:
                self.add(f'<circle cx="{bx + 6:.1f}" cy="{y + 21:.1f}" r="3" fill="#8e1b1b"/>')
            if self.t.track_event[lv]:
                self.text(bx + w - 10, y + 25, "E", 11, weight="bold", anchor="middle", fill=ink)
        self.add("</g>")
        caption = f"Insanity track (E event box, • {self.terms['grenadier']} waiting)"
        if self.with_panel:
            self.text(x, y + h + 13, caption, 11, fill="#5b2c6f")
        else:
            self.text(x + TRACK_LEVELS * w + 8, y + 19, caption, 12, fill="#5b2c6f")

    # ------------------------------------------------------------------ the map
    def map(self) -> None:
        v = self.v
        data = self.t.data
        for area in data.areas:
            shape = AREAS[area.id]
            pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in outline_points(shape.outline))
            troubled = v["trouble"][area.index]
            self.add(
                f'<polygon id="area-{area.id}" class="area" data-area="{area.index}" '
                f'points="{pts}" fill="{shape.fill}" stroke="{INK}" stroke-width="2" '
                f'stroke-linejoin="round"><title>{escape(themed(self.area_title(area.index), self.theme))}</title>'
                "</polygon>"
            )
            if troubled:
                self.add(
                    f'<polygon points="{pts}" fill="#c0392b" fill-opacity="0.08" '
                    'stroke="none" pointer-events="none"/>'
                )
        self.river()
        for area in data.areas:
            for extra in AREAS[area.id].extra:
                pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in outline_points(extra))
                self.add(
                    f'<polygon class="neck" points="{pts}" fill="{AREAS[area.id].fill}" '
                    'stroke="none"/>'
                )
        for area in data.areas:
            if area.index in v.get("event_areas", []):
                pts = " ".join(
                    f"{x:.1f},{y:.1f}" for x, y in outline_points(AREAS[area.id].outline)
                )
                self.add(
                    f'<polygon points="{pts}" fill="none" stroke="#e67e22" stroke-width="5" '
                    'stroke-dasharray="10 6" class="event-area"/>'
                )
        for area in data.areas:
            self.area_label(area.index)
            self.area_pieces(area.index)

    def area_title(self, a: int) -> str:
        area = self.t.data.areas[a]
        if self.x:
            return f"{area.number} {area.name(self.theme)}"
        ability = self.t.ability[a]
        from nanty_env.presentation.base_words import ABILITY_WORDS

        power = ABILITY_WORDS.get(ability, "").format(
            a_agent=self.words.a_agent, **self.t.ability_params[a]
        )
        return f"{area.number} {area.name(self.theme)} (£{area.cost}): {power}"

    def river(self) -> None:
        north = bank("N", 0, MAP_W)
        south = bank("S", MAP_W, 0)
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in [*north, *south])
        self.add(f'<polygon points="{pts}" fill="{WATER}" stroke="#4f7ea6" stroke-width="1.5"/>')
        self.text(
            253,
            river_y(253) + 5,
            RIVERS[self.theme],
            13,
            anchor="middle",
            fill="#f4f8fb",
            style="italic",
        )
        for x, _, _ in BRIDGES:
            y0 = river_y(x) - RIVER_HALF_WIDTH - 5
            h = 2 * RIVER_HALF_WIDTH + 10
            self.add(
                f'<rect class="bridge" x="{x - 8:.1f}" y="{y0:.1f}" width="16" height="{h:.1f}" '
                'rx="2" fill="#a07a4f" stroke="#5c4327" stroke-width="1.5"/>'
            )
            for k in range(1, 5):
                yy = y0 + k * h / 5
                self.add(
                    f'<line x1="{x - 8:.1f}" y1="{yy:.1f}" x2="{x + 8:.1f}" y2="{yy:.1f}" '
                    'stroke="#5c4327" stroke-width="0.8"/>'
                )

    def area_label(self, a: int) -> None:
        area = self.t.data.areas[a]
        x, y = AREAS[area.id].label
        name = area.name(self.theme)
        cx = x - _text_width(name, 14) / 2 - 16
        self.add(
            f'<circle cx="{cx:.1f}" cy="{y - 5:.1f}" r="9.5" fill="{PAPER}" stroke="{INK}" '
            'stroke-width="1.2"/>'
        )
        self.text(cx, y - 1, str(area.number), 11.5, weight="bold", anchor="middle")
        self.text(x, y, name, 14, weight="bold", anchor="middle", cls="area-name")
        owner = self.v["buildings"][a]
        if self.x:
            if owner >= 0:
                kind = self.words.building_type(self.v["building_types"][a])
                self.text(
                    x, y + 15, kind, 11.5, anchor="middle", fill="#6b5a3e", cls="building-type"
                )
            return
        card = "" if owner < 0 or not self.v["city_retired"][a] else " · card retired"
        self.text(x, y + 15, f"£{area.cost}{card}", 11.5, anchor="middle", fill="#6b5a3e")

    def area_pieces(self, a: int) -> None:
        v = self.v
        x0, y0, w = AREAS[self.t.data.areas[a].id].pieces
        items: list[tuple[float, Callable[[float, float], None]]] = []
        owner = v["buildings"][a]
        if owner >= 0:
            items.append((26, lambda x, y, o=owner: self.building(x, y, o, a)))
        for q in range(self.n):
            k = v["agents"][q][a]
            if k:
                width = 12 * k + 6 if k <= 3 else 40
                items.append((width, lambda x, y, q=q, k=k: self.agents(x, y, q, k)))
        if self.x:
            for e, (where, o) in enumerate(zip(v["elder_area"], v["elder_owner"], strict=True)):
                if where == a:
                    items.append((22, lambda x, y, e=e, o=o: self.elder(x, y, e, o)))
        if v["grenadiers"][a]:
            k = v["grenadiers"][a]
            items.append((16 if k == 1 else 36, lambda x, y, k=k: self.neutral(x, y, "gren", k)))
        if v["citizens"][a]:
            k = v["citizens"][a]
            items.append((16 if k == 1 else 36, lambda x, y, k=k: self.neutral(x, y, "cit", k)))
        if v["trouble"][a]:
            items.append((24, lambda x, y: self.trouble(x, y)))
        rows: list[list[tuple[float, Callable[[float, float], None]]]] = [[]]
        used = 0.0
        for width, draw in items:
            if rows[-1] and used + width > w:
                rows.append([])
                used = 0.0
            rows[-1].append((width, draw))
            used += width + 4
        y = y0 + 14
        for row in rows:
            x = x0 + (w - (sum(wd for wd, _ in row) + 4 * (len(row) - 1))) / 2
            for width, draw in row:
                draw(x, y)
                x += width + 4
            y += 30

    def pawn(self, x: float, y: float, fill: str, stroke: str = INK, hat: str = "") -> None:
        """A pawn whose feet stand at (x, y + 10)."""
        self.add(
            f'<path d="M{x - 6:.1f},{y + 10:.1f} Q{x - 6:.1f},{y:.1f} {x:.1f},{y:.1f} '
            f'Q{x + 6:.1f},{y:.1f} {x + 6:.1f},{y + 10:.1f} Z" fill="{fill}" stroke="{stroke}" '
            'stroke-width="1"/>'
        )
        self.add(
            f'<circle cx="{x:.1f}" cy="{y - 3.5:.1f}" r="4.2" fill="{fill}" stroke="{stroke}" '
            'stroke-width="1"/>'
        )
        if hat == "bearskin":
            self.add(
                f'<rect x="{x - 4:.1f}" y="{y - 14:.1f}" width="8" height="8" rx="3" '
                f'fill="#111" stroke="{stroke}" stroke-width="0.8"/>'
            )
        elif hat == "cap":
            self.add(
                f'<path d="M{x - 5:.1f},{y - 6:.1f} L{x + 6.5:.1f},{y - 6:.1f} L{x + 3:.1f},'
                f'{y - 10:.1f} L{x - 4:.1f},{y - 10:.1f} Z" fill="#5a4a36"/>'
            )

    def agents(self, x: float, y: float, q: int, k: int) -> None:
        colour = SEAT_COLOURS[q]
        self.add(f'<g class="agents seat-{q}" data-count="{k}">')
        if k <= 3:
            for i in range(k):
                self.pawn(x + 6 + 12 * i, y, colour)
        else:
            self.pawn(x + 6, y, colour)
            self.text(x + 15, y + 10, f"×{k}", 13, weight="bold", fill=colour)
        self.add("</g>")

    def neutral(self, x: float, y: float, kind: str, k: int) -> None:
        if kind == "gren":
            fill, hat, name = "#8e1b1b", "bearskin", self.terms["grenadier"]
        else:
            fill, hat, name = "#b9ab92", "cap", self.terms["citizen"]
        self.add(f'<g class="{kind}" data-count="{k}"><title>{escape(name)}</title>')
        self.pawn(x + 6, y, fill, hat=hat)
        if k > 1:
            self.text(x + 15, y + 10, f"×{k}", 13, weight="bold")
        self.add("</g>")

    def building(self, x: float, y: float, owner: int, a: int) -> None:
        colour = SEAT_COLOURS[owner]
        retired = self.v["city_retired"][a]
        self.add(
            f'<g class="building seat-{owner}"><polygon points="{x:.1f},{y + 11:.1f} '
            f"{x:.1f},{y:.1f} {x + 11:.1f},{y - 9:.1f} {x + 22:.1f},{y:.1f} {x + 22:.1f},"
            f'{y + 11:.1f}" fill="{colour}" stroke="{INK}" stroke-width="1.4"/>'
            f'<rect x="{x + 8:.1f}" y="{y + 3:.1f}" width="6" height="8" fill="{PAPER}" '
            'opacity="0.8"/>'
        )
        if retired:
            self.add(
                f'<line x1="{x - 2:.1f}" y1="{y - 9:.1f}" x2="{x + 24:.1f}" y2="{y + 12:.1f}" '
                'stroke="#222" stroke-width="2"/>'
            )
        self.add("</g>")

    def elder(self, x: float, y: float, e: int, owner: int) -> None:
        """An Elder One: a dark green body ringed in its owner's colour, its initial on it."""
        elder = self.t.data.elder_ones[e]
        hits = self.v["elder_hits"][e]
        tip = f"{elder.title} (HP {elder.hp}) of player {owner}" + (
            f", {hits} hit(s)" if hits else ""
        )
        tip = escape(themed(tip, self.theme))
        self.add(f'<g class="elder seat-{owner}" data-elder="{elder.id}"><title>{tip}</title>')
        self.add(
            f'<path d="M{x + 1:.1f},{y + 12:.1f} Q{x + 2:.1f},{y - 9:.1f} {x + 11:.1f},{y - 9:.1f} '
            f"Q{x + 20:.1f},{y - 9:.1f} {x + 21:.1f},{y + 12:.1f} Q{x + 16:.1f},{y + 7:.1f} "
            f'{x + 11:.1f},{y + 12:.1f} Q{x + 6:.1f},{y + 7:.1f} {x + 1:.1f},{y + 12:.1f} Z" '
            f'fill="{ELDER_FILL}" stroke="{SEAT_COLOURS[owner]}" stroke-width="2.5"/>'
        )
        self.text(x + 11, y + 4, elder.title[0], 11, weight="bold", anchor="middle", fill="#ffffff")
        self.add("</g>")

    def trouble(self, x: float, y: float) -> None:
        self.add(
            f'<g class="trouble"><title>{escape(self.terms["trouble_marker"])}</title>'
            f'<circle cx="{x + 10:.1f}" cy="{y + 3:.1f}" r="9.5" fill="#1d1d1d" stroke="#d62d20" '
            'stroke-width="2.5"/>'
        )
        self.text(x + 10, y + 8, "!", 14, weight="bold", anchor="middle", fill="#ffffff")
        self.add("</g>")

    # ------------------------------------------------------------------ the panel
    def panel(self) -> None:
        x, y = PANEL_X, MAP_Y
        self.add(
            f'<rect x="{x - 8}" y="{y - 4}" width="{PANEL_W}" height="{MAP_H + 8}" rx="8" '
            f'fill="#fbf6ea" stroke="#cbb994"/>'
        )
        facts = panel(self.v, self.cfg, self.players)
        # a long game of the expansion may say more than the panel holds: then it is said
        # in smaller lines, and the hand by its cards' names only
        self.dense = self.panel_height(facts, 14, 15) > MAP_H - 10
        y += 14
        for seat in facts.seats:
            y = self.player_block(x, y, seat)
        y = self.piles(x, y + 4, facts.piles + facts.notes)
        if facts.hand is not None:
            self.hand(x, y + 6, facts.hand, facts.known)

    def panel_height(self, facts: Panel, line: float, pile_line: float) -> float:
        """How tall the panel of ``facts`` is drawn with lines ``line`` and ``pile_line`` apart
        and every card's name on a line of its own."""
        height = 14.0
        for seat in facts.seats:
            height += 40 + line * sum(len(_wrap(f.text, 58)) for f in seat.lines)
        height += 4 + pile_line * sum(len(_wrap(r, 60)) for r in facts.piles + facts.notes)
        if facts.hand is not None:
            height += 24 + 16 * len(facts.hand) + 14 * len(facts.known)
        return height

    def player_block(self, x: float, y: float, seat: SeatFacts) -> float:
        q = seat.seat
        top = y - 12
        lines = [(s, LINE_INK[line.kind]) for line in seat.lines for s in _wrap(line.text, 58)]
        step, size = (12, 10) if self.dense else (14, 11)
        height = 22 + step * len(lines)
        stroke = "#c0392b" if seat.deciding else "#d8c9a6"
        self.add(
            f'<rect class="player-block" data-seat="{q}" x="{x - 2}" y="{top}" '
            f'width="{PANEL_W - 12}" height="{height}" rx="5" fill="#fffdf7" stroke="{stroke}" '
            f'stroke-width="{2.5 if seat.deciding else 1}"/>'
        )
        self.pawn(x + 9, y - 4, SEAT_COLOURS[q])
        mark = f"  {seat.mark}" if seat.mark else ""
        self.text(x + 22, y + 4, seat.label + mark, 13, weight="bold", fill=SEAT_COLOURS[q])
        self.text(x + PANEL_W - 20, y + 4, seat.money, 14, weight="bold", anchor="end")
        yy = y + 19
        for s, fill in lines:
            self.text(x + 8, yy, s, size, fill=fill)
            yy += step
        return top + height + 18

    def piles(self, x: float, y: float, rows: Sequence[str]) -> float:
        step, size = (13, 10.5) if self.dense else (15, 11.5)
        for s in [line for r in rows for line in _wrap(r, 60)]:
            self.text(x, y, s, size)
            y += step
        return y

    def hand(self, x: float, y: float, cards: Sequence[HandCard], known: Sequence[str]) -> float:
        """The viewing seat's hand: every card's name, and under each as many lines of its text
        as the panel has room for (so that no card falls off the bottom)."""
        self.text(x, y + 2, f"Your hand ({len(cards)})", 13, weight="bold")
        y += 18
        known_lines = [s for k in known for s in _wrap(k, 60)]
        if self.dense:  # the names only, one after another
            for s in _wrap(", ".join(c.name for c in cards), 60) + known_lines:
                self.text(x + 8, y, s.strip(), 10.5, weight="bold")
                y += 13
            return y
        room = MAP_Y + MAP_H - 6 - y - 14 * len(known_lines) - 16 * len(cards)
        per_card = max(0, min(2, int(room // (12 * max(1, len(cards))))))
        for card in cards:
            self.add(f'<g class="hand-card"><title>{escape(themed(card.text, self.theme))}</title>')
            self.text(x + 8, y, card.name, 11.5, weight="bold")
            y += 13
            for line in _wrap(card.text, 64)[:per_card]:
                self.text(x + 14, y, line.strip(), 10, fill="#6b5a3e")
                y += 12
            self.add("</g>")
            y += 3
        for s in known_lines:
            self.text(x, y, s, 10.5, fill="#1f3b57")
            y += 14
        return y

    def legend_row(self, x: float, y: float) -> None:
        self.pawn(x + 8, y - 6, "#999")
        self.text(x + 18, y + 3, self.terms["agent"], 12)
        self.pawn(x + 78, y - 6, "#8e1b1b", hat="bearskin")
        self.text(x + 88, y + 3, self.terms["grenadier"], 12)
        self.pawn(x + 163, y - 6, "#b9ab92", hat="cap")
        self.text(x + 173, y + 3, self.terms["citizen"], 12)
        self.trouble(x + 258, y - 6)
        self.text(x + 282, y + 3, self.terms["trouble_marker"], 12)

    # ------------------------------------------------------------------ decision
    def decision_bar(self) -> None:
        v = self.v
        y = MAP_Y + MAP_H + 16
        self.add(
            f'<rect x="{MAP_X}" y="{y}" width="{WIDTH - 2 * MAP_X}" height="{HEIGHT - y - 10}" '
            f'rx="8" fill="#3b2f20"/>'
        )
        if v["terminal"]:
            said = outcome_words(
                v.get("winners", []),
                v.get("reason", ""),
                self.theme,
                self.cfg,
                v.get("personalities"),
            )
            lines = _wrap("Game over. " + said, 130)[:2]
            top = y + (22 if len(lines) > 1 else 28)
            for k, line in enumerate(lines):
                self.text(
                    MAP_X + 16,
                    top + 17 * k,
                    line.strip(),
                    14,
                    weight="bold",
                    fill="#ffe9a8",
                    cls="decision",
                )
            pts = v.get("points")
            if pts:
                scores = ", ".join(f"player {q} {p}" for q, p in enumerate(pts))
                x = WIDTH - MAP_X - 16
                self.text(x, y + 28, f"Points: {scores}", 12, fill="#f5edd9", anchor="end")
            return
        question, choices = decision_words(v, self.theme, self.cfg)
        cp = v["current_player"]
        if not self.revealed and cp == v["seat"]:
            head = "Your decision: "
        else:
            head = f"{self.seat_label(cp)} decides: "
        self.text(
            MAP_X + 16, y + 28, head + question, 16, weight="bold", fill="#ffe9a8", cls="decision"
        )
        if choices:
            shown = "; ".join(f"{i}. {t}" for i, (_, t) in enumerate(choices[:6], start=1))
            if len(choices) > 6:
                shown += f"; … {len(choices) - 6} more"
            self.text(MAP_X + 16, y + 50, shown[:190], 12, fill="#f5edd9", cls="choices")


def _text_width(s: str, size: float) -> float:
    """Roughly how wide ``s`` is in bold DejaVu Sans at ``size`` (for placing things)."""
    return 0.66 * size * len(s)


def _wrap(text: str, width: int) -> list[str]:
    """Greedy word wrap at ``width`` characters."""
    lines: list[str] = []
    cur = ""
    for word in text.split():
        if cur and len(cur) + 1 + len(word) > width:
            lines.append(cur)
            cur = "  " + word
        else:
            cur = f"{cur} {word}" if cur else word
    if cur:
        lines.append(cur)
    return lines
