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
3. ``dagger`` (``dagger_rounds`` > 0): DAgger-style relabelling. The fitted policy (greedy)
   plays one seat (rotated) against each ``dagger_vs`` opponent; at each of its real
   decisions the teacher, reset and observing from that seat exactly like a seated bot, is
   asked what it would do, and that is recorded as the label (the policy's action is the one
   played; the value target is the return the policy's seat then collected). The rows are
   added to the data and the policy is fitted ``dagger_epochs`` more epochs on all of it.

The data is cached under ``cache_dir``, one file per part (mirror games, each ``vs`` entry; keyed
by everything that determines it) together with the CPU time its generation took, so a rerun
reuses it and still reports the full cost.
"""

from __future__ import annotations

import hashlib
import json
import time
from contextlib import closing, nullcontext
from pathlib import Path
from typing import Any

import numpy as np

from arena.tournament import progress_bar
from nanty_env.encoding.observation import with_hint
from nanty_env.engine import NUM_ACTIONS, Game, GameConfig
from nanty_env.faces.rewards import terminal_rewards
from nanty_env.vector.batch import process_context
from training.config import TrainConfig
from training.cputime import cpu_seconds
from training.potentials import potential


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


def return_shaping(cfg: TrainConfig) -> str:
    """The shaping in the value head's targets: the env's, or none (``shaped_returns``)."""
    return cfg.env.shaping if cfg.pretrain.shaped_returns else "none"


def play_recorded(
    spec: str | list[Any],
    config: GameConfig,
    seed: int,
    gamma: float,
    shaping: str,
    reward_mode: str,
    record: set[int] | None = None,
    label: dict[int, str] | None = None,
    scores: bool = False,
) -> dict[str, np.ndarray]:
    """One game of ``spec`` (one spec for every seat, or a list: seat -> spec or bot object);
    the arrays of the real decisions of the seats in ``record`` (default: all seats).

    ``scores``: each recorded decision also gets ``gap``, the labelling bot's look-ahead score
    of every candidate minus the best one's (``act_scored``; -inf for the rest), or 0 for the
    recorded action alone where it compared none (see :func:`score_gaps`).

    ``label`` (seat -> teacher spec, DAgger): in those seats the seat's own bot plays, but the
    recorded ``action`` is what the teacher would do there; the teacher is reset, observes
    and acts exactly like a seated bot, from that seat's view only. The actions actually
    played are then returned as ``played`` too."""
    from agents.base import bot_rngs
    from agents.registry import make_bot
    from nanty_env.encoding.observation import OBS_SIZE, encode_view

    n = config.num_players
    specs = [spec] * n if isinstance(spec, str) else list(spec)
    if len(specs) != n:
        raise ValueError(f"{len(specs)} bot specs for {n} players")
    recorded = set(range(n)) if record is None else set(record)
    label = dict(label or {})
    if not set(label) <= recorded:
        raise ValueError(f"labelled seats {sorted(label)} must be recorded ({sorted(recorded)})")
    bots = [make_bot(s) if isinstance(s, str) else s for s in specs]
    teachers = {s: make_bot(t) for s, t in label.items()}
    g = Game.new(config, seed)
    rngs = bot_rngs(seed, n)
    phi = potential(shaping)
    teacher_rngs = bot_rngs(seed, n, salt=1)  # the seated bots' random streams are unchanged
    for s, b in enumerate(bots):
        b.reset(s, config)
    for s, t in teachers.items():
        t.reset(s, config)
    observers = [(s, b) for s, b in enumerate(bots) if getattr(b, "observes", False)]
    observers += [(s, t) for s, t in teachers.items() if getattr(t, "observes", False)]
    obs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    acts: list[int] = []
    gaps: list[np.ndarray] = []
    played: list[int] = []
    seats: list[int] = []
    phis: list[float] = []
    last_turn = -1
    while not g.is_terminal:
        if g.turn != last_turn:
            last_turn = g.turn
            for s, b in observers:
                b.observe(g.view(s))
        legal = g.legal_actions()
        if len(legal) == 1:
            g.apply(legal[0])
            continue
        p = g.current_player
        view = g.view(p)
        a, seen = _decide(bots[p], view, rngs[p], scores and p in recorded and p not in teachers)
        if p in recorded:
            obs.append(encode_view(view).astype(np.float16))
            m = np.zeros(NUM_ACTIONS, dtype=bool)
            m[list(legal)] = True
            masks.append(m)
            if p in teachers:
                tv = g.view(p)  # the teacher gets its own copy of the seat's view
                label_a, seen = _decide(teachers[p], tv, teacher_rngs[p], scores)
                acts.append(label_a)
            else:
                acts.append(a)
            if scores:
                gaps.append(score_gaps(acts[-1], seen))
            played.append(a)
            seats.append(p)
            phis.append(phi(g, p) if phi else 0.0)
        g.apply(a)
    rewards = terminal_rewards(g, reward_mode)
    ret = np.zeros(len(acts), dtype=np.float32)
    seats_a = np.array(seats, dtype=np.int64)
    for s in range(n):
        idx = np.flatnonzero(seats_a == s)
        if len(idx):
            final = phi(g, s) if phi else 0.0
            ret[idx] = _returns([phis[i] for i in idx], final, rewards[s], gamma)
    out = {
        "obs": np.array(obs, dtype=np.float16).reshape(-1, OBS_SIZE),
        "mask": np.array(masks, dtype=bool).reshape(-1, NUM_ACTIONS),
        "action": np.array(acts, dtype=np.int64),
        "ret": ret,
        "won": np.array([int(s in g.outcome.winners) for s in seats], dtype=np.int8),
    }
    if scores:
        out["gap"] = np.array(gaps, dtype=np.float16).reshape(-1, NUM_ACTIONS)
    if teachers:
        out["played"] = np.array(played, dtype=np.int64)
    return out


def _decide(
    bot: Any, view: Any, rng: np.random.Generator, scored: bool
) -> tuple[int, dict[int, float]]:
    """The bot's action and, if ``scored``, its candidates' scores (none for a bot that does
    not score)."""
    act_scored = getattr(bot, "act_scored", None) if scored else None
    if act_scored is None:
        return int(bot.act(view, view["legal_actions"], rng)), {}
    a, seen = act_scored(view, view["legal_actions"], rng)
    return int(a), seen


def score_gaps(action: int, seen: dict[int, float]) -> np.ndarray:
    """One row of ``gap``: each scored candidate's score minus the best score (0 for the
    best), -inf for every other action; ``action`` alone at 0 when nothing was scored."""
    row = np.full(NUM_ACTIONS, -np.inf, dtype=np.float32)
    if not seen:
        row[action] = 0.0
        return row
    top = max(seen.values())
    for a, v in seen.items():
        row[a] = v - top
    return row


def soft_targets(gap: np.ndarray, temperature: float) -> np.ndarray:
    """The teacher's softened choice: softmax of ``gap / temperature`` over the scored
    candidates of each row (probability 0 for the rest)."""
    z = np.exp(gap.astype(np.float32) / temperature)
    return z / z.sum(axis=1, keepdims=True)


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
    teacher, opponent, config_dict, indices, seed, gamma, shaping, reward_mode, scores = args
    config = GameConfig.from_dict(config_dict)
    parts = []
    for k in indices:
        specs, record = game_seats(teacher, opponent, config.num_players, k)
        game = game_seed(seed, opponent, k)
        parts.append(
            play_recorded(specs, config, game, gamma, shaping, reward_mode, record, scores=scores)
        )
    return _concat(parts)


def _game_config(cfg: TrainConfig) -> GameConfig:
    e = cfg.env
    return GameConfig(
        num_players=e.num_players, personalities=e.personalities, thresholds=e.thresholds, log=False
    )


def _chunks(items: list, workers: int) -> list[list]:
    """``items`` in chunks of 1-5 (about four chunks a worker) for a process pool."""
    size = max(1, min(5, len(items) // (4 * workers) or 1))
    return [items[i : i + size] for i in range(0, len(items), size)]


def _run(fn: Any, jobs: list, workers: int, desc: str, progress: bool = True) -> list:
    """``fn`` of every job (a job's fourth item is its chunk of games), in job order: in this
    process, or in a pool of ``workers`` processes (``imap``, not ``imap_unordered``: games stay
    in index order, so a cache of fewer games is a prefix of a longer one), under a progress
    bar over the games named ``desc`` (``progress`` False: none)."""
    bar, out = progress_bar(sum(len(job[3]) for job in jobs), progress, desc), []
    pool = process_context().Pool(workers) if workers > 1 else nullcontext()
    with pool, closing(bar):
        parts = map(fn, jobs) if workers <= 1 else pool.imap(fn, jobs)
        for job, part in zip(jobs, parts, strict=True):
            out.append(part)
            bar.update(len(job[3]))
    return out


def _concat(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The parts' arrays joined key by key."""
    return {k: np.concatenate([x[k] for x in parts]) for k in parts[0]}


CACHE_FORMAT = 1  # part of every cache key: bump when the recorded arrays change meaning
CACHE_ARRAYS = ("obs", "mask", "action", "ret", "won")


def cache_arrays(cfg: TrainConfig) -> tuple[str, ...]:
    """The arrays a cache file of ``cfg`` holds: ``gap`` too when the fit uses the scores."""
    return (*CACHE_ARRAYS, "gap") if cfg.pretrain.soft > 0 else CACHE_ARRAYS


def cache_key(cfg: TrainConfig, games: int, opponent: str | None = None) -> list:
    """Everything that determines the data of the first ``games`` games of one part (the
    mirror games, ``opponent`` None, or those against ``opponent``); stored in the file."""
    return [*_settings(cfg, opponent), "games", games]


def _settings(cfg: TrainConfig, opponent: str | None) -> list:
    """The part's settings other than its number of games (their digest names the file)."""
    p, e = cfg.pretrain, cfg.env
    fields: list[Any] = [
        p.teacher,
        cfg.seed,
        e.num_players,
        e.personalities,
        e.thresholds,
        e.reward_mode,
        return_shaping(cfg),
        cfg.ppo.gamma,
        CACHE_FORMAT,
    ]
    if opponent is not None:  # the mirror games' key (and file names) are unchanged
        fields += ["vs", opponent]
    if p.soft > 0:  # the same games with the teacher's scores recorded too
        fields += ["scores"]
    if "learned" in p.teacher or "learned" in (opponent or ""):  # bots using the shipped value
        from agents.value_model import model_digest

        fields += ["value model", model_digest(e.num_players)]
    return fields


def cache_path(cfg: TrainConfig, games: int | None = None, opponent: str | None = None) -> Path:
    """The cache file of the first ``games`` teacher games of one part: the mirror games
    (``opponent`` None; default count ``games``) or those against ``opponent`` (default
    count ``vs[opponent]``); the name's digest covers everything else that determines the
    data."""
    p = cfg.pretrain
    if games is None:
        games = p.games if opponent is None else p.vs[opponent]
    digest = hashlib.sha1(json.dumps(_settings(cfg, opponent)).encode()).hexdigest()[:12]

    def clean(spec: str) -> str:
        return spec.replace(":", "_").replace("=", "")

    name = clean(p.teacher) + ("" if opponent is None else f"_vs_{clean(opponent)}")
    return Path(p.cache_dir) / f"bc_{name}_{games}g_{digest}.npz"


def _content_digest(data: dict[str, np.ndarray]) -> str:
    """A digest of the arrays' names, types, shapes and bytes."""
    h = hashlib.sha256()
    for k in sorted(data):
        a = np.ascontiguousarray(data[k])
        h.update(f"{k}|{a.dtype.str}|{a.shape}|".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def _save_cache(path: Path, key: list, data: dict[str, np.ndarray], cpu: float) -> None:
    """Write a cache file atomically (a killed run leaves the old file or none), with its key
    and a digest of its arrays inside, so that a file is trusted for its content, not its name."""
    from nanty_env.storage.files import atomic_path

    meta = json.dumps({"key": key, "digest": _content_digest(data)})
    with atomic_path(path, suffix=".npz") as tmp:
        np.savez(tmp, cpu_seconds=np.float64(cpu), cache_meta=np.array(meta), **data)


def _load(
    path: Path, key: list, arrays: tuple[str, ...] = CACHE_ARRAYS
) -> tuple[dict[str, np.ndarray], float] | None:
    """The arrays (named ``arrays``) and CPU seconds of a cache file written for ``key``;
    None (and the reason, printed) when the file is unreadable, for another key or not what
    it claims to be."""
    try:
        with np.load(path, allow_pickle=False) as z:
            data = {k: z[k] for k in z.files}
        meta = json.loads(str(data.pop("cache_meta")))
        cpu = float(data.pop("cpu_seconds"))
    except Exception as e:  # not an npz (BadZipFile), torn, objects refused, no meta...
        print(f"pretrain: ignoring cache {path}: unreadable ({type(e).__name__}: {e})")
        return None
    problem = None
    if meta.get("key") != key:
        problem = "written for other settings"
    elif sorted(data) != sorted(arrays):
        problem = f"arrays {sorted(data)}"
    elif len({len(a) for a in data.values()}) != 1:
        problem = "arrays of different lengths"
    elif meta.get("digest") != _content_digest(data):
        problem = "content does not match its digest"
    if problem is not None:
        print(f"pretrain: ignoring cache {path}: {problem}")
        return None
    return data, cpu


def generate(
    cfg: TrainConfig, log=print, progress: bool = True
) -> tuple[dict[str, np.ndarray], float, float]:
    """The teacher's decisions (the mirror games, then those against each ``vs`` opponent),
    the CPU seconds their generation took (workers included) and how much of that was spent
    earlier (data read from the caches)."""
    parts, cpu, earlier = [], 0.0, 0.0
    for opponent in [None, *cfg.pretrain.vs]:
        data, c, e = generate_part(cfg, opponent, log, progress)
        parts.append(data)
        cpu += c
        earlier += e
    return _concat(parts), cpu, earlier


def generate_part(
    cfg: TrainConfig, opponent: str | None = None, log=print, progress: bool = True
) -> tuple[dict[str, np.ndarray], float, float]:
    """One part of :func:`generate`, with its own cache file. A cache of fewer games with
    the same settings is extended (the games are the same, seeded by index)."""
    p = cfg.pretrain
    games = p.games if opponent is None else p.vs[opponent]
    what = f"{p.teacher!r}" + ("" if opponent is None else f" vs {opponent!r}")
    path = cache_path(cfg, games, opponent)
    arrays = cache_arrays(cfg)
    cached = _load(path, cache_key(cfg, games, opponent), arrays) if path.exists() else None
    if cached is not None:
        data, cpu = cached
        log(f"pretrain: {len(data['action'])} cached decisions from {path} ({cpu:.0f} CPU-s)")
        return data, cpu, cpu
    done, old, old_cpu = 0, None, 0.0
    for k in range(games - 1, 0, -1):
        shorter = cache_path(cfg, k, opponent)
        key = cache_key(cfg, k, opponent)
        found = _load(shorter, key, arrays) if shorter.exists() else None
        if found is not None:
            done = k
            old, old_cpu = found
            log(f"pretrain: extending {shorter} ({k} games) to {games} games")
            break
    indices = list(range(done, games))
    jobs = [
        (
            p.teacher,
            opponent,
            _game_config(cfg).to_dict(),
            chunk,
            cfg.seed,
            cfg.ppo.gamma,
            return_shaping(cfg),
            cfg.env.reward_mode,
            p.soft > 0,
        )
        for chunk in _chunks(indices, p.workers)
    ]
    t0, c0 = time.perf_counter(), cpu_seconds()
    parts = _run(_play_many, jobs, p.workers, f"teacher games {what}", progress)
    if old is not None:
        parts.insert(0, old)
    data = _concat(parts)
    cpu = cpu_seconds() - c0
    _save_cache(path, cache_key(cfg, games, opponent), data, cpu + old_cpu)
    log(
        f"pretrain: {len(data['action'])} decisions from {games} games of {what} "
        f"({len(indices)} new in {time.perf_counter() - t0:.0f} s, {cpu:.0f} CPU-s) -> {path}"
    )
    return data, cpu + old_cpu, old_cpu


def _batch(data: dict[str, np.ndarray], idx: np.ndarray, policy: Any):
    """Rows ``idx`` as tensors for ``policy``. A residual policy (``hint_bot``) gets the
    teacher's own action as its hint: the config requires the teacher to be the hint bot,
    which would almost always suggest the same action again (two copies of HeuristicBot
    rarely disagree), so the recorded action stands in for a second call."""
    import torch

    obs = data["obs"][idx].astype(np.float32)
    if getattr(policy, "hint_bot", None) is not None:
        obs = with_hint(obs, data["action"][idx])
    obs = torch.as_tensor(obs, device=policy.device)
    mask = data["mask"][idx]
    act = torch.as_tensor(data["action"][idx], device=policy.device)
    ret = torch.as_tensor(data["ret"][idx], device=policy.device)
    return obs, mask, act, ret


TIE = 5e-5  # a candidate within this of the best score is one of the teacher's best (< ACT_BONUS)


def accuracy(policy: Any, data: dict[str, np.ndarray], idx: np.ndarray) -> tuple[float, float]:
    """The policy's greedy agreement with ``data["action"]`` and the value head's mean squared
    error on rows ``idx`` (NaN for none)."""
    stats = fit_stats(policy, data, idx)
    return stats["acc"], stats["mse"]


def fit_stats(policy: Any, data: dict[str, np.ndarray], idx: np.ndarray) -> dict[str, float]:
    """On rows ``idx`` (NaN for none): ``acc``, the policy's greedy agreement with
    ``data["action"]``; ``mse``, the value head's mean squared error; with ``data["gap"]``
    also ``best``, the share of rows whose greedy action is one of the teacher's best (a tie
    of the teacher's look-ahead counts as agreement, whichever of them it took)."""
    import torch
    import torch.nn.functional as F

    if len(idx) == 0:
        return {"acc": float("nan"), "mse": float("nan"), "best": float("nan")}
    policy.set_training_mode(False)
    correct, best, vloss = 0, 0, 0.0
    with torch.no_grad():
        for k in range(0, len(idx), 2048):
            rows = idx[k : k + 2048]
            obs, mask, act, ret = _batch(data, rows, policy)
            dist = policy.get_distribution(obs, action_masks=mask)
            pred = dist.distribution.probs.argmax(dim=1)
            correct += int((pred == act).sum())
            if "gap" in data:
                gap = data["gap"][rows][np.arange(len(rows)), pred.cpu().numpy()]
                best += int((gap >= -TIE).sum())
            vloss += float(F.mse_loss(policy.predict_values(obs).flatten(), ret, reduction="sum"))
    n = len(idx)
    return {
        "acc": correct / n,
        "mse": vloss / n,
        "best": best / n if "gap" in data else float("nan"),
    }


def split(n: int, seed: int | np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Held-out (a random 5 %, none for 20 rows or fewer) and training row indices, drawn
    from ``seed`` (a seed or a generator, which then continues past the draw)."""
    order = np.random.default_rng(seed).permutation(n)
    n_val = max(1, n // 20) if n > 20 else 0
    return order[:n_val], order[n_val:]


def pretrain_policy(
    model: Any,
    data: dict[str, np.ndarray],
    cfg: TrainConfig,
    log=print,
    epochs: int | None = None,
    rows: tuple[np.ndarray, np.ndarray] | None = None,
) -> dict:
    """Fit ``model.policy`` to the teacher's decisions for ``epochs`` (default: the config's)
    epochs (only the value head without ``pretrain.fit_policy``); ``rows``: (held-out,
    training) indices (default :func:`split` with the config's seed). With
    ``pretrain.keep_best`` the parameters of the epoch with the best held-out accuracy are
    restored at the end. Returns the fit's statistics."""
    import torch
    import torch.nn.functional as F

    p = cfg.pretrain
    epochs = p.epochs if epochs is None else epochs
    policy = model.policy
    n = len(data["action"])
    rng = np.random.default_rng(cfg.seed)
    if rows is None:
        val, tr = split(n, rng)
    else:
        val, tr = np.asarray(rows[0]), np.array(rows[1])
    opt = torch.optim.Adam(policy.parameters(), lr=p.learning_rate)

    t0 = time.perf_counter()
    stats: dict[str, Any] = {"decisions": n, "validation": len(val), "epochs": []}
    best: tuple[float, int, dict] | None = None  # keep_best: accuracy, epoch, parameters
    scored = "gap" in data  # then a tie taken either way is agreement, and kept on that measure
    soft = p.fit_policy and p.soft > 0  # the teacher's scores in the loss too
    for epoch in range(epochs):
        policy.set_training_mode(True)
        rng.shuffle(tr)
        total, steps = 0.0, 0
        for k in range(0, len(tr), p.batch_size):
            rows = tr[k : k + p.batch_size]
            obs, mask, act, ret = _batch(data, rows, policy)
            if soft:  # one forward pass for both parts of the policy loss
                target = soft_targets(data["gap"][rows], p.temperature)
                values, log_prob, soft_ce = policy.evaluate_imitation(obs, act, mask, target)
            else:
                values, log_prob, _ = policy.evaluate_actions(obs, act, action_masks=mask)
            loss = p.value_coef * F.mse_loss(values.flatten(), ret)
            if p.fit_policy:
                loss = loss - (1.0 - p.soft) * log_prob.mean()
            if soft:
                loss = loss + p.soft * soft_ce
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            opt.step()
            total += loss.item()
            steps += 1
        held = fit_stats(policy, data, val)
        acc, vmse = held["acc"], held["mse"]
        row = {"epoch": epoch + 1, "loss": total / max(1, steps), "val_acc": acc, "val_mse": vmse}
        if scored:
            row["val_best"] = held["best"]
        stats["epochs"].append(row)
        log(
            f"pretrain epoch {epoch + 1}/{epochs}: loss {row['loss']:.3f}, validation accuracy "
            f"{acc:.3f}"
            + (f" (one of the teacher's best {held['best']:.3f})" if scored else "")
            + f", value mse {vmse:.3f} ({time.perf_counter() - t0:.0f} s)"
        )
        score = held["best"] if scored else acc
        if p.keep_best and len(val) and (best is None or score > best[0]):
            best = (score, epoch + 1, {k: v.clone() for k, v in policy.state_dict().items()})
    if best is not None:
        policy.load_state_dict(best[2])
        stats["kept_epoch"] = best[1]
        measure = "one of the teacher's best" if scored else "validation accuracy"
        log(f"pretrain: kept epoch {best[1]} ({measure} {best[0]:.3f})")
    policy.set_training_mode(False)
    stats["seconds"] = round(time.perf_counter() - t0, 1)
    return stats


# --- DAgger: the policy plays, the teacher labels ------------------------------------------

_MODELS: dict[str, Any] = {}


def dagger_games(cfg: TrainConfig, round_: int) -> list[tuple[str, int, int]]:
    """(opponent spec, learner seat, seed) of the games of DAgger round ``round_`` (from 0):
    ``dagger_vs`` in order, the learner's seat rotated with the game's index in the round."""
    n = cfg.env.num_players
    base = cfg.seed * 1_000_003 + 7919 + 2_000_003 + 100_003 * round_
    games, j = [], 0
    for opponent, count in cfg.pretrain.dagger_vs.items():
        for _ in range(count):
            games.append((opponent, j % n, base + j))
            j += 1
    return games


def play_dagger(
    learner: Any,
    teacher: str,
    opponent: str,
    seat: int,
    config: GameConfig,
    seed: int,
    gamma: float,
    shaping: str,
    reward_mode: str,
    scores: bool = False,
) -> dict[str, np.ndarray]:
    """One game: ``learner`` (a bot) in ``seat``, ``opponent`` elsewhere; the learner's real
    decisions with the teacher's action as the label (``played``: the learner's action) and
    the return the learner's seat went on to collect (``scores``: the teacher's ``gap`` too)."""
    specs: list[Any] = [opponent] * config.num_players
    specs[seat] = learner
    return play_recorded(
        specs, config, seed, gamma, shaping, reward_mode, {seat}, {seat: teacher}, scores
    )


def _dagger_many(args: tuple) -> dict[str, np.ndarray]:
    from agents.policy import PolicyBot, load_for_env

    policy, teacher, config_dict, games, gamma, shaping, reward_mode, scores = args
    if isinstance(policy, str):  # a saved policy, loaded once per worker process
        if policy not in _MODELS:
            _MODELS.clear()
            _MODELS[policy] = load_for_env(policy)
        policy = _MODELS[policy]
    config = GameConfig.from_dict(config_dict)
    parts = [
        play_dagger(
            PolicyBot(policy=policy, deterministic=True),
            teacher,
            opponent,
            seat,
            config,
            seed,
            gamma,
            shaping,
            reward_mode,
            scores,
        )
        for opponent, seat, seed in games
    ]
    out = _concat(parts)
    # one entry per game: whether the learner won it
    out["game_won"] = np.array([p["won"][0] if len(p["won"]) else 0 for p in parts], np.int8)
    return out


def dagger_round(
    model: Any,
    cfg: TrainConfig,
    round_: int,
    scratch: str | Path | None = None,
    log=print,
    progress: bool = True,
) -> tuple[dict[str, np.ndarray], float]:
    """The games of DAgger round ``round_``: the data (with ``played``) and the CPU seconds
    they took, workers included. With ``pretrain.workers`` > 1 the policy is saved to
    ``scratch`` (a nanty-policy checkpoint) and loaded by each worker process."""
    from agents.sb3_export import export_sb3_policy, policy_from_sb3

    p = cfg.pretrain
    games = dagger_games(cfg, round_)
    t0, c0 = time.perf_counter(), cpu_seconds()
    workers = min(p.workers, len(games))
    if workers > 1:
        if scratch is None:
            raise ValueError("DAgger games in several processes need a scratch path")
        export_sb3_policy(model.policy, scratch)
        ref: Any = str(scratch)
    else:
        ref = policy_from_sb3(model.policy)
    jobs = [
        (
            ref,
            p.teacher,
            _game_config(cfg).to_dict(),
            chunk,
            cfg.ppo.gamma,
            return_shaping(cfg),
            cfg.env.reward_mode,
            p.soft > 0,
        )
        for chunk in _chunks(games, p.workers)
    ]
    data = _concat(_run(_dagger_many, jobs, workers, f"dagger round {round_ + 1}", progress))
    cpu = cpu_seconds() - c0
    log(
        f"dagger round {round_ + 1}: {len(data['action'])} learner decisions in {len(games)} "
        f"games, teacher agrees {np.mean(data['played'] == data['action']):.3f}, "
        f"learner won {int(data['game_won'].sum())}/{len(games)} ({time.perf_counter() - t0:.0f} s, "
        f"{cpu:.0f} CPU-s)"
    )
    return data, cpu


def dagger(
    model: Any,
    data: dict[str, np.ndarray],
    cfg: TrainConfig,
    scratch: str | Path | None = None,
    log=print,
    after_round: Any = None,
    progress: bool = True,
) -> tuple[dict[str, np.ndarray], float, list[dict[str, Any]]]:
    """``pretrain.dagger_rounds`` rounds of relabelling after the fit to ``data``: each round's
    rows are added to the data and the policy is fitted ``dagger_epochs`` more epochs on all
    of it (held-out rows: the first fit's, plus 5 % of each round's). Returns the aggregated
    data, the CPU seconds of the games and per-round statistics. ``after_round(r)`` (if
    given) is called after round ``r``'s refit (from 1), e.g. to save the policy."""
    p = cfg.pretrain
    val, tr = split(len(data["action"]), cfg.seed)
    stats: list[dict[str, Any]] = []
    cpu = 0.0
    for r in range(p.dagger_rounds):
        new, c = dagger_round(model, cfg, r, scratch, log, progress)
        cpu += c
        played = new.pop("played")
        won = new.pop("game_won")
        offset = len(data["action"])
        v, t = split(len(played), cfg.seed + 1 + r)
        val, tr = np.concatenate([val, v + offset]), np.concatenate([tr, t + offset])
        row: dict[str, Any] = {
            "round": r + 1,
            "games": len(dagger_games(cfg, r)),
            "decisions": len(played),
            "agreement": float(np.mean(played == new["action"])),
            "learner_wins": int(won.sum()),
            "cpu_seconds": round(c, 1),
        }
        data = {k: np.concatenate([data[k], new[k]]) for k in data}
        fit = pretrain_policy(model, data, cfg, log, epochs=p.dagger_epochs, rows=(val, tr))
        row["fit"] = fit
        row["new_val_acc"] = accuracy(model.policy, data, v + offset)[0]
        log(
            f"dagger round {r + 1}: held-out accuracy on its own rows {row['new_val_acc']:.3f} "
            f"after the refit (agreement while playing {row['agreement']:.3f})"
        )
        stats.append(row)
        if after_round is not None:
            after_round(r + 1)
    return data, cpu, stats
