"""One theme at a time: every word shown in a theme is that theme's.

Walks every card (name, text, hint), area, personality and goal, event, piece and term, and
every message of real games (questions, choices, the log, the outcome, the board picture, the
panel and the terminal text) in both rulesets, and finds no word of the other theme: no
"minion", "$", "Ankh" or Discworld name in London texts, no "River Thames", "£", "agent" or
London name in the Discworld theme. A card shown under the other theme's name (its own is not
known) is marked (``theme_text.NAME_MARK``) and the mark's note is shown with it.
"""

from __future__ import annotations

import re
from html import unescape

import numpy as np
import pytest

from nanty_env.engine import Game, GameConfig, tables, tables_for
from nanty_env.presentation.base_words import goal_words
from nanty_env.presentation.board_svg import board_svg, revealed_view
from nanty_env.presentation.render import render_view_text
from nanty_env.presentation.render_panel import panel
from nanty_env.presentation.theme_text import (
    NAME_MARK,
    card_name,
    name_note,
    personality_name,
    themed,
)
from nanty_env.presentation.words import (
    card_words,
    decision_words,
    log_lines,
    outcome_words,
    words_for,
)

FORBIDDEN = {  # words of the other theme, as patterns
    "nanty": [r"\bminions?\b", r"\$", r"\bdemons?\b", r"\btrolls?\b", r"Ankh", r"Morpork"],
    "discworld": [r"£", r"Thames", r"\bagents?\b", r"\bgrenadiers?\b", r"new citizen", "London"],
}
OTHER = {"nanty": "discworld", "discworld": "nanty"}
RULESETS = [None, "cthulhu"]


def other_names(theme: str) -> set[str]:
    """Names of cards, areas, personalities and events that only the other theme uses."""
    d = tables().data
    other = OTHER[theme]
    items = [*d.areas, *d.personalities, *d.events]
    names = {i.name(other) for i in items} - {i.name(theme) for i in items}
    for c in d.cards:
        if c.name(other) != c.name(theme) and (theme == "discworld" or c.nanty_name_known):
            names.add(c.name(other))
    return names


def own_names(theme: str) -> list[str]:
    """Every name ``theme`` shows (borrowed ones with their mark), longest first."""
    d = tables().data
    names = {card_name(c.id, theme) for c in d.cards}
    names |= {personality_name(k, theme) for k in range(len(d.personalities))}
    names |= {i.name(theme) for i in (*d.areas, *d.events)}
    return sorted(names, key=len, reverse=True)


def problems(text: str, theme: str) -> list[str]:
    """The words of the other theme in ``text`` (marked borrowed names and the mark's note
    aside), and a mark shown without its note."""
    if text.startswith("<svg"):  # the words a viewer reads: texts and tooltips
        text = " ".join(re.findall(r">([^<>]+)</(?:text|title)>", text))
    text = " ".join(unescape(text).split()).replace("City Area", "")  # a rules term
    found = []
    note = name_note(theme)
    if NAME_MARK in text.replace(note, "") and note not in text and len(text) > 400:
        found.append("a marked name without the note")
    text = text.replace(note, "")
    for name in own_names(theme):  # the theme's own names, and the borrowed ones marked
        text = text.replace(name, " ")
    found += [p for p in FORBIDDEN[theme] if re.search(p, text)]
    found += [n for n in other_names(theme) if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", text)]
    return found


def played(cfg: GameConfig, seed: int, steps: int):
    """Views along a random game (and the game), every decision."""
    g = Game.new(cfg, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if g.is_terminal:
            break
        yield g
        g.apply(int(rng.choice(g.legal_actions())))
    yield g


@pytest.mark.parametrize("theme", ["nanty", "discworld"])
@pytest.mark.parametrize("expansion", RULESETS)
def test_every_card_area_piece_and_rule_text_is_in_one_theme(theme, expansion) -> None:
    cfg = GameConfig(num_players=4, theme=theme, expansion=expansion)
    t = tables_for(cfg)
    d = t.data
    w = words_for(theme, 4, cfg)
    texts = [" ".join(d.themes[theme].values())]
    for c in range(len(d.cards)):
        texts += [w.card(c), card_words(c, theme, cfg)]
    texts += [w.area(a) for a in range(len(d.areas))]
    base = tables().data
    for k in range(len(base.personalities)):
        texts.append(w.personality(k))
        for n in (2, 3, 4):
            texts.append(goal_words(k, n, cfg.threshold_set, theme))
    texts += [e.name(theme) for e in base.events]
    if expansion:
        texts += [w.elder(e) for e in range(len(d.elder_ones))]
        texts += [w.objective(k) + " " + w.objective_text(k) for k in range(len(d.objectives))]
        texts += [w.great_old_one(k) for k in range(len(d.great_old_ones))]
        texts += [w.building_type(k) for k in range(len(d.buildings))]
    bad = {s: problems(s, theme) for s in texts}
    assert {s: p for s, p in bad.items() if p} == {}


@pytest.mark.parametrize("theme", ["nanty", "discworld"])
@pytest.mark.parametrize("expansion", RULESETS)
def test_every_message_of_real_games_is_in_one_theme(theme, expansion) -> None:
    found: dict[str, list[str]] = {}
    for seed, n in ((1, 4), (2, 3)):
        cfg = GameConfig(num_players=n, theme=theme, expansion=expansion)
        for k, g in enumerate(played(cfg, seed, 400)):
            v = g.view(max(g.current_player, 0))
            question, choices = decision_words(v, theme, cfg)
            texts = [question, *(c for _, c in choices)]
            if k % 25 == 0 or g.is_terminal:
                texts += [render_view_text(v, cfg), str(panel(v, cfg).to_json())]
                texts += [board_svg(v, cfg), board_svg(revealed_view(g), cfg, with_panel=False)]
            for s in texts:
                if p := problems(s, theme):
                    found.setdefault(s[:300], p)
        texts = log_lines(g)
        if g.is_terminal:
            texts.append(outcome_words(g.outcome.winners, g.outcome.reason, theme, cfg))
        for s in texts:
            if p := problems(s, theme):
                found.setdefault(s[:300], p)
    assert found == {}


def test_borrowed_names_are_marked_and_the_mark_explained() -> None:
    d = tables().data
    unknown = [c for c in d.cards if not c.nanty_name_known]
    assert len(unknown) == 77
    assert all(card_name(c.id, "nanty") == c.name("discworld") + NAME_MARK for c in unknown)
    assert all(NAME_MARK not in card_name(c.id, "discworld") for c in d.cards)
    cfg = GameConfig(num_players=3)
    g = Game.new(cfg, seed=4)
    v = g.view(0)
    hand = [card_name(d.cards[c].id, "nanty") for c in v["hand"]]
    text = render_view_text(v, cfg)
    if any(NAME_MARK in h for h in hand):
        assert name_note("nanty") in text and name_note("nanty") in panel(v, cfg).notes
    assert "no London name is known" in name_note("nanty")
    assert themed("an agent, £3, River Thames", "discworld") == "a minion, $3, River Ankh"
