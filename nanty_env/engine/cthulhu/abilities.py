"""Once-per-turn abilities of Building cards, Elder Ones and the Great Old One boards.

All three are used on your own turn at any top-level decision, are not actions, and share one
vocabulary of ability kinds (``nanty_env/data/cthulhu/model.py``). A building's ability cannot be
used in the turn its card was gained, an Elder One's not in the turn it arrived. ``used`` bits
in ``g.ability_used``: 0-11 the building in that area, 12 the Great Old One, 13+ the Elder One.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from nanty_env.engine import actions as A
from nanty_env.engine import board
from nanty_env.engine.abilities import discard_frame
from nanty_env.engine.actions import (
    ABILITY,
    ABILITY_ACTIONS,
    BUILDING_TYPE,
    ELDER,
    ELDER_ABILITY,
    ELDER_ABILITY_ACTIONS,
    GOO_ABILITY,
    SLOT_GRENADIER,
)
from nanty_env.engine.cthulhu import pieces
from nanty_env.engine.cthulhu.state import ELDER_BIT, GOO_BIT, CthulhuState
from nanty_env.engine.cthulhu.track import advance_insanity
from nanty_env.engine.effects.pieces import kill
from nanty_env.engine.effects.targeted import transfer
from nanty_env.engine.frames import call
from nanty_env.engine.tables import AGENTS_PER_PLAYER

NO_AREA = -1


def _others_with_minions_here(g: CthulhuState, p: int, area: int) -> list[int]:
    return [q for q in range(g.n) if q != p and pieces.minions_in(g, q, area)]


def _remove_targets(g: CthulhuState, p: int, area: int) -> list[int]:
    """Basatan: another player's agent or a grenadier in the area (never an Elder One)."""
    out = [A.pawn_action(area, (q - p) % g.n) for q in range(g.n) if q != p and g.agents[q][area]]
    if g.gren[area]:
        out.append(A.pawn_action(area, SLOT_GRENADIER))
    return sorted(out)


def _any_untroubled(g: CthulhuState, areas: Iterable[int]) -> bool:
    """Whether one of ``areas`` has no trouble marker."""
    for a in areas:  # noqa: SIM110 (compiled: no generator)
        if not g.trouble[a]:
            return True
    return False


# Whether using an ability of each kind would do something now: (g, p, params, area) -> bool,
# ``area`` where its holder stands. A table rather than a chain of string tests: one lookup
# finds the kind (the tables' kinds are interned).
Possible = Callable[[CthulhuState, int, Mapping[str, Any], int], bool]


def _always(g: CthulhuState, p: int, params: Mapping[str, Any], area: int) -> bool:
    return True


def _has_cards(g: CthulhuState, p: int, params: Mapping[str, Any], area: int) -> bool:
    return bool(g.hands[p])


def _has_minion_in_reserve(g: CthulhuState, p: int, params: Mapping[str, Any], area: int) -> bool:
    return g.on_board[p] < AGENTS_PER_PLAYER


def _can_pay_for_minion(g: CthulhuState, p: int, params: Mapping[str, Any], area: int) -> bool:
    return g.on_board[p] < AGENTS_PER_PLAYER and g.money[p] >= params["cost"]


def _untroubled_here(g: CthulhuState, p: int, params: Mapping[str, Any], area: int) -> bool:
    return not g.trouble[area]


def _untroubled_nearby(g: CthulhuState, p: int, params: Mapping[str, Any], area: int) -> bool:
    return _any_untroubled(g, g.t.near[area])


def _rich_minion_owner_here(g: CthulhuState, p: int, params: Mapping[str, Any], area: int) -> bool:
    # a loop rather than any() of a generator: compiled, a C function (``_build._typable``)
    for q in _others_with_minions_here(g, p, area):  # noqa: SIM110 (compiled: no generator)
        if g.money[q]:
            return True
    return False


def _removable_here(g: CthulhuState, p: int, params: Mapping[str, Any], area: int) -> bool:
    return bool(_remove_targets(g, p, area))


def _can_pay(g: CthulhuState, p: int, params: Mapping[str, Any], area: int) -> bool:
    return g.money[p] >= params["cost"]


def _untroubled_by_minion(g: CthulhuState, p: int, params: Mapping[str, Any], area: int) -> bool:
    return _any_untroubled(g, pieces.minion_areas(g, p))


def _has_minion(g: CthulhuState, p: int, params: Mapping[str, Any], area: int) -> bool:
    return pieces.has_minion(g, p)


POSSIBLE: dict[str, Possible] = {
    "take_money": _always,
    "take_money_per_elder_one": _always,
    "discard_for_money": _has_cards,
    "place_minion_here": _has_minion_in_reserve,
    "pay_to_place_minion_nearby": _can_pay_for_minion,
    "place_trouble_here": _untroubled_here,
    "place_trouble_nearby": _untroubled_nearby,
    "collect_per_minion_here": _rich_minion_owner_here,
    "remove_minion_or_grenadier_here": _removable_here,
    "pay_to_advance_insanity": _can_pay,
    "place_trouble_near_own_minion": _untroubled_by_minion,
    "move_own_minion": _has_minion,
}


def possible(g: CthulhuState, p: int, kind: str, params: Mapping[str, Any], area: int) -> bool:
    """Whether using the ability would do something now (``area``: where its holder stands)."""
    checks = POSSIBLE  # compiled, a local typed ``dict`` (``_build``): a C lookup
    check = checks.get(kind)
    if check is None:
        raise AssertionError(f"unknown ability kind {kind!r}")
    return check(g, p, params, area)


