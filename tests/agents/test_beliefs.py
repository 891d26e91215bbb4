"""agents.beliefs: the joint belief over role assignments, its three likelihood models, and the
hidden-information rule (resampling what the observer cannot see leaves its belief unchanged)."""

from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest

from agents.beliefs import (
    Belief,
    FittedModel,
    PolicyModel,
    PriorModel,
    consistent_assignments,
    is_public,
    make_model,
)
from agents.roles import RoleBelief, default_model, posterior
from agents.rulesets import game_roles, own_role
from nanty_env.engine import Game, GameConfig
from nanty_env.engine import actions as A
from nanty_env.engine.determinize import determinize


def history(n: int, seed: int, steps: int, expansion: str | None = None):
    """(game before the action, action) pairs of a random game (clones: safe to keep)."""
    g = Game.new(GameConfig(num_players=n, log=False, expansion=expansion), seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        if g.is_terminal:
            return
        a = rnd.choice(g.legal_actions())
        yield g.clone(), a
        g.apply(a)


def feed(belief: Belief, g: Game, a: int) -> None:
    v = g.view(belief.seat)
    belief.observe(v, a if is_public(v, a) else None)


@pytest.mark.parametrize(("n", "expansion"), [(2, None), (3, None), (4, None), (4, "cthulhu")])
def test_assignments_are_the_deals_the_seat_cannot_rule_out(n: int, expansion) -> None:
    config = GameConfig(num_players=n, log=False, expansion=expansion)
    g = Game.new(config, 11)
    for seat in range(n):
        v = g.view(seat)
        a = consistent_assignments(v, config)
        truth = game_roles(g)
        assert (a[:, seat] == own_role(v)).all()
        assert all(len(set(row)) == n for row in a.tolist())
        assert list(truth) in a.tolist()
        seen = set(v.get("known_unused_personalities", []))
        assert not seen & set(a.ravel().tolist())
        cands = len(set(a[:, (seat + 1) % n].tolist()))
        assert len(a) == math.perm(cands, n - 1)


def test_prior_is_uniform_and_its_marginals_are_the_counting_posterior() -> None:
    config = GameConfig(num_players=4, log=False)
    g = Game.new(config, 3)
    b = Belief(config, 1)
    b.observe(g.view(1))
    a, p = b.joint()
    assert np.allclose(p, 1.0 / len(a))
    assert abs(p.sum() - 1.0) < 1e-12
    for m, ref in zip(b.marginals(), posterior(g.view(1), config, None), strict=True):
        assert np.allclose(m, ref)
    assert b.p(game_roles(g)) == pytest.approx(1.0 / len(a))
    bad = list(game_roles(g))
    bad[0] = bad[2]  # a card dealt twice
    assert b.p(bad) == 0.0


@pytest.mark.parametrize(("n", "expansion"), [(3, None), (4, None), (4, "cthulhu")])
def test_fitted_joint_has_the_shipped_posterior_as_marginals(n: int, expansion) -> None:
    config = GameConfig(num_players=n, log=False, expansion=expansion)
    if default_model(expansion) is None:
        pytest.skip("no shipped role model")
    seat = 1
    b = Belief(config, seat, FittedModel())
    ref = RoleBelief(config, default_model(expansion))
    checked = 0
    for g, a in history(n, 5, 900, expansion):
        feed(b, g, a)
        if g.turn % 4 == 0 and g.view(seat)["active"] == g.current_player:
            want = ref.marginals(g.view(seat))
            for m, r in zip(b.marginals(), want, strict=True):
                assert np.allclose(m, r, atol=1e-9)
            checked += 1
        else:
            ref.observe(g.view(seat))
    assert checked >= 3


@pytest.mark.slow
def test_policy_model_learns_from_a_known_bots_card_plays() -> None:
    """Against HeuristicBots the policy filter, watching the card plays of one game, finds
    the seat that plays Fagin and puts the true deal above the prior."""
    from agents.base import bot_rngs, play_game
    from agents.registry import make_bot

    config = GameConfig(num_players=3, log=False)
    b = Belief(config, 0, PolicyModel("heuristic", kinds=("main",)), seed=1)
    turns = []

    def on_action(g: Game, a: int) -> None:
        feed(b, g, a)
        turns.append(g.turn)

    bots = [make_bot("heuristic") for _ in range(3)]
    g, _ = play_game(bots, config, 21, bot_rngs(21, 3, 99), on_action=on_action)
    assert b.model.actions_used >= 3
    truth = game_roles(g)
    _, p = b.joint()
    assert b.marginals()[1][truth[1]] > 0.5  # Fagin, from 1/5 under the prior
    assert b.p(truth) > 1.0 / len(p)


def test_hidden_actions_are_refused_and_own_views_only() -> None:
    config = GameConfig(num_players=3, log=False)
    g = Game.new(config, 2)
    q = g.current_player
    other = (q + 1) % 3
    v = g.view(other)
    assert not is_public(v, A.SELECT_CARD + 4)  # a card given or kept: not seen
    assert is_public(v, A.PLAY_CARD + 4)
    assert not is_public(g.view(q), A.PLAY_CARD + 4)  # one's own action is no evidence
    b = Belief(config, other)
    with pytest.raises(ValueError, match="does not see"):
        b.observe(v, A.SELECT_CARD + 4)
    with pytest.raises(ValueError, match="seat"):
        b.observe(g.view(q))


@pytest.mark.parametrize(
    "model",
    [
        lambda: PriorModel(),
        lambda: FittedModel(),
        pytest.param(
            lambda: PolicyModel("heuristic:plan=greedy", kinds=("main", "card")),
            marks=pytest.mark.slow,
        ),
        pytest.param(  # the leakage observer: one seat watched, by a concealing bot's model
            lambda: PolicyModel("heuristic:plan=greedy:conceal=1", targets=[2]),
            marks=pytest.mark.slow,
        ),
    ],
)
def test_resampling_hidden_information_gives_identical_beliefs(model) -> None:
    """The leak test for beliefs: the same history, fed from games whose hidden parts (hands,
    draw pile, others' personalities) are resampled consistently with the observer's view at
    every step, gives bit-identical joints. The belief reads nothing else."""
    n, seat = 3, 0
    config = GameConfig(num_players=n, log=False)
    real, resampled = Belief(config, seat, model(), 7), Belief(config, seat, model(), 7)
    rng = np.random.default_rng(0)
    differed = compared = 0
    for g, a in history(n, 31, 400):
        h = determinize(g, seat, rng)
        differed += tuple(game_roles(h)) != tuple(game_roles(g)) or h.hands != g.hands
        feed(real, g, a)
        v = json.loads(json.dumps(h.view(seat)))  # as plain data, as a bot receives it
        resampled.observe(v, a if is_public(v, a) else None)
        if g.turn % 3 == 0:
            ja, jb = real.joint(), resampled.joint()
            assert np.array_equal(ja[0], jb[0]) and np.array_equal(ja[1], jb[1])
            compared += 1
    assert compared > 10
    assert differed > compared // 2  # the resamples really hid something different


def test_policy_targets_watch_only_their_seats() -> None:
    """With ``targets`` the filter builds bots for, and moves the likelihood of, those seats
    only."""
    config = GameConfig(num_players=3, log=False)
    b = Belief(config, 0, PolicyModel("heuristic:plan=greedy", targets=[2]), seed=1)
    assert {q for q, _ in b.model.bots} == {2}
    for g, a in history(3, 5, 300):
        feed(b, g, a)
    ll = b.model.log_likelihood()
    assert not ll[1].any() and ll[2].any()


def test_make_model_names() -> None:
    assert isinstance(make_model("prior"), PriorModel)
    assert isinstance(make_model("fitted"), FittedModel)
    m = make_model("policy:heuristic:depth=0;samples=2;epsilon=0.1;kinds=main+card")
    assert isinstance(m, PolicyModel)
    assert (m.bot_spec, m.samples, m.epsilon, m.kinds) == (
        "heuristic:depth=0",
        2,
        0.1,
        frozenset({"main", "card"}),
    )
    for bad in ("oracle", "policy:", "policy:heuristic;x=1"):
        with pytest.raises(ValueError):
            make_model(bad)


@pytest.mark.parametrize("model", ["fitted", "policy:heuristic:plan=greedy;kinds=main+card"])
def test_expansion_beliefs_are_about_objectives_and_leak_nothing(model: str) -> None:
    n, seat = 3, 1
    config = GameConfig(num_players=n, log=False, expansion="cthulhu")
    real, resampled = (
        Belief(config, seat, make_model(model), 3),
        Belief(config, seat, make_model(model), 3),
    )
    rng = np.random.default_rng(1)
    steps = 0
    for g, a in history(n, 8, 250, "cthulhu"):
        feed(real, g, a)
        v = determinize(g, seat, rng).view(seat)
        resampled.observe(v, a if is_public(v, a) else None)
        steps += 1
    ja, jb = real.joint(), resampled.joint()
    assert np.array_equal(ja[1], jb[1]) and steps > 100
    marg = real.marginals()
    assert len(marg[0]) == 7 and marg[seat][g.view(seat)["objective"]] == 1.0
    assert all(abs(m.sum() - 1.0) < 1e-9 for m in marg)
