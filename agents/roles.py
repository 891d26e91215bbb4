"""Hidden-role inference: who is which personality, judged from public play only.

A :class:`RoleTracker` follows one seat's views (at the start of every turn) and attributes each
turn's public changes to the player whose turn it was: agents placed in new areas, control
gained, buildings, money, trouble markers added or removed, other players' pawns removed. These
running totals and the current board make a feature vector per player. A
:class:`RoleModel` (multinomial logistic regression, one per player count, trained on logged
games of :class:`~agents.heuristic.HeuristicBot` self-play) turns each vector into likelihoods
over personality cards, and :func:`posterior` combines them with what the seat knows for sure
(its own card, set-aside cards it has seen, every card dealt at most once) by exact enumeration
of the possible deals.

Without a model the posterior is the prior: uniform over the cards the seat cannot rule out.

In the expansion the hidden roles are the secret objectives (:mod:`agents.rulesets`): the same
machinery runs with the expansion's features (:data:`agents.cthulhu.roles.TRACKER`, a
:class:`TrackerSpec`) and a model fitted on expansion games (``cthulhu_role_model.json``).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import import_module, resources
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import BaseBot, View
from agents.evaluation import NUM_PERSONALITIES, Metrics, game_config, view_metrics
from agents.rulesets import bot_expansion, own_role, role_count, role_deck, role_ids, seen_roles
from agents.turn_tracker import TurnTracker
from nanty_env.engine import GameConfig
from nanty_env.storage.files import atomic_write_text, read_model


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The public facts of one turn start that the tracker compares."""

    turn: int
    active: int
    metrics: Metrics
    neutral: int
    trouble: tuple[int, ...]
    discard: int


Change = Callable[[Snapshot, Snapshot, int], float]
"""What seat ``q``'s turn changed, from the snapshot at its start to the next one."""


def seat_value(m: Metrics, name: str, q: int) -> int:
    """``m.<name>`` of seat ``q`` (a board total, such as ``trouble``, as it is)."""
    v = getattr(m, name)
    return v[q] if isinstance(v, list) else v


def change(name: str) -> Change:
    """The change of the metric ``name`` over the turn."""

    def changed(a: Snapshot, b: Snapshot, q: int) -> float:
        return seat_value(b.metrics, name, q) - seat_value(a.metrics, name, q)

    return changed


def others_lost(name: str) -> Change:
    """How many of the metric ``name`` (agents, minions) the other seats lost."""

    def lost(a: Snapshot, b: Snapshot, q: int) -> float:
        before, after = getattr(a.metrics, name), getattr(b.metrics, name)
        return sum(max(0, before[r] - after[r]) for r in range(len(before)) if r != q)

    return lost


def trouble_added(a: Snapshot, b: Snapshot, q: int) -> float:
    return sum(1 for x, y in zip(a.trouble, b.trouble, strict=True) if y > x)


def trouble_removed(a: Snapshot, b: Snapshot, q: int) -> float:
    return sum(1 for x, y in zip(a.trouble, b.trouble, strict=True) if y < x)


def neutral_removed(a: Snapshot, b: Snapshot, q: int) -> float:
    return max(0, a.neutral - b.neutral)


def cards_discarded(a: Snapshot, b: Snapshot, q: int) -> float:
    return max(0, b.discard - a.discard)


@dataclass(frozen=True)
class TrackerSpec:
    """A ruleset's role features: ``bias``, ``turns``, the running totals of what each of the
    seat's turns changed (``deltas``: name, measure), the board now (``board``: feature name,
    :class:`~agents.evaluation.Metrics` field) and ``game_turn``, divided by ``scale``;
    ``view_metrics(view, config)`` reads a view's metrics."""

    view_metrics: Callable[[Mapping[str, Any], GameConfig], Metrics]
    deltas: tuple[tuple[str, Change], ...]
    board: tuple[tuple[str, str], ...]
    scale: tuple[float, ...]

    @property
    def features(self) -> tuple[str, ...]:
        names = [name for name, _ in (*self.deltas, *self.board)]
        return ("bias", "turns", *names, "game_turn")


