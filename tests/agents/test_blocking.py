"""How hard a table blocks (agents/blocking.py), ``learned:adapt=1``, which scales the
sturdiness bonuses by it, and ``learned:switch=1``, which weighs the hint bot's value by how widely the others spread."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from agents.base import bot_rngs, play_game
from agents.blocking import BlockingRate, SpreadRate
from agents.registry import make_bot
from nanty_env.engine import GameConfig
from tests.agents.choices import HINT_BOT, assert_same_choices


def snap(turn: int, active: int, controlled: list[int]) -> SimpleNamespace:
    return SimpleNamespace(turn=turn, active=active, metrics=SimpleNamespace(controlled=controlled))


def occupied(turn: int, active: int, areas: list[int]) -> SimpleNamespace:
    return SimpleNamespace(turn=turn, active=active, metrics=SimpleNamespace(occupied=areas))


def test_the_rate_counts_control_lost_by_the_seats_not_moving():
    b = BlockingRate(0)
    assert b.rate() == BlockingRate.prior_rate and b.scale() == 0.0
    b.update(snap(0, 0, [1, 2, 0, 0]))
    b.update(snap(0, 0, [0, 0, 0, 0]))  # the same turn again: ignored
    b.update(snap(1, 1, [2, 1, 0, 0]))  # seat 0 moved: seat 1 lost one, seat 0's gain is not loss
    b.update(snap(3, 3, [0, 0, 0, 0]))  # a turn not seen in between: nothing counted
    b.update(snap(4, 0, [0, 0, 0, 1]))  # seat 3 moved
    assert (b.total, b.turns) == (1.0, 2)
    want = (1 + b.prior_rate * b.prior_turns) / (2 + b.prior_turns)
    assert b.rate() == pytest.approx(want)
    b.total, b.turns = 100.0, 100
    assert b.scale() == 1.0  # a table that breaks a control a turn blocks
    b.total = 0.0
    assert b.scale() == 0.0
    b.total, b.turns = 0.375 * 1000, 1000
    mid = (b.rate() - b.low) / (b.high - b.low)
    assert 0 < mid < 1 and b.scale() == pytest.approx(mid)


def test_adapt_scales_the_bonuses_by_the_tables_blocking():
    """``adapt=1`` multiplies ``robust`` and ``durable`` by the blocking scale of the game so
    far; HeuristicBots break more control than RandomBots do."""
    cfg = GameConfig(num_players=4, log=False)
    scales = {}
    for opp in ("heuristic", "random"):
        seen = []
        for seed in range(3):
            bot = make_bot("learned:robust=2:durable=1:adapt=1:switch=0")
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


def test_the_spread_counts_areas_newly_occupied_by_the_other_seats():
    s = SpreadRate(2)
    assert s.rate() == SpreadRate.prior_rate and 0 < s.scale() < 1  # undecided before a turn
    s.update(occupied(0, 0, [1, 1, 1, 1]))
    s.update(occupied(1, 1, [3, 0, 1, 1]))  # seat 0 took two areas (seat 1's loss is not spread)
    s.update(occupied(2, 2, [3, 1, 1, 1]))  # seat 1 took one
    s.update(occupied(3, 3, [3, 1, 5, 1]))  # seat 2 is the bot: not counted
    s.update(occupied(4, 0, [3, 1, 5, 0]))  # seat 3 gave one up: no spread, a counted turn
    assert (s.total, s.turns) == (3.0, 3)
    s.total, s.turns = 0.1 * 30, 30
    assert s.scale() == 0.0  # hint bots' tables stay put
    s.total = 0.7 * 30
    assert s.scale() == 1.0  # HeuristicBots' spread


def test_a_seat_counts_from_its_views_what_the_whole_game_shows():
    """The seat's own counts (turn-start views) equal lab.blocking_rates' counts from the game."""
    from lab.blocking_rates import FIRST_SEED, table_rates

    spec = "learned:adapt=1:switch=1"
    bot = make_bot(spec)
    cfg = GameConfig(num_players=4, log=False)
    seed = FIRST_SEED
    play_game([bot, *[make_bot("heuristic") for _ in range(3)]], cfg, seed, bot_rngs(seed, 4))
    ((lost, spread),) = table_rates(spec, "heuristic", 1, opening=10_000)
    assert bot.blocking.turns > 10 and bot.spread.turns > 10
    assert bot.spread.turns < bot.blocking.turns  # the seat's own turns are not the others'
    assert bot.blocking.total / bot.blocking.turns == pytest.approx(lost)
    assert bot.spread.total / bot.spread.turns == pytest.approx(spread)


def test_switch_gives_the_hint_bot_the_weight_of_the_others_spread():
    """``switch=1``: the hint bot's weight is the larger of ``hint`` and the spread scale, the
    sturdiness bonuses untouched; at scale 1 the hint bot's own evaluator decides. The
    HeuristicBots spread more than the random bots do."""
    from agents.learned_eval import LearnedEvaluator

    cfg = GameConfig(num_players=4, log=False)
    rates = {}
    for opp in ("heuristic", "random"):
        bot = make_bot("learned:switch=1:hint=0.2:robust=2:durable=1")
        real, seen = bot.evaluator, []

        def spy(view, real=real, bot=bot, seen=seen):
            ev = real(view)
            s = bot.spread.scale()
            seen.append(s)
            if s >= 1.0:
                assert isinstance(ev, LearnedEvaluator)
            else:
                assert ev.hint_weight == pytest.approx(max(0.2, s))
                assert (ev.robust, ev.durable) == (2.0, 1.0)
            return ev

        bot.evaluator = spy
        play_game([bot, *[make_bot(opp) for _ in range(3)]], cfg, 2, bot_rngs(2, 4))
        assert bot.spread.turns > 10 and len(set(seen)) > 1  # the weight followed the table
        rates[opp] = bot.spread.rate()
    assert rates["heuristic"] > rates["random"]
    with pytest.raises(ValueError, match="switch"):
        make_bot("learned:switch=2")


@pytest.mark.parametrize("scale", [0.0, 1.0])
def test_switch_plays_the_network_at_a_table_that_stays_put_and_the_hint_bot_at_one_that_spreads(
    monkeypatch, states, scale
):
    monkeypatch.setattr(SpreadRate, "scale", lambda self: scale)
    like = HINT_BOT if scale else "learned:switch=0"  # the network alone
    assert_same_choices("learned:switch=1", states[4], like=like)


def test_a_checkpoint_can_ask_for_switch_and_the_spec_overrides_it(tmp_path):
    from agents.value_net import save, shipped

    net = shipped(4)
    net.play = {**net.play, "switch": 1.0}
    save(net, tmp_path / "v")
    cfg = GameConfig(num_players=4, log=False)
    for spec, want in [("", True), (":switch=0", False), (":switch=1", True)]:
        bot = make_bot(f"learned:path={tmp_path / 'v'}{spec}")
        bot.reset(0, cfg)
        assert bot.switch is want, spec
    plain = make_bot("learned:players=2")
    plain.reset(0, GameConfig(num_players=2, log=False))
    assert plain.switch is False  # the shipped 2-player network does not ask for it
