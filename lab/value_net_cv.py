"""K-fold cross-validation (folds of whole games) of value-network fits against the shipped
tiny model, on recorded games: a steadier comparison than one held-out slice, whose few
surprising games dominate the cross-entropy.

    python -m lab.value_net_cv DATA_DIR --folds 5 --hidden 16 --epochs 20 [--warm] [--lam 0.8]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

import numpy as np

from agents.value_features import NUM_SEAT, SEAT_FEATURES
from lab.value_net_fit import shipped_model_probabilities
from training.value_fit import cross_entropy, dataset, fit, lambda_targets, shipped_model_as_net
from training.value_records import load


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("data")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--hidden", default="16")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--weight-decay", type=float, default=1e-3)
    ap.add_argument("--warm", action="store_true")
    ap.add_argument("--lam", type=float)
    ap.add_argument("--games", type=int)
    ap.add_argument("--drop", action="append", default=[], help="a seat feature to zero")
    args = ap.parse_args(argv)
    rec = load(args.data, args.games)
    x, t, game = dataset(rec)
    for name in args.drop:  # in the own, mean and max blocks
        i = SEAT_FEATURES.index(name)
        x[..., [i, NUM_SEAT + i, 2 * NUM_SEAT + i]] = 0.0
    shipped = shipped_model_probabilities(rec)
    hidden = tuple(int(h) for h in args.hidden.split(","))
    n = t.shape[1]
    rows = []
    for k in range(args.folds):
        va = game % args.folds == k
        warm = shipped_model_as_net(n) if args.warm else None
        kw = dict(
            hidden=hidden,
            epochs=args.epochs,
            learning_rate=args.lr,
            weight_decay=args.weight_decay,
            valid=va,
            warm=warm,
        )
        net, rep = fit(x, t, game, **kw)
        row = {
            "fold": k,
            "shipped": cross_entropy(shipped[va], t[va]),
            "net": rep["holdout_cross_entropy"],
            "epoch": rep["best_epoch"],
        }
        if args.lam is not None:
            t_lam = lambda_targets(net.probabilities_from_inputs(x), t, game, args.lam)
            _, rep2 = fit(x, t_lam, game, valid_targets=t, **kw)
            row["td"] = rep2["holdout_cross_entropy"]
        rows.append(row)
        print(json.dumps(row), flush=True)
    mean = {k: float(np.mean([r[k] for r in rows])) for k in rows[0] if k != "fold"}
    diff = [r["net"] - r["shipped"] for r in rows]
    print(json.dumps({"mean": mean, "net_minus_shipped": [round(d, 4) for d in diff]}))


if __name__ == "__main__":
    main()
