"""Screen value-network fits on recorded games: held-out cross-entropy of several network
sizes against the shipped 4-unit pooled model (:mod:`agents.value_model`) on the same rows.

    python -m lab.value_net_fit DATA_DIR [DATA_DIR ...] --hidden 64,32 --hidden 16 --out runs/v/net

Each ``DATA_DIR`` holds :mod:`training.value_records` parts; the last ``--holdout`` share of
every folder's games is held out. ``--out`` saves the fit of the first ``--hidden`` (on the
training games only, so the held-out games stay unseen by it).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

import numpy as np

from agents.value_model import game_features, pooled_inputs, value_model_for
from agents.value_net import save
from nanty_env.engine import GameConfig
from training.value_fit import (
    cross_entropy,
    dataset,
    fit,
    lambda_targets,
    shipped_model_as_net,
)
from training.value_records import Board, load


def shipped_model_probabilities(records: dict[str, np.ndarray]) -> np.ndarray:
    """The shipped pooled model's probabilities for every recorded row, ``(rows, n)``."""
    from agents.value_features import Position

    n = int(records["players"])
    config = GameConfig(num_players=n, log=False)
    model = value_model_for(n)
    out = []
    for row in records["rows"]:
        b = Board(row, n)
        m = Position.from_board(b, config).m
        if n == 2:
            out.append(model.win_probabilities(m, config, b.persona, b.active))
        else:
            f, sh = game_features(m, config, b.persona, b.active)
            z = model.scores(pooled_inputs(f, sh))
            e = np.exp(z - z.max())
            out.append(e / e.sum())
    return np.array(out)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("data", nargs="+")
    ap.add_argument("--hidden", action="append", default=[], help="e.g. 64,32 (repeatable)")
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--weight-decay", type=float, default=1e-4)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--holdout", type=float, default=0.2)
    ap.add_argument("--games", type=int, help="at most this many games per folder")
    ap.add_argument("--lam", type=float, help="also refit on TD(lambda) targets of the first fit")
    ap.add_argument("--td-iters", type=int, default=2)
    ap.add_argument("--warm", action="store_true", help="start from the shipped tiny model")
    ap.add_argument("--out")
    args = ap.parse_args(argv)
    xs, ts, gs, probs = [], [], [], []
    offset = 0
    for folder in args.data:
        rec = load(folder, args.games)
        x, t, game = dataset(rec)
        # hold out the last games of every folder: renumber so they sort last overall
        cut = int(game.max() * (1.0 - args.holdout))
        key = np.where(game >= cut, 10**7 + game, game) + offset
        xs.append(x)
        ts.append(t)
        gs.append(key)
        probs.append(shipped_model_probabilities(rec))
        offset += 10**5
    x, t, game = np.concatenate(xs), np.concatenate(ts), np.concatenate(gs)
    shipped_p = np.concatenate(probs)
    va = game >= 10**7
    report = {
        "rows": len(t),
        "holdout_rows": int(va.sum()),
        "constant": round(cross_entropy(np.full_like(t[va], 1.0 / t.shape[1]), t[va]), 4),
        "shipped_model": round(cross_entropy(shipped_p[va], t[va]), 4),
    }
    for k, spec in enumerate(args.hidden or ["64,32"]):
        hidden = tuple(int(h) for h in spec.split(",") if h)
        net, rep = fit(
            x,
            t,
            game,
            hidden=hidden,
            epochs=args.epochs,
            learning_rate=args.lr,
            weight_decay=args.weight_decay,
            valid=va,
            warm=shipped_model_as_net(int(t.shape[1])) if args.warm else None,
        )
        report[f"net_{spec}"] = {
            "holdout": rep["holdout_cross_entropy"],
            "best_epoch": rep["best_epoch"],
            "train_last": rep["curve"][-1][1],
        }
        if args.lam is not None:
            for it in range(args.td_iters):
                p = net.probabilities_from_inputs(x)
                t_lam = lambda_targets(p, t, game, args.lam)
                net, rep = fit(
                    x,
                    t_lam,
                    game,
                    hidden=hidden,
                    epochs=args.epochs,
                    learning_rate=args.lr,
                    weight_decay=args.weight_decay,
                    valid=va,
                    valid_targets=t,
                    warm=shipped_model_as_net(int(t.shape[1])) if args.warm else None,
                )
                report[f"net_{spec}_td{args.lam}_{it}"] = {
                    "holdout": rep["holdout_cross_entropy"],
                    "best_epoch": rep["best_epoch"],
                }
        if k == 0 and args.out:
            net.meta.update(
                {"data": args.data, "hidden": list(hidden), "report": rep["curve"][-3:]}
            )
            save(net, args.out)
        print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main()
