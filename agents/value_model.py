"""A learned two-player win probability for the leaves of a search.

``P(seat s wins | public board, both personalities, who is to move)`` is
``sigmoid(h(s, o) - h(o, s))``, where ``o`` is the other seat and ``h`` is a tiny MLP (one
``tanh`` hidden layer; with no hidden units, a linear score) over ``[f(s), f(o), shared]``:
``f`` holds a seat's progress towards its goal under its personality, the goal class, its
board, money and hand (:func:`seat_features`), ``shared`` the draw pile's depletion and the
board totals. Writing the logit as a difference makes the two seats' probabilities add up to
exactly 1 and makes the model blind to seat numbers.

The model reads only what a determinised game holds (public board plus the sampled
personalities), so a search may use it at its leaves. It is fitted by
:mod:`lab.value_train` on HeuristicBot self-play (labels: who won) and shipped as
``agents/data/value_model_2p.json``.

With more seats, :class:`PooledValueModel` gives ``P(seat s wins)`` as a softmax over the seats
of a shared score ``g(f(s), mean and max of f over the other seats, shared)`` (``f`` plus how
many turns the seat waits for its next one); the 2-player model is the special case where the
two seats' scores are ``h(s, o)`` and ``h(o, s)``. :func:`value_model_for` picks the shipped
model for a player count (``agents/data/value_model_{n}p.json``).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Self

import numpy as np

from agents.evaluation import Metrics, goals, needs_progress
from nanty_env.engine import GameConfig
from nanty_env.storage.files import atomic_write_text, read_model

CLASSES = ("moriarty", "lord", "fagin", "de_sidonia", "holmes")
"""Goal classes of the standard personalities (the three Lords share one goal)."""
SEAT_FEATURES: tuple[str, ...] = (
    "progress",
    "met",
    *(f"is_{c}" for c in CLASSES),
    *(f"progress_{c}" for c in CLASSES if c != "holmes"),
    "occupied",
    "controlled",
    "contested",
    "agents",
    "buildings",
    "net_worth",
    "points",
    "money",
    "hand",
    "exposed",
    "loans",
    "to_move",
)
SHARED_FEATURES: tuple[str, ...] = ("depletion", "trouble", "buildings_total")
# Scales that bring every raw quantity near [0, 1].
_BOARD_SCALE = (12.0, 12.0, 12.0, 12.0, 6.0, 50.0, 60.0, 30.0, 8.0, 6.0, 2.0)
_INV_SCALE = tuple(1.0 / s for s in _BOARD_SCALE)
NUM_SEAT = len(SEAT_FEATURES)
NUM_INPUT = 2 * NUM_SEAT + len(SHARED_FEATURES)


def goal_class(goal_id: str) -> str:
    """The goal class of a personality id (``""`` for one the model does not know)."""
    if goal_id.startswith("lord_"):
        return "lord"
    if goal_id == "sherlock_holmes":
        return "holmes"
    return goal_id if goal_id in CLASSES else ""


@cache
def goal_table(config: GameConfig) -> dict[int, tuple[tuple, int]]:
    """Per personality index: (compiled needs, class index or -1)."""
    out = {}
    for k, goal in goals(config).items():
        cls = goal_class(goal.id)
        out[k] = (goal.compiled, CLASSES.index(cls) if cls else -1)
    return out


def initial_deck(num_players: int) -> int:
    """Draw-pile size at the start of a game (as in :class:`~agents.evaluation.Evaluator`)."""
    return 101 - 5 * num_players - (2 if num_players == 2 else 0)


def seat_features(
    m: Metrics, config: GameConfig, seat: int, persona: int, to_move: bool
) -> list[float]:
    """``f(seat)``: see :data:`SEAT_FEATURES` (progress and met are 0 for Holmes)."""
    return [*goal_features(m, config, seat, persona), *board_features(m, seat), float(to_move)]


def goal_features(m: Metrics, config: GameConfig, seat: int, persona: int) -> list[float]:
    """The part of ``f(seat)`` that depends on the personality (progress to ``progress_*``)."""
    needs, cls = goal_table(config)[persona]
    x, met = needs_progress(needs, m, seat) if needs else (0.0, False)
    onehot = [0.0] * len(CLASSES)
    prog_by_class = [0.0] * (len(CLASSES) - 1)
    if cls >= 0:
        onehot[cls] = 1.0
        if cls < len(prog_by_class):
            prog_by_class[cls] = x
    return [x, float(met), *onehot, *prog_by_class]


def board_features(m: Metrics, seat: int) -> list[float]:
    """The scaled board, money and hand part of ``f(seat)`` (``occupied`` to ``loans``)."""
    raw = (
        m.occupied[seat],
        m.controlled[seat],
        m.contested[seat],
        m.agents[seat],
        m.own_buildings[seat],
        m.net_worth[seat],
        m.points[seat],
        m.money[seat],
        min(m.hand[seat], 8),
        m.exposed[seat],
        m.loans[seat],
    )
    return [v * s for v, s in zip(raw, _INV_SCALE, strict=True)]


def shared_features(m: Metrics, num_players: int) -> list[float]:
    """See :data:`SHARED_FEATURES`."""
    depletion = 1.0 - m.deck / initial_deck(num_players)
    return [depletion, m.trouble / 8.0, m.buildings / 12.0]


def pair_inputs(m: Metrics, config: GameConfig, persona: Sequence[int], active: int) -> np.ndarray:
    """The two rows ``[f(0), f(1), shared]`` and ``[f(1), f(0), shared]`` of a 2-seat game."""
    f0 = seat_features(m, config, 0, persona[0], active == 0)
    f1 = seat_features(m, config, 1, persona[1], active == 1)
    sh = shared_features(m, 2)
    return np.array([f0 + f1 + sh, f1 + f0 + sh])


class _TinyMlp:
    """A tiny MLP score ``w2 . tanh(x W1 + b1)`` (or ``x . w2`` without hidden units) with its
    JSON form (the feature names it was fitted on, the weights and ``meta``). Subclasses set
    the feature names, the input size and, if any, a ``kind`` tag of the JSON."""

    KIND: str | None = None
    SEAT_NAMES: tuple[str, ...] = ()
    INPUTS = 0

    def __init__(
        self,
        w1: np.ndarray,
        b1: np.ndarray,
        w2: np.ndarray,
        meta: Mapping[str, Any] | None = None,
    ) -> None:
        self.w1 = np.asarray(w1, dtype=np.float64)
        self.b1 = np.asarray(b1, dtype=np.float64)
        self.w2 = np.asarray(w2, dtype=np.float64)
        self.meta = dict(meta or {})
        if self.w1.shape[0] != self.INPUTS:
            raise ValueError(
                f"{type(self).__name__} expects {self.INPUTS} inputs, not {self.w1.shape[0]}"
            )

    @property
    def linear(self) -> bool:
        return self.w1.shape[1] == 0

    def scores(self, x: np.ndarray) -> np.ndarray:
        """The score of every row (last axis) of ``x``."""
        if self.linear:
            return x @ self.w2
        return np.tanh(x @ self.w1 + self.b1) @ self.w2

    def to_json(self) -> dict[str, Any]:
        kind = {"kind": self.KIND} if self.KIND else {}
        return {
            **kind,
            "seat_features": list(self.SEAT_NAMES),
            "shared_features": list(SHARED_FEATURES),
            "w1": self.w1.round(6).tolist(),
            "b1": self.b1.round(6).tolist(),
            "w2": self.w2.round(6).tolist(),
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Self:
        if (
            tuple(d["seat_features"]) != cls.SEAT_NAMES
            or tuple(d["shared_features"]) != SHARED_FEATURES
        ):
            raise ValueError("value model was fitted on other features; refit it")
        w1 = np.array(d["w1"], dtype=np.float64).reshape(cls.INPUTS, -1)
        return cls(w1, np.array(d["b1"]), np.array(d["w2"]), d.get("meta"))

    def save(self, path: str | Path) -> None:
        atomic_write_text(path, json.dumps(self.to_json()) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> Self:
        """Read a model written by :meth:`save` (size-checked first; any fault is one
        ``ValueError`` naming the file)."""
        return read_model(path, "value model", cls.from_json)


class ValueModel(_TinyMlp):
    """``h(x) = w2 . tanh(x W1 + b1)`` (or ``x . w`` without hidden units); see module doc."""

    SEAT_NAMES = SEAT_FEATURES
    INPUTS = NUM_INPUT

    def __init__(
        self,
        w1: np.ndarray,
        b1: np.ndarray,
        w2: np.ndarray,
        meta: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(w1, b1, w2, meta)
        # h(s, o) and h(o, s) of a row [f(s), f(o), shared] in one product (the hot path).
        a, b, c = self.w1[:NUM_SEAT], self.w1[NUM_SEAT : 2 * NUM_SEAT], self.w1[2 * NUM_SEAT :]
        self._pair_w1 = np.vstack([np.hstack([a, b]), np.hstack([b, a]), np.hstack([c, c])])
        self._pair_b1 = np.concatenate([self.b1, self.b1])
        self._pair_w2 = np.concatenate([self.w2, -self.w2])
        if self.linear:
            wa, wb = self.w2[:NUM_SEAT], self.w2[NUM_SEAT : 2 * NUM_SEAT]
            self._pair_w2 = np.concatenate([wa - wb, wb - wa, np.zeros(NUM_INPUT - 2 * NUM_SEAT)])

    def logits(self, x: np.ndarray) -> np.ndarray:
        """``h(s, o) - h(o, s)`` for rows (or one row) ``x`` = ``[f(s), f(o), shared]``."""
        if self.linear:
            return x @ self._pair_w2
        return np.tanh(x @ self._pair_w1 + self._pair_b1) @ self._pair_w2

    def win_probabilities(
        self, m: Metrics, config: GameConfig, persona: Sequence[int], active: int
    ) -> tuple[float, float]:
        """Each seat's probability of winning a 2-player game (they add up to 1)."""
        f0 = seat_features(m, config, 0, persona[0], active == 0)
        f1 = seat_features(m, config, 1, persona[1], active == 1)
        z = float(self.logits(np.array(f0 + f1 + shared_features(m, 2))))
        if z >= 0:
            p0 = 1.0 / (1.0 + math.exp(-z))
        else:
            e = math.exp(z)
            p0 = e / (1.0 + e)
        return p0, 1.0 - p0


