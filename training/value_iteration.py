"""Value-network training (``value.enabled`` in a training config): play, fit, play better.

Round ``k`` plays its games (:mod:`training.value_records`; ``learned`` seats use the network
fitted after round ``k - 1``), then the network is fitted on the games of rounds ``0..k``
(:mod:`training.value_fit`). Everything is written under ``out``::

    records/round_K/part_*.npz        the games, in parts (an interrupted run plays only what
                                      is missing)
    nets/round_K.{json,safetensors}   the network after round K
    nets/round_K_tdL_I.{json,...}     with ``td_lambda`` L: the I-th fit on TD(L) targets after
                                      the last round K, bootstrapped from the fit before it
    value_net_{n}p.{json,safetensors} the last one: copy it into agents/data to ship it
    fit_round_K.json                  held-out cross-entropy and the learning curve (and
                                      fit_round_K_tdL_I.json)
    train.json                        CPU seconds (games and fits) and the final report

A fit is deterministic (seeded) and is redone only if its network file is missing, so running
the command again with ``--resume OUT`` continues where it stopped (a fresh run needs an empty
folder). Each round's folder records the round's bots, seed and player count
(``round.json``), and a resume whose config plays a recorded round differently is refused;
adding or changing a later round keeps the earlier rounds' games.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from agents.checkpoint import checkpoint_files
from agents.registry import spec_value, split_spec
from agents.value_net import PLAY_OPTIONS, load, save, shipped, shipped_stem
from nanty_env.storage.files import atomic_write_text
from training.config import TrainConfig, ValueRound
from training.state import RunFolderError
from training.value_fit import dataset, fit, lambda_targets, shipped_model_as_net
from training.value_records import cpu_seconds, generate
from training.value_records import load as load_records


def round_bots(bots: list[str], previous: Path | None, shipped_first: bool = False) -> list[str]:
    """The round's bot specs with ``learned`` (without a path) bound to the previous network
    (with ``shipped_first`` and no previous network: left as it is, the shipped one). Every
    ``learned`` seat plays its network without the checkpoint's ``play`` options (each not in
    its spec set to 0), so a round plays the same games whatever the network asks for."""
    out = []
    for spec in bots:
        name, *opts = split_spec(spec)
        if name == "learned":
            given = {o.split("=", 1)[0] for o in opts}
            if "path" not in given and not (previous is None and shipped_first):
                if previous is None:
                    raise ValueError("'learned' needs a network from an earlier round")
                opts = [f"path={spec_value(str(previous))}", *opts]
            spec = ":".join([name, *opts, *(f"{k}=0" for k in PLAY_OPTIONS if k not in given)])
        out.append(spec)
    return out


def _write_json(path: Path, data: Any) -> None:
    atomic_write_text(path, json.dumps(data, indent=1) + "\n")


def check_round(folder: Path, rnd: ValueRound, players: int) -> None:
    """Record what ``folder``'s games are (first time), or refuse a round that differs."""
    want = {"bots": list(rnd.bots), "seed": rnd.seed, "players": players}
    path = folder / "round.json"
    if path.is_file():
        have = json.loads(path.read_text())
        if have != want:
            raise RunFolderError(
                f"{folder} holds games of {have}, the config asks for {want}: start a new run "
                "(another --out) or restore the config"
            )
    else:
        folder.mkdir(parents=True, exist_ok=True)
        _write_json(path, want)


def train_value(
    cfg: TrainConfig, out: Path, resume: str | Path | None, progress: bool = True
) -> Path:
    """``nanty train`` with ``value.enabled``: a fresh run into an empty (or missing) folder, or
    ``resume`` = that folder to continue it."""
    from training.config import validate_config

    validate_config(cfg)
    if out.exists() and not out.is_dir():
        raise RunFolderError(f"--out {out} is a file, not a folder")
    held = sorted(p.name for p in out.iterdir()) if out.is_dir() else []
    if resume is None and held:
        raise RunFolderError(
            f"{out} already holds a run ({', '.join(held[:5])}); pass --resume {out} to "
            "continue it, or choose an empty --out"
        )
    if resume is not None and Path(resume).resolve() != out.resolve():
        raise RunFolderError(
            f"a value-network run continues in its own folder: --resume {resume} must be "
            f"the run's --out ({out})"
        )
    out.mkdir(parents=True, exist_ok=True)
    _write_json(out / "config.json", cfg.to_dict())
    return run(cfg, out, progress=progress)


def _starting_net(cfg: TrainConfig) -> Any:
    """Where a fit starts: the shipped tiny model (``warm_start``), the network ``extend``
    continues (``extend_from``, else the shipped one), or nothing."""
    v = cfg.value
    if v.warm_start:
        return shipped_model_as_net(cfg.env.num_players)
    if v.extend:
        net = shipped(cfg.env.num_players) if v.extend_from is None else load(v.extend_from)
        if net.players != cfg.env.num_players:
            raise ValueError(
                f"extend_from {v.extend_from} is a {net.players}-player network, the run has "
                f"{cfg.env.num_players} players"
            )
        return net
    return None


