"""Fit the value network (:mod:`agents.value_net`) on game records
(:mod:`training.value_records`).

Every recorded turn start becomes one sample: the inputs of every seat under the true
personalities, and the target distribution over the seats (even over the winners). The loss
is the cross-entropy of the network's softmax over the seats. The games are split, not the
rows: the last ``holdout`` share of the games is held out to choose the number of epochs (the
epoch with the least held-out loss is kept), then reported.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from agents.value_features import NUM_SEAT, Position
from agents.value_net import NUM_INPUT, ValueNet, pooled_inputs
from nanty_env.engine import GameConfig
from training.value_records import Board


def targets(won: np.ndarray) -> np.ndarray:
    """Per game, the target over the seats: even over the winners (uniform if none)."""
    won = won.astype(np.float64)
    total = won.sum(axis=1, keepdims=True)
    n = won.shape[1]
    return np.where(total > 0, won / np.maximum(total, 1), 1.0 / n)


def dataset(records: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(inputs (rows, n, 3F + S), targets (rows, n), game index per row)``."""
    n = int(records["players"])
    config = GameConfig(num_players=n, log=False)
    f_rows, sh_rows = [], []
    for row in records["rows"]:
        b = Board(row, n)
        f, sh = Position.from_board(b, config).table(b.persona)
        f_rows.append(f)
        sh_rows.append(sh)
    x = pooled_inputs(np.array(f_rows), np.array(sh_rows)).astype(np.float32)
    t = targets(records["won"])[records["game"]].astype(np.float32)
    return x, t, records["game"]


def cross_entropy(p: np.ndarray, t: np.ndarray) -> float:
    """Mean over positions of ``-sum_s t_s log p_s``."""
    return float(-np.mean(np.sum(t * np.log(np.clip(p, 1e-9, 1.0)), axis=-1)))


def _new_seat_index(i: int) -> int:
    """Where feature ``i`` of :mod:`agents.value_model`'s seat features sits in
    :data:`agents.value_features.SEAT_FEATURES` (two goal features were inserted at 11)."""
    return i if i < 11 else i + 2


def shipped_model_as_net(players: int) -> ValueNet:
    """The shipped tiny model (:func:`agents.value_model.value_model_for`) as a
    :class:`ValueNet` over the new inputs with the same probabilities (the new features get
    zero weights): the starting point of a warm-started fit."""
    from agents.value_model import value_model_for

    old = value_model_for(players)
    hidden = old.w1.shape[1]
    w1 = np.zeros((NUM_INPUT, hidden))
    f = old.w1.shape[0] - 3  # the seat blocks' total width (shared features last)
    blocks = 2 if players == 2 else 3  # 2 players: [f(s), f(o)]; more: [f(s), mean, max]
    width = f // blocks
    for b in range(blocks):
        for i in range(width):
            w1[b * NUM_SEAT + _new_seat_index(i)] = old.w1[b * width + i]
    w1[3 * NUM_SEAT :] = old.w1[f:]
    # 2 players: the pooled mean of the other seat is the other seat itself
    layers = [(w1.T, old.b1, "tanh"), (old.w2[None, :], np.zeros(1), "none")]
    return ValueNet(layers, players, {"warm_start": f"value_model_{players}p"})


def lambda_targets(p: np.ndarray, outcome: np.ndarray, game: np.ndarray, lam: float) -> np.ndarray:
    """TD(lambda) targets over each game's rows (in turn order): the last row's target is the
    outcome, an earlier row's ``(1 - lam) * p[next row] + lam * target[next row]``, where ``p``
    is a network's prediction; ``lam = 1`` gives the outcomes back."""
    out = outcome.astype(np.float64).copy()
    for i in range(len(out) - 2, -1, -1):
        if game[i] == game[i + 1]:
            out[i] = (1.0 - lam) * p[i + 1] + lam * out[i + 1]
    return out.astype(np.float32)


