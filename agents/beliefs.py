"""Beliefs about the other seats' hidden roles, as a joint distribution over whole deals.

One seat's :class:`Belief` holds a probability for every *assignment* of roles to seats
(personality cards in the base game, secret objectives in the expansion) that is consistent
with what the seat knows: its own card, the set-aside cards it has seen, and no card dealt
twice. It is fed the seat's successive views (``observe(view, action)``) and turns the public
history into a posterior with a pluggable likelihood model:

* :class:`PriorModel`: counting; every consistent assignment is equally likely.
* :class:`FittedModel`: the shipped :class:`~agents.roles.RoleModel` (logistic regression on
  the public feature tracker) gives each seat a likelihood per role; an assignment weighs the
  product of its seats' likelihoods, renormalised over the consistent assignments. Its
  marginals are exactly :func:`agents.roles.posterior`'s.
* :class:`PolicyModel`: a Bayes filter with a known bot as the model of the other players.
  For every public action of another seat it asks the bot, once per role that seat may hold,
  what it would have done there: the hidden hands are determinised from the observer's view
  (the acting seat's hand made to hold the card it was seen to play), the hypothesised role is
  written into the sample, and the bot is asked in that seat. A deterministic bot gives a
  one-hot answer per sample; the likelihood is the share of samples that chose the observed
  action, smoothed with ``epsilon`` (``(1 - epsilon) * share + epsilon / legal actions``).

Every model's evidence factorises over seats (a seat's play depends on its own role, not on
the roles of the others), so the joint is ``p(a) ∝ prod_q L[q, a_q]`` over the consistent
assignments ``a``; :meth:`Belief.marginals` sums it.

Only what the observing seat may know is used: its views (``Game.view(seat)``) and the
actions taken right after them when :func:`is_public` says it may see them (the cards another
seat gives, keeps or takes are not; every other action of another seat is). The random draws
of :class:`PolicyModel` come from the belief's own generator, so two histories that look the
same to the seat give the same belief (``tests/agents/test_beliefs.py``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from agents.roles import RoleModel, candidates, default_model, make_tracker
from agents.rulesets import own_role, role_count, role_deck, seen_roles, set_game_roles
from agents.sampling import determinize_view
from nanty_env.engine import Game, GameConfig
from nanty_env.engine import actions as A

View = Mapping[str, Any]

__all__ = [
    "Belief",
    "FittedModel",
    "LikelihoodModel",
    "PolicyModel",
    "PriorModel",
    "consistent_assignments",
    "is_public",
    "make_model",
]


def is_public(view: View, action: int) -> bool:
    """Whether ``view``'s seat sees which ``action`` the pending decision's seat takes next.

    Everything but the choice of a card that goes into (or stays in) a hand is public: played
    and discarded cards land face up, areas, pieces, players and yes/no answers are seen by
    all. The seat's own actions are not evidence about the others and count as not public.
    """
    decider = view["current_player"]
    if decider < 0 or decider == view["seat"]:
        return False
    return not A.SELECT_CARD <= action < A.AREA


def consistent_assignments(view: View, config: GameConfig) -> np.ndarray:
    """Every deal of roles to seats that ``view``'s seat cannot rule out (``[A, seats]``): its
    own role in its seat, no role it has seen set aside, no role twice."""
    n, me = view["num_players"], view["seat"]
    others = [q for q in range(n) if q != me]
    rows = []
    for deal in itertools.permutations(candidates(view, config), len(others)):
        row = [own_role(view)] * n
        for q, k in zip(others, deal, strict=True):
            row[q] = k
        rows.append(row)
    return np.array(rows, dtype=np.int64).reshape(-1, n)


class LikelihoodModel(Protocol):
    """The evidence part of a belief: per seat and role, the log relative likelihood of that
    seat's public play so far (the observer's own row is ignored)."""

    name: str

    def reset(self, config: GameConfig, seat: int, rng: np.random.Generator) -> None:
        """A new game in which ``seat`` observes."""

    def observe(self, view: View, action: int | None) -> None:
        """The observer's view, and the public action taken right after it (or None)."""

    def log_likelihood(self) -> np.ndarray:
        """``[seats, roles]`` log relative likelihoods."""


class PriorModel:
    """No evidence: the belief is uniform over the consistent assignments."""

    name = "prior"

    def reset(self, config: GameConfig, seat: int, rng: np.random.Generator) -> None:
        self.loglik = np.zeros((config.num_players, role_count(config)))

    def observe(self, view: View, action: int | None) -> None:
        return None

    def log_likelihood(self) -> np.ndarray:
        return self.loglik