def use(g: CthulhuState, p: int, kind: str, params: Mapping[str, Any], area: int, who: str) -> None:
    """Carry out the ability (legality already checked); ``who`` names its holder in the log."""
    if g.cfg.log:
        g.say(f"player {p} uses {who}")
    if kind == "take_money":
        g.money[p] += params["amount"]
    elif kind == "take_money_per_elder_one":
        g.money[p] += params["base"] + params["per_elder"] * len(pieces.own_elders(g, p))
    elif kind == "discard_for_money":
        call(g, discard_frame(p, need=1, most=1, pay=params["amount"]))
    elif kind == "place_minion_here":
        call(g, {"k": "place_agent", "p": p, "areas": (area,), "not": -1})
    elif kind == "pay_to_place_minion_nearby":
        g.money[p] -= params["cost"]
        call(g, {"k": "place_agent", "p": p, "areas": tuple(sorted(g.t.near[area])), "not": -1})
    elif kind == "place_trouble_here":
        g.trouble[area] = 1
    elif kind == "place_trouble_nearby":
        areas = tuple([x for x in sorted(g.t.near[area]) if not g.trouble[x]])
        call(g, {"k": "trouble_on", "p": p, "areas": areas})
    elif kind == "collect_per_minion_here":
        for q in _others_with_minions_here(g, p, area):
            transfer(g, q, p, params["amount"] * pieces.minions_in(g, q, area))
    elif kind == "remove_minion_or_grenadier_here":
        kill(g, p, p, _remove_targets(g, p, area), must=True)
    elif kind == "pay_to_advance_insanity":
        g.money[p] -= params["cost"]
        advance_insanity(g, p)
    elif kind == "place_trouble_near_own_minion":
        areas = tuple([a for a in pieces.minion_areas(g, p) if not g.trouble[a]])
        call(g, {"k": "trouble_on", "p": p, "areas": areas})
    elif kind == "move_own_minion":
        call(g, {"k": "pick_minion", "p": p, "ft": 0})


# ---------------------------------------------------------------------- holders
def usable_buildings(g: CthulhuState, p: int) -> list[int]:
    """Areas of ``p``'s buildings whose card ability can be used now."""
    t, used, turn = g.t, g.ability_used, g.turn
    out = []
    for a, owner in enumerate(g.building):
        if owner != p or used >> a & 1 or g.city_gained[a] == turn:
            continue
        k = g.btype[a]
        if possible(g, p, t.building_ability[k], t.building_params[k], a):
            out.append(a)
    return out


def goo_usable(g: CthulhuState, p: int) -> bool:
    if g.ability_used >> GOO_BIT & 1:
        return False
    k = g.goo[p]
    return possible(g, p, g.t.goo_ability[k], g.t.goo_params[k], NO_AREA)


def usable_elders(g: CthulhuState, p: int) -> list[int]:
    """``p``'s Elder Ones whose ability can be used now (not in the turn they arrived)."""
    t, used, turn = g.t, g.ability_used, g.turn
    out = []
    for e, owner in enumerate(g.elder_owner):
        if owner != p or used >> (ELDER_BIT + e) & 1 or g.elder_arrived[e] == turn:
            continue
        if possible(g, p, t.elder_ability[e], t.elder_params[e], g.elder_area[e]):
            out.append(e)
    return out


def ability_actions(g: CthulhuState, p: int) -> list[int]:
    """Every ability ``p`` may use now, as actions."""
    out = [ABILITY_ACTIONS[a] for a in usable_buildings(g, p)] if board.has_building(g, p) else []
    if goo_usable(g, p):
        out.append(GOO_ABILITY)
    if pieces.owns_elder(g, p):
        out += [ELDER_ABILITY_ACTIONS[e] for e in usable_elders(g, p)]
    return out


def is_ability(a: int) -> bool:
    """The expansion's ability actions: a building's (ABILITY), an Elder One's, the Great Old
    One's."""
    return ABILITY <= a < ELDER or ELDER_ABILITY <= a < BUILDING_TYPE


def use_ability(g: CthulhuState, p: int, a: int) -> None:
    """Use the ability of ability action ``a`` (legality already checked)."""
    if a < ELDER:
        use_building(g, p, a - ABILITY)
    elif a == GOO_ABILITY:
        use_goo(g, p)
    else:
        use_elder(g, p, a - ELDER_ABILITY)


def use_building(g: CthulhuState, p: int, a: int) -> None:
    t = g.t
    k = g.btype[a]
    g.ability_used |= 1 << a
    who = ""  # named only for the log
    if g.cfg.log:
        theme = g.cfg.theme
        who = f"the {t.data.buildings[k].name(theme)} in {t.data.areas[a].name(theme)}"
    use(g, p, t.building_ability[k], t.building_params[k], a, who)


def use_goo(g: CthulhuState, p: int) -> None:
    t = g.t
    k = g.goo[p]
    g.ability_used |= 1 << GOO_BIT
    use(g, p, t.goo_ability[k], t.goo_params[k], NO_AREA, t.data.great_old_ones[k].title)


def use_elder(g: CthulhuState, p: int, e: int) -> None:
    t = g.t
    g.ability_used |= 1 << (ELDER_BIT + e)
    who = t.data.elder_ones[e].title
    use(g, p, t.elder_ability[e], t.elder_params[e], g.elder_area[e], who)
