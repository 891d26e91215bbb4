"""The Insanity (Doomsday) track: the Insanity action, grenadiers leaving the track, and the
expansion's event deck, which cycles (a drawn event goes to the bottom).

The marker only rises. Entering a grenadier box: roll the die; the grenadier standing in that
box goes into the rolled area and removes the trouble marker there (it brings none). Entering an
event box: draw the top event, carry it out, put it at the bottom (the base game's
``events.draw_event`` with the ruleset's ``events_cycle`` and ``event_effects``: the base
game's and :func:`stars_are_right`). Reaching 13: doomsday.
"""

from __future__ import annotations

from nanty_env.data.cthulhu.model import DOOMSDAY_LEVEL
from nanty_env.engine.board import AREAS
from nanty_env.engine.cthulhu.state import CthulhuState
from nanty_env.engine.cthulhu.victory import end_by_doomsday
from nanty_env.engine.events import draw_event
from nanty_env.engine.state import with_item


def grenadiers_on_track(g: CthulhuState) -> int:
    """Grenadiers still standing in boxes the marker has not reached."""
    flags = g.t.track_grenadier
    count = 0
    for lv in range(g.insanity + 1, DOOMSDAY_LEVEL + 1):
        if flags[lv]:
            count += 1
    return count


def advance_insanity(g: CthulhuState, p: int) -> None:
    """The Insanity action of player ``p``: one level up and whatever the new box holds."""
    g.insanity += 1
    level = g.insanity
    if g.cfg.log:
        g.say(f"player {p} advances the Insanity marker to {level}")
    if level >= DOOMSDAY_LEVEL:
        if g.cfg.log:
            g.say("Azathoth awakes: doomsday")
        end_by_doomsday(g)
        return
    t = g.t
    if t.track_grenadier[level]:
        release_grenadier(g)
    if t.track_event[level]:
        draw_event(g, p)


def release_grenadier(g: CthulhuState) -> None:
    """The grenadier of the box just reached goes into the rolled area; trouble there goes."""
    a = g.roll()
    g.gren = with_item(g.gren, a, g.gren[a] + 1)
    g.trouble[a] = 0
    if g.cfg.log:
        g.say(f"a grenadier leaves the track for area {a + 1}")


def stars_are_right(g: CthulhuState, p: int) -> None:
    """A trouble marker goes into every area that holds an Elder One."""
    for a in AREAS:
        if g.eo[a]:
            g.trouble[a] = 1
    if g.cfg.log:
        g.say("the stars are right: trouble wherever an Elder One stands")
