"""Expansion actions in words, read in the light of the pending decision when it is the
describing seat's own (``Game.action_to_string``)."""

from __future__ import annotations

from nanty_env.engine import actions as A
from nanty_env.engine.cthulhu.state import CthulhuState
from nanty_env.engine.cthulhu.symbols import summon_price
from nanty_env.engine.describe import describe_decoded

_SYMBOL_CONFIRM = {
    "insanity": "advance the Insanity marker",
    "summon": "roll the die to summon an Elder One",
}


def describe_cthulhu_action(g: CthulhuState, action: int, seat: int) -> str:
    try:
        act = A.CTHULHU_SPACE.decode(action)
    except ValueError:
        return f"<invalid action {action!r}>"
    d, theme = g.t.data, g.cfg.theme
    fam, arg = act.family, act.arg
    f = g.stack[-1] if g.outcome is None and g.stack and g.stack[-1]["p"] == seat else {}
    kind = f.get("k", "")
    sym = (
        g.t.symbols[f["c"]][f["i"]] if kind == "card" and f["i"] < len(g.t.symbols[f["c"]]) else ""
    )

    def area(a: int) -> str:
        return d.areas[a].name(theme)

    if fam in ("ELDER", "ELDER_ABILITY") and arg >= len(d.elder_ones):
        return f"<Elder One {arg}: the content pack has {len(d.elder_ones)}>"
    if fam == "ELDER":
        e = d.elder_ones[arg]
        where = g.elder_area[arg]
        if kind == "summon":
            price = summon_price(g, arg, f["roll"])
            return f"summon {e.title} (HP {e.hp}, £{price})"
        if kind == "sacrifice":
            return f"sacrifice {e.title} ({e.hp} hits)"
        if sym == "assassinate":
            return f"attack {e.title} in {area(where)}"
        if where >= 0:
            return f"move {e.title} from {area(where)}"
        return f"Elder One {e.title}"
    if fam == "ELDER_ABILITY":
        e = d.elder_ones[arg]
        return f"use {e.title}: {e.text}"
    if fam == "GOO_ABILITY":
        goo = d.great_old_ones[g.goo[seat]] if 0 <= seat < g.n else None
        return f"use {goo.title}: {goo.text}" if goo else "use your Great Old One"
    if fam == "BUILDING_TYPE":
        b = d.buildings[arg]
        return f"place a {b.title} (£{b.cost})"
    if fam == "ABILITY":
        k = g.btype[arg]
        if k >= 0:
            return f"use the {d.buildings[k].title} in {area(arg)}"
        return f"use the building in {area(arg)}"
    if fam == "PASS":
        if kind == "card" and sym:
            return f"skip the {sym.replace('_', ' ')} action"
        if kind == "summon":
            return "summon nothing"
        if kind == "sacrifice":
            return "stop sacrificing"
        if kind in ("main", "end"):
            return "end the turn" if kind == "end" else "pass"
    if fam == "CONFIRM":
        if kind == "refill":
            return "draw the top card of the pile"
        if sym == "money":
            return f"take £{g.t.money[f['c']]}"
        if sym == "scroll":
            return f"carry out the text of {d.cards[f['c']].name(theme)}"
        if sym in _SYMBOL_CONFIRM:
            return _SYMBOL_CONFIRM[sym]
    if fam == "SELECT_CARD" and kind in ("refill", "take_faceup"):
        return f"take the face-up {d.cards[arg].name(theme)}"
    if fam == "AREA":
        if sym == "minion":
            return f"place an agent in {area(arg)}"
        if sym == "building":
            return f"build in {area(arg)}"
        if kind == "summon_place":
            return f"{d.elder_ones[f['e']].title} arrives in {area(arg)}"
        if kind == "move_minion":
            return f"move it to {area(arg)}"
        if kind == "relocate_building":
            return f"move your {d.buildings[g.btype[arg]].title} from {area(arg)}"
    if fam == "PAWN":
        a, slot = divmod(arg, A.PAWN_SLOTS)
        if slot == 0 and (sym == "minion" or kind == "pick_minion"):
            return f"move your agent from {area(a)}"
        if slot == 0 and kind == "sacrifice":
            return f"sacrifice your agent in {area(a)} (1 hit)"
    return describe_decoded(g, act, seat)
