"""Fixed die rolls (``Game.fix_rolls``, ``build_position(rolls=...)``): the documented way for
tests and analysis to choose what the die shows, without touching the generator."""

from __future__ import annotations

import pytest

from nanty_env.engine import EngineError, Game, GameConfig, build_position
from nanty_env.engine.position import area


def test_fixed_rolls_come_first_then_a_further_roll_raises():
    g = Game.new(GameConfig(num_players=3, log=False), 4)
    state = g.rng.bit_generator.state
    g.fix_rolls([3, 11, 0])
    assert [g.roll() for _ in range(3)] == [3, 11, 0]
    assert g.fixed_rolls == ()
    assert g.rng.bit_generator.state == state  # nothing was drawn from the generator
    with pytest.raises(EngineError, match="more often than the fixed rolls"):
        g.roll()


def test_then_random_goes_back_to_the_generator():
    g = Game.new(GameConfig(num_players=3, log=False), 4)
    twin = g.clone()
    g.fix_rolls([5], then_random=True)
    assert g.roll() == 5
    assert [g.roll() for _ in range(5)] == [twin.roll() for _ in range(5)]


def test_copies_keep_what_is_left_but_saved_states_do_not():
    g = build_position(4, rolls=["Strand", "City", 7])
    assert g.fixed_rolls == (area("Strand"), area("City"), 7)
    assert g.roll() == area("Strand")
    c = g.clone()
    assert c.fixed_rolls == g.fixed_rolls
    assert c.roll() == area("City") and g.fixed_rolls == (area("City"), 7)
    assert Game.from_dict(g.to_dict()).fixed_rolls == ()


@pytest.mark.parametrize("bad", [-1, 12, 100])
def test_a_roll_is_an_area_index(bad):
    g = Game.new(GameConfig(num_players=2, log=False), 1)
    with pytest.raises(ValueError, match="area index"):
        g.fix_rolls([2, bad])
    assert g.fixed_rolls == ()
