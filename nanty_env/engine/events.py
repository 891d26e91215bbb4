"""The twelve random events. Every roll of an event is made before anyone decides anything
(FAQ), then the affected players decide in turn order starting with the active player."""

from __future__ import annotations

from collections.abc import Callable

from nanty_env.engine import actions as A
from nanty_env.engine import board
from nanty_env.engine.actions import ABILITY, ABILITY_ACTIONS, AREA, AREA_ACTIONS
from nanty_env.engine.board import CITIZEN, GRENADIER
from nanty_env.engine.frames import Frame, handler, pop, push
from nanty_env.engine.reactions import (
    EVENT,
    HOLBORN_COST,
    ask,
    blocked,
    holborn_usable,
    remove_building_event,
    remove_pawn,
)
from nanty_env.engine.state import GameState, with_item
from nanty_env.engine.tables import CITIZENS, GRENADIERS
from nanty_env.engine.victory import end_by_riots

FOG_CARDS = 5
RIOT_TROUBLE = 8


def seats_from(g: GameState, first: int) -> tuple[int, ...]:
    """All seats in turn order starting with ``first``."""
    return tuple([(first + i) % g.n for i in range(g.n)])


def draw_event(g: GameState, p: int) -> None:
    """Draw the top event and carry it out (the ruleset's ``event_effects``): a random event
    happens at most once; where the ruleset's ``events_cycle``, it goes to the bottom of the
    deck instead."""
    *rest, e = g.event_deck
    cycle = g.rules.events_cycle
    g.event_deck = (e, *rest) if cycle else tuple(rest)
    g.events_done = (*g.events_done, e)
    ev = g.t.data.events[e]
    if g.cfg.log:
        g.say(f"{'event' if cycle else 'random event'}: {ev.name(g.cfg.theme)}")
    g.rules.event_effects[ev.effect](g, p)


def _rolls(g: GameState, k: int, *, distinct: bool = False) -> list[int]:
    rolls = [g.roll() for _ in range(k)]
    if distinct:
        rolls = sorted(set(rolls), key=rolls.index)
    if g.cfg.log:
        g.say("rolls " + ", ".join(str(r + 1) for r in rolls))
    return rolls


def _remove_agents_in(g: GameState, p: int, area: int) -> None:
    """Queue the removal of every player's agents in ``area`` (each owner may react per agent),
    in turn order from ``p``."""
    for q in reversed(seats_from(g, p)):
        for _ in range(g.agents[q][area]):
            remove_pawn(g, q, area, EVENT, text=False)


def zeppelin_crash(g: GameState, p: int) -> None:
    a = _rolls(g, 1)[0]
    # Neutral pawns and the marker go at once; agents and the building may be defended.
    g.gren = with_item(g.gren, a, 0)
    g.cit = with_item(g.cit, a, 0)
    g.trouble[a] = 0
    push(g, {"k": "ev_clear_trouble", "p": p, "a": a})
    remove_building_event(g, a)
    _remove_agents_in(g, p, a)


def ev_clear_trouble_options(g: GameState, f: Frame) -> list[int] | None:
    pop(g)
    g.trouble[f["a"]] = 0
    return None


@handler("ev_clear_trouble", "Zeppelin Crash: the trouble marker goes (automatic)")
class ClearTrouble:
    options = staticmethod(ev_clear_trouble_options)


def flood(g: GameState, p: int) -> None:
    rolled = _rolls(g, 2, distinct=True)
    river = g.t.river
    flooded = tuple([a for a in rolled if river[a]])
    if flooded:
        push(
            g,
            {
                "k": "flood",
                "p": p,
                "fl": flooded,
                "seats": seats_from(g, p)[1:],
                "stay": (0,) * len(flooded),
            },
        )


def flood_options(g: GameState, f: Frame) -> list[int] | None:
    p, fl = f["p"], f["fl"]
    for i, a in enumerate(fl):
        if g.agents[p][a] > f["stay"][i]:
            out = [AREA_ACTIONS[d] for d in g.t.neighbours[a] if d not in fl]
            if holborn_usable(g, p):
                out.append(ABILITY_ACTIONS[g.t.holborn])
            return out
    if not f["seats"]:
        pop(g)
    else:
        f["p"], f["seats"] = f["seats"][0], f["seats"][1:]
        f["stay"] = (0,) * len(fl)
    return None


