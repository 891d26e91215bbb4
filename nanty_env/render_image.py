"""Image rendering (``render_mode="rgb_array"``) of one seat's view: the twelve areas with
agents, buildings, grenadiers, citizens and trouble, each seat's money and hand size, and only
that seat's own hand and personality.

It draws from the seat's dict view (``Game.view``), so it cannot show what the seat does not
know. Needs matplotlib (drawn off-screen with the Agg canvas, no display).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from nanty_env.engine.tables import tables

SEAT_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e")
GRID_COLUMNS = 4
WIDTH, HEIGHT, DPI = 9.6, 6.4, 100  # inches: a 960 x 640 image


def render_view_image(view: dict[str, Any], theme: str = "nanty") -> np.ndarray:
    """An RGB image (uint8, height x width x 3) of ``view``."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    d = tables().data
    terms = d.themes[theme]
    fig = Figure(figsize=(WIDTH, HEIGHT), dpi=DPI)
    canvas = FigureCanvasAgg(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, 96)
    ax.set_ylim(0, 64)
    ax.axis("off")
    seat, n = view["seat"], view["num_players"]
    ax.text(
        1,
        62,
        f"{terms['game_title']} · turn {view['turn']} · player {view['active']}'s turn · "
        f"you are player {seat}",
        fontsize=11,
        weight="bold",
        va="top",
    )

    tile_w, tile_h = 15.5, 16.0
    for area in d.areas:
        i = area.index
        x0 = 1 + (i % GRID_COLUMNS) * (tile_w + 0.8)
        y0 = 41 - (i // GRID_COLUMNS) * (tile_h + 1.0)
        edge = "#5b7fa6" if area.river else "#777777"
        face = "#f3e2e2" if view["trouble"][i] else "#f7f4ea"
        ax.add_patch(Rectangle((x0, y0), tile_w, tile_h, facecolor=face, edgecolor=edge, lw=1.5))
        ax.text(
            x0 + 0.5,
            y0 + tile_h - 0.6,
            f"{area.number} {area.name(theme)}",
            fontsize=7,
            va="top",
            weight="bold",
        )
        owner = view["buildings"][i]
        if owner >= 0:
            hatch = "xx" if view["city_retired"][i] else None
            ax.add_patch(
                Rectangle(
                    (x0 + tile_w - 3.6, y0 + tile_h - 4.2),
                    3,
                    2.6,
                    hatch=hatch,
                    facecolor=SEAT_COLOURS[owner],
                    edgecolor="black",
                )
            )
        for q in range(n):
            for k in range(view["agents"][q][i]):
                ax.add_patch(
                    Rectangle(
                        (x0 + 0.6 + k * 1.3, y0 + 9.5 - q * 1.7),
                        1.0,
                        1.0,
                        facecolor=SEAT_COLOURS[q],
                        edgecolor="none",
                    )
                )
        tokens = []
        if view["grenadiers"][i]:
            tokens.append(f"{terms['grenadiers']} {view['grenadiers'][i]}")
        if view["citizens"][i]:
            tokens.append(f"{terms['citizens']} {view['citizens'][i]}")
        if view["trouble"][i]:
            tokens.append(terms["trouble_marker"])
        ax.text(x0 + 0.5, y0 + 0.5, " · ".join(tokens), fontsize=6, color="#444444")

    money = terms["money_symbol"]
    for q in range(n):
        y = 40 - q * 3.2
        extra = f", {len(view['loans'][q])} loan(s)" if view["loans"][q] else ""
        ax.add_patch(Rectangle((67, y), 1.6, 1.6, facecolor=SEAT_COLOURS[q], edgecolor="black"))
        me = " (you)" if q == seat else ""
        ax.text(
            69.5,
            y + 0.8,
            f"player {q}{me}: {money}{view['money'][q]}, {view['hand_sizes'][q]} cards{extra}",
            fontsize=8,
            va="center",
        )
    persona = d.personalities[view["personality"]].name(theme)
    hand = sorted(d.cards[c].name(theme) for c in view["hand"])
    lines = [f"your personality: {persona}", "your hand:", *(f"  {h}" for h in hand)]
    lines.append(f"draw pile {view['deck_size']} · discard {len(view['discard'])}")
    ax.text(67, 26, "\n".join(lines), fontsize=7.5, va="top", family="monospace")
    if view["decision"]:
        ax.text(1, 1.2, f"your decision: {view['decision']}", fontsize=8, color="#8b0000")
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[..., :3].copy()
