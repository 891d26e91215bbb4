"""``nanty_env.env()``'s single wrapper against PettingZoo's stock stack of three wrappers.

Both wrap the same ``raw_env`` and replay the same recorded games, which include illegal
actions (the game ends with -1 for the offender), out-of-space actions, ``None`` from an agent
that must act and non-``None`` from a finished one: every observation, mask, reward (of the step
and cumulative), termination, truncation, info, agent selection and raised error must be equal,
step for step, but for the two documented differences (``docs/env.md``, "Bad input"): ``None``
from an agent that must act raises ``TypeError`` (the stock stack: ``AssertionError``), and an
integer out of the action space is an illegal action, ending the game as an illegal action in
the space does on the stock stack (which raises ``AssertionError`` for it).
"""

from __future__ import annotations

import copy
import logging
import random
from typing import Any

import numpy as np
import pytest
from pettingzoo.utils import wrappers

import nanty_env
from nanty_env.engine import actions as A
from nanty_env.faces.wrapper import NantyAECWrapper


def stock(**kwargs: Any):
    e = nanty_env.raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1.0)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


def snapshot(e) -> tuple:
    """Everything an AEC user can read now (observations of every live agent included)."""
    obs, rew, term, trunc, info = e.last()
    others = [
        (a, e.observe(a)["observation"].tobytes(), e.observe(a)["action_mask"].tobytes())
        for a in e.agents
    ]
    return (
        e.agent_selection,
        list(e.agents),
        obs["observation"].tobytes(),
        obs["action_mask"].tobytes(),
        repr((rew, term, trunc, sorted(info.items()))),
        repr((e.rewards, e._cumulative_rewards, e.terminations, e.truncations)),
        others,
    )


def outcome(env, action: Any) -> str:
    """Step; the error raised, if any, by type and message."""
    try:
        env.step(action)
    except Exception as exc:  # the same error must come from both
        return f"{type(exc).__name__}: {exc}"
    return "ok"


def record(seed: int, n: int, *, misuse: float) -> list[Any]:
    """Actions of a random game on the stock stack: mostly legal, some misuse."""
    e = stock(num_players=n)
    e.reset(seed=seed)
    rng = random.Random(seed)
    actions: list[Any] = []
    while e.agents:
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            a = None if rng.random() > misuse else 3  # a finished agent must send None
        elif rng.random() < misuse:
            a = rng.choice(
                [
                    int(rng.choice(np.flatnonzero(obs["action_mask"] == 0))),  # illegal
                    A.NUM_ACTIONS,  # out of the space
                    None,  # an agent that must act
                    np.int64(rng.choice(np.flatnonzero(obs["action_mask"]))),  # legal, numpy
                ]
            )
        else:
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        actions.append(a)
        outcome(e, a)
    return actions


def ends_as_illegal(ours, theirs, out_of_space: int) -> None:
    """``out_of_space`` on (a copy of) ours ends the game as an illegal action in the space
    does on (a copy of) the stock stack."""
    ours, theirs = copy.deepcopy(ours), copy.deepcopy(theirs)
    illegal = int(np.flatnonzero(theirs.last()[0]["action_mask"] == 0)[0])
    assert outcome(ours, out_of_space) == outcome(theirs, illegal) == "ok"
    assert snapshot(ours) == snapshot(theirs)
    assert all(ours.truncations.values())


@pytest.fixture(autouse=True)
def _quiet_pettingzoo_warnings(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR)


@pytest.mark.parametrize(
    ("n", "kwargs"),
    [
        (2, {}),
        (3, {"reward_mode": "zero_sum", "shaping": lambda g, s: g.money[s] / 7}),
        (4, {"reveal_personalities": True}),
        (3, {"agent_order": "cycle"}),
    ],
)
def test_single_wrapper_replays_recorded_games_like_the_stock_stack(n: int, kwargs: dict) -> None:
    illegal_ends = out_of_space = 0
    for seed in range(4):
        misuse = 0.0 if seed == 0 else 0.02
        actions = record(seed, n, misuse=misuse) if not kwargs else None
        ours, theirs = nanty_env.env(num_players=n, **kwargs), stock(num_players=n, **kwargs)
        ours.reset(seed=seed), theirs.reset(seed=seed)
        rng = random.Random(seed)
        k = 0
        while theirs.agents:
            assert snapshot(ours) == snapshot(theirs), (seed, k)
            if actions is not None:
                a = actions[k]
            else:  # games of the variant envs: a legal action, or now and then an illegal one
                mask = theirs.last()[0]["action_mask"]
                term = theirs.last()[2] or theirs.last()[3]
                pool = np.flatnonzero(mask == 0) if rng.random() < misuse else np.flatnonzero(mask)
                a = None if term else int(rng.choice(pool))
            live = not (theirs.last()[2] or theirs.last()[3])
            if live and a is not None and not 0 <= a < A.NUM_ACTIONS:
                ends_as_illegal(ours, theirs, a)
                out_of_space += 1
            result = outcome(theirs, a)
            if live and (a is None or not 0 <= a < A.NUM_ACTIONS):
                assert result == "AssertionError: action is not in action space"
                if a is None:
                    assert outcome(ours, a).startswith("TypeError: player_"), (seed, k)
            else:
                assert outcome(ours, a) == result, (seed, k, a)
            illegal_ends += result == "ok" and all(theirs.truncations.values())
            k += 1
        assert not ours.agents
        assert outcome(ours, None) == outcome(theirs, None) == "ok"  # warns only
    assert illegal_ends > 0, "no game ended on an illegal action"
    assert out_of_space > 0 or kwargs, "no action out of the space"


def test_calls_out_of_order_are_refused_as_by_the_stock_stack() -> None:
    for make in (nanty_env.env, stock):
        e = make(num_players=2)
        for call in (lambda e=e: e.step(0), lambda e=e: e.observe("player_0"), e.state):
            with pytest.raises(AssertionError, match="reset"):
                call()
        for name in ("agent_selection", "agents", "rewards", "terminations", "infos"):
            with pytest.raises(AttributeError, match="before reset"):
                getattr(e, name)
        with pytest.raises(AttributeError, match="before reset"):
            e.last()
        e.reset(seed=0)
        it = iter(e.agent_iter())
        assert next(it) == e.agent_selection
        with pytest.raises(AssertionError, match="step"):
            next(it)  # an agent_iter loop must step


def test_bool_and_float_actions_are_refused_clearly() -> None:
    e = nanty_env.env(num_players=2)
    e.reset(seed=1)
    before = e.unwrapped.game.to_dict()
    legal = int(np.flatnonzero(e.last()[0]["action_mask"])[0])
    for bad in (float(legal), True):  # one kind of error for every non-integer
        with pytest.raises(TypeError, match="integer"):
            e.step(bad)
    assert e.unwrapped.game.to_dict() == before and not any(e.terminations.values())


def test_wrapper_is_the_documented_one() -> None:
    e = nanty_env.env(num_players=3, illegal_reward=-2)
    assert type(e) is NantyAECWrapper and e.illegal_reward == -2.0
    assert str(e) == "nanty_narking_v0"
    with pytest.raises(ValueError, match="illegal_reward"):
        nanty_env.env(illegal_reward=float("nan"))