class FittedModel:
    """The fitted logistic :class:`~agents.roles.RoleModel` on the public feature tracker
    (``model``: None for the ruleset's shipped model), exactly as
    :class:`~agents.roles.RoleBelief` uses it: a seat without a turn seen yet has no
    evidence, likelihoods are floored at 1e-9."""

    name = "fitted"

    def __init__(self, model: RoleModel | None = None) -> None:
        self.given = model

    def reset(self, config: GameConfig, seat: int, rng: np.random.Generator) -> None:
        model = self.given or default_model(config.expansion)
        if model is None or not model.fits(config):
            raise ValueError(
                f"no role model fits {config.expansion or 'the base game'}'s roles; "
                "train one with nanty roles-train"
            )
        self.model = model
        self.config = config
        self.tracker = make_tracker(config)
        self._cache: np.ndarray | None = None

    def observe(self, view: View, action: int | None) -> None:
        before = self.tracker.prev
        self.tracker.update(view)
        if self.tracker.prev is not before:
            self._cache = None

    def log_likelihood(self) -> np.ndarray:
        if self._cache is None:
            x = self.tracker.features()
            p = np.maximum(self.model.probabilities(x, self.config.num_players), 1e-9)
            p[self.tracker.turns == 0] = 1.0
            self._cache = np.log(p)
        return self._cache


class PolicyModel:
    """A Bayes filter with the bot ``bot_spec`` as the model of every other seat (see the
    module docstring).

    Args:
        bot_spec: the bot believed to play the other seats (``heuristic``, ...).
        samples: determinisations per observed action (each asks the bot once per role).
        epsilon: the share of the likelihood spread evenly over the legal actions (the
            bot's answer is trusted with ``1 - epsilon``).
        kinds: decision kinds whose actions are used (None: every kind).
        targets: the seats whose actions are filtered (None: every other seat); the others
            keep the prior, and no bot is built or asked for them (a leakage measurement
            watches one seat only, at a fraction of the cost).
    """

    def __init__(
        self,
        bot_spec: str = "heuristic",
        samples: int = 1,
        epsilon: float = 0.2,
        kinds: Iterable[str] | None = None,
        targets: Iterable[int] | None = None,
    ) -> None:
        if int(samples) < 1 or not 0.0 < float(epsilon) <= 1.0:
            raise ValueError("samples must be at least 1 and epsilon in (0, 1]")
        self.bot_spec = bot_spec
        self.samples = int(samples)
        self.epsilon = float(epsilon)
        self.kinds = None if kinds is None else frozenset(kinds)
        self.targets = None if targets is None else frozenset(int(q) for q in targets)
        self.name = f"policy:{bot_spec}"
        self.actions_used = 0

    def reset(self, config: GameConfig, seat: int, rng: np.random.Generator) -> None:
        from agents.registry import make_bot

        self.config = config
        self.seat = seat
        self.rng = rng
        n = config.num_players
        self.loglik = np.zeros((n, role_count(config)))
        self.roles = sorted(role_deck(config))
        self.bots: dict[tuple[int, int], Any] = {}
        for q in range(n):
            if q == seat or (self.targets is not None and q not in self.targets):
                continue
            for k in self.roles:
                b = make_bot(self.bot_spec)
                b.reset(q, config)
                self.bots[q, k] = b
        self.observing = any(getattr(b, "observes", False) for b in self.bots.values())
        self.turn = -1
        self.actions_used = 0

    def _hypothesis(self, g: Game, view: View, q: int, k: int) -> bool:
        """Give seat ``q`` role ``k`` in the sampled game ``g`` (the other unseen roles stay
        where the sample put them, one swapped if it held ``k``); False if ``k`` is ruled out."""
        cands = candidates(view, self.config)
        if k not in cands:
            return False
        deal = list(_roles_of(g))
        if deal[q] != k:
            for r in range(len(deal)):
                if deal[r] == k:
                    deal[r] = deal[q]
            deal[q] = k
        set_game_roles(g, deal, self.seat, seen_roles(view))
        return True

    def _follow(self, view: View) -> None:
        """A new turn: every hypothesised bot sees its seat's view of one sample."""
        g = determinize_view(dict(view), self.rng, self.config)
        for (q, k), bot in self.bots.items():
            if getattr(bot, "observes", False) and self._hypothesis(g, view, q, k):
                bot.observe(g.view(q))

    def observe(self, view: View, action: int | None) -> None:
        if self.observing and view["turn"] != self.turn and not view["terminal"]:
            self.turn = view["turn"]
            self._follow(view)
        if action is None or not is_public(view, action):
            return
        q = view["current_player"]
        kind = view["stack"][-1]["k"]
        if (self.kinds is not None and kind not in self.kinds) or (
            q,
            self.roles[0],
        ) not in self.bots:
            return
        chose = np.zeros(len(self.roles))
        used, legal_sizes = 0, []
        held = _holding(view, q, action)
        if held is None:
            return
        for _ in range(self.samples):
            g = determinize_view(held, self.rng, self.config)
            legal = g.legal_actions()
            if action not in legal or len(legal) < 2:
                continue
            used += 1
            legal_sizes.append(len(legal))
            seed = int(self.rng.integers(2**63))
            for i, k in enumerate(self.roles):
                if not self._hypothesis(g, view, q, k):
                    continue
                v = g.view(q)
                a = self.bots[q, k].act(v, v["legal_actions"], np.random.default_rng(seed))
                chose[i] += a == action
        if used == 0:
            return
        self.actions_used += 1
        share = chose / used
        lik = (1.0 - self.epsilon) * share + self.epsilon / float(np.mean(legal_sizes))
        self.loglik[q, self.roles] += np.log(lik)

    def log_likelihood(self) -> np.ndarray:
        return self.loglik


