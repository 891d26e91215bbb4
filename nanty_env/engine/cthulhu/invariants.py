"""Conservation laws and bounds of an expansion game's state, for tests and soak runs.

``violations(g, previous_insanity)`` lists every law ``g`` breaks (empty when all hold): pieces
conserved (agents, buildings and their cards, Elder Ones, grenadiers on the board and the
track, new citizens), at most one trouble marker per area, the Insanity level between 1 and 13
and never falling, money never negative, every action card in exactly one place (the three
face-up cards included), the event deck, objectives and boards dealt once, knowledge true, and
a well-formed pending decision.
"""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING

from nanty_env.data.cthulhu.model import DOOMSDAY_LEVEL, TRACK_GRENADIERS
from nanty_env.engine.cthulhu.flow import FACE_UP
from nanty_env.engine.cthulhu.pieces import MAX_OWN_ELDERS
from nanty_env.engine.cthulhu.track import grenadiers_on_track
from nanty_env.engine.tables import AGENTS_PER_PLAYER, CITIZENS, TROUBLE_MARKERS

if TYPE_CHECKING:
    from nanty_env.engine.cthulhu.game import CthulhuGame as Game


def violations(g: Game, previous_insanity: int | None = None) -> list[str]:
    """Every broken law of ``g``'s state (see the module docstring)."""
    out: list[str] = []
    t, n = g.t, g.n

    def check(ok: bool, what: str) -> None:
        if not ok:
            out.append(what)

    for s in range(n):
        row = g.agents[s]
        check(min(row) >= 0 and sum(row) == g.on_board[s] <= AGENTS_PER_PLAYER, f"agents {s}")
        check(g.money[s] >= 0, f"money {s} = {g.money[s]}")
        kinds = [g.btype[a] for a in range(12) if g.building[a] == s]
        check(len(kinds) == len(set(kinds)) <= len(t.building_cost), f"building cards {s}")
        check(g.elder_owner.count(s) <= MAX_OWN_ELDERS, f"more than two Elder Ones: {s}")
    for a in range(12):
        check((g.building[a] < 0) == (g.btype[a] < 0), f"building type in area {a}")
        check(-1 <= g.building[a] < n, f"building owner in area {a}")
    eo = [0] * 12
    # Hits may reach an Elder One's HP only while its removal is being resolved.
    dying = {f["e"] for f in g.stack if f["k"] in ("sacrifice", "elder_rm")}
    for e, (a, o) in enumerate(zip(g.elder_area, g.elder_owner, strict=True)):
        if a < 0:
            check(o < 0 and g.elder_hits[e] == 0, f"Elder One {e} in the pool")
        else:
            eo[a] += 1
            hits = g.elder_hits[e]
            check(0 <= o < n and hits >= 0 and (hits < t.elder_hp[e] or e in dying), f"Elder {e}")
    check(eo == list(g.eo), "Elder Ones per area")
    check(min(g.gren) >= 0 and sum(g.gren) + grenadiers_on_track(g) <= TRACK_GRENADIERS, "gren")
    check(min(g.cit) >= 0 and sum(g.cit) <= CITIZENS, "new citizens")
    check(set(g.trouble) <= {0, 1} and sum(g.trouble) <= TROUBLE_MARKERS, "trouble markers")
    check(1 <= g.insanity <= DOOMSDAY_LEVEL, f"insanity {g.insanity}")
    if g.insanity == DOOMSDAY_LEVEL:
        check(g.outcome is not None and g.outcome.reason == "doomsday", "doomsday not ended")
    if previous_insanity is not None:
        check(g.insanity >= previous_insanity, "insanity fell")

    cards = g.deck + g.discard + g.in_play + g.removed + g.faceup
    for s in range(n):
        cards += g.hands[s] + g.loans[s] + g.penalties[s]
        check(set(g.loans[s]) <= t.loan_cards, f"loans {s}")
        for q, known in enumerate(g.known[s]):
            check(set(known) <= set(g.hands[q]), f"{s} knows a card {q} does not hold")
    check(sorted(cards) == list(range(len(t.data.cards))), "action cards not each in one place")
    check(len(g.faceup) == FACE_UP or not g.deck, "face-up row not full")
    check(sorted(g.event_deck) == list(range(len(t.data.events))), "event deck")
    check(sorted(g.objective + g.objective_pool) == list(range(len(t.data.objectives))), "objs")
    check(len(set(g.goo)) == n, "Great Old One boards")

    legal = g.legal_actions()
    if g.is_terminal:
        check(legal == [] and g.current_player == -1, "actions after the end")
    else:
        check(bool(legal) and all(x < y for x, y in pairwise(legal)), "legal actions unsorted")
        check(legal[0] >= 0 and legal[-1] < g.num_actions, "action out of the space")
        check(0 <= g.current_player < n, "current player")
    return out