@cache
def default_value_model() -> ValueModel:
    """The model shipped in ``agents/data`` (fitted by ``python -m lab.value_train``)."""
    return ValueModel.from_json(_shipped_json(2))


def fit_value_model(
    x: np.ndarray,
    y: np.ndarray,
    *,
    hidden: int = 16,
    l2: float = 1e-4,
    iters: int = 1500,
    lr: float = 0.02,
    seed: int = 0,
    weight: np.ndarray | None = None,
) -> ValueModel:
    """Fit ``h`` by full-batch Adam on the log loss of ``sigmoid(h(s, o) - h(o, s))``.

    Args:
        x: rows ``[f(s), f(o), shared]``.
        y: the label of each row, 1 if ``s`` won (0.5 for a shared win).
        hidden: hidden units (0: linear).
        weight: per-row weights (default 1).
    """
    rng = np.random.default_rng(seed)
    swapped = np.concatenate(
        [x[:, NUM_SEAT : 2 * NUM_SEAT], x[:, :NUM_SEAT], x[:, 2 * NUM_SEAT :]], axis=1
    )
    wt = np.ones(len(x)) if weight is None else np.asarray(weight, dtype=np.float64)
    wt = wt / wt.sum()
    params = _initial_params(NUM_INPUT, hidden, rng)
    _adam(params, lambda: _gradients(params, x, swapped, y, wt, hidden), iters, lr, l2)
    return ValueModel(params[0], params[1], params[2], {"hidden": hidden, "l2": l2})


