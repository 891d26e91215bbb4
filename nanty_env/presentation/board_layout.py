"""Where the twelve areas lie on the picture of the board: declarative geometry only.

The layout follows the printed board: the Thames flows west to east across the middle; Chelsea,
Westminster, Holborn, City and the East End line its north bank with the West End and Highbury
inland behind them; Battersea, Lambeth, the Strand, Southwark and Bermondsey face them on the
south bank, Southwark wrapping round the Strand. Every pair of neighbours in
``nanty_env/data/board.toml`` shares a border: on land an edge, across the river a bridge (the
Strand reaches Holborn by a neck of land). ``tests/env/test_board_picture.py`` checks this
against the board data, so the picture can never show a neighbourhood the rules do not have.

Coordinates are in map units (the map is ``MAP_W`` x ``MAP_H``). An outline is a list of points
and bank runs: ``("N", x0, x1)`` follows the north bank of the river from ``x0`` to ``x1``,
``("S", x0, x1)`` the south bank, so neighbours along the river share exactly the same line.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

MAP_W, MAP_H = 860.0, 620.0

# The river's centre line, west to east, and its half width.
RIVER_CENTRE: tuple[tuple[float, float], ...] = (
    (0, 300),
    (80, 296),
    (160, 306),
    (260, 322),
    (360, 324),
    (450, 312),
    (540, 300),
    (640, 306),
    (740, 324),
    (860, 332),
)
RIVER_HALF_WIDTH = 20.0

Point = tuple[float, float]
BankRun = tuple[str, float, float]
OutlineItem = Point | BankRun


@dataclass(frozen=True)
class AreaShape:
    """One area: its outline, extra land (a neck across the river), where its name goes and the
    box (x, y, width) in which its pieces are laid out."""

    outline: tuple[OutlineItem, ...]
    label: Point
    pieces: tuple[float, float, float]
    fill: str
    extra: tuple[tuple[OutlineItem, ...], ...] = ()


# Keyed by the area ids of board.toml (the Discworld fact-sheet ids).
AREAS: Mapping[str, AreaShape] = {
    "dolly_sisters": AreaShape(  # Chelsea
        outline=((0, 0), (175, 0), (168, 80), (160, 150), ("N", 150, 0)),
        label=(82, 26),
        pieces=(10, 46, 150),
        fill="#eadcb8",
    ),
    "dragons_landing": AreaShape(  # West End
        outline=((175, 0), (430, 0), (425, 70), (418, 165), (300, 172), (160, 150), (168, 80)),
        label=(298, 26),
        pieces=(182, 46, 232),
        fill="#efd6c4",
    ),
    "unreal_estate": AreaShape(  # Westminster
        outline=((160, 150), (300, 172), (418, 165), (440, 235), ("N", 450, 150)),
        label=(300, 196),
        pieces=(172, 214, 262),
        fill="#dfe4c2",
    ),
    "small_gods": AreaShape(  # Holborn
        outline=(
            (430, 0),
            (610, 0),
            (605, 150),
            (580, 230),
            ("N", 560, 450),
            (440, 235),
            (418, 165),
            (425, 70),
        ),
        label=(518, 26),
        pieces=(436, 46, 166),
        fill="#dadfca",
    ),
    "the_hippo": AreaShape(  # Highbury
        outline=((610, 0), (860, 0), (860, 160), (740, 150), (605, 150)),
        label=(735, 26),
        pieces=(622, 46, 232),
        fill="#d6e2c6",
    ),
    "the_scours": AreaShape(  # City
        outline=((605, 150), (740, 150), (725, 230), ("N", 720, 560), (580, 230)),
        label=(655, 174),
        pieces=(592, 192, 130),
        fill="#e6d1b1",
    ),
    "the_shades": AreaShape(  # East End
        outline=((740, 150), (860, 160), ("N", 860, 720), (725, 230)),
        label=(796, 180),
        pieces=(734, 198, 122),
        fill="#e8cbba",
    ),
    "nap_hill": AreaShape(  # Battersea
        outline=(("S", 0, 230), (225, 400), (235, 500), (228, 620), (0, 620)),
        label=(112, 366),
        pieces=(10, 384, 210),
        fill="#dee1c3",
    ),
    "seven_sleepers": AreaShape(  # Lambeth
        outline=(
            ("S", 230, 400),
            (402, 420),
            (405, 480),
            (415, 620),
            (228, 620),
            (235, 500),
            (225, 400),
        ),
        label=(318, 380),
        pieces=(240, 398, 160),
        fill="#e8d2be",
    ),
    "isle_of_gods": AreaShape(  # Strand
        outline=(("S", 400, 620), (615, 400), (600, 470), (405, 480), (402, 420)),
        label=(510, 368),
        pieces=(414, 384, 192),
        fill="#d9e3cd",
        extra=((("N", 486, 524), ("S", 524, 486)),),
    ),
    "longwall": AreaShape(  # Southwark
        outline=(
            ("S", 620, 700),
            (705, 420),
            (700, 520),
            (690, 620),
            (415, 620),
            (405, 480),
            (600, 470),
            (615, 400),
        ),
        label=(553, 502),
        pieces=(420, 520, 270),
        fill="#eadec2",
    ),
    "dimwell": AreaShape(  # Bermondsey
        outline=(("S", 700, 860), (860, 620), (690, 620), (700, 520), (705, 420)),
        label=(782, 380),
        pieces=(712, 398, 144),
        fill="#ddd3b7",
    ),
}

# Bridges (x on the river) and the pair of areas each one joins; the land neck between Holborn
# and the Strand is drawn as part of the Strand (``extra`` above).
BRIDGES: tuple[tuple[float, str, str], ...] = (
    (75, "dolly_sisters", "nap_hill"),
    (192, "unreal_estate", "nap_hill"),
    (315, "unreal_estate", "seven_sleepers"),
    (425, "unreal_estate", "isle_of_gods"),
    (590, "the_scours", "isle_of_gods"),
    (710, "the_scours", "dimwell"),
    (790, "the_shades", "dimwell"),
)
NECKS: tuple[tuple[float, str, str], ...] = ((505, "small_gods", "isle_of_gods"),)


WOBBLE = 6.0  # how far land borders wander from a straight line (map units)
BANK_STEP = 10.0  # spacing of the points sampled along a bank


def river_y(x: float) -> float:
    """The centre line's height at ``x``: a Catmull-Rom curve through ``RIVER_CENTRE``."""
    pts = RIVER_CENTRE
    if x <= pts[0][0]:
        return pts[0][1]
    if x >= pts[-1][0]:
        return pts[-1][1]
    i = next(k for k in range(len(pts) - 1) if pts[k][0] <= x <= pts[k + 1][0])
    y0 = pts[max(i - 1, 0)][1]
    y1, y2 = pts[i][1], pts[i + 1][1]
    y3 = pts[min(i + 2, len(pts) - 1)][1]
    t = (x - pts[i][0]) / (pts[i + 1][0] - pts[i][0])
    return 0.5 * (
        2 * y1
        + (y2 - y0) * t
        + (2 * y0 - 5 * y1 + 4 * y2 - y3) * t * t
        + (3 * y1 - y0 - 3 * y2 + y3) * t * t * t
    )


