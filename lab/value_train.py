"""Fit and ship the learned leaf value (:mod:`agents.value_model`).

    python -m lab.value_train                     # 2 players: 300 HeuristicBot games, seed 11
    python -m lab.value_train --records runs/value/records.json   # cache the games
    python -m lab.value_train --players 4 --games 400 --seed 12  # the pooled 4-player model
    python -m lab.value_train --players 4 --bot heuristic:learned=1,heuristic,heuristic,heuristic \
        --records runs/value/self.json --records runs/value/table.json  # two sets of games

``--bot`` may be a comma-separated table with one bot per seat, rotated from game to game
(:func:`lab.value_data.table_specs`); ``--records`` may be repeated, the games of every file
are fitted together.

Plays ``--games`` HeuristicBot self-play games (seeds ``seed * 100000 + i``), takes every turn
start as a sample labelled with who won, and reports the held-out log loss (the last
``--holdout`` of the games) of the MLP, of a linear model and of the hand-weighted evaluation
(:func:`~agents.evaluation.sampled_values`, one fitted scale). The shipped model is then
refitted on all games. Everything is seeded: the same arguments give the
same file. With more than 2 players the model is :class:`~agents.value_model.PooledValueModel`
and the losses are cross-entropies over the seats (the constant baseline is ``ln n``).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from agents.evaluation import DEFAULT_WEIGHTS, NUM_PERSONALITIES, Evaluator
from agents.value_model import (
    cross_entropy,
    fit_pooled_model,
    fit_value_model,
    game_features,
    log_loss,
    model_file,
    pair_inputs,
    pooled_inputs,
    pooled_log_loss,
)
from lab.value_data import generate_records, load_records, save_records
from nanty_env.engine import GameConfig

DATA_DIR = Path(__file__).resolve().parents[1] / "agents" / "data"  # where the models ship
DEFAULT_OUT = DATA_DIR / model_file(2)


def dataset(records: Sequence[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows ``[f(0), f(1), shared]`` of every turn start, labels (seat 0 won: 1, shared
    win: 0.5) and each row's game index."""
    xs, ys, game = [], [], []
    for i, d in enumerate(records):
        if d["n"] != 2:
            raise ValueError("the value model is for 2-player games")
        config = GameConfig(num_players=2, log=False)
        won = d["winners"]
        y = 0.5 if len(won) == 2 else float(0 in won) if won else 0.5
        for m, persona, active in d["positions"]:
            xs.append(pair_inputs(m, config, persona, active)[0])
            ys.append(y)
            game.append(i)
    return np.array(xs), np.array(ys), np.array(game)


def hand_differences(records: Sequence[dict[str, Any]]) -> np.ndarray:
    """Seat 0's minus seat 1's hand-weighted value (true personalities known) per row."""
    out = []
    config = GameConfig(num_players=2, log=False)
    for d in records:
        for m, persona, _ in d["positions"]:
            onehot = [np.eye(NUM_PERSONALITIES)[k] for k in persona]
            v = [
                Evaluator(config, q, persona[q], onehot, DEFAULT_WEIGHTS).value_from_metrics(m)
                for q in range(2)
            ]
            out.append(v[0] - v[1])
    return np.array(out)


def _scale_fit(d: np.ndarray, y: np.ndarray) -> float:
    """The scale ``a`` of ``sigmoid(a * d)`` with the least log loss (a grid is enough)."""
    grid = np.linspace(0.1, 10.0, 100)
    return float(grid[int(np.argmin([_bce(a * d, y) for a in grid]))])


