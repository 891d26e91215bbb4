"""Observation layout and its two builders (from a game, from a dict view)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from nanty_env.encoding.observation import (
    OBS_LAYOUT,
    OBS_SIZE,
    action_mask,
    encode,
    encode_view,
    layout_table,
    view_action_mask,
)
from nanty_env.engine import Game, GameConfig
from nanty_env.engine import actions as A


def test_layout_is_contiguous_and_documented() -> None:
    pos = 0
    for s in OBS_LAYOUT.values():
        assert s.start == pos
        pos = s.stop
    assert pos == OBS_SIZE
    table = layout_table()
    for name in OBS_LAYOUT:
        assert f"`{name}`" in table


@pytest.mark.parametrize("n", (2, 3, 4))
def test_view_encoder_matches_game_encoder(n: int) -> None:
    for seed in range(6):
        g = Game.new(GameConfig(num_players=n, log=False), seed=seed)
        rng = random.Random(seed)
        while not g.is_terminal:
            for s in range(n):
                v = g.view(s)
                assert np.array_equal(encode(g, s), encode_view(v))
                assert np.array_equal(action_mask(g, s), view_action_mask(v))
            g.apply(rng.choice(g.legal_actions()))


def test_observation_reads_what_it_says() -> None:
    g = Game.new(GameConfig(num_players=3, log=False), seed=1)
    seat = g.current_player
    x = encode(g, seat)
    hand = x[OBS_LAYOUT["hand"]]
    assert sorted(np.flatnonzero(hand)) == sorted(g.hands[seat])
    money = x[OBS_LAYOUT["money"]]
    assert np.allclose(money[:3], 10 / 50) and money[3] == 0
    assert x[OBS_LAYOUT["seat_present"]].tolist() == [1, 1, 1, 0]
    assert x[OBS_LAYOUT["my_turn_to_act"]][0] == 1
    other = (seat + 1) % 3
    y = encode(g, other)
    assert y[OBS_LAYOUT["my_turn_to_act"]][0] == 0 and not y[OBS_LAYOUT["decision"]].any()
    assert not action_mask(g, other).any()
    assert action_mask(g, seat).sum() == len(g.legal_actions())
    assert action_mask(g, seat).shape == (A.NUM_ACTIONS,)
    # relative seats: the next player's agents appear in column 1 of the agents block
    agents = x[OBS_LAYOUT["agents"]].reshape(12, 4)
    assert agents[:, 1].sum() * 4 == g.on_board[(seat + 1) % 3]
