"""The parallel face: the no-op of the seats that do not decide, the cycle-ordered AEC env that
PettingZoo converts to it, and TorchRL's ``PettingZooWrapper`` on both faces."""

from __future__ import annotations

import logging
import random

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.conversions import aec_to_parallel

import nanty_env
from nanty_env.encoding.observation import NO_OP, action_mask
from nanty_env.engine import actions as A


def random_actions(obs: dict, rng: random.Random) -> dict:
    """What a generic random rollout does: every live agent samples from its own mask."""
    return {a: rng.choice(np.flatnonzero(o["action_mask"]).tolist()) for a, o in obs.items()}


@pytest.mark.parametrize("n", (2, 3, 4))
def test_every_seat_that_does_not_decide_has_exactly_the_no_op(n: int) -> None:
    e = nanty_env.parallel_env(num_players=n)
    obs, infos = e.reset(seed=n)
    rng = random.Random(n)
    steps = 0
    while e.agents:
        g = e.game
        for i, a in enumerate(e.possible_agents):
            mask = obs[a]["action_mask"]
            if infos[a]["acting"]:
                assert i == g.current_player
                assert np.array_equal(mask, action_mask(g, i))
            else:
                assert np.flatnonzero(mask).tolist() == [NO_OP] == [A.PASS]
        actions = random_actions({a: obs[a] for a in e.agents}, rng)
        obs, rewards, terms, _, infos = e.step(actions)
        steps += 1
    assert steps > 50 and all(terms.values()) and sum(r > 0 for r in rewards.values()) >= 1
    for a in e.possible_agents:  # the end: nothing to decide
        assert not obs[a]["action_mask"].any() and infos[a] == {"acting": False}


@pytest.mark.parametrize("n", (2, 4))
def test_cycle_order_aec_env_is_the_parallel_env_through_aec_to_parallel(n: int) -> None:
    assert nanty_env.raw_env().metadata["is_parallelizable"] is False  # engine order: it is not
    kw = {"num_players": n, "reward_mode": "zero_sum"}
    cycle = nanty_env.raw_env(agent_order="cycle", **kw)
    assert cycle.metadata["is_parallelizable"] is True
    direct = nanty_env.parallel_env(**kw)
    for converted in (
        aec_to_parallel(cycle),
        aec_to_parallel(nanty_env.env(agent_order="cycle", **kw)),
    ):
        for seed in (0, 1):
            a_obs, a_info = converted.reset(seed=seed)
            b_obs, b_info = direct.reset(seed=seed)
            rng = random.Random(seed)
            steps = 0
            while direct.agents:
                assert converted.agents == direct.agents
                assert same_obs(a_obs, b_obs) and a_info == b_info, steps
                actions = random_actions(b_obs, rng)
                a_obs, a_rew, a_term, a_trunc, a_info = converted.step(actions)
                b_obs, b_rew, b_term, b_trunc, b_info = direct.step(actions)
                assert (dict(a_rew), a_term, a_trunc, a_info) == (b_rew, b_term, b_trunc, b_info)
                steps += 1
            assert same_obs(a_obs, b_obs) and not converted.agents and steps > 50


def same_obs(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(
        np.array_equal(a[k]["observation"], b[k]["observation"])
        and np.array_equal(a[k]["action_mask"], b[k]["action_mask"])
        for k in a
    )


@pytest.mark.parametrize("n", (2, 3))
def test_cycle_order_passes_pettingzoos_tests(n: int) -> None:
    api_test(nanty_env.raw_env(num_players=n, agent_order="cycle"), num_cycles=300)
    api_test(nanty_env.env(num_players=n, agent_order="cycle"), num_cycles=300)
    seed_test(lambda: nanty_env.env(num_players=n, agent_order="cycle"), num_cycles=300)


def test_cycle_order_refuses_anything_but_the_no_op_from_other_seats() -> None:
    from nanty_env.engine import IllegalActionError

    e = nanty_env.raw_env(num_players=3, agent_order="cycle")
    e.reset(seed=2)
    decider, before = e.game.current_player, e.game.to_dict()
    for k, agent in enumerate(e.possible_agents):
        assert e.agent_selection == agent
        mask = e.observe(agent)["action_mask"]
        assert e.infos[agent]["acting"] == (k == decider)
        if k != decider:
            with pytest.raises(IllegalActionError, match="no-op"):
                e.step(1)
            e.step(NO_OP)
        else:
            with pytest.raises(IllegalActionError):
                e.step(int(np.flatnonzero(mask == 0)[0]))
            e.step(int(np.flatnonzero(mask)[0]))
        assert (e.game.to_dict() == before) == (k < 2)  # applied when the cycle ends
    assert e.agent_selection == "player_0"


@pytest.fixture
def torchrl():
    pytest.importorskip("torchrl", reason="TorchRL is an optional extra ([torchrl])")
    from torchrl.envs.libs.pettingzoo import PettingZooWrapper

    return PettingZooWrapper


@pytest.mark.slow
@pytest.mark.parametrize("parallel", (True, False))
def test_torchrl_random_rollouts_run_whole_games(torchrl, parallel: bool, caplog) -> None:
    """TorchRL's ``PettingZooWrapper`` samples every agent's random action from its mask (the
    parallel face's no-op makes that valid); games end and restart inside one rollout."""
    import warnings

    caplog.set_level(logging.ERROR)
    make = nanty_env.parallel_env if parallel else nanty_env.env
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # TorchRL warns that it tests another PettingZoo version
        env = torchrl(make(num_players=2), use_mask=True, categorical_actions=True, seed=0)
        rollout = env.rollout(1000, break_when_any_done=False)
    done = rollout["next", "done"].squeeze(-1)
    assert done.sum() >= 2, "fewer than two games finished"
    group = "player" if parallel else "player_0"
    actions = rollout[group, "action"]
    masks = rollout[group, "action_mask"]
    taken = masks.gather(-1, actions.unsqueeze(-1)).squeeze(-1)
    if parallel:  # every agent's sampled action was legal for it (the deciding one's or the no-op)
        assert taken.all()
        assert (actions == NO_OP).float().mean() > 0.3
    else:
        acting = rollout[group, "mask"].squeeze(-1)
        assert taken[acting].all() and acting.any()