TRACKER = TrackerSpec(
    view_metrics,
    deltas=(
        ("d_occupied", change("occupied")),
        ("d_controlled", change("controlled")),
        ("d_agents", change("agents")),
        ("d_buildings", change("own_buildings")),
        ("d_money", change("money")),
        ("d_net_worth", change("net_worth")),
        ("trouble_added", trouble_added),
        ("trouble_removed", trouble_removed),
        ("others_agents_removed", others_lost("agents")),
        ("neutral_removed", neutral_removed),
        ("cards_discarded", cards_discarded),
    ),
    board=(
        ("occupied", "occupied"),
        ("controlled", "controlled"),
        ("net_worth", "net_worth"),
        ("buildings", "own_buildings"),
        ("agents", "agents"),
        ("money", "money"),
        ("loans", "loans"),
        ("exposed", "exposed"),
    ),
    # rough scales that bring every feature near [0, 1] (logistic regression trains better)
    scale=(1, 15, 6, 4, 6, 3, 15, 15, 6, 6, 4, 3, 15, 12, 6, 50, 6, 12, 30, 2, 6, 80),
)
"""The base game's role features (its house variants' too)."""
FEATURES = TRACKER.features
NUM_FEATURES = len(FEATURES)


class RoleTracker(TurnTracker):
    """Running public statistics of every player, fed with one seat's successive views (a
    :class:`~agents.turn_tracker.TurnTracker` whose features a :class:`TrackerSpec` names: the
    base game's by default; ``config`` is passed to the spec's ``view_metrics``)."""

    def __init__(
        self, num_players: int, spec: TrackerSpec = TRACKER, config: GameConfig | None = None
    ) -> None:
        super().__init__(num_players, len(spec.deltas))
        self.spec = spec
        self.config = config
        self.num_features = len(spec.features)
        self.scale = np.array(spec.scale, dtype=np.float64)

    def snapshot(self, view: Mapping[str, Any]) -> Snapshot:
        return Snapshot(
            turn=view["turn"],
            active=view["active"],
            metrics=self.spec.view_metrics(view, self.config),  # type: ignore[arg-type]
            neutral=sum(view["grenadiers"]) + sum(view["citizens"]),
            trouble=tuple(view["trouble"]),
            discard=len(view["discard"]),
        )

    def deltas(self, a: Snapshot, b: Snapshot, q: int) -> Sequence[float]:
        return [measure(a, b, q) for _, measure in self.spec.deltas]

    def row(self, q: int) -> Sequence[float]:
        m = self.prev.metrics
        board = [seat_value(m, name, q) for _, name in self.spec.board]
        return (1.0, self.turns[q], *self.sums[q], *board, self.prev.turn)


def tracker_spec(expansion: str | None) -> TrackerSpec:
    """The role features of a ruleset: its bot tables' (``agents.<name>.roles.TRACKER``), or
    the base game's for a ruleset served by them."""
    key = bot_expansion(expansion)
    return TRACKER if key is None else import_module(f"agents.{key}.roles").TRACKER


def features_for(expansion: str | None) -> tuple[str, ...]:
    """The feature names of a ruleset's role tracker."""
    return tracker_spec(expansion).features


