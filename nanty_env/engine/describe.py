"""Human-readable action descriptions of the base game (``Game.action_to_string``; the
expansion's game describes its own families with ``cthulhu.describe``)."""

from __future__ import annotations

from nanty_env.engine import actions as A
from nanty_env.engine.state import GameState


def describe_action(g: GameState, action: int, seat: int) -> str:
    """What ``action`` means for ``seat`` (player-relative arguments made absolute)."""
    try:
        act = A.decode(action)
    except ValueError:
        return f"<invalid action {action!r}>"
    return describe_decoded(g, act, seat)


def describe_decoded(g: GameState, act: A.Action, seat: int) -> str:
    """The words for a decoded action of the base game's families."""
    d, theme = g.t.data, g.cfg.theme
    fam, arg = act.family, act.arg
    if fam == "PASS":
        return "pass"
    if fam == "CONFIRM":
        return "confirm"
    if fam in ("PLAY_CARD", "DISCARD_CARD", "SELECT_CARD"):
        verb = {"PLAY_CARD": "play", "DISCARD_CARD": "discard", "SELECT_CARD": "select"}[fam]
        return f"{verb} {d.cards[arg].name(theme)}"
    if fam == "AREA":
        return f"area {d.areas[arg].name(theme)}"
    if fam == "ABILITY":
        return f"use {d.areas[arg].name(theme)}"
    if fam == "PLAYER":
        return f"player {(seat + arg) % g.n if seat >= 0 else f'+{arg}'}"
    area, slot = divmod(arg, A.PAWN_SLOTS)
    terms = d.themes[theme]
    if slot == A.SLOT_GRENADIER:
        what = terms["grenadier"]
    elif slot == A.SLOT_CITIZEN:
        what = terms["citizen"]
    else:
        owner = (seat + slot) % g.n if seat >= 0 else f"+{slot}"
        what = f"{terms['agent']} of player {owner}"
    return f"{what} in {d.areas[area].name(theme)}"