def _initial_params(d: int, hidden: int, rng: np.random.Generator) -> list[np.ndarray]:
    """``[W1, b1, w2]`` for ``d`` inputs: small random weights, or zeros when linear."""
    if hidden > 0:
        return [
            rng.normal(0.0, 1.0 / math.sqrt(d), (d, hidden)),
            np.zeros(hidden),
            rng.normal(0.0, 1.0 / math.sqrt(hidden), hidden),
        ]
    return [np.zeros((d, 0)), np.zeros(0), np.zeros(d)]


def _adam(
    params: list[np.ndarray],
    gradients: Callable[[], list[np.ndarray]],
    iters: int,
    lr: float,
    l2: float,
) -> None:
    """Full-batch Adam on ``params`` in place, L2 on the weights (not ``b1``), with the step
    decaying linearly over the last half of the ``iters`` steps."""
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    b1, b2, eps = 0.9, 0.999, 1e-8
    for t in range(1, iters + 1):
        grads = gradients()
        step = lr * min(1.0, 2.0 * (1.0 - t / iters) + 0.05)
        for i, (p, g) in enumerate(zip(params, grads, strict=True)):
            if i != 1:
                g = g + l2 * p
            m[i] = b1 * m[i] + (1 - b1) * g
            v[i] = b2 * v[i] + (1 - b2) * g**2
            p -= step * (m[i] / (1 - b1**t)) / (np.sqrt(v[i] / (1 - b2**t)) + eps)


