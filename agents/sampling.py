"""Determinisation for bots: a full game consistent with a seat's view.

A thin layer over :func:`nanty_env.engine.determinize.sample_from_view` that first writes into
the view what the seat provably knows but the sampler does not yet use: the cards a Stanley
taker holds up (``keep_one``) are still in the victim's hand, so they must be dealt there.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from nanty_env.engine import HIDDEN_CARD, Game, GameConfig, frame_fields, sample_from_view


def determinize_view(view: dict[str, Any], rng: np.random.Generator, config: GameConfig) -> Game:
    """A game that agrees with ``view`` on everything its seat knows (the rest resampled)."""
    return sample_from_view(_with_visible_keep_one(view), rng, config)


def _with_visible_keep_one(view: dict[str, Any]) -> dict[str, Any]:
    seat = view["seat"]
    frames = [
        f
        for f in map(frame_fields, view["stack"])
        if f["kind"] == "keep_one" and f["target"] != seat and HIDDEN_CARD not in f["cards"]
    ]
    if not frames:
        return view
    v = copy.copy(view)
    v["known_cards"] = [list(row) for row in view["known_cards"]]
    for f in frames:
        row = v["known_cards"][f["target"]]
        row.extend(c for c in f["cards"] if c not in row)
    return v