def fit(
    x: np.ndarray,
    t: np.ndarray,
    game: np.ndarray,
    *,
    hidden: Sequence[int] = (64, 32),
    epochs: int = 40,
    batch_size: int = 256,
    learning_rate: float = 1e-3,
    weight_decay: float = 1e-4,
    holdout: float = 0.15,
    seed: int = 0,
    threads: int = 1,
    valid: np.ndarray | None = None,
    valid_targets: np.ndarray | None = None,
    warm: ValueNet | None = None,
) -> tuple[ValueNet, dict[str, Any]]:
    """Fit the network; returns it (the best epoch on the held-out games) and a report.
    ``valid`` (a mask of rows) replaces the held-out last ``holdout`` share of the games;
    ``valid_targets`` (default ``t``) are what the held-out rows are scored against (the
    outcomes, when ``t`` are bootstrapped targets). ``warm`` (a network with one hidden layer,
    e.g. :func:`shipped_model_as_net`) starts the fit from its function: its hidden units come
    first in the one hidden layer, the ``hidden[0]`` new units start with zero output weights."""
    import torch

    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    if valid is None:
        games = np.unique(game)
        cut = games[int(len(games) * (1.0 - holdout))] if holdout > 0 else games[-1] + 1
        valid = game >= cut
    tr, va = ~valid, valid
    n = x.shape[1]
    dims = [x.shape[-1], *hidden, 1]
    mods: list[Any] = []
    for i in range(len(dims) - 1):
        mods.append(torch.nn.Linear(dims[i], dims[i + 1]))
        if i < len(dims) - 2:
            mods.append(torch.nn.Tanh())
    model = torch.nn.Sequential(*mods)
    if warm is not None:
        if len(hidden) != 1 or len(warm.layers) != 2:
            raise ValueError("a warm start needs one hidden layer in both networks")
        (w1, b1, _), (w2, b2, _) = warm.layers  # stored (in, out)
        k = w1.shape[1]
        model = torch.nn.Sequential(
            torch.nn.Linear(dims[0], k + hidden[0]),
            torch.nn.Tanh(),
            torch.nn.Linear(k + hidden[0], 1),
        )
        with torch.no_grad():
            model[0].weight[:k] = torch.from_numpy(w1.T.astype(np.float32))
            model[0].bias[:k] = torch.from_numpy(b1.astype(np.float32))
            model[2].weight.zero_()
            model[2].weight[0, :k] = torch.from_numpy(w2[:, 0].astype(np.float32))
            model[2].bias[:] = torch.from_numpy(b2.astype(np.float32))
    opt = torch.optim.AdamW(model.parameters(), lr=learning_rate, weight_decay=weight_decay)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=epochs)
    xt, tt = torch.from_numpy(x[tr]), torch.from_numpy(t[tr])
    tv_all = t if valid_targets is None else valid_targets
    xv, tv = torch.from_numpy(x[va]), torch.from_numpy(np.asarray(tv_all[va], dtype=np.float32))
    rng = np.random.default_rng(seed)

    def loss_of(xb: torch.Tensor, tb: torch.Tensor) -> torch.Tensor:
        z = model(xb).squeeze(-1)
        return -(tb * torch.log_softmax(z, dim=-1)).sum(-1).mean()

    best = (np.inf, -1, None)
    curve = []
    for epoch in range(epochs):
        model.train()
        order = rng.permutation(len(xt))
        for i in range(0, len(order), batch_size):
            idx = torch.from_numpy(order[i : i + batch_size])
            opt.zero_grad()
            loss = loss_of(xt[idx], tt[idx])
            loss.backward()
            opt.step()
        sched.step()
        model.eval()
        with torch.no_grad():
            train_loss = float(loss_of(xt, tt)) if len(xt) else float("nan")
            val = float(loss_of(xv, tv)) if len(xv) else train_loss
        curve.append((epoch, round(train_loss, 4), round(val, 4)))
        if val < best[0]:
            best = (val, epoch, [p.detach().clone() for p in model.parameters()])
    with torch.no_grad():
        for p, q in zip(model.parameters(), best[2], strict=True):
            p.copy_(q)
    linears = [m for m in model if isinstance(m, torch.nn.Linear)]
    layers = [
        (
            m.weight.detach().numpy(),
            m.bias.detach().numpy(),
            "tanh" if i < len(linears) - 1 else "none",
        )
        for i, m in enumerate(linears)
    ]
    net = ValueNet(layers, n)
    report = {
        "rows_train": int(tr.sum()),
        "rows_holdout": int(va.sum()),
        "holdout_cross_entropy": round(best[0], 4),
        "constant_cross_entropy": round(
            cross_entropy(np.full_like(tv_all[va], 1.0 / n), tv_all[va]), 4
        )
        if va.any()
        else None,
        "best_epoch": best[1],
        "curve": curve,
    }
    return net, report
