"""The legal list's contract: every frame handler returns its actions sorted and without
repeats, and the game keeps them as they come (no re-sorting on the hot path), so this is
checked here over random games of both rulesets and every reaction-window policy."""

from __future__ import annotations

import random

import pytest

from nanty_env.engine import Game, GameConfig


@pytest.mark.parametrize("expansion", [None, "cthulhu"])
@pytest.mark.parametrize("windows", ["public", "holders"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_legal_list_is_sorted_without_repeats(n, windows, expansion):
    cfg = GameConfig(num_players=n, interrupt_windows=windows, expansion=expansion, log=False)
    for seed in range(4):
        g = Game.new(cfg, seed)
        choose = random.Random(seed).choice
        while not g.is_terminal:
            legal = g.legal
            assert isinstance(legal, tuple)
            assert list(legal) == sorted(set(legal)), (g.decision, legal)
            assert g.legal_actions() == list(legal)
            g.apply(choose(legal))
        assert g.legal == () and g.legal_actions() == []


def test_legal_actions_is_a_copy_and_legal_cannot_be_changed():
    g = Game.new(GameConfig(num_players=3, log=False), 5)
    before = g.legal
    mine = g.legal_actions()
    mine.append(-1)
    assert g.legal == before and g.legal_actions() == list(before)
    with pytest.raises(AttributeError):
        g.legal = ()  # type: ignore[misc]
