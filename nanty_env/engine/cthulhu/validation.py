"""The expansion's part of state validation (``Game.from_dict``): the schema of its extra
fields, its invariants as a registered whole-state check, and the domains of its frame fields.

The invariants are those of ``cthulhu.invariants`` (the soak benchmark's), so a restored state
is held to exactly what random play is measured against.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nanty_env.data.cthulhu.model import DOOMSDAY_LEVEL, MAX_ELDER_ONES
from nanty_env.engine.actions import NUM_AREAS
from nanty_env.engine.cthulhu.invariants import state_violations
from nanty_env.engine.cthulhu.state import CthulhuState
from nanty_env.engine.validation import (
    AREA,
    Domain,
    _in_range,
    _length,
    _turn_frame,
    fail,
    register_check,
    register_endings,
    register_frame_field,
    register_frame_kind,
)

ELDER_OR_NONE = Domain(-1, lambda n: MAX_ELDER_ONES, what="Elder One or -1")
ELDER = Domain(0, lambda n: MAX_ELDER_ONES, what="Elder One")
for _kind in ("move_minion",):
    register_frame_field("e", ELDER_OR_NONE, _kind)
for _kind in ("sacrifice", "elder_rm", "summon_place"):
    register_frame_field("e", ELDER, _kind)
register_frame_field("roll", Domain(1, lambda n: 13, what="die roll"), "summon")
register_frame_field("a", AREA, "move_minion")
register_frame_field("a", AREA, "build_type")


def _elder(g: CthulhuState, f: dict[str, Any], where: str) -> int:
    """The frame's Elder One (``e``), one of the pack's."""
    e = f["e"]
    if e >= len(g.elder_area):
        fail(f"{where}.e", f"{e} is not an Elder One of the pack ({len(g.elder_area)})")
    return e


def _move_minion(g: CthulhuState, f: dict[str, Any], where: str) -> None:
    p, a = f["p"], f["a"]
    if f["e"] >= 0:
        e = _elder(g, f, where)
        if g.elder_area[e] != a or g.elder_owner[e] != p:
            fail(f"{where}.e", f"Elder One {e} is not seat {p}'s in area {a}")
    elif not g.agents[p][a]:
        fail(f"{where}.a", f"no agent of seat {p} in area {a}")


def _on_board(g: CthulhuState, f: dict[str, Any], where: str) -> None:
    e = _elder(g, f, where)
    if g.elder_area[e] < 0:
        fail(f"{where}.e", f"Elder One {e} is in the pool")


def _in_pool(g: CthulhuState, f: dict[str, Any], where: str) -> None:
    e = _elder(g, f, where)
    if g.elder_area[e] >= 0:
        fail(f"{where}.e", f"Elder One {e} is on the board already")


def _refill(g: CthulhuState, f: dict[str, Any], where: str) -> None:
    if f["left"] > len(g.deck) + len(g.faceup):
        fail(f"{where}.left", f"{f['left']} cards, but the pile and face-up cards hold fewer")


_UP = ("up",)
register_frame_kind("turn", ("s",), stages=4, rule=_turn_frame, lower=True, ruleset="cthulhu")
register_frame_kind("relocate_building", ("a", "half"), _UP, ruleset="cthulhu")
register_frame_kind("build_type", ("a", "half"), _UP, ruleset="cthulhu")
register_frame_kind("refill", ("left",), rule=_refill, ruleset="cthulhu")
register_frame_kind("take_faceup", (), _UP, ruleset="cthulhu")
register_frame_kind("move_minion", ("a", "e"), _UP, rule=_move_minion, ruleset="cthulhu")
register_frame_kind("pick_minion", ("ft",), _UP, ruleset="cthulhu")
register_frame_kind("summon", ("roll",), _UP, ruleset="cthulhu")
register_frame_kind("summon_place", ("e",), _UP, rule=_in_pool, ruleset="cthulhu")
register_frame_kind("sacrifice", ("e",), _UP, rule=_on_board, ruleset="cthulhu")
register_frame_kind(
    "elder_rm", ("e", "s"), ("r", "up"), stages=2, rule=_on_board, lower=True, ruleset="cthulhu"
)
register_endings(
    "cthulhu",
    {
        "objective": lambda g: [o.id for o in g.t.data.objectives],
        "deck_exhausted": lambda g: ("objective", "points"),
        "doomsday": lambda g: ("",),
    },
)


def check_schema(d: Mapping[str, Any]) -> None:
    """The expansion's fields, present and integers (``validation.check_schema`` checked
    ``CthulhuGame.extra_scalars`` and ``extra_lists``): levels, lengths and ranges."""
    if not 1 <= d["insanity"] <= DOOMSDAY_LEVEL:
        fail("insanity", f"{d['insanity']} is not a level 1-{DOOMSDAY_LEVEL}")
    n = d["n"]
    for name, size in (("goo", n), ("objective", n), ("btype", NUM_AREAS)):
        _length(d[name], size, name)
    elders = len(d["elder_area"])
    for name in ("elder_owner", "elder_arrived", "elder_hits"):
        if len(d[name]) != elders:
            fail(name, f"must have one entry per Elder One ({elders})")
    _in_range(d["elder_area"], -1, NUM_AREAS, "elder_area")
    _in_range(d["elder_owner"], -1, n, "elder_owner")


@register_check("cthulhu")
def check_cthulhu(g: CthulhuState) -> None:
    """The expansion's invariants (nothing to check in a base game)."""
    if not g.has_elders:
        return
    if len(g.elder_area) != g.t.num_elders:
        fail("elder_area", f"must have one entry per Elder One of the pack ({g.t.num_elders})")
    bad = state_violations(g)
    if bad:
        field, _, problem = bad[0].partition(": ")
        fail(field, problem)
