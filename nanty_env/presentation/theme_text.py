"""One theme at a time: every word a person reads in the chosen theme's vocabulary.

The phrases of :mod:`nanty_env.presentation.words`, the expansion's texts and the engine's log are
written in one working vocabulary (London's pieces and pounds, the expansion's "minions"); card
names come from the data. :func:`themed` turns the other theme's terms (pieces, money, the river)
into the chosen theme's, and :func:`card_name` names a card in the chosen theme. Where a card or a
personality has no name of its own in that theme (77 of the base game's 101 cards have no known
London name; the eight variant personalities have no Discworld one) its other name is shown
with :data:`NAME_MARK`, and :func:`name_note` says what the mark means, so that a borrowed name
is never shown silently.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache

from nanty_env.data.model import THEMES
from nanty_env.engine import tables
from nanty_env.engine.ruleset import find_ruleset

NAME_MARK = "†"
"""Follows a card name borrowed from the other theme."""

RIVERS = {"nanty": "River Thames", "discworld": "River Ankh"}
THEME_NAMES = {"nanty": "London", "discworld": "Discworld"}
# The theme terms swapped, plural before singular (``themes.toml``'s keys).
TERMS = ("agents", "agent", "grenadiers", "grenadier", "citizens", "citizen", "trouble_marker")


def game_title(theme: str, expansion: str | None = None) -> str:
    """The game's title in ``theme`` (with the ruleset's title in a game of another ruleset)."""
    title = tables().data.themes[theme]["game_title"]
    return f"{title}: {find_ruleset(expansion).title}" if expansion else title


def card_name(card_id: str, theme: str, own: str = "") -> str:
    """The name of the card ``card_id`` (an expansion card is named as the base card it
    dresses) in ``theme``; a name borrowed from the other theme ends in :data:`NAME_MARK`.
    A card no base card dresses (a content pack's own) keeps its ``own`` name."""
    data = tables().data
    if card_id not in data.card_index:
        return own or card_id
    card = data.cards[data.card_index[card_id]]
    name = card.name(theme)
    return name + NAME_MARK if theme == "nanty" and not card.nanty_name_known else name


def personality_name(k: int, theme: str) -> str:
    """Personality ``k``'s name in ``theme``; the variant personalities have only London
    names, marked with :data:`NAME_MARK` in the Discworld theme."""
    p = tables().data.personalities[k]
    borrowed = theme == "discworld" and p.set == "variant"
    return p.name(theme) + NAME_MARK if borrowed else p.name(theme)


def name_note(theme: str) -> str:
    """What :data:`NAME_MARK` means in ``theme``."""
    other = THEME_NAMES["discworld" if theme == "nanty" else "nanty"]
    return f"{NAME_MARK} no {THEME_NAMES[theme]} name is known: the {other} name is shown"


def notes_for(texts: Iterable[str], theme: str) -> list[str]:
    """The notes the ``texts`` shown need (the meaning of the mark, when one is used)."""
    return [name_note(theme)] if any(NAME_MARK in t for t in texts) else []


def themed(text: str, theme: str) -> str:
    """``text`` with every term of the other theme (pieces, money, the river, the names of
    the cards shown under another name) in ``theme``'s words."""
    for pattern, replace in _swaps(theme):
        text = pattern.sub(replace, text)
    return text


@cache
def _swaps(theme: str) -> tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...]:
    data = tables().data
    mine = data.themes[theme]
    out: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = []
    for other in THEMES:
        if other == theme:
            continue
        theirs = data.themes[other]
        for key in TERMS:
            if theirs[key] != mine[key]:
                out.append(_term_swap(theirs[key], mine[key]))
        money = re.escape(theirs["money_symbol"])
        out.append((re.compile(money), lambda m: mine["money_symbol"]))
        river = RIVERS[theme]
        out.append((re.compile(re.escape(RIVERS[other])), lambda m, r=river: r))
    out.append(_names_swap(theme))
    return tuple(out)


def _term_swap(old: str, new: str) -> tuple[re.Pattern[str], Callable[[re.Match[str]], str]]:
    """``old`` (any case of its first letter, after an optional article) becomes ``new``,
    its article and capital kept right ("an agent" -> "a minion")."""
    pattern = re.compile(rf"\b(?:([Aa]n?) )?([{old[0].upper()}{old[0]}]){re.escape(old[1:])}\b")

    def swap(m: re.Match[str]) -> str:
        word = new[0].upper() + new[1:] if m.group(2).isupper() else new
        article = m.group(1)
        if article is None:
            return word
        fixed = "an" if new[0] in "aeiou" else "a"
        return (fixed.capitalize() if article[0] == "A" else fixed) + " " + word

    return pattern, swap


def _names_swap(theme: str) -> tuple[re.Pattern[str], Callable[[re.Match[str]], str]]:
    """Every name of a card, personality or event that the engine and the data may write, as
    ``theme`` names it (a borrowed name marked); a name already right is left as it is."""
    from nanty_env.engine import GameConfig, tables_for

    data = tables().data
    named: list[tuple[str, set[str]]] = []
    packs = [data, tables_for(GameConfig(num_players=4, expansion="cthulhu")).data]
    for pack in packs:
        named += [
            (card_name(c.id, theme, c.name(theme)), {c.name(t) for t in THEMES}) for c in pack.cards
        ]
    for k, p in enumerate(data.personalities):
        named.append((personality_name(k, theme), {p.name(t) for t in THEMES}))
    for e in data.events:
        named.append((e.name(theme), {e.name(t) for t in THEMES} | {e.aid_name}))
    fixes = {right: right for right, _ in named}
    for right, shown in named:
        for name in shown:
            fixes.setdefault(name, right)
    names = sorted(fixes, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w'])(" + "|".join(re.escape(n) for n in names) + r")(?![\w'])")
    return pattern, lambda m: fixes[m.group(1)]