def fit_round(
    cfg: TrainConfig,
    folders: list[tuple[Path, int]],
    stem: Path,
    report: Path,
    bootstrap: Path | None = None,
) -> float:
    """Fit on every folder's games (the last ``holdout`` share of each held out); returns the
    CPU seconds of the fit. With ``bootstrap`` (a network), the targets are TD(``td_lambda``)
    targets from its probabilities instead of the outcomes (held-out rows are scored against
    the outcomes either way)."""
    t0 = time.process_time()
    v = cfg.value
    xs, ts, games, valid = [], [], [], []
    offset = 0  # game numbers distinct over the folders (a TD target stays within its game)
    for folder, count in folders:
        x, t, game = dataset(load_records(folder, count))
        cut = np.unique(game)[int(len(np.unique(game)) * (1.0 - v.holdout))]
        xs.append(x)
        ts.append(t)
        games.append(game + offset)
        offset += int(game.max()) + 1
        valid.append(game >= cut if v.holdout > 0 else np.zeros(len(game), dtype=bool))
    x, t, va = np.concatenate(xs), np.concatenate(ts), np.concatenate(valid)
    targets = t
    if bootstrap is not None:
        p = load(bootstrap).probabilities_from_inputs(x)
        targets = lambda_targets(p, t, np.concatenate(games), float(v.td_lambda))
    net, rep = fit(
        x,
        targets,
        np.zeros(len(t), dtype=np.int64),
        hidden=tuple(v.hidden),
        epochs=v.epochs,
        batch_size=v.batch_size,
        learning_rate=v.learning_rate,
        weight_decay=v.weight_decay,
        seed=cfg.seed,
        threads=cfg.torch_threads,
        valid=va,
        valid_targets=t,
        warm=_starting_net(cfg),
    )
    net.meta.update(
        {
            "config": {
                k: getattr(v, k)
                for k in (
                    "hidden",
                    "epochs",
                    "learning_rate",
                    "weight_decay",
                    "warm_start",
                    "extend",
                    "extend_from",
                )
            },
            "rounds": [
                {"bots": r.bots, "games": r.games, "seed": r.seed} for r in v.rounds[: len(folders)]
            ],
            "holdout_cross_entropy": rep["holdout_cross_entropy"],
            "constant_cross_entropy": rep["constant_cross_entropy"],
            "seed": cfg.seed,
        }
    )
    if bootstrap is not None:
        net.meta.update({"td_lambda": v.td_lambda, "bootstrapped_from": bootstrap.name})
    save(net, stem)
    cpu = time.process_time() - t0
    _write_json(report, {**rep, "cpu_seconds": round(cpu, 1)})
    return cpu


def fit_once(
    cfg: TrainConfig,
    folders: list[tuple[Path, int]],
    out: Path,
    name: str,
    bootstrap: Path | None = None,
) -> tuple[Path, dict[str, Any]]:
    """The network ``nets/<name>`` fitted by :func:`fit_round` (unless an earlier run left it
    and its report ``fit_<name>.json``), and that report."""
    stem, report = out / "nets" / name, out / f"fit_{name}.json"
    if not (checkpoint_files(stem)[0].is_file() and report.is_file()):
        fit_round(cfg, folders, stem, report, bootstrap=bootstrap)
    return stem, json.loads(report.read_text())


def run(cfg: TrainConfig, out: Path, progress: bool = True) -> Path:
    """Play and fit every round (resuming what exists); returns ``out``."""
    v, n = cfg.value, cfg.env.num_players
    (out / "nets").mkdir(parents=True, exist_ok=True)
    folders: list[tuple[Path, int]] = []
    previous: Path | None = None
    first = None if v.extend_from is None else Path(v.extend_from)  # round 0's `learned`
    if first is not None:
        _starting_net(cfg)  # a missing or mismatched network fails before any game is played
    fit_cpu = 0.0
    limit = None if cfg.cpu_limit_minutes is None else 60.0 * cfg.cpu_limit_minutes
    for k, rnd in enumerate(v.rounds):
        folder = out / "records" / f"round_{k}"
        bots = round_bots(rnd.bots, previous or first, shipped_first=v.extend)
        done = [*folders, (folder, rnd.games)]
        spent = sum(cpu_seconds(f, games) for f, games in done if f.is_dir()) + fit_cpu
        if limit is not None and spent >= limit:
            print(f"CPU limit reached ({spent / 60:.0f} min) before round {k}")
            break
        check_round(folder, rnd, n)
        generate(folder, bots, n, rnd.games, rnd.seed, workers=v.workers, progress=progress)
        folders.append((folder, rnd.games))
        previous, report = fit_once(cfg, folders, out, f"round_{k}")
        fit_cpu += report["cpu_seconds"]
    if previous is None:
        raise RuntimeError("no round was played")
    for i in range(v.td_iterations if v.td_lambda is not None else 0):
        name = f"round_{len(folders) - 1}_td{v.td_lambda:g}_{i}"  # a new lambda: new fits
        previous, report = fit_once(cfg, folders, out, name, bootstrap=previous)
        fit_cpu += report["cpu_seconds"]
    final = out / shipped_stem(n)
    net = load(previous)
    net.play = dict(v.play)
    save(net, final)
    games_cpu = sum(cpu_seconds(f, games) for f, games in folders)
    _write_json(
        out / "train.json",
        {
            "rounds_played": len(folders),
            "games_cpu_seconds": round(games_cpu, 1),
            "fit_cpu_seconds": round(fit_cpu, 1),
            "cpu_seconds_total": round(games_cpu + fit_cpu, 1),
            "network": str(final),
            "holdout_cross_entropy": report["holdout_cross_entropy"],
        },
    )
    return out
