"""Training throughput beside sb3-contrib's MaskablePPO on PettingZoo's connect_four_v3, in the
same run, like for like.

Every setup trains MaskablePPO with the same network ([256, 256]), PPO settings and 8 games in
one process against uniformly random opponents chosen by the same code
(``nanty_env.faces.single.RandomOpponent``); connect four is its unwrapped ``raw_env`` (ours does
not go through PettingZoo's wrappers either). A pair differs only in the game: the same policy class
(``stock``: sb3-contrib's ``MlpPolicy``; ``lean``: ``training.masked_policy.LeanMaskablePolicy``,
the same networks and losses) and the same torch threads during the update (1, or 2 as
``nanty train`` runs by default; rollouts always use 1). Rows not paired with connect four:
the update threads adapted (``ppo.adapt_update_threads``: each update timed, 2 threads or 1
kept, whichever is faster) and our games split over 2 processes, balanced (the default) and
with a fixed split (each against the same setup with 2 threads in one process), and an
environment whose steps cost nothing (what PPO itself costs on a game of our size). Steps/s
after a warm-up rollout and update; every setup runs once per round, rounds interleaved
(``benchmarks/harness.py``).

    python benchmarks/train.py [--timesteps 16384] [--rounds 5] [--loaded] [--split]
    python benchmarks/train.py --opponents distilled:teacher=heuristic snapshots heuristic \
        --only-opponents

``--opponents SPEC ...`` adds one setup per spec: our games against three copies of the bot
``SPEC`` (``snapshots``: plain self-play, a frozen copy of the learner's network as
``nanty train``'s snapshots), as ``nanty, lean, 2 update threads`` otherwise; the setups
above face uniformly random opponents, whose cost is nil. ``--only-opponents`` runs only
those. ``--loaded`` runs every setup beside one busy process (another user's job). ``--split`` also
says where each learner step's time goes: the updates (``model.train``), the environment's
steps (``step_wait``), its action masks, and the rest of the rollout (the policy's forward
pass, the buffer, conversions), in microseconds per learner step, median over the rounds.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import gymnasium as gym
import numpy as np

import training  # noqa: F401  before torch loads: the OpenMP wait policy `nanty train` uses

# isort: split
from harness import (
    Measured,
    add_arguments,
    busy_process,
    footer,
    header,
    interleave,
    rate_columns,
    table,
    write_json,
)
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

from nanty_env.faces.single import RandomOpponent
from nanty_env.vector import make_vec_env

PPO_KW = {"n_steps": 256, "batch_size": 512, "n_epochs": 4, "learning_rate": 3e-4}
NET = {"net_arch": [256, 256]}
NUM_ENVS = 8


class ConnectFourVsRandom(gym.Env):
    """connect_four_v3 (``raw_env``) as a single-learner env: the learner is player_0, a
    random opponent answers with the same code as our random opponents; masks through
    ``action_masks()``."""

    def __init__(self) -> None:
        from pettingzoo.classic import connect_four_v3

        self.env = connect_four_v3.raw_env()
        self.observation_space = gym.spaces.Box(0, 1, (6 * 7 * 2,), dtype=np.float32)
        self.action_space = gym.spaces.Discrete(7)
        self.rng = np.random.default_rng(0)
        self.opponent = RandomOpponent()

    def _obs(self) -> np.ndarray:
        o = self.env.observe("player_0")
        self.mask = o["action_mask"].astype(bool)
        return o["observation"].astype(np.float32).ravel()

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.env.reset(seed=seed)
        return self._obs(), {}

    def action_masks(self) -> np.ndarray:
        return self.mask

    def step(self, action):
        self.env.step(int(action))
        while self.env.agents and self.env.agent_selection != "player_0":
            obs, _, term, trunc, _ = self.env.last()
            if term or trunc:
                break
            legal = np.flatnonzero(obs["action_mask"])
            self.env.step(self.opponent.act({}, legal, self.rng))
        done = any(self.env.terminations.values()) or any(self.env.truncations.values())
        reward = float(self.env.rewards.get("player_0", 0.0))
        return self._obs(), reward, done, False, {}


class InstantEnv(gym.Env):
    """An environment with our spaces (1,162 inputs, 405 actions, 40 steps an episode) whose
    steps cost nothing: what MaskablePPO itself costs on a game of this size."""

    def __init__(self) -> None:
        from nanty_env.faces.single import NantySingleAgentEnv

        probe = NantySingleAgentEnv(num_players=4)
        self.observation_space, self.action_space = probe.observation_space, probe.action_space
        self.obs = np.zeros(self.observation_space.shape, dtype=np.float32)
        self.obs[::13] = 1.0  # about as many nonzero inputs as our observations have
        self.mask = np.zeros(self.action_space.n, dtype=bool)
        self.mask[::80] = True  # about as many legal actions
        self.t = 0

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.t = 0
        return self.obs, {}

    def action_masks(self) -> np.ndarray:
        return self.mask

    def step(self, action):
        self.t += 1
        done = self.t >= 40
        return self.obs, float(done), done, False, {}


@dataclass(frozen=True)
class Setup:
    make_env: Callable[[], object]
    policy: str  # "stock" or "lean"
    update_threads: int
    processes: int = 1
    adapt: bool = False  # UpdateThreads times the updates and keeps the faster thread count


def against(spec: str) -> Callable[[], object]:
    """Our games against three copies of bot ``spec`` (``snapshots``: one frozen copy of a
    fresh learner with the benchmark's network, exported as ``nanty train`` exports its
    snapshots), drawn by ``nanty train``'s opponent pool."""
    from training.selfplay import SNAPSHOTS, OpponentPool

    def make() -> object:
        snapshots = []
        if spec == SNAPSHOTS:
            snapshots = [_snapshot()]
        pool = OpponentPool(3, {spec: 1.0}, snapshots)
        return make_vec_env(NUM_ENVS, num_workers=1, seed=0, num_players=4, opponents=pool)

    return make