def flood_act(g: GameState, f: Frame, a: int) -> None:
    p, fl = f["p"], f["fl"]
    i = next(i for i, x in enumerate(fl) if g.agents[p][x] > f["stay"][i])
    if a >= ABILITY:
        g.money[p] -= HOLBORN_COST
        stay = list(f["stay"])
        stay[i] += 1
        f["stay"] = tuple(stay)
        if g.cfg.log:
            g.say(f"player {p} pays Holborn: an agent stays in area {fl[i] + 1}")
    else:
        board.move_pawn(g, p, fl[i], a - AREA)
        if g.cfg.log:
            g.say(f"player {p} moves an agent from area {fl[i] + 1} to area {a - AREA + 1}")


@handler("flood", "Flood: move your next flooded agent to a dry neighbour (or pay Holborn)")
class Flood:
    options = staticmethod(flood_options)
    act = staticmethod(flood_act)


def fire(g: GameState, p: int) -> None:
    """Burn the rolled building, then keep rolling while the roll is next to the last area and
    holds a building. A Holborn-saved building still burns for spreading (FAQ)."""
    near = g.t.neighbours
    a = g.roll()
    chain, rolls = [], [a]
    while g.building[a] >= 0 and a not in chain:
        chain.append(a)
        b = g.roll()
        rolls.append(b)
        if b not in near[a]:
            break
        a = b
    if g.cfg.log:
        g.say("fire rolls " + ", ".join(str(r + 1) for r in rolls))
    for x in reversed(chain):
        remove_building_event(g, x)


def fog(g: GameState, p: int) -> None:
    k = min(FOG_CARDS, len(g.deck))
    for _ in range(k):
        g.discard.append(g.deck.pop())
    if g.cfg.log:
        g.say(f"fog: {k} cards from the draw pile are discarded face up")


def riots(g: GameState, p: int) -> None:
    if board.trouble_count(g) >= RIOT_TROUBLE:
        end_by_riots(g)
    else:
        if g.cfg.log:
            g.say("riots: fewer than 8 trouble markers, nothing happens")


def explosion(g: GameState, p: int) -> None:
    remove_building_event(g, _rolls(g, 1)[0])


def earthquake(g: GameState, p: int) -> None:
    for a in reversed(_rolls(g, 2, distinct=True)):
        remove_building_event(g, a)


def mysterious_murders(g: GameState, p: int) -> None:
    push(g, {"k": "murders", "p": p, "seats": seats_from(g, p)[1:], "a": -1, "s": 0})


def murder_targets(g: GameState, p: int, a: int) -> list[int]:
    """Pawns the roller may pick in ``a``: any but their own agents, unless only those are
    there."""
    out = [
        x
        for x in board.assassination_targets(g, p, need_trouble=False, grenadiers=True)
        if A.split_pawn(x)[0] == a
    ]
    if not out and g.agents[p][a]:
        out = [A.pawn_action(a, 0)]
    return sorted(out)


def murders_options(g: GameState, f: Frame) -> list[int] | None:
    if f["s"] == 0:  # the current roller rolls
        f["s"] = 1
        f["a"] = g.roll()
        if g.cfg.log:
            g.say(f"player {f['p']} rolls {f['a'] + 1} for Mysterious Murders")
        return None
    if f["s"] == 1:
        targets = murder_targets(g, f["p"], f["a"])
        if targets:
            return targets
    # next roller
    if not f["seats"]:
        pop(g)
    else:
        f["p"], f["seats"], f["s"] = f["seats"][0], f["seats"][1:], 0
    return None


def murders_act(g: GameState, f: Frame, a: int) -> None:
    area, slot = A.split_pawn(a)
    f["s"] = 2
    remove_pawn(g, board.pawn_owner(g, f["p"], slot), area, EVENT, text=False)


@handler("murders", "Mysterious Murders: remove a pawn from the area you rolled")
class Murders:
    options = staticmethod(murders_options)
    act = staticmethod(murders_act)


def martial_law(g: GameState, p: int) -> None:
    _arrivals(g, p, GRENADIER, _rolls(g, 4))


def immigrants(g: GameState, p: int) -> None:
    _arrivals(g, p, CITIZEN, _rolls(g, 3))


def _arrivals(g: GameState, p: int, owner: int, rolls: list[int]) -> None:
    push(g, {"k": "arrive", "p": p, "o": owner, "rolls": tuple(rolls), "ask": None})


