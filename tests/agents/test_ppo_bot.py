"""``ppo``: the shipped PPO policy, found by the player count, never by a path."""

from __future__ import annotations

import time
from importlib import resources

import numpy as np
import pytest

from agents.base import play_game
from agents.checkpoint import CheckpointError, load_policy
from agents.ppo_bot import PPOBot, ppo_stem, shipped_ppo
from agents.registry import FILE_LIMITS, WEB_LIMITS, BotSpecError, make_bot, untrusted_spec
from nanty_env.encoding.observation import OBS_SIZE
from nanty_env.engine import Game, GameConfig

DATA = resources.files("agents") / "data"


@pytest.mark.parametrize("players", [2, 4])
def test_the_shipped_policies_are_networks_alone(players: int) -> None:
    policy = load_policy(str(DATA / ppo_stem(players)), observation_size=OBS_SIZE)
    assert policy.meta["env"]["num_players"] == players
    assert policy.hint_bot is None and not policy.meta["observation"]["hint"]  # no look-ahead
    assert policy.meta["trained_with"]["library"] == "sb3"
    assert shipped_ppo(players).num_actions == policy.num_actions


def test_the_2_player_ppo_plays_a_legal_game() -> None:
    game, _ = play_game([make_bot("ppo"), make_bot("heuristic")], GameConfig(2, log=False), 5)
    assert game.outcome is not None


def test_ppo_plays_legal_games_and_is_fast() -> None:
    bots = [make_bot("ppo"), make_bot("heuristic"), make_bot("random"), make_bot("random")]
    game, record = play_game(bots, GameConfig(num_players=4, log=False), seed=11)
    assert game.is_terminal and record.decisions > 0
    bot = make_bot("ppo")
    assert isinstance(bot, PPOBot)
    config = GameConfig(num_players=4, log=False)
    g = Game.new(config, 5)
    bot.reset(g.current_player, config)
    rng = np.random.default_rng(0)
    view, legal = g.view(g.current_player), list(g.legal)
    bot.act(view, legal, rng)  # warm
    t0 = time.perf_counter()
    for _ in range(50):
        assert bot.act(view, legal, rng) in legal
    assert (time.perf_counter() - t0) / 50 < 0.02  # about 0.2 ms; generous on a busy machine


def test_a_player_count_without_a_network_is_one_clear_error() -> None:
    bot = make_bot("ppo")
    with pytest.raises(CheckpointError, match=r"no PPO policy for 3 players.*configs/ppo_3p"):
        bot.reset(0, GameConfig(num_players=3, log=False))
    with pytest.raises(ValueError, match="base game only"):
        bot.reset(0, GameConfig(num_players=4, expansion="cthulhu", log=False))


def test_ppo_is_safe_in_files_and_the_web_and_takes_no_path() -> None:
    assert untrusted_spec("ppo", FILE_LIMITS) == "ppo"
    assert untrusted_spec("ppo", WEB_LIMITS) == "ppo"
    with pytest.raises(BotSpecError, match="'path' is not allowed"):
        untrusted_spec("ppo:path=/etc/passwd", FILE_LIMITS)