def _snapshot() -> str:
    """A fresh learner's policy as a nanty-policy checkpoint in a temporary folder."""
    import tempfile

    from agents.sb3_export import export_sb3_policy
    from training.masked_policy import LeanMaskablePolicy

    probe = make_vec_env(1, num_players=4)
    policy = LeanMaskablePolicy(probe.observation_space, probe.action_space, lambda _: 3e-4, **NET)
    probe.close()
    path = f"{tempfile.mkdtemp(prefix='nanty_bench_')}/snapshot"
    export_sb3_policy(policy, path)
    return path


def connect_four() -> DummyVecEnv:
    return DummyVecEnv([ConnectFourVsRandom] * NUM_ENVS)


def nanty(workers: int = 1, balance: bool = True) -> Callable[[], object]:
    return lambda: make_vec_env(
        NUM_ENVS, num_workers=workers, seed=0, num_players=4, balance=balance
    )


SETUPS = {
    "connect four, stock, 1 thread": Setup(connect_four, "stock", 1),
    "nanty, stock, 1 thread": Setup(nanty(), "stock", 1),
    "connect four, lean, 1 thread": Setup(connect_four, "lean", 1),
    "nanty, lean, 1 thread": Setup(nanty(), "lean", 1),
    "connect four, lean, 2 update threads": Setup(connect_four, "lean", 2),
    "nanty, lean, 2 update threads": Setup(nanty(), "lean", 2),
    "nanty, lean, 1 or 2 update threads, adapted": Setup(nanty(), "lean", 2, adapt=True),
    "nanty on 2 processes, lean, 2 update threads": Setup(nanty(2), "lean", 2, processes=2),
    "nanty on 2 processes, fixed split, lean, 2 update threads": Setup(
        nanty(2, balance=False), "lean", 2, processes=2
    ),
    "instant env, lean, 2 update threads": Setup(
        lambda: DummyVecEnv([InstantEnv] * NUM_ENVS), "lean", 2
    ),
}
PAIRS = {  # ours: the setup it is compared with, like for like
    "nanty, stock, 1 thread": "connect four, stock, 1 thread",
    "nanty, lean, 1 thread": "connect four, lean, 1 thread",
    "nanty, lean, 2 update threads": "connect four, lean, 2 update threads",
    "nanty, lean, 1 or 2 update threads, adapted": "nanty, lean, 2 update threads",
    "nanty on 2 processes, lean, 2 update threads": "nanty, lean, 2 update threads",
    "nanty on 2 processes, fixed split, lean, 2 update threads": "nanty, lean, 2 update threads",
}
TARGET = ("nanty, lean, 2 update threads", 0.9)  # ours as `nanty train` runs it, like for like


SPLIT_PARTS = ("update", "env step", "action masks", "rest of the rollout")
# setup -> part -> microseconds per learner step, one value per round (filled with --split)
SPLITS: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))


@contextlib.contextmanager
def timing(obj: object, methods: dict[str, str], seconds: dict[str, float]) -> Iterator[None]:
    """Add the wall time of each call of ``obj``'s methods (name -> part) to ``seconds``."""
    originals = {name: getattr(obj, name) for name in methods if hasattr(obj, name)}

    def timed_call(name: str) -> Callable[..., object]:
        call, part = originals[name], methods[name]

        def run(*args: object, **kw: object) -> object:
            t0 = time.perf_counter()
            try:
                return call(*args, **kw)
            finally:
                seconds[part] += time.perf_counter() - t0

        return run

    for name in originals:
        setattr(obj, name, timed_call(name))
    try:
        yield
    finally:
        for name, call in originals.items():
            setattr(obj, name, call)


