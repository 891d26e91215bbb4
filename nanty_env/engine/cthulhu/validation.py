"""The expansion's part of state validation (``Game.from_dict``): the schema of its extra
fields, its invariants as a registered whole-state check, and the domains of its frame fields.

The invariants are those of ``cthulhu.invariants`` (the soak benchmark's), so a restored state
is held to exactly what random play is measured against.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from nanty_env.data.cthulhu.model import DOOMSDAY_LEVEL, MAX_ELDER_ONES
from nanty_env.engine.cthulhu.invariants import state_violations
from nanty_env.engine.cthulhu.state import CthulhuState
from nanty_env.engine.validation import (
    Domain,
    _int_list,
    _is_int,
    fail,
    register_check,
    register_frame_field,
)

ELDER_OR_NONE = Domain(-1, lambda n: MAX_ELDER_ONES, what="Elder One or -1")
ELDER = Domain(0, lambda n: MAX_ELDER_ONES, what="Elder One")
for _kind in ("move_minion",):
    register_frame_field("e", ELDER_OR_NONE, _kind)
for _kind in ("sacrifice", "elder_rm", "summon_place"):
    register_frame_field("e", ELDER, _kind)
register_frame_field("roll", Domain(1, lambda n: 13, what="die roll"), "summon")


def check_schema(d: Mapping[str, Any], scalars: Sequence[str], lists: Sequence[str]) -> None:
    """The expansion's fields: present, integers, of the right lengths."""
    missing = [k for k in (*scalars, *lists) if k not in d]
    if missing:
        fail(missing[0], "missing (an expansion state)")
    for name in scalars:
        if not _is_int(d[name]):
            fail(name, f"must be an integer, got {d[name]!r}")
    if not 1 <= d["insanity"] <= DOOMSDAY_LEVEL:
        fail("insanity", f"{d['insanity']} is not a level 1-{DOOMSDAY_LEVEL}")
    for name in lists:
        _int_list(d[name], name)
    n = d["n"]
    for name, size in (("goo", n), ("objective", n), ("btype", 12)):
        if len(d[name]) != size:
            fail(name, f"must have {size} entries, has {len(d[name])}")
    elders = len(d["elder_area"])
    for name in ("elder_owner", "elder_arrived", "elder_hits"):
        if len(d[name]) != elders:
            fail(name, f"must have one entry per Elder One ({elders})")


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
