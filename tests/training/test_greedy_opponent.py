"""The cheap training opponent ``heuristic:plan=greedy``: legal, cheaper, default unchanged."""

from __future__ import annotations

import pytest

from agents.base import play_game
from agents.heuristic import HeuristicBot
from agents.random_bot import RandomBot
from agents.registry import make_bot
from nanty_env.engine import GameConfig


def test_greedy_spec_plays_legal_games() -> None:
    bot = make_bot("heuristic:plan=greedy")
    assert isinstance(bot, HeuristicBot) and bot.plan == "greedy"
    bots = [bot, make_bot("heuristic:plan=greedy"), RandomBot()]
    _, record = play_game(bots, GameConfig(num_players=3, log=False), seed=11)
    assert record.decisions > 0  # the harness raises on an illegal action


def test_default_heuristic_still_plans_the_turn() -> None:
    assert HeuristicBot().plan == "turn" and make_bot("heuristic").plan == "turn"
    with pytest.raises(ValueError, match="plan must be one of"):
        HeuristicBot(plan="deep")