def _bce(z: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(0.5 * (1.0 + np.tanh(0.5 * z)), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def report(
    records: Sequence[dict[str, Any]], holdout: float, hidden: int, l2: float, iters: int, seed: int
) -> dict[str, Any]:
    """Held-out log loss and accuracy of the candidate models (games split, not rows)."""
    x, y, game = dataset(records)
    cut = int(len(records) * (1.0 - holdout))
    tr, va = game < cut, game >= cut
    out: dict[str, Any] = {"rows_train": int(tr.sum()), "rows_holdout": int(va.sum())}
    out["constant"] = _bce(np.zeros(int(va.sum())), y[va])
    hand = hand_differences(records)
    a = _scale_fit(hand[tr], y[tr])
    out["hand"] = _bce(a * hand[va], y[va])
    out["hand_scale"] = a
    for name, h in (("linear", 0), ("mlp", hidden)):
        model = fit_value_model(x[tr], y[tr], hidden=h, l2=l2, iters=iters, seed=seed)
        out[name] = log_loss(model, x[va], y[va])
        out[f"{name}_train"] = log_loss(model, x[tr], y[tr])
    return out


def targets(winners: Sequence[int], n: int) -> np.ndarray:
    """The target distribution over seats: even over the winners (uniform if none)."""
    t = np.zeros(n)
    if winners:
        t[list(winners)] = 1.0 / len(winners)
    else:
        t[:] = 1.0 / n
    return t


def pooled_dataset(
    records: Sequence[dict[str, Any]],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Inputs ``(positions, n, 3F + S)`` of every turn start, targets ``(positions, n)``
    (:func:`targets`) and each position's game index."""
    if not records:
        raise ValueError("no records")
    n = records[0]["n"]
    config = GameConfig(num_players=n, log=False)
    fs, shs, ts, game = [], [], [], []
    for i, d in enumerate(records):
        if d["n"] != n:
            raise ValueError("records of different player counts")
        t = targets(d["winners"], n)
        for m, persona, active in d["positions"]:
            f, sh = game_features(m, config, persona, active)
            fs.append(f)
            shs.append(sh)
            ts.append(t)
            game.append(i)
    return pooled_inputs(np.array(fs), np.array(shs)), np.array(ts), np.array(game)


def hand_values(records: Sequence[dict[str, Any]]) -> np.ndarray:
    """Every seat's hand-weighted value (true personalities known): ``(positions, n)``."""
    n = records[0]["n"]
    config = GameConfig(num_players=n, log=False)
    out = []
    for d in records:
        for m, persona, _ in d["positions"]:
            onehot = [np.eye(NUM_PERSONALITIES)[k] for k in persona]
            out.append(
                [
                    Evaluator(config, q, persona[q], onehot, DEFAULT_WEIGHTS).value_from_metrics(m)
                    for q in range(n)
                ]
            )
    return np.array(out)


def _softmax_ce(z: np.ndarray, t: np.ndarray) -> float:
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return cross_entropy(e / e.sum(axis=-1, keepdims=True), t)


def pooled_report(
    records: Sequence[dict[str, Any]], holdout: float, hidden: int, l2: float, iters: int, seed: int
) -> dict[str, Any]:
    """Held-out cross-entropy of the candidate n-player models (games split, not rows): the
    constant ``1/n``, the hand-weighted values through a softmax with one fitted scale, a
    linear score and the MLP; ``*_top1``: how often the most likely seat is a winner."""
    x, t, game = pooled_dataset(records)
    cut = int(len(records) * (1.0 - holdout))
    tr, va = game < cut, game >= cut
    out: dict[str, Any] = {"rows_train": int(tr.sum()), "rows_holdout": int(va.sum())}
    out["constant"] = _softmax_ce(np.zeros(t[va].shape), t[va])
    hand = hand_values(records)
    grid = np.geomspace(0.01, 10.0, 100)
    a = float(grid[int(np.argmin([_softmax_ce(g * hand[tr], t[tr]) for g in grid]))])
    out["hand"] = _softmax_ce(a * hand[va], t[va])
    out["hand_scale"] = a
    out["hand_top1"] = _top1(hand[va], t[va])
    for name, h in (("linear", 0), ("mlp", hidden)):
        model = fit_pooled_model(x[tr], t[tr], hidden=h, l2=l2, iters=iters, seed=seed)
        out[name] = pooled_log_loss(model, x[va], t[va])
        out[f"{name}_train"] = pooled_log_loss(model, x[tr], t[tr])
        out[f"{name}_top1"] = _top1(model.scores(x[va]), t[va])
    return out


def _top1(z: np.ndarray, t: np.ndarray) -> float:
    return float(np.mean(t[np.arange(len(t)), np.argmax(z, axis=-1)] > 0))


def gather_records(args: argparse.Namespace) -> list[dict[str, Any]]:
    """The games of every ``--records`` file, in order; at most one may be missing, and it (or,
    with no file given, the whole set) is played from ``--bot``, ``--games`` and ``--seed``."""
    missing = [p for p in args.records if not Path(p).is_file()]
    if len(missing) > 1:
        raise SystemExit(f"only one --records file can be made per run; missing: {missing}")
    records: list[dict[str, Any]] = []
    for path in args.records or [None]:
        if path is not None and Path(path).is_file():
            part = load_records(path)[: args.games]
        else:
            part = generate_records(
                args.bot, args.players, args.games, args.seed, workers=args.workers
            )
            if path is not None:
                save_records(part, path)
        if part and part[0]["n"] != args.players:
            raise SystemExit(f"{path} holds {part[0]['n']}-player games")
        records += part
    return records


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--bot", default="heuristic")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument(
        "--records",
        action="append",
        default=[],
        help="JSON file of games, repeatable: each read if present (its first --games games); "
        "one that is missing is written with the games played (--bot, --games, --seed)",
    )
    ap.add_argument("--hidden", type=int, default=4)
    ap.add_argument("--l2", type=float, default=1e-2)
    ap.add_argument("--iters", type=int, default=800)
    ap.add_argument("--holdout", type=float, default=0.2)
    ap.add_argument("--out", help="default: agents/data/value_model_{players}p.json")
    args = ap.parse_args(argv)
    pooled = args.players != 2
    hidden, l2 = args.hidden, args.l2
    out_path = args.out or str(DATA_DIR / model_file(args.players))
    records = gather_records(args)
    if pooled:
        scores = pooled_report(records, args.holdout, hidden, l2, args.iters, args.seed)
        x, t, _ = pooled_dataset(records)
        model: Any = fit_pooled_model(x, t, hidden=hidden, l2=l2, iters=args.iters, seed=args.seed)
        rows = len(t)
    else:
        scores = report(records, args.holdout, hidden, l2, args.iters, args.seed)
        x, y, _ = dataset(records)
        model = fit_value_model(x, y, hidden=hidden, l2=l2, iters=args.iters, seed=args.seed)
        rows = len(y)
    print(json.dumps(scores, indent=1))
    model.meta.update(
        {
            "bots": sorted({d.get("bot", args.bot) for d in records}),
            "games": len(records),
            "seed": args.seed,
            "rows": rows,
            "holdout_log_loss": {k: round(v, 4) for k, v in scores.items() if k != "rows_train"},
        }
    )
    model.save(out_path)
    print(f"wrote {out_path}")


if __name__ == "__main__":
    main()
