"""The game state as plain data and back: what ``Game.to_dict`` writes and ``Game.from_dict``
reads (``Game._load``), field by field by their known shapes. Its own module so that the
compiled build runs these loops in C (``game.py`` stays pure Python); a saved game, a soak's
round trip and every determinisation of a search go through them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from nanty_env.engine.errors import InvalidStateError
from nanty_env.engine.game_log import GameLog
from nanty_env.engine.outcome import Outcome
from nanty_env.engine.rng import GameRng, rng_state
from nanty_env.engine.state import Frame, GameState

LIST_FIELDS = (
    "gren",
    "cit",
    "trouble",
    "building",
    "money",
    "on_board",
    "deck",
    "discard",
    "in_play",
    "removed",
    "event_deck",
    "events_done",
    "persona",
    "persona_pool",
    "city_retired",
    "city_gained",
    "played",
)
# the lists that change often; the others change rarely and are tuples that clones share
COPIED_LISTS = frozenset(("trouble", "money", "on_board", "deck", "discard", "in_play", "played"))
SHARED_LISTS = frozenset(LIST_FIELDS) - COPIED_LISTS
NESTED_FIELDS = ("agents", "hands", "loans", "penalties", "known_unused")
SHARED_ROWS = ("agents", "loans", "penalties", "known_unused")  # immutable rows (state.Rows)
SCALAR_FIELDS = ("n", "active", "turn", "first_player", "ability_used")


def state_dict(g: GameState) -> dict[str, Any]:
    """The whole state of ``g`` as JSON-safe data (works mid-decision): each field converted
    by its known shape (ints, lists of ints, rows, rows of rows), what the generic
    :func:`jsonable` gives without testing every integer's type."""
    d: dict[str, Any] = {"config": g.cfg.to_dict()}
    for name in SCALAR_FIELDS:
        d[name] = getattr(g, name)
    for name in LIST_FIELDS:
        d[name] = list(getattr(g, name))
    for name in NESTED_FIELDS:
        d[name] = [list(row) for row in getattr(g, name)]
    d["known"] = [[list(row) for row in rows] for rows in g.known]
    d["stack"] = [jsonable(f) for f in g.stack]
    outcome = g.outcome
    d["outcome"] = (
        None
        if outcome is None
        else {
            "winners": list(outcome.winners),
            "reason": outcome.reason,
            "points": None if outcome.points is None else list(outcome.points),
        }
    )
    d["rng"] = rng_state(g.rng)
    d["log"] = list(g.log)
    for name in g.extra_scalars:
        d[name] = getattr(g, name)
    for name in g.extra_lists:
        d[name] = list(getattr(g, name))
    return d


def load_state(g: GameState, d: dict[str, Any], validate: bool) -> None:
    """Read the fields of a :func:`state_dict` state into ``g`` (integers as Python ints;
    with ``validate``, a malformed generator state raises ``InvalidStateError``)."""
    for name in SCALAR_FIELDS:
        setattr(g, name, int(d[name]))
    for name in LIST_FIELDS:
        items = [int(x) for x in d[name]]
        setattr(g, name, tuple(items) if name in SHARED_LISTS else items)
    for name in NESTED_FIELDS:
        if name in SHARED_ROWS:
            setattr(g, name, tuple([tuple([int(x) for x in row]) for row in d[name]]))
        else:
            setattr(g, name, [[int(x) for x in row] for row in d[name]])
    g.known = tuple([tuple([tuple([int(x) for x in row]) for row in rows]) for rows in d["known"]])
    g.stack = [frame_from_json(f) for f in d["stack"]]
    o = d.get("outcome")
    g.outcome = (
        None
        if o is None
        else Outcome(
            tuple(o["winners"]),
            o["reason"],
            None if o.get("points") is None else tuple(o["points"]),
        )
    )
    state = d.get("rng")
    if state is None:
        g.rng = GameRng.from_generator(np.random.default_rng())
    elif not validate:
        g.rng = GameRng(state)
    else:
        try:
            g.rng = GameRng.from_state(dict(state))
        except ValueError as e:
            raise InvalidStateError(f"rng: {e}") from e
    g.log = GameLog(d.get("log", []))
    for name in g.extra_scalars:
        setattr(g, name, int(d[name]))
    for name in g.extra_lists:
        items = [int(x) for x in d[name]]
        setattr(g, name, items if name in g.extra_copied else tuple(items))


def jsonable(x: Any) -> Any:
    """``x`` with its tuples as lists, all the way down (a frame as JSON data)."""
    if isinstance(x, dict):
        return {k: jsonable(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [jsonable(v) for v in x]
    return x


def frame_from_json(f: dict[str, Any]) -> Frame:
    """A frame read back from JSON data: its lists as tuples, all the way down."""
    return {k: tuple([tuplify(x) for x in v]) if isinstance(v, list) else v for k, v in f.items()}


def tuplify(x: Any) -> Any:
    return tuple([tuplify(v) for v in x]) if isinstance(x, list) else x
