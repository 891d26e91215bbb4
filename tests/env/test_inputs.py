"""Bad input is refused clearly and changes nothing: actions that are not integers, calls out
of order, and options that would only fail later (all checked at construction)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import numpy as np
import pytest

import nanty_env
from nanty_env.engine import Game, GameConfig, IllegalActionError
from nanty_env.faces.single import NantySingleAgentEnv
from nanty_env.vector import make_vec_env


def not_integers(legal: int) -> list[Any]:
    """Values that mean ``legal`` to a careless caller but are not integers."""
    return [
        float(legal),
        legal + 0.7,
        True,
        np.True_,
        Decimal(legal),
        str(legal),
        [legal],
        np.array([legal]),
        np.float64(legal),
        None,
    ]


def test_game_apply_takes_integers_only_and_changes_nothing_otherwise() -> None:
    g = Game.new(GameConfig(num_players=3, log=False), seed=4)
    for _ in range(30):
        legal = g.legal_actions()[-1]
        before = g.to_dict()
        for bad in not_integers(legal):
            with pytest.raises(TypeError, match="integer"):
                g.apply(bad)
            assert g.to_dict() == before, bad
        g.apply([np.int64, np.int16, int, np.array][len(g.stack) % 4](legal))
    while not g.is_terminal:
        g.apply(g.legal_actions()[0])
    with pytest.raises(IllegalActionError, match="over"):
        g.apply(0)


@pytest.mark.parametrize("order", ["engine", "cycle"])
def test_raw_env_refuses_non_integers_and_none_mid_game(order: str) -> None:
    e = nanty_env.raw_env(num_players=2, agent_order=order)
    e.reset(seed=1)
    legal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])
    before = (e.game.to_dict(), e.agent_selection)
    for bad in not_integers(legal)[:-1]:
        with pytest.raises(TypeError, match="integer"):
            e.step(bad)
    with pytest.raises(TypeError, match="must act"):
        e.step(None)
    assert (e.game.to_dict(), e.agent_selection) == before
    e.step(np.int64(legal))  # numpy integers are integers


def test_raw_env_before_reset_and_after_the_end() -> None:
    e = nanty_env.raw_env(num_players=2)
    for call in (lambda: e.step(0), lambda: e.observe("player_0"), e.state, e.last):
        with pytest.raises(RuntimeError, match=r"reset\(\)"):
            call()
    assert e.agents == [] and e.agent_selection is None and list(e.agent_iter()) == []
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    for agent in e.agent_iter():  # PettingZoo's convention: finished agents step None
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            with pytest.raises(ValueError, match="None"):
                e.step(0)
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert agent not in e.agents or not (term or trunc)
    assert not e.agents
    with pytest.raises(RuntimeError, match="game is over"):
        e.step(None)
    with pytest.raises(RuntimeError, match="game is over"):
        e.step(0)


def test_single_agent_env_refuses_non_integers_before_judging_legality() -> None:
    env = NantySingleAgentEnv(num_players=2)
    with pytest.raises(RuntimeError, match=r"reset\(\)"):
        env.step(0)
    env.reset(seed=2)
    legal = int(np.flatnonzero(env.action_masks())[0])
    before = env.game.to_dict()
    for bad in not_integers(legal):
        with pytest.raises(TypeError, match="integer"):
            env.step(bad)
    assert env.game.to_dict() == before
    env.step(np.array(legal))  # what SB3's predict() returns for one observation


def test_parallel_env_inputs() -> None:
    e = nanty_env.parallel_env(num_players=3)
    with pytest.raises(RuntimeError, match=r"reset\(\)"):
        e.step({})
    obs, infos = e.reset(seed=3)
    acting = next(a for a in e.agents if infos[a]["acting"])
    other = next(a for a in e.agents if a != acting)
    legal = int(np.flatnonzero(obs[acting]["action_mask"])[-1])
    before = e.game.to_dict()
    with pytest.raises(IllegalActionError, match="no-op"):
        e.step({acting: legal, other: legal if legal else 1})
    with pytest.raises(KeyError, match="decides now"):
        e.step({other: 0})
    with pytest.raises(KeyError, match="not in the game"):
        e.step({acting: legal, "player_7": 0})
    with pytest.raises(TypeError, match="integer"):
        e.step({acting: float(legal)})
    with pytest.raises(IllegalActionError):
        e.step({acting: int(np.flatnonzero(obs[acting]["action_mask"] == 0)[0])})
    assert e.game.to_dict() == before
    e.step({acting: legal})  # the others may be left out
    while e.agents:
        obs, _, _, _, infos = e.step(
            {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in e.agents}
        )
    with pytest.raises(RuntimeError, match="game is over"):
        e.step({})


FACES = {
    "raw_env": nanty_env.raw_env,
    "env": nanty_env.env,
    "parallel_env": nanty_env.parallel_env,
    "single": NantySingleAgentEnv,
    "vector": lambda **kw: make_vec_env(2, **kw),
}


@pytest.mark.parametrize("face", sorted(FACES))
@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        (
            {"reward_mode": "zerosum"},
            ValueError,
            "reward_mode must be one of 'win_loss', 'zero_sum'",
        ),
        ({"reward_mode": "bogus"}, ValueError, "reward_mode must be one of"),
        ({"theme": "bogus"}, ValueError, "theme must be one of"),
        ({"num_players": 5}, ValueError, "num_players must be 2, 3 or 4"),
        ({"num_players": 3.0}, TypeError, "num_players must be an integer"),
        ({"num_players": True}, TypeError, "num_players must be an integer"),
        ({"render_mode": "bogus"}, ValueError, "render_mode must be one of"),
        ({"reveal_personalities": "yes"}, TypeError, "reveal_personalities must be True"),
        ({"num_player": 3}, TypeError, "unknown option.*num_player.*game options"),
        ({"config": GameConfig(), "theme": "nanty"}, TypeError, "not both"),
        ({"config": {"num_players": 3}}, TypeError, "config must be a GameConfig"),
        ({"expansion": "dunwich"}, ValueError, "expansion must be one of"),
        ({"content": "pack.toml"}, ValueError, "give expansion= too"),
    ],
)
def test_every_face_checks_its_options_at_construction(
    face: str, options: dict, error: type, message: str
) -> None:
    with pytest.raises(error, match=message):
        FACES[face](**options)


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"shaping": 3}, TypeError, "shaping must be a potential"),
        ({"agent_order": "random"}, ValueError, "agent_order must be one of 'engine', 'cycle'"),
        ({"log": 1}, TypeError, "log must be True or False"),
    ],
)
def test_raw_env_options(options: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        nanty_env.raw_env(**options)


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"illegal_action": "ignore"}, ValueError, "illegal_action must be one of"),
        ({"illegal_reward": float("nan")}, ValueError, "illegal_reward must be finite"),
        ({"illegal_reward": "-1"}, TypeError, "illegal_reward must be a number"),
        ({"learner_seat": 4}, ValueError, "learner_seat must be in"),
        ({"learner_seat": 1.0}, TypeError, "learner_seat must be an integer"),
        ({"opponents": [None, None, None]}, TypeError, "an opponent must be a bot"),
        ({"opponents": ["x"] * 3}, TypeError, "an opponent must be a bot"),
        ({"opponents": [lambda v, legal, rng: legal[0]] * 2}, ValueError, "need 3"),
        ({"opponents": 7}, TypeError, "opponents must be a bot"),
        ({"hint": 7}, TypeError, "hint must be a bot"),
        ({"auto_forced": None}, TypeError, "auto_forced must be True or False"),
    ],
)
def test_single_agent_env_options(options: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        NantySingleAgentEnv(**options)


def test_a_game_config_and_the_old_keywords_give_the_same_game() -> None:
    kw = {"num_players": 3, "personalities": "variant", "theme": "discworld"}
    config = GameConfig(**kw, log=True)  # the env's own log option decides (off)
    a, b = nanty_env.raw_env(config), nanty_env.raw_env(**kw)
    assert a.config == b.config == GameConfig(**kw, log=False)
    a.reset(seed=5), b.reset(seed=5)
    assert a.game.to_dict() == b.game.to_dict()
    s = NantySingleAgentEnv(config=config, learner_seat=1)
    assert s.config == a.config
    p = nanty_env.parallel_env(config)
    assert p.config == a.config and p.possible_agents == a.possible_agents
    assert nanty_env.env(config, illegal_reward=-2).unwrapped.config == a.config