def _gradients(
    params: list[np.ndarray],
    x: np.ndarray,
    swapped: np.ndarray,
    y: np.ndarray,
    wt: np.ndarray,
    hidden: int,
) -> list[np.ndarray]:
    """Gradients of the weighted log loss with respect to ``[W1, b1, w2]``."""
    w1, bias, w2 = params
    if hidden == 0:
        z = (x - swapped) @ w2
        d = wt * (_sigmoid(z) - y)
        return [np.zeros_like(w1), np.zeros_like(bias), (x - swapped).T @ d]
    a = np.tanh(x @ w1 + bias)
    c = np.tanh(swapped @ w1 + bias)
    z = a @ w2 - c @ w2
    d = wt * (_sigmoid(z) - y)  # dL/dz per row
    g_w2 = a.T @ d - c.T @ d
    da = np.outer(d, w2) * (1 - a**2)
    dc = -np.outer(d, w2) * (1 - c**2)
    g_w1 = x.T @ da + swapped.T @ dc
    g_b1 = da.sum(axis=0) + dc.sum(axis=0)
    return [g_w1, g_b1, g_w2]


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * z))


def log_loss(model: ValueModel, x: np.ndarray, y: np.ndarray) -> float:
    """Mean log loss of the model's probabilities on rows ``x`` with labels ``y``."""
    p = np.clip(_sigmoid(model.logits(x)), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


# --- n players ------------------------------------------------------------------------------

POOLED_SEAT_FEATURES: tuple[str, ...] = (*SEAT_FEATURES, "wait")
"""``f`` of :class:`PooledValueModel`: :data:`SEAT_FEATURES` plus ``wait``, the number of other
seats that move before the seat's next turn, over ``n - 1`` (0 for the seat to move)."""
NUM_POOLED_SEAT = len(POOLED_SEAT_FEATURES)
NUM_POOLED_INPUT = 3 * NUM_POOLED_SEAT + len(SHARED_FEATURES)


def pooled_seat_features(
    m: Metrics, config: GameConfig, seat: int, persona: int, active: int
) -> list[float]:
    """``f(seat)`` of :class:`PooledValueModel` (see :data:`POOLED_SEAT_FEATURES`)."""
    n = config.num_players
    f = seat_features(m, config, seat, persona, active == seat)
    f.append(((seat - active) % n) / (n - 1))
    return f


def game_features(
    m: Metrics, config: GameConfig, persona: Sequence[int], active: int
) -> tuple[np.ndarray, np.ndarray]:
    """Every seat's ``f`` (an ``(n, F)`` array) and the shared features of a position."""
    f = [pooled_seat_features(m, config, q, persona[q], active) for q in range(config.num_players)]
    return np.array(f), np.array(shared_features(m, config.num_players))


def pooled_inputs(f: np.ndarray, shared: np.ndarray) -> np.ndarray:
    """Rows ``[f(s), mean f(o), max f(o), shared]`` (``o`` ranging over the seats other than
    ``s``) of seat features ``f`` of shape ``(..., n, F)`` and shared ``(..., S)``; the result
    has shape ``(..., n, 3F + S)``."""
    # Written into one array: the look-ahead bots call this for every position they value,
    # with a few rows, where numpy's per-call overhead is the cost (broadcast_to and
    # concatenate were half of it). The values are those of the plain formulas.
    *lead, n, width = f.shape
    out = np.empty((*lead, n, 3 * width + shared.shape[-1]), np.result_type(f, shared))
    out[..., :width] = f
    out[..., width : 2 * width] = (f.sum(axis=-2, keepdims=True) - f) / (n - 1)
    if n == 2:  # the largest of the other seats is the other seat
        out[..., 2 * width : 3 * width] = f[..., ::-1, :]
    else:  # (..., n, n - 1, F) -> (..., n, F)
        out[..., 2 * width : 3 * width] = f[..., _others(n), :].max(axis=-2)
    out[..., 3 * width :] = shared[..., None, :]
    return out


@cache
def _others(n: int) -> np.ndarray:
    """Row ``s``: the seats other than ``s``."""
    return np.array([[o for o in range(n) if o != s] for s in range(n)])


def softmax(z: np.ndarray) -> np.ndarray:
    """The softmax over the last axis."""
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


class PooledValueModel(_TinyMlp):
    """``P(s wins) = softmax_s g(x_s)`` with ``g(x) = w2 . tanh(x W1 + b1)`` (or ``x . w``
    without hidden units) and ``x_s`` the row of :func:`pooled_inputs`. Relabelling the seats
    permutes the probabilities in the same way, and they add up to 1."""

    KIND = "pooled"
    SEAT_NAMES = POOLED_SEAT_FEATURES
    INPUTS = NUM_POOLED_INPUT

    def probabilities(self, f: np.ndarray, shared: np.ndarray) -> np.ndarray:
        """Every seat's win probability from seat features ``(..., n, F)`` and shared
        ``(..., S)``: an array ``(..., n)`` whose last axis adds up to 1."""
        return softmax(self.scores(pooled_inputs(f, shared)))

    def win_probabilities(
        self, m: Metrics, config: GameConfig, persona: Sequence[int], active: int
    ) -> tuple[float, ...]:
        """Each seat's probability of winning (they add up to 1)."""
        return tuple(map(float, self.probabilities(*game_features(m, config, persona, active))))


def model_file(num_players: int) -> str:
    """The shipped model's file name for a player count."""
    return f"value_model_{num_players}p.json"


def _shipped_file(num_players: int) -> Traversable:
    return resources.files("agents") / "data" / model_file(num_players)


def _shipped_json(num_players: int) -> dict[str, Any]:
    """The shipped model file's contents; a missing file names the command that fits it."""
    f = _shipped_file(num_players)
    if not f.is_file():
        players = "" if num_players == 2 else f" --players {num_players}"
        raise FileNotFoundError(f"{f} is missing: run python -m lab.value_train{players}")
    return json.loads(f.read_text())


def model_digest(num_players: int) -> str | None:
    """A short SHA-1 of the shipped model file for a player count (None if there is none): a
    key for data that depends on the model, such as cached teacher games."""
    f = _shipped_file(num_players)
    return hashlib.sha1(f.read_bytes()).hexdigest()[:12] if f.is_file() else None


@cache
def value_model_for(num_players: int) -> ValueModel | PooledValueModel:
    """The shipped model for a player count: :func:`default_value_model` for 2 players, else a
    :class:`PooledValueModel` (``python -m lab.value_train --players N`` fits it)."""
    if num_players == 2:
        return default_value_model()
    return PooledValueModel.from_json(_shipped_json(num_players))


def fit_pooled_model(
    x: np.ndarray,
    t: np.ndarray,
    *,
    hidden: int = 4,
    l2: float = 1e-2,
    iters: int = 800,
    lr: float = 0.02,
    seed: int = 0,
) -> PooledValueModel:
    """Fit :class:`PooledValueModel` by full-batch Adam on the cross-entropy of the softmax.

    Args:
        x: inputs ``(positions, n, 3F + S)`` (:func:`pooled_inputs`).
        t: targets ``(positions, n)``: each row a distribution over the seats (a shared win
            spread evenly over the winners).
        hidden: hidden units (0: linear).
    """
    rng = np.random.default_rng(seed)
    d = x.shape[-1]
    params = _initial_params(d, hidden, rng)
    flat = x.reshape(-1, d)
    scale = 1.0 / len(x)

    def gradients() -> list[np.ndarray]:
        w1, bias, w2 = params
        if hidden > 0:
            a = np.tanh(flat @ w1 + bias)
            dz = (softmax((a @ w2).reshape(t.shape)) - t).reshape(-1) * scale
            da = np.outer(dz, w2) * (1.0 - a**2)
            return [flat.T @ da, da.sum(axis=0), a.T @ dz]
        dz = (softmax((flat @ w2).reshape(t.shape)) - t).reshape(-1) * scale
        return [np.zeros_like(w1), np.zeros_like(bias), flat.T @ dz]

    _adam(params, gradients, iters, lr, l2)
    return PooledValueModel(params[0], params[1], params[2], {"hidden": hidden, "l2": l2})


def cross_entropy(p: np.ndarray, t: np.ndarray) -> float:
    """Mean over positions of ``-sum_s t_s log p_s`` (probabilities ``p``, targets ``t``)."""
    return float(-np.mean(np.sum(t * np.log(np.clip(p, 1e-9, 1.0)), axis=-1)))


def pooled_log_loss(model: PooledValueModel, x: np.ndarray, t: np.ndarray) -> float:
    """:func:`cross_entropy` of the model's probabilities on inputs ``x``."""
    return cross_entropy(softmax(model.scores(x)), t)
