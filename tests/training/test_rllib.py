"""The RLlib backend: the multi-agent env, the action-masking module, the exported checkpoint
and the config. The short training runs (command line, Python recipe, cluster) are in
tests/app/test_use_from_your_code.py, which runs docs/use-from-your-code.md."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ray.rllib")
torch = pytest.importorskip("torch")

from nanty_env.encoding.observation import OBS_SIZE, encode  # noqa: E402
from nanty_env.engine import Game  # noqa: E402
from training.config import ConfigError  # noqa: E402
from training.rllib.config import load_rllib_config  # noqa: E402
from training.rllib.env import NantyMultiAgentEnv, agent_id  # noqa: E402


def first_legal(obs: dict) -> dict:
    (agent, o), *_ = obs.items()
    return {agent: int(np.flatnonzero(o["action_mask"])[0])}


def play_out(env: NantyMultiAgentEnv, seed: int):
    obs, _ = env.reset(seed=seed)
    seen, rewards = [], {}
    while True:
        assert len(obs) == 1  # exactly the seat that owes the decision observes
        seen.append(next(iter(obs)))
        obs, rew, term, trunc, infos = env.step(first_legal(obs))
        assert set(obs) <= set(rew)  # RLlib: an agent that observes again gets a reward
        for a, r in rew.items():
            rewards[a] = rewards.get(a, 0.0) + r
        assert not trunc["__all__"]
        if term["__all__"]:
            return seen, rewards, obs, term, infos


def test_only_the_deciding_seat_observes_its_own_view():
    env = NantyMultiAgentEnv({"num_players": 3})
    obs, _ = env.reset(seed=4)
    for _ in range(60):
        (agent, o), *_ = obs.items()
        seat = env.game.current_player
        assert agent == agent_id(seat)
        assert np.array_equal(o["observation"], encode(env.game, seat))
        legal = np.flatnonzero(o["action_mask"])
        assert list(legal) == env.game.legal_actions() and len(legal) > 1  # forced ones played
        obs, *_ = env.step({agent: int(legal[-1])})


def test_bots_play_their_seats_and_never_appear_as_agents():
    env = NantyMultiAgentEnv({"num_players": 4, "bot_seats": 2, "bot_pool": {"random": 1.0}})
    for seed in range(3):
        seen, rewards, final, term, infos = play_out(env, seed)
        learners = {agent_id(s) for s in range(4) if s not in env.bots}
        assert len(env.bots) == 2 and set(seen) <= learners and set(final) == learners
        winners = set(env.game.outcome.winners)
        for a in learners:  # win_loss without shaping: the terminal reward only
            assert rewards[a] == (1.0 if int(a[-1]) in winners else -1.0)
            assert infos[a]["winners"] == list(winners) and term[a]


def test_same_seed_same_game_and_shaping_adds_up():
    from nanty_env.faces.rewards import goal_progress, terminal_rewards

    cfg = {"num_players": 2, "shaping": "goal_progress"}
    a, b = NantyMultiAgentEnv(cfg), NantyMultiAgentEnv(cfg)
    run_a, run_b = play_out(a, 11), play_out(b, 11)
    assert run_a[0] == run_b[0] and run_a[1] == run_b[1]
    # potential differences telescope: each return is terminal + phi(end) - phi(start)
    start = Game.new(a.game_config, int(np.random.default_rng(11).integers(2**63)))
    final = terminal_rewards(a.game, "win_loss")
    for s in range(2):
        expected = final[s] + goal_progress(a.game, s) - goal_progress(start, s)
        assert run_a[1][agent_id(s)] == pytest.approx(expected)


def test_illegal_action_ends_the_episode_and_leaves_the_game():
    env = NantyMultiAgentEnv({"num_players": 2})
    obs, _ = env.reset(seed=1)
    (agent, o), *_ = obs.items()
    illegal = int(np.flatnonzero(o["action_mask"] == 0)[0])
    before = env.game.to_dict() if hasattr(env.game, "to_dict") else None
    _, rew, term, _, infos = env.step({agent: illegal})
    assert term["__all__"] and rew[agent] == -1.0 and infos[agent]["illegal_action"] == illegal
    assert all(r == 0.0 for a, r in rew.items() if a != agent)
    if before is not None:
        assert env.game.to_dict() == before
    from nanty_env.engine.errors import IllegalActionError

    strict = NantyMultiAgentEnv({"num_players": 2, "illegal_action": "raise"})
    obs, _ = strict.reset(seed=1)
    with pytest.raises(IllegalActionError):
        strict.step({next(iter(obs)): illegal})


@pytest.mark.parametrize(
    ("config", "match"),
    [
        ({"num_players": 5}, "num_players"),
        ({"reward_mode": "zerosum"}, "reward_mode"),
        ({"bot_seats": 4}, "bot_seats"),
        ({"bot_seats": 1, "bot_pool": {}}, "bot_pool"),
        ({"bot_pool": {"heuristc": 1.0}}, "unknown bot"),
        ({"colour": "red"}, "unknown env_config key"),
    ],
)
def test_env_config_is_checked_at_construction(config, match):
    with pytest.raises(ValueError, match=match):
        NantyMultiAgentEnv(config)


def test_module_masks_illegal_actions_and_exports_the_same_logits(tmp_path):
    from ray.rllib.core.columns import Columns

    from training.rllib.export import export_module
    from training.rllib.module import MaskedMLPModule

    env = NantyMultiAgentEnv({"num_players": 4})
    module = MaskedMLPModule(
        observation_space=env.observation_spaces["player_0"],
        action_space=env.action_spaces["player_0"],
        model_config={"hidden": [32, 16], "activation": "relu"},
    )
    obs, _ = env.reset(seed=2)
    o = next(iter(obs.values()))
    batch = {Columns.OBS: {k: torch.as_tensor(v[None]).float() for k, v in o.items()}}
    logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0]
    probs = torch.softmax(logits, -1).detach().numpy()
    assert probs[o["action_mask"] == 0].max() == 0.0 and probs.sum() == pytest.approx(1.0)
    values = module.compute_values(batch)
    assert values.shape == (1,)

    path = export_module(module, tmp_path / "model", env={"num_players": 4}, trained_with={})
    meta = json.loads(path.read_text())
    assert meta["format"] == "nanty-policy" and meta["version"] == 1
    assert meta["observation"]["size"] == OBS_SIZE and meta["num_actions"] == 405
    assert [x["activation"] for x in meta["actor"]] == ["relu", "relu", "none"]
    assert meta["trained_with"]["library"] == "rllib"
    from safetensors.numpy import load_file

    tensors = load_file(str(tmp_path / "model.safetensors"))
    x = o["observation"].astype(np.float32)
    for layer in meta["actor"]:  # the contract's forward pass, by hand
        x = x @ tensors[layer["weight"]].T + tensors[layer["bias"]]
        x = np.maximum(x, 0) if layer["activation"] == "relu" else x
    raw = module.actor(torch.as_tensor(o["observation"][None]).float())[0].detach().numpy()
    assert np.allclose(x, raw, atol=1e-5)


def tiny_config(tmp_path: Path) -> Path:
    text = (Path(__file__).resolve().parents[2] / "configs" / "rllib_quick.yaml").read_text()
    path = tmp_path / "tiny.yaml"
    path.write_text(
        text.replace("total_timesteps: 20000", "total_timesteps: 400")
        .replace("train_batch_size: 2000", "train_batch_size: 200")
        .replace("minibatch_size: 500", "minibatch_size: 100")
        .replace("num_epochs: 4", "num_epochs: 1")
        .replace("hidden: [256, 256]", "hidden: [32, 32]")
        .replace("checkpoint_every: 5 ", "checkpoint_every: 1 ")
    )
    return path


def test_rllib_config_errors_name_the_key(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("opponents:\n  bot_seats: 4\n")
    with pytest.raises(ConfigError, match="bot_seats"):
        load_rllib_config(bad)
    bad.write_text("ray:\n  num_env_runnerz: 2\n")
    with pytest.raises(ConfigError, match=r"unknown key 'ray\.num_env_runnerz'"):
        load_rllib_config(bad)
    bad.write_text("env:\n  num_players: 2\n  num_players: 3\n")  # the same loader as nanty train's
    with pytest.raises(ConfigError, match="num_players"):
        load_rllib_config(bad)
    cfg = load_rllib_config(tiny_config(tmp_path), **{"ray.num_env_runners": 2})
    assert cfg.ray.num_env_runners == 2 and cfg.ppo.total_timesteps == 400
