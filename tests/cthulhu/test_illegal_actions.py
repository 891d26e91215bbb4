"""Every action of the expansion's space that is not legal raises ``IllegalActionError`` and
changes nothing, including the Elder One slots beyond the content pack's (the space has room
for 8, the shipped pack has 6)."""

from __future__ import annotations

import random

import pytest

from nanty_env.engine import Game, GameConfig, IllegalActionError
from nanty_env.engine import actions as A


@pytest.mark.parametrize("players", [2, 4])
def test_every_illegal_action_is_refused_and_changes_nothing(players: int) -> None:
    g = Game.new(GameConfig(num_players=players, expansion="cthulhu"), players)
    rnd = random.Random(players)
    for _ in range(6):
        for _ in range(rnd.randrange(5, 40)):
            if g.is_terminal:
                break
            g.apply(rnd.choice(g.legal_actions()))
        if g.is_terminal:
            break
        legal = set(g.legal_actions())
        before = g.to_dict()
        for action in range(A.CTHULHU_SPACE.n):
            if action in legal:
                continue
            with pytest.raises(IllegalActionError):
                g.apply(action)
        assert g.to_dict() == before
