"""Fit and ship the learned 2-player leaf value (:mod:`agents.value_model`).

    python -m agents.value_train                     # 300 HeuristicBot games, seed 11
    python -m agents.value_train --records runs/value/records.pkl   # cache the games

Plays ``--games`` HeuristicBot self-play games (seeds ``seed * 100000 + i``; about 2.4 CPU-s
a game), takes every turn start as a sample labelled with who won, and reports the held-out
log loss (the last ``--holdout`` of the games) of the MLP, of a linear model and of the
hand-weighted evaluation (:func:`~agents.evaluation.sampled_values`, one fitted scale). The
shipped model is then refitted on all games. Everything is seeded: the same arguments give the
same file.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from agents.evaluation import DEFAULT_WEIGHTS, NUM_PERSONALITIES, Evaluator
from agents.value_data import generate_records, load_records, save_records
from agents.value_model import fit_value_model, log_loss, pair_inputs
from nanty_env.engine.config import GameConfig

DEFAULT_OUT = Path(__file__).parent / "data" / "value_model_2p.json"


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


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--bot", default="heuristic")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--records", help="pickle of the games: read if present, else written")
    ap.add_argument("--hidden", type=int, default=4)
    ap.add_argument("--l2", type=float, default=1e-2)
    ap.add_argument("--iters", type=int, default=800)
    ap.add_argument("--holdout", type=float, default=0.2)
    ap.add_argument("--out", default=str(DEFAULT_OUT))
    args = ap.parse_args(argv)
    if args.records and Path(args.records).is_file():
        records = load_records(args.records)[: args.games]
    else:
        records = generate_records(args.bot, 2, args.games, args.seed, workers=args.workers)
        if args.records:
            save_records(records, args.records)
    scores = report(records, args.holdout, args.hidden, args.l2, args.iters, args.seed)
    print(json.dumps(scores, indent=1))
    x, y, _ = dataset(records)
    model = fit_value_model(x, y, hidden=args.hidden, l2=args.l2, iters=args.iters, seed=args.seed)
    model.meta.update(
        {
            "bot": args.bot,
            "games": len(records),
            "seed": args.seed,
            "rows": len(y),
            "holdout_log_loss": {k: round(v, 4) for k, v in scores.items() if k != "rows_train"},
        }
    )
    model.save(args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
