"""Training throughput: our MaskablePPO self-play setup (4 players, random opponents) against
sb3-contrib's MaskablePPO on PettingZoo's connect_four_v3 (learner vs a random player) with
the same network, PPO settings and number of environments, in the same run; each stock and
as ``nanty train`` runs it (lean masked policy, two torch threads during updates).

    python benchmarks/train.py [--timesteps 16384] [--num-envs 8] [--repeats 3]
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

from nanty_env.vector import make_vec_env

PPO_KW = {"n_steps": 256, "batch_size": 512, "n_epochs": 4, "learning_rate": 3e-4}
NET = {"net_arch": [256, 256]}


class ConnectFourVsRandom(gym.Env):
    """connect_four_v3 as a single-learner env: the learner is player_0, a uniformly random
    player answers; masks through ``action_masks()``."""

    def __init__(self) -> None:
        from pettingzoo.classic import connect_four_v3

        self.env = connect_four_v3.env()
        self.observation_space = gym.spaces.Box(0, 1, (6 * 7 * 2,), dtype=np.float32)
        self.action_space = gym.spaces.Discrete(7)
        self.rng = np.random.default_rng(0)

    def _obs(self):
        o = self.env.observe("player_0")
        self.mask = o["action_mask"].astype(bool)
        return o["observation"].astype(np.float32).ravel()

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.env.reset(seed=seed)
        return self._obs(), {}

    def action_masks(self):
        return self.mask

    def step(self, action):
        self.env.step(int(action))
        while self.env.agents and self.env.agent_selection != "player_0":
            obs, _, term, trunc, _ = self.env.last()
            if term or trunc:
                break
            self.env.step(int(self.rng.choice(np.flatnonzero(obs["action_mask"]))))
        done = any(self.env.terminations.values()) or any(self.env.truncations.values())
        reward = float(self.env.rewards.get("player_0", 0.0))
        return self._obs(), reward, done, False, {}


class InstantEnv(gym.Env):
    """An environment with our spaces (1,162 inputs, 405 actions, ~40 steps an episode) whose
    steps cost nothing: what MaskablePPO itself costs on a game of this size."""

    def __init__(self) -> None:
        from nanty_env.single import NantySingleAgentEnv

        probe = NantySingleAgentEnv(num_players=4)
        self.observation_space, self.action_space = probe.observation_space, probe.action_space
        self.obs = np.zeros(self.observation_space.shape, dtype=np.float32)
        self.obs[::7] = 1.0
        self.mask = np.zeros(self.action_space.n, dtype=bool)
        self.mask[::20] = True
        self.t = 0

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.t = 0
        return self.obs, {}

    def action_masks(self):
        return self.mask

    def step(self, action):
        self.t += 1
        done = self.t >= 40
        return self.obs, float(done), done, False, {}


def rate(venv, timesteps: int, lean: bool = False) -> float:
    """Training steps/s of MaskablePPO on ``venv`` (after a warm-up rollout and update):
    stock (``MlpPolicy``, one torch thread throughout), or ``lean`` as ``nanty train`` runs it
    (the lean masked policy, two threads during updates; the same networks and PPO)."""
    import torch

    from training.masked_policy import LeanMaskablePolicy, UpdateThreads

    torch.set_num_threads(1)  # rollouts: one thread (the env's workers use the other core)
    policy = LeanMaskablePolicy if lean else "MlpPolicy"
    model = MaskablePPO(policy, venv, policy_kwargs=NET, seed=0, verbose=0, **PPO_KW)
    callback = UpdateThreads(2, 1) if lean else None
    model.learn(256 * venv.num_envs, callback=callback)  # warm-up (first rollout and update)
    t0 = time.perf_counter()
    model.learn(timesteps, reset_num_timesteps=False, callback=callback)
    steps_per_second = timesteps / (time.perf_counter() - t0)
    venv.close()
    return steps_per_second


SETUPS = {  # name: (make the vec env, lean policy and update threads)
    "connect_four_v3, stock": (lambda n: DummyVecEnv([ConnectFourVsRandom] * n), False),
    "connect_four_v3, lean": (lambda n: DummyVecEnv([ConnectFourVsRandom] * n), True),
    "nanty 1 proc, stock": (lambda n: make_vec_env(n, seed=0, num_players=4), False),
    "nanty 1 proc, lean": (lambda n: make_vec_env(n, seed=0, num_players=4), True),
    "nanty 2 procs, lean": (
        lambda n: make_vec_env(n, num_workers=2, seed=0, num_players=4),
        True,
    ),
    "instant env, lean": (lambda n: DummyVecEnv([InstantEnv] * n), True),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--timesteps", type=int, default=16384)
    ap.add_argument("--num-envs", type=int, default=8)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    runs: dict[str, list[float]] = {name: [] for name in SETUPS}
    for _ in range(args.repeats):  # alternate, so drifts of the machine hit every setup alike
        for name, (make, lean) in SETUPS.items():
            runs[name].append(rate(make(args.num_envs), args.timesteps, lean))
    med = {name: float(np.median(r)) for name, r in runs.items()}
    c4, c4_lean = med["connect_four_v3, stock"], med["connect_four_v3, lean"]
    print(
        f"MaskablePPO, net {NET['net_arch']}, {args.num_envs} envs, {PPO_KW}; medians of "
        f"{args.repeats} alternating runs of {args.timesteps} steps"
    )
    print(f"{'setup':<26} {'steps/s':>8} {'vs c4 stock':>12} {'vs c4 lean':>11}  runs")
    for name, m in med.items():
        each = " ".join(f"{x:,.0f}" for x in runs[name])
        print(f"{name:<26} {m:>8,.0f} {m / c4:>12.2f} {m / c4_lean:>11.2f}  {each}")
    print(
        "stock: MlpPolicy, 1 torch thread; lean: training.masked_policy.LeanMaskablePolicy and "
        "2 torch threads in updates, as `nanty train` runs (same networks, same PPO).\n"
        "target: nanty 2 procs, lean (how configs/full.yaml trains) >= 0.9 x connect four; "
        "instant env: PPO alone on 1,162 inputs and 405 actions."
    )


if __name__ == "__main__":
    main()
