"""ISMCTSBot options: the per-game budget, the round-robin root and searching only some kinds."""

from __future__ import annotations

import numpy as np
import pytest

from agents import ISMCTSBot
from agents.registry import make_bot
from nanty_env.engine.determinize import determinize


def variants() -> dict[str, ISMCTSBot]:
    return {
        "rr": ISMCTSBot(iters=8, root="rr", top=3),
        "rr-dets": ISMCTSBot(iters=8, root="rr", top=3, dets=2, margin=0.05),
        "main-only": ISMCTSBot(iters=6, root="rr", only="main", prior_depth=1),
    }


@pytest.mark.parametrize("n", [2, 3])
def test_variants_return_legal_actions_and_ignore_hidden_state(states, n):
    for name, bot in variants().items():
        _assert_legal_and_blind(bot, states[n][:5], 200, 3, (name, n))


def _assert_legal_and_blind(bot, games, det_seed: int, act_seed: int, label) -> None:
    """In each game ``bot`` plays a legal action, the same one when what its seat cannot see
    is resampled (same rng)."""
    for i, g in enumerate(games):
        seat = g.current_player
        other = determinize(g, seat, np.random.default_rng(det_seed + i))
        actions = []
        for v in (g.view(seat), other.view(seat)):
            bot.reset(seat, g.cfg)
            actions.append(bot.act(v, v["legal_actions"], np.random.default_rng(act_seed)))
        assert actions[0] in g.legal_actions(), (label, i)
        assert actions[0] == actions[1], (label, i)


def test_budget_is_shared_out_and_spent(states):
    g = states[2][0]
    seat = g.current_player
    bot = ISMCTSBot(budget=0.5, iters=100_000)
    bot.reset(seat, g.cfg)
    view = g.view(seat)
    share = bot.decision_time(view)
    assert 0 < share < 0.5
    bot.act(view, view["legal_actions"], np.random.default_rng(0))
    assert bot.last_iterations >= 1
    assert bot.spent > 0
    # Once the budget is gone every decision still runs one iteration at least.
    bot.spent = 10.0
    assert bot.decision_time(view) == bot.min_time
    bot.act(view, view["legal_actions"], np.random.default_rng(0))
    assert bot.last_iterations >= 1
    bot.reset(seat, g.cfg)
    assert bot.spent == 0.0


def test_options_from_spec():
    bot = make_bot("ismcts:budget=20:root=rr:top=3:only=main:margin=0.05")
    assert bot.budget == 20 and bot.root == "rr" and bot.top == 3
    assert bot.only == ("main",) and bot.margin == 0.05
    assert make_bot("ismcts:iters=2:w_points=0.5:w_own=2").weights.points == 0.5
    with pytest.raises(ValueError):
        ISMCTSBot(root="best")
    with pytest.raises(ValueError):
        ISMCTSBot(horizon="forever")


@pytest.mark.parametrize("learned", [1.0, 0.5])
def test_learned_leaf_plays_legal_actions_and_ignores_hidden_state(states, learned):
    bot = ISMCTSBot(iters=8, root="rr", top=3, only="main+card", prior_depth=1, learned=learned)
    assert bot.value_model is not None
    _assert_legal_and_blind(bot, states[2][:6], 300, 5, learned)


def test_learned_leaf_values_are_win_probabilities(states):
    """With ``learned=1`` the leaf values are ``TERMINAL * (2p - 1)``: opposite, in range."""
    from agents.ismcts import TERMINAL, Determinisation
    from agents.value_model import default_value_model

    for g in states[2][:4]:
        d = Determinisation(g.clone(), ISMCTSBot().weights, 0, default_value_model(), 1.0)
        v0, v1 = d.values(g)
        assert -TERMINAL <= v0 <= TERMINAL and v0 == pytest.approx(-v1)


def test_learned_leaf_options():
    bot = make_bot("ismcts:iters=2:learned=0.5")
    assert bot.learned == 0.5 and bot.value_model is not None
    assert make_bot("ismcts:iters=2").value_model is None
    with pytest.raises(ValueError):
        ISMCTSBot(learned=2.0)
    from nanty_env.engine.config import GameConfig

    with pytest.raises(ValueError):
        bot.reset(0, GameConfig(num_players=3, log=False))


@pytest.mark.parametrize("n", [2, 4])
def test_network_leaves_read_the_sampled_personalities(states, n):
    """With ``net=1`` a leaf is worth ``TERMINAL * (2p - 1)`` of the shipped value network
    under the determinisation's personalities (other personalities, other values), and the
    bot plays legal actions that ignore what its seat cannot see."""
    from agents.ismcts import TERMINAL, Determinisation
    from agents.value_features import Position
    from agents.value_net import shipped

    net = shipped(n)
    for g in states[n][:4]:
        d = Determinisation(g.clone(), ISMCTSBot().weights, 0, net=net)
        f, shared = Position(g, g.cfg).table(g.persona)
        p = net.probabilities(f, shared)
        assert d.values(g) == pytest.approx([TERMINAL * (2 * x - 1) for x in p])
        assert sum(d.values(g)) == pytest.approx(TERMINAL * (2 - n))
        swapped = g.clone()
        swapped.persona = [*g.persona[1:], g.persona[0]]
        if len(set(g.persona)) > 1:
            assert d.values(swapped) != pytest.approx(d.values(g))
    bot = make_bot("ismcts:iters=6:root=rr:top=3:only=main+card:prior_depth=1:net=1")
    _assert_legal_and_blind(bot, states[n][:4], 400, 6, ("net", n))
    assert bot.net is shipped(n)


def test_network_leaf_options():
    from nanty_env.engine.config import GameConfig

    with pytest.raises(ValueError, match="net=1"):
        make_bot("ismcts:net=1:learned=1")
    with pytest.raises(ValueError, match="base game"):
        make_bot("ismcts:net=1").reset(0, GameConfig(num_players=2, expansion="cthulhu"))