@handler("arrive", "grenadiers / new citizens arrive (automatic; Holborn owners may refuse)")
class Arrive:
    """For each roll in order: every player with an agent or building in the area and a
    usable Holborn may pay £3 to keep the pawn out (FAQ); otherwise it is placed. Once the
    supply is empty the remaining rolls bring nothing (and ask nobody)."""

    @staticmethod
    def options(g: GameState, f: Frame) -> list[int] | None:
        if not f["rolls"]:
            pop(g)
            return None
        a, o = f["rolls"][0], f["o"]
        supply = GRENADIERS - sum(g.gren) if o == GRENADIER else CITIZENS - sum(g.cit)
        if supply <= 0:
            # Nothing left to arrive: no marker, and nobody is asked to pay to stop nothing.
            f["rolls"], f["ask"] = f["rolls"][1:], None
            return None
        if f["ask"] is None:
            f["ask"] = tuple(
                q
                for q in seats_from(g, g.active)
                if (g.agents[q][a] or g.building[a] == q) and holborn_usable(g, q)
            )
            f["r"] = 0
            return None
        if f["ask"] and not blocked(f):
            q = f["ask"][0]
            f["ask"] = f["ask"][1:]
            ask(g, q, "holborn", a, EVENT, False)
            return None
        if blocked(f):
            if g.cfg.log:
                g.say(f"Holborn keeps the pawn out of area {a + 1}")
        else:
            board.add_pawn(g, o, a)
            if g.cfg.log:
                g.say(f"a neutral pawn arrives in area {a + 1}")
        f["rolls"], f["ask"] = f["rolls"][1:], None
        return None


def subsidence(g: GameState, p: int) -> None:
    push(g, {"k": "subsidence", "p": p, "seats": seats_from(g, p)[1:]})


def subsidence_options(g: GameState, f: Frame) -> list[int] | None:
    p = f["p"]
    mine = board.buildings_of(g, p)
    affordable = g.money[p] // 2
    if len(mine) > affordable > 0:
        return [AREA_ACTIONS[a] for a in mine]
    if affordable == 0:
        for a in mine:
            board.remove_building(g, a)
        if mine and g.cfg.log:
            g.say(f"player {p} cannot pay subsidence and loses {len(mine)} building(s)")
    else:
        g.money[p] -= 2 * len(mine)
        if mine and g.cfg.log:
            g.say(f"player {p} pays £{2 * len(mine)} for subsidence")
    if not f["seats"]:
        pop(g)
    else:
        f["p"], f["seats"] = f["seats"][0], f["seats"][1:]
    return None


def subsidence_act(g: GameState, f: Frame, a: int) -> None:
    board.remove_building(g, a - AREA)
    if g.cfg.log:
        g.say(f"player {f['p']} loses the building in area {a - AREA + 1} to subsidence")


@handler("subsidence", "Subsidence: choose a building you cannot pay £2 for")
class Subsidence:
    options = staticmethod(subsidence_options)
    act = staticmethod(subsidence_act)


def inigo_jones(g: GameState, p: int) -> None:
    a = _rolls(g, 1)[0]
    owner = board.city_card_owner(g, a)
    if owner < 0:
        if g.cfg.log:
            g.say("Inigo Jones: that City Area card is not in play")
        return
    push(g, {"k": "inigo", "p": owner, "a": a, "s": 0})


def inigo_options(g: GameState, f: Frame) -> list[int] | None:
    owner, a = f["p"], f["a"]
    if f["s"] == 0:
        f["s"] = 1
        ask(g, owner, "holborn", a, EVENT, False)
        return None
    pop(g)
    if blocked(f):
        if g.cfg.log:
            g.say("Holborn keeps the City Area card in play")
    else:
        g.city_retired = with_item(g.city_retired, a, 1)
        if g.cfg.log:
            g.say(f"the City Area card of area {a + 1} is set aside for good")
    if g.agents[owner][a]:
        remove_pawn(g, owner, a, EVENT, text=False)
    return None


@handler("inigo", "Inigo Jones retires a City Area card (automatic; Holborn may save it)")
class Inigo:
    options = staticmethod(inigo_options)


EVENT_START: dict[str, Callable[[GameState, int], None]] = {
    "zeppelin_crash": zeppelin_crash,
    "flood": flood,
    "fire": fire,
    "fog": fog,
    "riots": riots,
    "explosion": explosion,
    "mysterious_murders": mysterious_murders,
    "martial_law": martial_law,
    "subsidence": subsidence,
    "inigo_jones": inigo_jones,
    "immigrants": immigrants,
    "earthquake": earthquake,
}
