"""Every bot returns only legal actions, and decides from the view alone."""

from __future__ import annotations

import numpy as np
import pytest

from agents import HeuristicBot, ISMCTSBot, RandomBot, play_game
from agents.base import Bot
from nanty_env.engine import GameConfig
from nanty_env.engine.determinize import determinize


def bots() -> dict[str, Bot]:
    return {
        "random": RandomBot(),
        "heuristic": HeuristicBot(),
        "heuristic-prior": HeuristicBot(role_model=None),
        "ismcts": ISMCTSBot(iters=6),
        "ismcts-turn": ISMCTSBot(iters=4, horizon="turn", prior=0),
    }


@pytest.mark.parametrize("n", [2, 3, 4])
def test_bots_return_legal_actions(states, n):
    for name, bot in bots().items():
        for i, g in enumerate(states[n]):
            seat = g.current_player
            bot.reset(seat, g.cfg)
            view = g.view(seat)
            legal = g.legal_actions()
            a = bot.act(view, legal, np.random.default_rng(i))
            assert a in legal, (name, n, i, g.decision, a, legal)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_bots_act_the_same_on_a_resampled_view(states, n):
    """Resampling everything the seat cannot see leaves its view, hence its action, unchanged."""
    for name, bot in bots().items():
        for i, g in enumerate(states[n][:6]):
            seat = g.current_player
            other = determinize(g, seat, np.random.default_rng(100 + i))
            view, resampled = g.view(seat), other.view(seat)
            assert view == resampled
            actions = []
            for v in (view, resampled):
                bot.reset(seat, g.cfg)
                actions.append(bot.act(v, v["legal_actions"], np.random.default_rng(7)))
            assert actions[0] == actions[1], (name, n, i)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_whole_games_between_bots(n):
    seats = [HeuristicBot(), *[RandomBot() for _ in range(n - 1)]]
    if n == 2:
        seats[1] = ISMCTSBot(iters=3)
    g, rec = play_game(seats, GameConfig(num_players=n, log=False), seed=n)
    assert g.is_terminal
    assert rec.turns > 0 and rec.decisions > 0
    assert set(rec.winners) <= set(range(n))


def test_bots_never_see_the_game_object():
    """The harness passes plain data only: a view (dict), the legal list and a generator."""
    seen = []

    class Spy(RandomBot):
        def act(self, view, legal_actions, rng):
            seen.append((type(view), type(legal_actions), type(rng)))
            return super().act(view, legal_actions, rng)

    play_game([Spy(), Spy()], GameConfig(num_players=2, log=False), seed=3)
    assert seen and all(t == (dict, list, np.random.Generator) for t in seen)


def test_ismcts_time_budget_and_iterations(states):
    g = states[2][0]
    bot = ISMCTSBot(iters=12)
    bot.reset(g.current_player, g.cfg)
    bot.act(g.view(g.current_player), g.legal_actions(), np.random.default_rng(0))
    assert bot.last_iterations == 12
    timed = ISMCTSBot(time=0.05)
    timed.reset(g.current_player, g.cfg)
    timed.act(g.view(g.current_player), g.legal_actions(), np.random.default_rng(0))
    assert timed.last_iterations >= 1


def test_heuristic_mixture_option_reaches_the_learned_evaluator(states):
    from agents.learned_eval import LearnedEvaluator

    with pytest.raises(ValueError, match="mixture must be one of"):
        HeuristicBot(learned=1, mixture="median")
    g = states[4][0]
    seat = g.current_player
    for mixture in ("mean", "deals"):
        bot = HeuristicBot(learned=1, mixture=mixture)
        bot.reset(seat, g.cfg)
        ev = bot.evaluator(g.view(seat))
        assert isinstance(ev, LearnedEvaluator) and ev._mixture == mixture
        assert (
            bot.act(g.view(seat), g.legal_actions(), np.random.default_rng(0)) in g.legal_actions()
        )
