"""How hard a table blocks (agents/blocking.py) and ``learned:adapt=1``, which scales the
sturdiness bonuses by it."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from agents import blocking
from agents.base import bot_rngs, play_game
from agents.blocking import BlockingRate
from agents.registry import make_bot
from nanty_env.engine import GameConfig


def snap(turn: int, active: int, controlled: list[int]) -> SimpleNamespace:
    return SimpleNamespace(turn=turn, active=active, metrics=SimpleNamespace(controlled=controlled))


def test_the_rate_counts_control_lost_by_the_seats_not_moving():
    b = BlockingRate()
    assert b.rate() == blocking.PRIOR_RATE and b.scale() == 0.0
    b.update(snap(0, 0, [1, 2, 0, 0]))
    b.update(snap(0, 0, [0, 0, 0, 0]))  # the same turn again: ignored
    b.update(snap(1, 1, [2, 1, 0, 0]))  # seat 0 moved: seat 1 lost one, seat 0's gain is not loss
    b.update(snap(3, 3, [0, 0, 0, 0]))  # a turn not seen in between: nothing counted
    b.update(snap(4, 0, [0, 0, 0, 1]))  # seat 3 moved
    assert (b.lost, b.turns) == (1.0, 2)
    want = (1 + blocking.PRIOR_RATE * blocking.PRIOR_TURNS) / (2 + blocking.PRIOR_TURNS)
    assert b.rate() == pytest.approx(want)
    b.lost, b.turns = 100.0, 100
    assert b.scale() == 1.0  # a table that breaks a control a turn blocks
    b.lost = 0.0
    assert b.scale() == 0.0
    b.lost, b.turns = 0.375 * 1000, 1000
    mid = (b.rate() - blocking.RACING) / (blocking.BLOCKING - blocking.RACING)
    assert 0 < mid < 1 and b.scale() == pytest.approx(mid)


def test_adapt_scales_the_bonuses_by_the_tables_blocking():
    """``adapt=1`` multiplies ``robust`` and ``durable`` by the blocking scale of the game so
    far; HeuristicBots break more control than RandomBots do."""
    cfg = GameConfig(num_players=4, log=False)
    scales = {}
    for opp in ("heuristic", "random"):
        seen = []
        for seed in range(3):
            bot = make_bot("learned:robust=2:durable=1:adapt=1")
            real = bot.evaluator

            def spy(view, real=real, bot=bot):
                ev = real(view)
                s = bot.blocking.scale()
                assert (ev.robust, ev.durable) == pytest.approx((2 * s, s))
                return ev

            bot.evaluator = spy
            play_game([bot, *[make_bot(opp) for _ in range(3)]], cfg, seed, bot_rngs(seed, 4))
            assert bot.blocking.turns > 10
            seen.append(bot.blocking.rate())
        scales[opp] = float(np.mean(seen))
    assert scales["heuristic"] > scales["random"]
    fixed = make_bot("learned:robust=2:durable=1")
    assert fixed.adapt is False
    with pytest.raises(ValueError, match="adapt"):
        make_bot("learned:adapt=2")


def test_a_seat_counts_from_its_views_what_the_whole_game_shows():
    """The seat's own count (turn-start views) equals lab.blocking_rates' count from the game."""
    from lab.blocking_rates import FIRST_SEED, control_lost

    bot = make_bot("learned:adapt=1")
    cfg = GameConfig(num_players=4, log=False)
    seed = FIRST_SEED
    play_game([bot, *[make_bot("heuristic") for _ in range(3)]], cfg, seed, bot_rngs(seed, 4))
    (rate,) = control_lost("learned:adapt=1", "heuristic", 1)
    assert bot.blocking.turns > 10
    assert bot.blocking.lost / bot.blocking.turns == pytest.approx(rate)