def steps_per_second(setup: Setup, timesteps: int, split: str | None = None) -> Measured | float:
    """Training steps/s of MaskablePPO on ``setup`` after a warm-up rollout and update (and
    per CPU-second of this process when it does all the work itself). With ``split`` (the
    setup's name), where the timed steps' time went goes to ``SPLITS[split]``."""
    import torch

    from training.masked_policy import LeanMaskablePolicy, UpdateThreads

    torch.set_num_threads(1)
    venv = setup.make_env()
    policy = LeanMaskablePolicy if setup.policy == "lean" else "MlpPolicy"
    model = MaskablePPO(policy, venv, policy_kwargs=NET, seed=0, verbose=0, **PPO_KW)
    callback = UpdateThreads(setup.update_threads, 1, adapt=setup.adapt)
    model.learn(PPO_KW["n_steps"] * NUM_ENVS, callback=callback)  # warm-up
    seconds: dict[str, float] = defaultdict(float)
    with contextlib.ExitStack() as stack:
        if split:
            stack.enter_context(timing(model, {"train": "update"}, seconds))
            env_parts = {"step_wait": "env step", "action_masks": "action masks"}
            env_parts["env_method"] = "action masks"  # how MaskablePPO asks a VecEnv for them
            stack.enter_context(timing(venv, env_parts, seconds))
        t0, c0 = time.perf_counter(), time.process_time()
        model.learn(timesteps, reset_num_timesteps=False, callback=callback)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    if split:
        seconds["rest of the rollout"] = wall - sum(seconds.values())
        for part in SPLIT_PARTS:
            SPLITS[split][part].append(1e6 * seconds[part] / timesteps)
    venv.close()
    torch.set_num_threads(1)
    if setup.processes > 1:  # the workers' CPU time is not this process's
        return timesteps / wall
    return Measured(timesteps / wall, timesteps / cpu)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timesteps", type=int, default=16384, help="timed steps per setup and round")
    ap.add_argument("--only", nargs="+", choices=list(SETUPS), help="a subset of the setups")
    ap.add_argument("--loaded", action="store_true", help="beside one busy process")
    ap.add_argument("--split", action="store_true", help="also where a learner step's time goes")
    ap.add_argument(
        "--opponents", nargs="+", default=[], help="also against 3 copies of each bot spec"
    )
    ap.add_argument("--only-opponents", action="store_true", help="only the --opponents setups")
    add_arguments(ap)
    args = ap.parse_args()
    for spec in args.opponents:
        SETUPS[f"nanty vs 3 x {spec}, lean, 2 update threads"] = Setup(against(spec), "lean", 2)
    info = header(
        f"training: MaskablePPO steps/s, net {NET['net_arch']}, {NUM_ENVS} games, {PPO_KW}, "
        f"{args.timesteps} timed steps per setup and round"
        + (", beside one busy process" if args.loaded else ""),
        args.rounds,
    )
    names = args.only or list(SETUPS)
    if args.only_opponents:
        names = [f"nanty vs 3 x {spec}, lean, 2 update threads" for spec in args.opponents]
    cases = {
        name: lambda name=name: steps_per_second(
            SETUPS[name], args.timesteps, name if args.split else None
        )
        for name in names
    }
    with busy_process() if args.loaded else contextlib.nullcontext():
        result = interleave(cases, args.rounds, warmup=False)  # each run warms itself up
    rows = []
    for name in names:
        peer = PAIRS.get(name)
        peer = peer if peer in result.values else None
        rows.append([name, *rate_columns(result, name, peer), peer or ""])
    headers = ["setup", "steps/s", "ratio", "per CPU-s", "ratio (CPU)", "against"]
    print(table(headers, rows))
    if args.split:
        print("\nwhere a learner step's time goes (microseconds per step, median over the rounds):")
        split_rows = [
            [name, *(f"{statistics.median(SPLITS[name][part]):,.1f}" for part in SPLIT_PARTS)]
            for name in names
            if SETUPS[name].processes == 1
        ]
        print(table(["setup", *SPLIT_PARTS], split_rows))
    footer(result)
    ours, target = TARGET
    if ours in result.values and PAIRS[ours] in result.values:
        r, c = result.ratio(ours, PAIRS[ours]), result.ratio(ours, PAIRS[ours], cpu=True)
        verdict = "met" if r.median >= target else "NOT met"
        print(
            f"target: {ours} >= {target} x {PAIRS[ours]}: {verdict} ({r.format(2)}; "
            f"by CPU time {c.format(2)})"
        )
    write_json(args.json, info, train=result)


if __name__ == "__main__":
    main()