def bank(side: str, x0: float, x1: float) -> list[Point]:
    """The points of the north (``"N"``) or south (``"S"``) bank from ``x0`` to ``x1``."""
    dy = -RIVER_HALF_WIDTH if side == "N" else RIVER_HALF_WIDTH
    lo, hi = min(x0, x1), max(x0, x1)
    steps = max(1, math.ceil((hi - lo) / BANK_STEP))
    xs = [lo + (hi - lo) * k / steps for k in range(steps + 1)]
    if x0 > x1:
        xs.reverse()
    return [(x, river_y(x) + dy) for x in xs]


def _on_frame(p: Point, q: Point) -> bool:
    return any(
        (p[k] == edge and q[k] == edge)
        for k, edges in ((0, (0, MAP_W)), (1, (0, MAP_H)))
        for edge in edges
    )


def _wobbly(p: Point, q: Point) -> list[Point]:
    """Points strictly between ``p`` and ``q`` on a gently wandering border. The wander is a
    function of the unordered pair, so both areas sharing the border draw the same line."""
    if _on_frame(p, q):
        return []
    a, b = sorted((p, q))
    length = math.dist(a, b)
    m = max(2, int(length // 22))
    nx, ny = (a[1] - b[1]) / length, (b[0] - a[0]) / length
    phase = (a[0] * 0.37 + a[1] * 0.61 + b[0] * 0.23 + b[1] * 0.41) % (2 * math.pi)
    amp = min(WOBBLE, length / 10)
    pts = []
    for i in range(1, m):
        t = i / m
        off = amp * math.sin(math.pi * t) * math.sin(2.5 * math.pi * t + phase)
        pts.append((a[0] + (b[0] - a[0]) * t + nx * off, a[1] + (b[1] - a[1]) * t + ny * off))
    return pts if (a, b) == (p, q) else pts[::-1]


def outline_points(outline: Sequence[OutlineItem]) -> list[Point]:
    """An outline with its bank runs expanded and its land borders made to wander."""
    corners: list[tuple[Point, bool]] = []  # (point, starts a land border)
    for item in outline:
        if isinstance(item[0], str):
            side, x0, x1 = item  # type: ignore[misc]
            run = bank(side, x0, x1)
            corners += [(pt, False) for pt in run[:-1]]
            corners.append((run[-1], True))
        else:
            corners.append(((float(item[0]), float(item[1])), True))
    out: list[Point] = []
    for k, (pt, land) in enumerate(corners):
        out.append(pt)
        nxt = corners[(k + 1) % len(corners)][0]
        if land:
            out += _wobbly(pt, nxt)
    return out
