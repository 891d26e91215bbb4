"""Pixels of the board picture (``render_mode="rgb_array"``): the SVG of ``board_svg`` rendered
by resvg.

resvg (the ``resvg-py`` wheel) is a self-contained renderer: no system library (cairo, a
browser) is needed, so the same picture comes out on any machine. Fonts: matplotlib's bundled
DejaVu fonts when matplotlib is installed (it is in the ``env`` extra), else the system's.
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from nanty_env.engine import GameConfig
from nanty_env.presentation.board_svg import board_svg


@cache
def _font_dirs() -> tuple[str, ...]:
    try:
        import matplotlib
    except ImportError:  # pragma: no cover - matplotlib is in the env extra
        return ()
    return (str(Path(matplotlib.get_data_path()) / "fonts" / "ttf"),)


def svg_to_png(svg: str, scale: float = 1.0) -> bytes:
    """PNG bytes of an SVG picture (``scale`` 2 for a sharper, twice as large image)."""
    import resvg_py

    return bytes(
        resvg_py.svg_to_bytes(
            svg_string=svg,
            font_dirs=list(_font_dirs()),
            font_family="DejaVu Sans",
            sans_serif_family="DejaVu Sans",
            zoom=scale if scale != 1.0 else None,
        )
    )


def png_to_rgb(png: bytes) -> np.ndarray:
    """An RGB uint8 array (height x width x 3) of PNG bytes."""
    from PIL import Image

    with Image.open(io.BytesIO(png)) as im:
        return np.asarray(im.convert("RGB")).copy()


def render_view_image(
    view: dict[str, Any], theme: str = "nanty", config: GameConfig | None = None
) -> np.ndarray:
    """An RGB image of ``view`` (a seat's view shows only what that seat knows)."""
    cfg = config or GameConfig(num_players=view["num_players"], theme=theme)
    return png_to_rgb(svg_to_png(board_svg(view, cfg)))