def _roles_of(g: Game) -> list[int]:
    from agents.rulesets import game_roles

    return game_roles(g)


def _card_of(action: int) -> int | None:
    if A.PLAY_CARD <= action < A.DISCARD_CARD:
        return action - A.PLAY_CARD
    if A.DISCARD_CARD <= action < A.SELECT_CARD:
        return action - A.DISCARD_CARD
    return None


def _holding(view: View, q: int, action: int) -> dict[str, Any] | None:
    """``view`` with the card that ``action`` plays or discards known to be in seat ``q``'s
    hand (so every determinisation deals it there); None if the observer knows it is not."""
    v = dict(view)
    c = _card_of(action)
    if c is None or c in view["known_cards"][q]:
        return v
    if c in view["hand"] or any(c in row for row in view["known_cards"]):
        return None
    v["known_cards"] = [list(row) for row in view["known_cards"]]
    v["known_cards"][q].append(c)
    return v


class Belief:
    """One seat's joint belief over the role assignments (see the module docstring).

    Args:
        config: the game's configuration (public).
        seat: the observing seat.
        model: a :class:`LikelihoodModel` (default :class:`PriorModel`).
        seed: seeds the model's own random draws (never the game's).
    """

    def __init__(
        self,
        config: GameConfig,
        seat: int,
        model: LikelihoodModel | None = None,
        seed: int = 0,
    ) -> None:
        self.config = config
        self.seat = seat
        self.model = model if model is not None else PriorModel()
        self.model.reset(config, seat, np.random.default_rng([seed, seat]))
        self._key: tuple | None = None
        self._assignments = np.zeros((0, config.num_players), dtype=np.int64)
        self._probs: np.ndarray | None = None
        self.view: View | None = None

    def observe(self, view: View, action: int | None = None) -> None:
        """Take in the seat's view and, if given, the action taken right after it by the
        seat that decides there (refused unless :func:`is_public` for this seat)."""
        if view["seat"] != self.seat:
            raise ValueError(f"a view of seat {view['seat']} fed to seat {self.seat}'s belief")
        if action is not None and not is_public(view, action):
            raise ValueError(f"seat {self.seat} does not see action {action} at this view")
        self.view = view
        key = (own_role(view), tuple(sorted(seen_roles(view))))
        if key != self._key:
            self._key = key
            self._assignments = consistent_assignments(view, self.config)
        self.model.observe(view, action)
        self._probs = None

    def assignments(self) -> np.ndarray:
        """``[A, seats]``: every assignment the seat cannot rule out."""
        return self._assignments

    def joint(self) -> tuple[np.ndarray, np.ndarray]:
        """(assignments ``[A, seats]``, their probabilities ``[A]``, summing to 1)."""
        if self.view is None:
            raise ValueError("no view observed yet")
        if self._probs is None:
            a = self._assignments
            ll = self.model.log_likelihood()
            others = [q for q in range(self.config.num_players) if q != self.seat]
            logw = np.zeros(len(a))
            for q in others:
                logw += ll[q, a[:, q]]
            logw -= logw.max()
            w = np.exp(logw)
            self._probs = w / w.sum()
        return self._assignments, self._probs

    def marginals(self) -> list[np.ndarray]:
        """One probability vector over roles per seat (the observer's own is one-hot)."""
        a, p = self.joint()
        k = role_count(self.config)
        out = []
        for q in range(self.config.num_players):
            m = np.zeros(k)
            if q == self.seat:
                m[a[0, q]] = 1.0
            else:
                np.add.at(m, a[:, q], p)
            out.append(m)
        return out

    def p(self, assignment: Sequence[int]) -> float:
        """The probability of one whole assignment (0 if the seat rules it out)."""
        a, p = self.joint()
        hit = np.flatnonzero((a == np.asarray(assignment)).all(axis=1))
        return float(p[hit[0]]) if len(hit) else 0.0


def make_model(spec: str, model_path: str | None = None) -> LikelihoodModel:
    """A likelihood model from its command-line name: ``prior``, ``fitted`` (``model_path``: a
    role model JSON instead of the shipped one) or ``policy:<bot spec>`` (options of the
    filter itself may follow the bot spec as ``policy:heuristic;samples=2;epsilon=0.1``)."""
    if spec == "prior":
        return PriorModel()
    if spec == "fitted":
        return FittedModel(RoleModel.load(model_path) if model_path else None)
    if spec.startswith("policy:") and len(spec) > len("policy:"):
        bot, *opts = spec[len("policy:") :].split(";")
        kw: dict[str, Any] = {}
        for o in opts:
            key, _, value = o.partition("=")
            if key == "samples":
                kw["samples"] = int(value)
            elif key == "epsilon":
                kw["epsilon"] = float(value)
            elif key == "kinds":
                kw["kinds"] = value.split("+")
            else:
                raise ValueError(f"unknown policy-model option {key!r} (samples, epsilon, kinds)")
        return PolicyModel(bot, **kw)
    raise ValueError(f"observer model {spec!r}: use prior, fitted or policy:<bot spec>")