class RoleModel:
    """Multinomial logistic regression over role indices (personality cards, or objectives
    with ``expansion``), one weight matrix per player count (classes outside that count's
    deck get no probability)."""

    def __init__(
        self,
        weights: Mapping[int, np.ndarray],
        meta: Mapping[str, Any] | None = None,
        expansion: str | None = None,
        num_classes: int = NUM_PERSONALITIES,
    ):
        self.weights = {int(k): np.asarray(v, dtype=np.float64) for k, v in weights.items()}
        self.meta = dict(meta or {})
        self.expansion = expansion
        self.features = features_for(expansion)
        shapes = {w.shape[1] for w in self.weights.values()}
        self.num_classes = shapes.pop() if len(shapes) == 1 else num_classes

    def probabilities(self, x: np.ndarray, num_players: int) -> np.ndarray:
        """``p(role | features)`` for each row of ``x`` (``[rows, num_classes]``)."""
        w = self.weights.get(num_players)
        out = np.zeros((x.shape[0], self.num_classes))
        if w is None:
            return out + 1.0 / self.num_classes
        logits = x @ w
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(axis=1, keepdims=True)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "features": list(self.features),
            "weights": {str(k): v.round(5).tolist() for k, v in self.weights.items()},
            "meta": self.meta,
        }
        if self.expansion is not None:
            d["expansion"] = self.expansion
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> RoleModel:
        expansion = d.get("expansion")
        if expansion not in (None, "cthulhu"):
            raise ValueError(f"role model for an unknown ruleset {expansion!r}")
        if tuple(d["features"]) != features_for(expansion):
            raise ValueError("role model was trained on other features; retrain it")
        weights = {int(k): np.array(v) for k, v in d["weights"].items()}
        return cls(weights, d.get("meta"), expansion)

    def fits(self, config: GameConfig) -> bool:
        """Whether the model's roles are ``config``'s: its ruleset and, for an expansion model,
        the ids of the objectives it was trained on (a user's content pack may differ)."""
        if self.expansion != bot_expansion(config.expansion):
            return False
        roles = self.meta.get("roles")
        return roles is None or list(roles) == role_ids(config)

    def save(self, path: str | Path) -> None:
        atomic_write_text(path, json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> RoleModel:
        """Read a model written by :meth:`save` (size-checked first; any fault is one
        ``ValueError`` naming the file)."""
        return read_model(path, "role model", cls.from_json)


DEFAULT_MODEL_FILE = "role_model.json"
MODEL_FILES = {None: DEFAULT_MODEL_FILE, "cthulhu": "cthulhu_role_model.json"}
"""The shipped role model of each ruleset, in ``agents/data``."""


@cache
def default_model(expansion: str | None = None) -> RoleModel | None:
    """The model shipped in ``agents/data`` for the ruleset (``None`` if there is none)."""
    f = resources.files("agents") / "data" / MODEL_FILES[bot_expansion(expansion)]
    if not f.is_file():
        return None
    return RoleModel.from_json(json.loads(f.read_text()))


def candidates(view: Mapping[str, Any], config: GameConfig) -> list[int]:
    """Roles another seat may hold, as far as ``view``'s seat knows (its own, and set-aside
    personality cards it has seen, are ruled out)."""
    seen = set(seen_roles(view)) | {own_role(view)}
    return [k for k in role_deck(config) if k not in seen]


def deal_weights(
    view: Mapping[str, Any], config: GameConfig, likelihood: np.ndarray | None
) -> tuple[list[int], list[tuple[int, ...]], np.ndarray, np.ndarray]:
    """Every deal of the roles ``view``'s seat cannot rule out to the other seats: those
    seats (in order), the deals (as tuples, and as an array of role indices, one row each) and
    each deal's weight, the product of its seats' ``likelihood`` (``None``: all 1) seat by seat
    in order (the same numbers, bit for bit, as a loop multiplying them)."""
    n, me = view["num_players"], view["seat"]
    others = [q for q in range(n) if q != me]
    lik = np.ones((n, role_count(config))) if likelihood is None else likelihood
    deals = list(itertools.permutations(candidates(view, config), len(others)))
    picks = np.array(deals, dtype=np.intp).reshape(len(deals), len(others))
    return others, deals, picks, lik[others, picks].prod(axis=1)


def posterior(
    view: Mapping[str, Any],
    config: GameConfig,
    likelihood: np.ndarray | None = None,
) -> list[np.ndarray]:
    """Marginal probabilities of every other seat's personality.

    Args:
        view: the observing seat's view (its own card and seen set-aside cards are certain).
        likelihood: ``[num_players, roles]`` relative likelihoods of each seat's public play
            under each role (personality, or objective in the expansion); ``None`` for the
            prior.

    Returns:
        One vector per seat (the observer's own row is its own card, one-hot).
    """
    n, me = view["num_players"], view["seat"]
    k_roles = role_count(config)
    out = [np.zeros(k_roles) for _ in range(n)]
    out[me][own_role(view)] = 1.0
    # the deals of no weight left out, then the sums in deal order: the same arithmetic,
    # number for number, as a loop over the deals
    others, _, picks, w = deal_weights(view, config, likelihood)
    kept = ~(w <= 0.0)
    w, picks = w[kept], picks[kept]
    total = np.cumsum(w)[-1] if len(w) else 0.0
    if total <= 0.0:  # the model ruled everything out: fall back to the prior
        return posterior(view, config, None)
    for j, q in enumerate(others):
        np.add.at(out[q], picks[:, j], w)
        out[q] /= total
    return out


def make_tracker(config: GameConfig) -> RoleTracker:
    """The role tracker of ``config``'s ruleset."""
    return RoleTracker(config.num_players, tracker_spec(config.expansion), config)


class RoleBelief:
    """A seat's running belief about the others: a tracker plus an optional model."""

    def __init__(self, config: GameConfig, model: RoleModel | None) -> None:
        if model is not None and model.expansion != bot_expansion(config.expansion):
            raise ValueError(
                f"the role model is for the {model.expansion or 'base'} game, this game is "
                f"{config.expansion or 'the base game'}"
            )
        self.config = config
        self.model = model
        self.tracker = make_tracker(config)
        # the last likelihood and marginals, with what they were computed from: the tracker's
        # last snapshot (a new one whenever its sums change) and the view's seat and roles
        self._likelihood: tuple[Any, np.ndarray | None] | None = None
        self._marginals: tuple[Any, tuple, list[np.ndarray]] | None = None

    def observe(self, view: Mapping[str, Any]) -> None:
        self.tracker.update(view)

    def likelihood(self) -> np.ndarray | None:
        """Each seat's relative likelihood of each role from its public play so far (``None``
        without a model); computed once per tracked turn (a new array each call)."""
        if self.model is None:
            return None
        memo = self._likelihood
        if memo is None or memo[0] is not self.tracker.prev:
            x = self.tracker.features()
            p = np.maximum(self.model.probabilities(x, self.config.num_players), 1e-9)
            p[self.tracker.turns == 0] = 1.0  # no turn of theirs seen yet: no evidence
            memo = self._likelihood = (self.tracker.prev, p)
        return memo[1].copy()

    def marginals(self, view: Mapping[str, Any]) -> list[np.ndarray]:
        """:func:`posterior` after observing ``view``: computed again only when the tracker has
        seen a new turn or the view's seat, own role or seen set-aside roles differ (the
        posterior reads nothing else), so a turn's decisions share one computation (new
        arrays each call)."""
        self.observe(view)
        prev = self.tracker.prev
        key = (view["seat"], own_role(view), tuple(seen_roles(view)))
        memo = self._marginals
        if memo is None or memo[0] is not prev or memo[1] != key:
            memo = self._marginals = (prev, key, posterior(view, self.config, self.likelihood()))
        return [m.copy() for m in memo[2]]


class DealSampler:
    """Whole deals (one role per seat, all distinct) drawn from the joint posterior of one view
    and likelihood: the deals and their cumulative weights are computed once, for the many
    draws of a search (one a determinisation). A draw takes one float from ``rng`` and picks
    the deal that ``rng.choice(len(deals), p=weights)`` would: the same cumulative sums, the
    same search, the same draw."""

    def __init__(
        self, marginal_view: Mapping[str, Any], config: GameConfig, likelihood: np.ndarray | None
    ) -> None:
        others, deals, _, w = deal_weights(marginal_view, config, likelihood)
        total = w.sum()
        p = w / total if total > 0 else np.full(len(deals), 1.0 / len(deals))
        cdf = p.cumsum()  # Generator.choice's own arithmetic for p
        cdf /= cdf[-1]
        self._cdf = cdf
        self._deals = deals
        self._others = others
        self._prefix = [own_role(marginal_view)] * marginal_view["num_players"]

    def draw(self, rng: np.random.Generator) -> list[int]:
        """One deal: every seat's role (the viewing seat's own included)."""
        d = self._deals[int(self._cdf.searchsorted(rng.random(), side="right"))]
        out = self._prefix[:]
        for q, k in zip(self._others, d, strict=True):
            out[q] = k
        return out


def sample_deal(
    marginal_view: Mapping[str, Any],
    config: GameConfig,
    likelihood: np.ndarray | None,
    rng: np.random.Generator,
) -> list[int]:
    """Draw a whole deal (one card per seat, all distinct) from the joint posterior."""
    return DealSampler(marginal_view, config, likelihood).draw(rng)


def fit_logistic(
    x: np.ndarray,
    y: np.ndarray,
    classes: Sequence[int],
    *,
    l2: float = 1e-3,
    iters: int = 400,
    lr: float = 0.5,
    num_classes: int = NUM_PERSONALITIES,
) -> np.ndarray:
    """Fit multinomial logistic regression by full-batch gradient descent (Adam steps).

    Returns a ``[features, num_classes]`` weight matrix; columns of roles not in ``classes``
    hold a large negative bias so they get no probability.
    """
    cls = list(classes)
    idx = {k: i for i, k in enumerate(cls)}
    yi = np.array([idx[int(k)] for k in y])
    onehot = np.eye(len(cls))[yi]
    w = np.zeros((x.shape[1], len(cls)))
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    b1, b2, eps = 0.9, 0.999, 1e-8
    for t in range(1, iters + 1):
        logits = x @ w
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        grad = x.T @ (p - onehot) / len(x) + l2 * w
        m = b1 * m + (1 - b1) * grad
        v = b2 * v + (1 - b2) * grad**2
        w -= lr * (m / (1 - b1**t)) / (np.sqrt(v / (1 - b2**t)) + eps)
        lr_decay = 0.5 if t == iters // 2 else 1.0
        lr *= lr_decay
    full = np.zeros((x.shape[1], num_classes))
    full[0, :] = -30.0
    for k, i in idx.items():
        full[:, k] = w[:, i]
    return full


class RoleAwareBot(BaseBot):
    """A bot that follows public play with a :class:`RoleBelief` (fed one view per turn).

    Args:
        role_model: ``"default"`` (the shipped model of the game's ruleset, if present), a
            :class:`RoleModel`, or ``None`` for the uniform prior.
    """

    observes = True

    def __init__(self, role_model: RoleModel | str | None = "default") -> None:
        super().__init__()
        self.default_roles = role_model == "default"
        self.model = default_model() if self.default_roles else role_model
        self.belief: RoleBelief | None = None

    def reset(self, seat: int, config: GameConfig) -> None:
        super().reset(seat, config)
        self.belief = self._new_belief(config)

    def observe(self, view: View) -> None:
        self._belief(view).observe(view)

    def _new_belief(self, config: GameConfig) -> RoleBelief:
        if self.default_roles:
            self.model = default_model(config.expansion)
            if self.model is not None and not self.model.fits(config):
                self.model = None  # another content pack's objectives: the prior instead
        return RoleBelief(game_config(config), self.model)

    def _belief(self, view: View) -> RoleBelief:
        b = self.belief
        if (
            b is None
            or b.config.num_players != view["num_players"]
            or b.config.expansion != view.get("expansion")
        ):
            self.belief = self._new_belief(self.config_for(view))
        return self.belief
