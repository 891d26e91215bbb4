"""Behaviour-cloning warm start: imitate a scripted teacher before self-play PPO.

1. ``generate``: the teacher (a bot spec, default ``heuristic``) plays every seat of
   ``games`` games; each of its real decisions (more than one legal action, exactly the
   decisions the learner sees in the single-learner env) is recorded as the observation the
   policy would get (``encode_view`` of the seat's view), the legal-action mask, the chosen
   action and the discounted return that seat went on to collect (terminal reward plus the
   configured shaping, with the config's ``gamma``), the value head's target. For each
   ``vs`` entry (opponent spec -> games) the teacher also plays one seat (``index % n``)
   against that opponent in the other seats, and only its own decisions are recorded.
2. ``pretrain_policy``: fits the MaskablePPO policy to that data: masked cross-entropy of the
   teacher's action plus ``value_coef`` x the squared error of the value head.

The data is cached under ``cache_dir``, one file per part (mirror games, each ``vs`` entry; keyed
by everything that determines it) together with the CPU time its generation took, so a rerun
reuses it and still reports the full cost.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing as mp
import time
from pathlib import Path
from typing import Any

import numpy as np

from nanty_env.engine import Game, GameConfig
from nanty_env.engine.actions import NUM_ACTIONS
from nanty_env.rewards import goal_progress, terminal_rewards
from training.config import TrainConfig
from training.cputime import cpu_seconds


def _returns(phi: list[float], final_phi: float, reward: float, gamma: float) -> list[float]:
    """Discounted returns of one seat's decisions: shaping ``phi[i+1] - phi[i]`` after each
    decision (``final_phi`` after the last) and the terminal ``reward`` on the last one."""
    out = [0.0] * len(phi)
    g = 0.0
    for i in range(len(phi) - 1, -1, -1):
        nxt = phi[i + 1] if i + 1 < len(phi) else final_phi
        r = nxt - phi[i] + (reward if i == len(phi) - 1 else 0.0)
        g = r + gamma * g
        out[i] = g
    return out


def play_recorded(
    spec: str | list[str],
    config: GameConfig,
    seed: int,
    gamma: float,
    shaping: bool,
    reward_mode: str,
    record: set[int] | None = None,
) -> dict[str, np.ndarray]:
    """One game of ``spec`` (one spec for every seat, or a list: seat -> spec); the arrays of
    the real decisions of the seats in ``record`` (default: all seats)."""
    from agents.base import bot_rngs
    from agents.registry import make_bot
    from nanty_env.observation import OBS_SIZE, encode_view

    n = config.num_players
    specs = [spec] * n if isinstance(spec, str) else list(spec)
    if len(specs) != n:
        raise ValueError(f"{len(specs)} bot specs for {n} players")
    recorded = set(range(n)) if record is None else set(record)
    bots = [make_bot(s) for s in specs]
    g = Game.new(config, seed)
    rngs = bot_rngs(seed, n)
    for s, b in enumerate(bots):
        b.reset(s, config)
    observers = [s for s, b in enumerate(bots) if getattr(b, "observes", False)]
    obs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    acts: list[int] = []
    seats: list[int] = []
    phis: list[float] = []
    last_turn = -1
    while not g.is_terminal:
        if g.turn != last_turn:
            last_turn = g.turn
            for s in observers:
                bots[s].observe(g.view(s))
        legal = g.legal_actions()
        if len(legal) == 1:
            g.apply(legal[0])
            continue
        p = g.current_player
        view = g.view(p)
        a = int(bots[p].act(view, view["legal_actions"], rngs[p]))
        if p in recorded:
            obs.append(encode_view(view).astype(np.float16))
            m = np.zeros(NUM_ACTIONS, dtype=bool)
            m[list(legal)] = True
            masks.append(m)
            acts.append(a)
            seats.append(p)
            phis.append(goal_progress(g, p) if shaping else 0.0)
        g.apply(a)
    rewards = terminal_rewards(g, reward_mode)
    ret = np.zeros(len(acts), dtype=np.float32)
    seats_a = np.array(seats, dtype=np.int64)
    for s in range(n):
        idx = np.flatnonzero(seats_a == s)
        if len(idx):
            final = goal_progress(g, s) if shaping else 0.0
            ret[idx] = _returns([phis[i] for i in idx], final, rewards[s], gamma)
    return {
        "obs": np.array(obs, dtype=np.float16).reshape(-1, OBS_SIZE),
        "mask": np.array(masks, dtype=bool).reshape(-1, NUM_ACTIONS),
        "action": np.array(acts, dtype=np.int64),
        "ret": ret,
        "won": np.array([int(s in g.outcome.winners) for s in seats], dtype=np.int8),
    }


def game_seats(
    teacher: str, opponent: str | None, n: int, index: int
) -> tuple[list[str], set[int] | None]:
    """Seat specs and recorded seats of game ``index`` of a part: the teacher everywhere
    (``opponent`` None, all seats recorded), or the teacher in seat ``index % n`` only."""
    if opponent is None:
        return [teacher] * n, None
    seat = index % n
    specs = [opponent] * n
    specs[seat] = teacher
    return specs, {seat}


def game_seed(seed: int, opponent: str | None, index: int) -> int:
    """The seed of game ``index`` of a part (the mirror games keep their original seeds)."""
    base = seed * 1_000_003 + 7919
    return base + index if opponent is None else base + 500_009 + index


def _play_many(args: tuple) -> dict[str, np.ndarray]:
    import torch

    torch.set_num_threads(1)
    teacher, opponent, config_dict, indices, seed, gamma, shaping, reward_mode = args
    config = GameConfig.from_dict(config_dict)
    parts = []
    for k in indices:
        specs, record = game_seats(teacher, opponent, config.num_players, k)
        parts.append(
            play_recorded(
                specs, config, game_seed(seed, opponent, k), gamma, shaping, reward_mode, record
            )
        )
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def _game_config(cfg: TrainConfig) -> GameConfig:
    e = cfg.env
    return GameConfig(
        num_players=e.num_players, personalities=e.personalities, thresholds=e.thresholds, log=False
    )


def cache_path(cfg: TrainConfig, games: int | None = None, opponent: str | None = None) -> Path:
    """The cache file of the first ``games`` teacher games of one part: the mirror games
    (``opponent`` None; default count ``games``) or those against ``opponent`` (default
    count ``vs[opponent]``); the name's digest covers everything else that determines the
    data."""
    p, e = cfg.pretrain, cfg.env
    if games is None:
        games = p.games if opponent is None else p.vs[opponent]
    fields: list[Any] = [
        p.teacher,
        cfg.seed,
        e.num_players,
        e.personalities,
        e.thresholds,
        e.reward_mode,
        e.shaping,
        cfg.ppo.gamma,
        1,
    ]
    if opponent is not None:  # the mirror games' key (and file names) are unchanged
        fields += ["vs", opponent]
    digest = hashlib.sha1(json.dumps(fields).encode()).hexdigest()[:12]

    def clean(spec: str) -> str:
        return spec.replace(":", "_").replace("=", "")

    name = clean(p.teacher) + ("" if opponent is None else f"_vs_{clean(opponent)}")
    return Path(p.cache_dir) / f"bc_{name}_{games}g_{digest}.npz"


def _load(path: Path) -> tuple[dict[str, np.ndarray], float]:
    with np.load(path) as z:
        data = {k: z[k] for k in z.files}
    return data, float(data.pop("cpu_seconds"))


def generate(cfg: TrainConfig, log=print) -> tuple[dict[str, np.ndarray], float, float]:
    """The teacher's decisions (the mirror games, then those against each ``vs`` opponent),
    the CPU seconds their generation took (workers included) and how much of that was spent
    earlier (data read from the caches)."""
    parts, cpu, earlier = [], 0.0, 0.0
    for opponent in [None, *cfg.pretrain.vs]:
        data, c, e = generate_part(cfg, opponent, log)
        parts.append(data)
        cpu += c
        earlier += e
    data = {k: np.concatenate([x[k] for x in parts]) for k in parts[0]}
    return data, cpu, earlier


def generate_part(
    cfg: TrainConfig, opponent: str | None = None, log=print
) -> tuple[dict[str, np.ndarray], float, float]:
    """One part of :func:`generate`, with its own cache file. A cache of fewer games with
    the same settings is extended (the games are the same, seeded by index)."""
    p = cfg.pretrain
    games = p.games if opponent is None else p.vs[opponent]
    what = f"{p.teacher!r}" + ("" if opponent is None else f" vs {opponent!r}")
    path = cache_path(cfg, games, opponent)
    if path.exists():
        data, cpu = _load(path)
        log(f"pretrain: {len(data['action'])} cached decisions from {path} ({cpu:.0f} CPU-s)")
        return data, cpu, cpu
    done, old, old_cpu = 0, None, 0.0
    for k in range(games - 1, 0, -1):
        if cache_path(cfg, k, opponent).exists():
            done = k
            old, old_cpu = _load(cache_path(cfg, k, opponent))
            log(f"pretrain: extending {cache_path(cfg, k, opponent)} ({k} games) to {games} games")
            break
    indices = list(range(done, games))
    chunk = max(1, min(5, len(indices) // (4 * p.workers) or 1))
    jobs = [
        (
            p.teacher,
            opponent,
            _game_config(cfg).to_dict(),
            indices[i : i + chunk],
            cfg.seed,
            cfg.ppo.gamma,
            cfg.env.shaping == "goal_progress",
            cfg.env.reward_mode,
        )
        for i in range(0, len(indices), chunk)
    ]
    t0, c0 = time.perf_counter(), cpu_seconds()
    parts = []
    if p.workers <= 1:
        for j in jobs:
            parts.append(_play_many(j))
    else:
        ctx = mp.get_context(
            "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"
        )
        with ctx.Pool(p.workers) as pool:
            # imap (not imap_unordered): the games are stored in index order, so a cache of
            # fewer games is a prefix of a longer one
            for k, part in enumerate(pool.imap(_play_many, jobs), 1):
                parts.append(part)
                if k % max(1, len(jobs) // 10) == 0:
                    log(f"pretrain: {k}/{len(jobs)} game chunks ({time.perf_counter() - t0:.0f} s)")
    if old is not None:
        parts.insert(0, old)
    data = {k: np.concatenate([x[k] for x in parts]) for k in parts[0]}
    cpu = cpu_seconds() - c0
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, cpu_seconds=np.float64(cpu + old_cpu), **data)
    log(
        f"pretrain: {len(data['action'])} decisions from {games} games of {what} "
        f"({len(indices)} new in {time.perf_counter() - t0:.0f} s, {cpu:.0f} CPU-s) -> {path}"
    )
    return data, cpu + old_cpu, old_cpu


def pretrain_policy(model: Any, data: dict[str, np.ndarray], cfg: TrainConfig, log=print) -> dict:
    """Fit ``model.policy`` to the teacher's decisions; returns the fit's statistics."""
    import torch
    import torch.nn.functional as F

    p = cfg.pretrain
    policy = model.policy
    device = policy.device
    n = len(data["action"])
    rng = np.random.default_rng(cfg.seed)
    order = rng.permutation(n)
    n_val = max(1, n // 20) if n > 20 else 0
    val, tr = order[:n_val], order[n_val:]
    opt = torch.optim.Adam(policy.parameters(), lr=p.learning_rate)

    def batch(idx: np.ndarray):
        obs = torch.as_tensor(data["obs"][idx].astype(np.float32), device=device)
        mask = data["mask"][idx]
        act = torch.as_tensor(data["action"][idx], device=device)
        ret = torch.as_tensor(data["ret"][idx], device=device)
        return obs, mask, act, ret

    def evaluate(idx: np.ndarray) -> tuple[float, float]:
        if len(idx) == 0:
            return float("nan"), float("nan")
        policy.set_training_mode(False)
        correct, vloss = 0, 0.0
        with torch.no_grad():
            for k in range(0, len(idx), 2048):
                obs, mask, act, ret = batch(idx[k : k + 2048])
                dist = policy.get_distribution(obs, action_masks=mask)
                pred = dist.distribution.probs.argmax(dim=1)
                correct += int((pred == act).sum())
                vloss += float(
                    F.mse_loss(policy.predict_values(obs).flatten(), ret, reduction="sum")
                )
        return correct / len(idx), vloss / len(idx)

    t0 = time.perf_counter()
    stats: dict[str, Any] = {"decisions": n, "validation": n_val, "epochs": []}
    for epoch in range(p.epochs):
        policy.set_training_mode(True)
        rng.shuffle(tr)
        total, steps = 0.0, 0
        for k in range(0, len(tr), p.batch_size):
            obs, mask, act, ret = batch(tr[k : k + p.batch_size])
            values, log_prob, _ = policy.evaluate_actions(obs, act, action_masks=mask)
            loss = -log_prob.mean() + p.value_coef * F.mse_loss(values.flatten(), ret)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            opt.step()
            total += loss.item()
            steps += 1
        acc, vmse = evaluate(val)
        row = {"epoch": epoch + 1, "loss": total / max(1, steps), "val_acc": acc, "val_mse": vmse}
        stats["epochs"].append(row)
        log(
            f"pretrain epoch {epoch + 1}/{p.epochs}: loss {row['loss']:.3f}, validation accuracy "
            f"{acc:.3f}, value mse {vmse:.3f} ({time.perf_counter() - t0:.0f} s)"
        )
    policy.set_training_mode(False)
    stats["seconds"] = round(time.perf_counter() - t0, 1)
    return stats
