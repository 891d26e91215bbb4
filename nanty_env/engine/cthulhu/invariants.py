"""Conservation laws and bounds of an expansion game's state, for tests, soak runs and
``Game.from_dict``'s validation.

``violations(g, previous_insanity)`` lists every law ``g`` breaks as ``"field: problem"`` (empty
when all hold): pieces conserved (agents, buildings and their cards, Elder Ones, grenadiers on
the board and the track, new citizens), at most one trouble marker per area, the Insanity level
between 1 and 13 and never falling, money never negative, every action card in exactly one place
(the three face-up cards included), the event deck, objectives and boards dealt once, knowledge
true, and a well-formed pending decision. ``state_violations(g)`` leaves out the pending
decision (for a state not yet resumed).
"""

from __future__ import annotations

from itertools import pairwise

from nanty_env.data.cthulhu.model import DOOMSDAY_LEVEL, TRACK_GRENADIERS
from nanty_env.engine import board
from nanty_env.engine.actions import NUM_AREAS
from nanty_env.engine.cthulhu.cards import FACE_UP
from nanty_env.engine.cthulhu.pieces import MAX_OWN_ELDERS
from nanty_env.engine.cthulhu.state import CthulhuState
from nanty_env.engine.cthulhu.track import grenadiers_on_track
from nanty_env.engine.outcome import Termination
from nanty_env.engine.tables import AGENTS_PER_PLAYER, CITIZENS, TROUBLE_MARKERS


def state_violations(g: CthulhuState, previous_insanity: int | None = None) -> list[str]:
    """Every broken law of ``g``'s state, the pending decision aside."""
    out: list[str] = []
    t, n = g.t, g.n

    def check(ok: bool, what: str) -> None:
        if not ok:
            out.append(what)

    for s in range(n):
        row = g.agents[s]
        check(
            min(row) >= 0 and sum(row) == g.on_board[s] <= AGENTS_PER_PLAYER,
            f"agents[{s}]: {sum(row)} agents, on_board {g.on_board[s]}",
        )
        check(g.money[s] >= 0, f"money[{s}]: {g.money[s]} is negative")
        kinds = [g.btype[a] for a in board.AREAS if g.building[a] == s]
        check(len(kinds) == len(set(kinds)), f"btype: seat {s} has two buildings of one type")
        check(
            g.elder_owner.count(s) <= MAX_OWN_ELDERS,
            f"elder_owner: seat {s} has more than {MAX_OWN_ELDERS} Elder Ones",
        )
    for a in board.AREAS:
        check((g.building[a] < 0) == (g.btype[a] < 0), f"btype[{a}]: set exactly with a building")
        check(-1 <= g.btype[a] < len(t.building_cost), f"btype[{a}]: {g.btype[a]} is no type")
    eo = [0] * NUM_AREAS
    # Hits may reach an Elder One's HP only while its removal is being resolved.
    dying = {f.get("e") for f in g.stack if f["k"] in ("sacrifice", "elder_rm")}
    for e, (a, o) in enumerate(zip(g.elder_area, g.elder_owner, strict=True)):
        if a < 0:
            check(o < 0 and g.elder_hits[e] == 0, f"elder_owner[{e}]: in the pool but owned or hit")
        else:
            eo[a] += 1
            hits = g.elder_hits[e]
            check(
                0 <= o < n and a < 12, f"elder_area[{e}]: on the board needs an owner and an area"
            )
            check(hits >= 0 and (hits < t.elder_hp[e] or e in dying), f"elder_hits[{e}]: {hits}")
    check(eo == list(g.eo), "eo: Elder Ones per area do not match elder_area")
    check(
        min(g.gren) >= 0 and sum(g.gren) + grenadiers_on_track(g) <= TRACK_GRENADIERS,
        "gren: more than four grenadiers on the board and the track",
    )
    check(min(g.cit) >= 0 and sum(g.cit) <= CITIZENS, "cit: more than three new citizens")
    check(set(g.trouble) <= {0, 1} and sum(g.trouble) <= TROUBLE_MARKERS, "trouble: markers")
    check(1 <= g.insanity <= DOOMSDAY_LEVEL, f"insanity: {g.insanity} is not a level 1-13")
    if g.insanity == DOOMSDAY_LEVEL:
        check(
            g.outcome is not None and g.outcome.termination is Termination.DOOMSDAY,
            "insanity: 13 but no end",
        )
    if previous_insanity is not None:
        check(g.insanity >= previous_insanity, f"insanity: fell from {previous_insanity}")

    cards = [*g.deck, *g.discard, *g.in_play, *g.removed, *g.faceup]
    for s in range(n):
        cards += [*g.hands[s], *g.loans[s], *g.penalties[s]]
        check(set(g.loans[s]) <= t.loan_cards, f"loans[{s}]: not a loan card")
        for q, known in enumerate(g.known[s]):
            check(set(known) <= set(g.hands[q]), f"known[{s}][{q}]: a card not in that hand")
    check(sorted(cards) == list(range(len(t.data.cards))), "cards: not each in exactly one place")
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
    """Every broken law of ``g``, its pending decision included."""
    out = state_violations(g, previous_insanity)
    legal = g.legal_actions()
    if g.is_terminal:
        if legal or g.current_player != -1:
            out.append("stack: actions after the end")
    elif not legal or any(x >= y for x, y in pairwise(legal)):
        out.append("stack: legal actions empty or unsorted")
    elif legal[0] < 0 or legal[-1] >= g.num_actions or not 0 <= g.current_player < g.n:
        out.append("stack: an action or the current player out of range")
    return out
