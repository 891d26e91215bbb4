"""Conservation laws and bounds of an expansion game's state, for tests, soak runs and
``Game.from_dict``'s validation.

The laws every ruleset's state obeys (pieces and money, each action card in exactly one place,
the three face-up cards included, knowledge true, the frames of the stack and the pending
decision) are the engine's (``nanty_env.engine.validation``); this module adds the expansion's
own: building types, Elder Ones, grenadiers on the board and the track, the Insanity level
between 1 and 13 and never falling, the face-up cards, and the event deck, objectives and
boards dealt once. ``state_violations(g)`` lists the expansion's broken laws as
``"field: problem"`` (the check ``cthulhu.validation`` registers); ``violations(g,
previous_insanity)`` is empty when every law holds, else names the first broken one of
``validation.check_game`` (which runs the expansion's too) and a fallen Insanity level.
"""

from __future__ import annotations

from nanty_env.data.cthulhu.model import DOOMSDAY_LEVEL, TRACK_GRENADIERS
from nanty_env.engine.board import AREAS
from nanty_env.engine.cthulhu.cards import FACE_UP
from nanty_env.engine.cthulhu.pieces import MAX_OWN_ELDERS
from nanty_env.engine.cthulhu.state import CthulhuState, elders_per_area
from nanty_env.engine.cthulhu.track import grenadiers_on_track
from nanty_env.engine.errors import InvalidStateError
from nanty_env.engine.outcome import Termination
from nanty_env.engine.validation import check_game


def state_violations(g: CthulhuState, previous_insanity: int | None = None) -> list[str]:
    """Every broken law of the expansion's own state (the engine checks the shared ones)."""
    out: list[str] = []
    t, n = g.t, g.n

    def check(ok: bool, what: str) -> None:
        if not ok:
            out.append(what)

    for s in range(n):
        kinds = [g.btype[a] for a in AREAS if g.building[a] == s]
        check(len(kinds) == len(set(kinds)), f"btype: seat {s} has two buildings of one type")
        check(
            g.elder_owner.count(s) <= MAX_OWN_ELDERS,
            f"elder_owner: seat {s} has more than {MAX_OWN_ELDERS} Elder Ones",
        )
    for a in AREAS:
        check((g.building[a] < 0) == (g.btype[a] < 0), f"btype[{a}]: set exactly with a building")
        check(-1 <= g.btype[a] < len(t.building_cost), f"btype[{a}]: {g.btype[a]} is no type")
    # Hits may reach an Elder One's HP only while its removal is being resolved.
    dying = {f.get("e") for f in g.stack if f["k"] in ("sacrifice", "elder_rm")}
    for e, (a, o) in enumerate(zip(g.elder_area, g.elder_owner, strict=True)):
        if a < 0:
            check(o < 0 and g.elder_hits[e] == 0, f"elder_owner[{e}]: in the pool but owned or hit")
        else:
            hits = g.elder_hits[e]
            check(
                0 <= o < n and a < 12, f"elder_area[{e}]: on the board needs an owner and an area"
            )
            check(hits >= 0 and (hits < t.elder_hp[e] or e in dying), f"elder_hits[{e}]: {hits}")
    check(
        elders_per_area(g.elder_area) == tuple(g.eo),
        "eo: Elder Ones per area do not match elder_area",
    )
    check(
        min(g.gren) >= 0 and sum(g.gren) + grenadiers_on_track(g) <= TRACK_GRENADIERS,
        "gren: more than four grenadiers on the board and the track",
    )
    check(1 <= g.insanity <= DOOMSDAY_LEVEL, f"insanity: {g.insanity} is not a level 1-13")
    if g.insanity == DOOMSDAY_LEVEL:
        check(
            g.outcome is not None and g.outcome.termination is Termination.DOOMSDAY,
            "insanity: 13 but no end",
        )
    if previous_insanity is not None:
        check(g.insanity >= previous_insanity, f"insanity: fell from {previous_insanity}")
    check(
        len(g.faceup) <= FACE_UP and (len(g.faceup) == FACE_UP or not g.deck),
        f"faceup: {len(g.faceup)} cards with a draw pile left",
    )
    events = len(t.data.events)
    check(sorted(g.event_deck) == list(range(events)), "event_deck: not each event once")
    check(all(0 <= e < events for e in g.events_done), "events_done: not an event")
    objectives = list(range(len(t.data.objectives)))
    check(sorted(g.objective + g.objective_pool) == objectives, "objective: not each dealt once")
    check(
        len(set(g.goo)) == n and all(0 <= x < len(t.data.great_old_ones) for x in g.goo),
        "goo: one different Great Old One per seat",
    )
    check(not g.persona and not g.persona_pool, "persona: no personalities in the expansion")
    return out


def violations(g: CthulhuState, previous_insanity: int | None = None) -> list[str]:
    """Every law ``g`` breaks (empty when all hold): the first of the engine's checks of the
    whole game (``validation.check_game``, the expansion's laws and the pending decision
    included), then the Insanity level falling below ``previous_insanity``."""
    out: list[str] = []
    try:
        check_game(g)
    except InvalidStateError as e:
        out.append(str(e))
    if previous_insanity is not None and g.insanity < previous_insanity:
        out.append(f"insanity: fell from {previous_insanity}")
    return out
