"""The board picture: laid out like the board (every neighbourhood of the rules drawn, no other),
showing every piece, and never showing what the viewing seat does not know."""

from __future__ import annotations

import itertools
import os
import re
from html import unescape

import numpy as np
import pytest

import nanty_env
from nanty_env.engine import Game, GameConfig
from nanty_env.engine.determinize import determinize
from nanty_env.engine.tables import tables
from nanty_env.presentation.base_words import QUESTIONS
from nanty_env.presentation.board_layout import AREAS, BRIDGES, NECKS, outline_points
from nanty_env.presentation.board_svg import board_svg, revealed_view
from nanty_env.presentation.render import render_text, render_view_text


def played(seed: int, n: int = 4, steps: int = 250) -> Game:
    g = Game.new(GameConfig(num_players=n), seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if g.is_terminal:
            break
        g.apply(int(rng.choice(g.legal_actions())))
    return g


def svg_text(svg: str) -> str:
    """All the words a viewer can read in the picture (text elements and tooltips)."""
    found = " ".join(re.findall(r">([^<>]+)</(?:text|title)>", svg))
    return " ".join(unescape(found).split())  # wrapped lines joined


def test_the_layout_draws_exactly_the_rules_neighbourhoods() -> None:
    data = tables().data
    ids = [a.id for a in data.areas]
    points = {
        i: {(round(x, 3), round(y, 3)) for x, y in outline_points(AREAS[i].outline)} for i in ids
    }
    touching = {
        frozenset((a, b))
        for a, b in itertools.combinations(ids, 2)
        if len(points[a] & points[b]) >= 2
    }
    crossings = {frozenset((a, b)) for _, a, b in (*BRIDGES, *NECKS)}
    rules = {frozenset((a.id, data.areas[b].id)) for a in data.areas for b in a.neighbours}
    assert not touching & crossings  # a bridge joins areas on opposite banks
    assert touching | crossings == rules
    for area in data.areas:  # the river areas, and only they, have a bank
        banks = [item for item in AREAS[area.id].outline if isinstance(item[0], str)]
        assert bool(banks) == area.river, area.id
    for x, north, south in (*BRIDGES, *NECKS):  # a crossing lands on both areas' banks
        for area, side in ((north, "N"), (south, "S")):
            runs = [i for i in AREAS[area].outline if isinstance(i[0], str) and i[0] == side]
            assert any(min(r[1], r[2]) < x < max(r[1], r[2]) for r in runs), (area, x)


def test_the_picture_shows_every_area_and_piece() -> None:
    g = played(5)
    v = g.view(0)
    svg = board_svg(v, g.cfg)
    words = svg_text(svg)
    for area in tables().data.areas:
        assert area.name("nanty") in words
        assert f'id="area-{area.id}"' in svg
    for q in range(g.n):
        drawn = sum(int(k) for k in re.findall(rf'class="agents seat-{q}" data-count="(\d+)"', svg))
        assert drawn == sum(g.agents[q])
        assert svg.count(f'class="building seat-{q}"') == sum(b == q for b in g.building)
    assert svg.count('class="trouble"') == sum(g.trouble) + 1  # + the legend's marker
    assert sum(int(k) for k in re.findall(r'class="gren" data-count="(\d+)"', svg)) == sum(g.gren)
    assert sum(int(k) for k in re.findall(r'class="cit" data-count="(\d+)"', svg)) == sum(g.cit)
    assert svg.count('class="bridge"') == len(BRIDGES)
    assert f"£{g.money[1]}" in words and "Draw pile" in words


def test_a_seat_view_shows_nothing_that_seat_cannot_know() -> None:
    rng = np.random.default_rng(0)
    names = {c: tables().data.cards[c].name("nanty") for c in range(101)}
    personas = {k: p.name("nanty") for k, p in enumerate(tables().data.personalities)}
    checked = 0
    for seed in range(12):
        g = played(seed, n=2 + seed % 3, steps=40 + 37 * seed)
        if g.is_terminal:
            continue
        for seat in range(g.n):
            v = g.view(seat)
            svg, text = board_svg(v, g.cfg), render_view_text(v, g.cfg)
            h = determinize(g, seat, rng)  # resample what the seat cannot see
            assert board_svg(h.view(seat), g.cfg) == svg
            assert render_text(h, seat) == render_text(g, seat)
            visible = set(g.hands[seat]) | set(g.discard) | set(g.in_play) | set(g.removed)
            visible |= {c for row in v["known_cards"] for c in row}
            visible |= {c for row in g.penalties for c in row}
            words = svg_text(svg)
            for q in range(g.n):
                for c in g.hands[q]:
                    if c not in visible:
                        assert names[c] not in words and names[c] not in text, (seat, q, names[c])
                if q != seat and g.persona[q] != g.persona[seat]:
                    assert personas[g.persona[q]] not in words
                    assert personas[g.persona[q]] not in text
            checked += 1
    assert checked >= 20


def test_the_revealed_view_shows_all_hands_personalities_and_the_deck() -> None:
    g = played(7)
    v = revealed_view(g)
    words = svg_text(board_svg(v, g.cfg))
    text = render_view_text(v, g.cfg)
    data = tables().data
    for q in range(g.n):
        assert data.personalities[g.persona[q]].name("nanty") in words
        for c in g.hands[q]:
            assert data.cards[c].name("nanty") in words and data.cards[c].name("nanty") in text
    assert data.cards[g.deck[-1]].name("nanty") in words  # the next card
    assert "everything revealed" in words


def test_the_decision_is_in_words_without_internal_names() -> None:
    internal = re.compile(r"\b(?:[a-z]+_[a-z_]+|PLAY_CARD|SELECT_CARD|DISCARD_CARD|PAWN|CONFIRM)\b")
    kinds_seen = set()
    for seed in range(20):
        g = Game.new(GameConfig(num_players=3), seed=seed)
        rng = np.random.default_rng(seed)
        while not g.is_terminal:
            if (len(g.legal_actions()) > 1 and rng.random() < 0.05) or g.decision not in kinds_seen:
                kinds_seen.add(g.decision)
                v = g.view(g.current_player)
                words = svg_text(board_svg(v, g.cfg))
                assert "Your decision: " in words
                assert not internal.findall(words), internal.findall(words)
                assert not internal.findall(render_view_text(v, g.cfg))
            g.apply(int(rng.choice(g.legal_actions())))
    assert len(kinds_seen) >= 15


def test_every_kind_of_decision_has_a_question() -> None:
    from nanty_env.engine.frames import DESCRIPTIONS

    asked = {k for k, text in DESCRIPTIONS.items() if "(automatic" not in text}
    assert asked - {"turn"} <= set(QUESTIONS)


def test_rgb_array_is_the_picture() -> None:
    e = nanty_env.raw_env(num_players=3, render_mode="rgb_array")
    e.reset(seed=2)
    img = e.render()
    assert img.shape == (760, 1280, 3) and img.dtype == np.uint8
    assert len(np.unique(img.reshape(-1, 3), axis=0)) > 50  # a picture, not a blank


@pytest.mark.slow
def test_pettingzoo_render_test_passes(monkeypatch) -> None:
    from pettingzoo.test import render_test

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    render_test(lambda render_mode=None: nanty_env.env(num_players=2, render_mode=render_mode))
    e = nanty_env.env(num_players=2, render_mode="human")
    e.reset(seed=0)
    assert e.render() is None
    e.close()
    assert os.environ["SDL_VIDEODRIVER"] == "dummy"


def test_the_panel_holds_everything_it_says_and_the_whole_hand() -> None:
    """Four players of the expansion say the most (objectives, Elder Ones, face-up cards):
    every line of the panel still lies inside it, and every card of the hand is named."""
    from nanty_env.presentation.board_layout import MAP_H
    from nanty_env.presentation.board_svg import MAP_Y, PANEL_X
    from nanty_env.presentation.words import words_for

    checked = 0
    for expansion in (None, "cthulhu"):
        cfg = GameConfig(num_players=4, expansion=expansion)
        words = words_for(cfg.theme, 4, cfg)
        for seed in range(6):
            g, rng = Game.new(cfg, seed=seed), np.random.default_rng(seed)
            for step in range(200):
                if g.is_terminal:
                    break
                if step % 10 == 0:
                    v = g.view(g.current_player)
                    svg = board_svg(v, cfg)
                    texts = re.findall(r'<text x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)<', svg)
                    panel = [(float(y), t) for x, y, t in texts if float(x) > PANEL_X - 10]
                    assert max(y for y, _ in panel) <= MAP_Y + MAP_H, seed
                    shown = unescape(" ".join(t for _, t in panel))
                    assert all(words.card(c) in shown for c in v["hand"])
                    checked += 1
                g.apply(int(rng.choice(g.legal_actions())))
    assert checked >= 150
