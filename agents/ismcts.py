"""Information-set Monte-Carlo tree search (single-observer ISMCTS with determinisation).

Each iteration draws one *determinisation*: a full game consistent with the bot's view, with
other hands, the draw pile, the event deck and future dice resampled, and the others'
personalities drawn from the role-inference posterior (every card dealt at most once). The
iteration then walks one shared tree whose nodes are action histories from the bot's decision:
at each node only the actions legal in this determinisation are considered, and UCB uses how
often each action was *available* rather than how often the parent was visited (Cowling,
Powley & Whitehouse 2012). Forced decisions (one legal action) are not stored. Each node keeps
the value of the seat that chose its action, so other seats' choices are made for them.

* Expansion: a node's actions are tried in the order of their immediate value for the acting
  seat (its sampled personality), with progressive widening (``1 + widen * sqrt(visits)``
  actions considered), so a few visits follow the greedy line and more visits try others. At
  the root the order and a PUCT prior come from the scripted bot's look-ahead scores.
* Rollout: from the new node every seat plays greedily (which card to play is random) until the
  horizon, by default the start of this bot's next turn, where its own goal is checked.
* Value: :func:`~agents.evaluation.sampled_values` (progress towards the sampled goals minus
  the others' threat); a finished game gives +-``TERMINAL``. Returns are taken relative to the
  same seats' values of the determinisation before any action (a control variate): what the
  sampled hidden state adds to every action alike (how alarming the sampled opponent's goal is)
  then no longer drowns the differences between actions. With ``learned`` (two players) the
  value is blended with a learned win probability ``p`` as ``TERMINAL * (2p - 1)``
  (:mod:`agents.value_model`), and with ``prior_learned`` the root prior's look-ahead uses the
  same blend (:class:`~agents.learned_eval.LearnedEvaluator`).

The budget is ``iters`` iterations or ``time`` seconds per decision, or ``budget`` CPU seconds
for the whole game, shared out over the decisions the rest of the game may still hold (from the
size of the draw pile). Taking the money of a money symbol needs no search, and with ``only``
the decision kinds not listed take the scripted bot's choice (the root prior's favourite).

Two roots: ``"ucb"`` plays the most visited action of a PUCT search over every legal action.
``"rr"`` (round robin) takes the prior's ``top`` candidates and, one determinisation at a time,
plays one iteration of each of them on a copy of it with the same rollout seed, so they are
compared on the same hidden cards, dice and random choices (common random numbers); the best
mean return replaces the prior's favourite only if it is better by ``margin``. Determinisations
can be reused (``dets``): iterations then cycle through a fixed set, each on a copy.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence

import numpy as np

from agents import evaluation
from agents.base import View
from agents.evaluation import (
    DEFAULT_WEIGHTS,
    Evaluator,
    Weights,
    metrics,
)
from agents.heuristic import TurnPlanner, obvious_action, useful_actions
from agents.learned_bot import NetEvaluator
from agents.learned_eval import TERMINAL, LearnedEvaluator
from agents.roles import DealSampler, RoleAwareBot, RoleModel
from agents.rulesets import (
    evaluator_class,
    game_roles,
    has_personalities,
    make_evaluator,
    own_role,
    ruleset_weights,
    seen_roles,
    set_game_roles,
    symbols,
)
from agents.sampling import determinize_view
from agents.value_features import Position
from agents.value_model import ValueModel, default_value_model
from agents.value_net import ValueNet, shipped
from nanty_env.engine import Game, GameConfig
from nanty_env.engine.actions import (
    ABILITY,
    CONFIRM,
    DISCARD_CARD,
    ELDER_ABILITY,
    GOO_ABILITY,
    NUM_AREAS,
    PASS,
    PLAY_CARD,
    SELECT_CARD,
)

MAX_ROLLOUT = 400
DEFAULT_ITERS = 200
CARDS_PER_TURN = 1.8  # how fast the draw pile shrinks, roughly (for the per-game budget)
DECISIONS_PER_TURN = 6.0  # searched decisions in one of the bot's turns (weighted, see below)
MAIN_WEIGHT = 2.0  # the choice of a card to play gets this many shares of the budget
MAINS_PER_TURN = 1.5  # choices of a card to play in one turn (when only those are searched)


class Determinisation:
    """One sampled game with what every iteration on it needs: the seats' evaluators under
    the sampled personalities and their values before any action (the control variate)."""

    __slots__ = (
        "baseline",
        "evaluators",
        "game",
        "learned",
        "me",
        "model",
        "net",
        "persona",
        "weights",
    )

    def __init__(
        self,
        game: Game,
        weights: Weights,
        me: int = -1,
        model: ValueModel | None = None,
        learned: float = 0.0,
        net: ValueNet | None = None,
    ) -> None:
        self.game = game
        self.net = net
        self.weights = weights
        self.me = me
        self.model = model
        self.learned = learned if model is not None else 0.0
        self.persona = game_roles(game)
        self.evaluators = sampled_evaluators(game, weights)
        self.baseline = self.values(game)

    def values(self, g: Game) -> list[float]:
        """Every seat's leaf value of ``g``: :func:`seat_values`, blended with weight
        ``learned`` with the learned win probability ``p`` as ``TERMINAL * (2p - 1)``; with a
        value network ``net``, its win probabilities under the sampled personalities alone."""
        if self.net is not None and not g.is_terminal:
            f, shared = Position(g, g.cfg).table(g.persona)
            return [TERMINAL * (2.0 * x - 1.0) for x in self.net.probabilities(f, shared)]
        if g.is_terminal or self.learned <= 0.0:
            return seat_values(g, self.evaluators_for(g))
        assert self.model is not None
        m = metrics(g)
        p = self.model.win_probabilities(m, g.cfg, g.persona, g.active)
        learned = [TERMINAL * (2.0 * x - 1.0) for x in p]
        if self.learned >= 1.0:
            return learned
        hand = [ev.value_from_metrics(m) for ev in self.evaluators_for(g)]
        lam = self.learned
        return [(1.0 - lam) * h + lam * v for h, v in zip(hand, learned, strict=True)]

    def evaluators_for(self, g: Game) -> list[Evaluator]:
        """The evaluators of ``g``'s seats (new ones if a personality has changed hands)."""
        if not has_personalities(g.cfg) or g.persona == self.persona:
            return self.evaluators  # objectives never change hands
        return sampled_evaluators(g, self.weights)


def seat_values(g: Game, evaluators: Sequence[Evaluator]) -> list[float]:
    """Every seat's value of ``g`` under its sampled role; +-``TERMINAL`` at the end."""
    if g.is_terminal:
        winners = g.outcome.winners
        return [TERMINAL if q in winners else -TERMINAL for q in range(g.n)]
    m = evaluators[0].measure(g)  # the ruleset's metrics (every seat's evaluator reads them)
    return [ev.value_from_metrics(m) for ev in evaluators]


class Node:
    """Statistics of one action history: children by action, visits, value sum of the seat
    that chose the action leading here, and how often that action was available."""

    __slots__ = ("avail", "children", "n", "order", "player", "w")

    def __init__(self, player: int = -1) -> None:
        self.children: dict[int, Node] = {}
        self.n = 0
        self.w = 0.0
        self.avail = 0
        self.player = player
        self.order: dict[int, float] | None = None  # expansion priority of each action


def set_personalities(g: Game, deal: Sequence[int], seat: int, known_unused: Sequence[int]) -> None:
    """Give ``g`` the roles of ``deal`` (personalities, or objectives in the expansion); the
    set-aside pile is whatever is left."""
    set_game_roles(g, deal, seat, known_unused)


def sampled_evaluators(g: Game, weights: Weights) -> list[Evaluator]:
    """One evaluator per seat (the ruleset's evaluation, :func:`agents.rulesets.evaluator_class`)
    that takes the determinisation's roles as known."""
    cls = evaluator_class(g.cfg)
    return evaluation.sampled_evaluators(g, ruleset_weights(g.cfg, weights), cls)


def is_ability(a: int) -> bool:
    """Whether ``a`` uses an ability (a City Area's or building's, an Elder One's or the Great
    Old One's): rollouts use them last, if at all."""
    return ABILITY <= a < ABILITY + NUM_AREAS or ELDER_ABILITY <= a <= GOO_ABILITY


def greedy_scores(
    g: Game, legal: Sequence[int], ev: Evaluator, rng: np.random.Generator
) -> dict[int, float]:
    """Immediate value of each action for the deciding seat (random for a choice of card,
    and discarding interrupts or using abilities last): the expansion order of tree nodes."""
    out = {}
    for a in legal:
        if PLAY_CARD <= a < DISCARD_CARD:
            out[a] = 10.0 + float(rng.random())
        elif DISCARD_CARD <= a < SELECT_CARD or is_ability(a):
            out[a] = -10.0 - float(rng.random())
        else:
            h = g.clone()
            h.apply(a)
            out[a] = ev.value(h) + (1e-4 if a != PASS else 0.0)
    return out


def greedy_action(
    g: Game, legal: Sequence[int], ev: Evaluator, rng: np.random.Generator, skip: float
) -> int:
    """The action with the best immediate value for the deciding seat; a choice among cards
    to play is made at random (see ``rollout``)."""
    cards = [a for a in legal if PLAY_CARD <= a < DISCARD_CARD]
    if cards and (legal[0] != PASS or rng.random() < skip):
        return int(cards[int(rng.integers(len(cards)))])
    if len(legal) == 2 and legal[1] == CONFIRM:
        return CONFIRM  # take the money / resolve the scroll: nearly always right
    best, best_v = legal[0], -math.inf
    for a in legal:
        if DISCARD_CARD <= a < SELECT_CARD or is_ability(a):
            continue
        h = g.clone()
        h.apply(a)
        v = ev.value(h) + (1e-4 if a != PASS else 0.0)
        if v > best_v:
            best, best_v = a, v
    return int(best)


class ISMCTSBot(RoleAwareBot):
    """Information-set MCTS over determinisations drawn from the role posterior.

    Args:
        iters: iterations per decision (default ``DEFAULT_ITERS``); with ``budget`` or
            ``time`` the most per decision (default: no limit).
        time: seconds per decision (overrides ``iters``).
        budget: CPU seconds of thinking for the whole game (overrides ``time``): each decision
            gets a share of what is left, by how many of the bot's decisions the rest of the
            game may still hold (from the draw pile); choosing a card to play gets
            ``MAIN_WEIGHT`` shares. Spending is measured in CPU time, so other processes on
            the machine do not shrink the search.
        min_time: the smallest time for one decision under ``budget`` (one iteration at least).
        dets: how many determinisations one decision samples; the iterations cycle through
            them (each iteration plays on a copy). 0 samples a fresh one every iteration.
        c: UCB exploration constant (values are in evaluation units, roughly [-3, 3]).
        prior: weight of the scripted bot's ranking at the root (0 turns it off).
        horizon: ``"round"`` (until this seat's next turn starts) or ``"turn"`` (until the
            current turn ends).
        skip: probability that a rollout drops "pass" when it has another option.
        temperature: softmax temperature turning the scripted scores into the root prior.
        prior_depth: nested card plays the root prior's look-ahead resolves (the scripted
            bot uses 1).
        widen: progressive widening factor below the root.
        root: ``"ucb"`` (PUCT over all legal actions with the prior) or ``"rr"`` (rounds over
            the ``top`` candidates on common determinisations, see :meth:`_round_robin`).
        top: candidates of the round-robin root.
        margin: how much better (mean relative return) the round-robin root's best must be
            than the prior's favourite to replace it.
        only: decision kinds to search, joined by ``+`` (e.g. ``"main"``); the others take
            the prior's favourite (the scripted bot's look-ahead). Empty: search every kind.
        learned: weight of the learned win probability (:mod:`agents.value_model`, two
            players only) in the leaf values, against the hand-weighted evaluation: 0 (default)
            the evaluation only, 1 the learned value only (as ``TERMINAL * (2p - 1)``).
        prior_learned: the same weight in the root prior's look-ahead
            (:class:`~agents.learned_eval.LearnedEvaluator`, the opponent's personality
            averaged over the role posterior).
        value_model: the learned model (``"default"``: the shipped one), used when
            ``learned > 0``.
        net: 1: value the leaves with the value network shipped for the player count
            (:mod:`agents.value_net`, the ``learned`` bot's; 2 or 4 players), reading each
            determinisation's sampled personalities, and rank the root with the ``learned``
            bot's look-ahead (its network under the role belief) instead of ``learned`` and
            ``prior_learned``.
        role_model: as for :class:`~agents.heuristic.HeuristicBot`.
    """

    name = "ismcts"

    def __init__(
        self,
        iters: int | None = None,
        time: float | None = None,
        budget: float | None = None,
        min_time: float = 0.01,
        dets: int = 0,
        c: float = 0.25,
        prior: float = 1.0,
        horizon: str = "round",
        skip: float = 0.8,
        temperature: float = 0.05,
        widen: float = 1.0,
        prior_depth: int = 0,
        root: str = "ucb",
        top: int = 4,
        margin: float = 0.0,
        only: str = "",
        learned: float = 0.0,
        prior_learned: float = 0.0,
        value_model: ValueModel | str | None = "default",
        role_model: RoleModel | str | None = "default",
        weights: Weights = DEFAULT_WEIGHTS,
        net: int = 0,
    ) -> None:
        super().__init__(role_model)
        self.use_net = bool(int(net))
        if self.use_net and (learned or prior_learned):
            raise ValueError("net=1 replaces learned and prior_learned: give one or the other")
        self.net: ValueNet | None = None
        if not 0.0 <= float(learned) <= 1.0:
            raise ValueError(f"learned must be in [0, 1], got {learned!r}")
        self.learned = float(learned)
        self.prior_learned = float(prior_learned)
        self.value_model: ValueModel | None = None
        if self.learned > 0.0:
            if value_model == "default":
                self.value_model = default_value_model()
            elif isinstance(value_model, str):
                self.value_model = ValueModel.load(value_model)
            else:
                self.value_model = value_model
        if horizon not in ("round", "turn"):
            raise ValueError(f"horizon must be 'round' or 'turn', got {horizon!r}")
        self.prior_depth = int(prior_depth)
        if root not in ("ucb", "rr"):
            raise ValueError(f"root must be 'ucb' or 'rr', got {root!r}")
        self.root = root
        self.top = int(top)
        self.margin = float(margin)
        self.only = tuple(k for k in str(only).split("+") if k)
        self.iters = None if iters is None else int(iters)
        self.time = time
        self.budget = budget
        self.min_time = float(min_time)
        self.dets = int(dets)
        self.c = c
        self.prior_weight = prior
        self.horizon = horizon
        self.skip = skip
        self.temperature = temperature
        self.widen = widen
        self.weights = weights
        self.last_iterations = 0
        self.spent = 0.0  # CPU seconds of thinking so far in this game

    def reset(self, seat: int, config: GameConfig) -> None:
        if (self.learned > 0 or self.prior_learned > 0) and config.num_players != 2:
            raise ValueError("the learned leaf value (learned > 0) is for 2-player games")
        if (self.learned > 0 or self.prior_learned > 0) and config.expansion is not None:
            raise ValueError("the learned leaf value (learned > 0) is for the base game only")
        if self.use_net:
            if config.expansion is not None:
                raise ValueError("the value network (net=1) is for the base game only")
            self.net = shipped(config.num_players)
        super().reset(seat, config)
        self.spent = 0.0

    # ------------------------------------------------------------------ bot protocol
    def act(self, view: View, legal_actions: Sequence[int], rng: np.random.Generator) -> int:
        legal = [int(a) for a in legal_actions]
        if len(legal) == 1:
            return legal[0]
        obvious = obvious_action(view, legal, symbols(self.config_for(view)))
        if obvious is not None:
            self.observe(view)
            return obvious
        start = time.process_time()
        try:
            return self._search(view, legal, rng, start)
        finally:
            self.spent += time.process_time() - start

    def decision_time(self, view: View) -> float | None:
        """CPU seconds for this decision (None: count iterations only)."""
        if self.budget is None:
            return None if self.time is None else float(self.time)
        n = view["num_players"]
        own_turns = 1.0 + view["deck_size"] / (CARDS_PER_TURN * n)
        main_only = self.only == ("main",)
        per_turn = MAINS_PER_TURN if main_only else DECISIONS_PER_TURN
        share = (self.budget - self.spent) / (own_turns * per_turn)
        if view["decision"] == "main" and not main_only:
            share *= MAIN_WEIGHT
        return max(self.min_time, share)

    def _search(self, view: View, legal: list[int], rng: np.random.Generator, start: float) -> int:
        belief = self._belief(view)
        cfg = belief.config
        marginals = belief.marginals(view)
        likelihood = belief.likelihood()
        me = view["seat"]
        unused = seen_roles(view)
        deals = DealSampler(view, cfg, likelihood)  # every determinisation draws from it

        def determinisation() -> Determinisation:
            g = determinize_view(view, rng, cfg)
            set_personalities(g, deals.draw(rng), me, unused)
            return Determinisation(g, self.weights, me, self.value_model, self.learned, self.net)

        pool = [determinisation()]
        prior = self._root_prior(pool[0].game, legal, view, marginals)
        if self.only and view["decision"] not in self.only:
            self.last_iterations = 0
            useful = useful_actions(view["decision"], legal)
            return max(useful, key=lambda a: prior[a])
        horizon = self._horizon_turn(view)
        root = Node()
        seconds = self.decision_time(view)
        deadline = None if seconds is None else start + seconds
        cap = self.iters
        if cap is None and self.budget is None and self.time is None:
            cap = DEFAULT_ITERS
        if self.root == "rr":
            return self._round_robin(
                root, pool, determinisation, legal, me, prior, horizon, rng, deadline, cap
            )
        it = 0
        while True:
            if cap is not None and it >= cap:
                break
            if deadline is not None and it > 0 and time.process_time() >= deadline:
                break
            if self.dets <= 0:
                d = pool[0] if it == 0 else determinisation()
                g = d.game
            else:
                if it == len(pool) < self.dets:
                    pool.append(determinisation())
                d = pool[it % len(pool)]
                g = d.game.clone()
            self._iterate(root, g, d, me, prior, horizon, rng)
            it += 1
        self.last_iterations = it
        best = max(
            legal, key=lambda a: (root.children[a].n if a in root.children else -1, prior[a])
        )
        return int(best)

    def _round_robin(
        self,
        root: Node,
        pool: list[Determinisation],
        determinisation: Callable[[], Determinisation],
        legal: list[int],
        me: int,
        prior: dict[int, float],
        horizon: int,
        rng: np.random.Generator,
        deadline: float | None,
        cap: int | None,
    ) -> int:
        """Root by rounds: every round takes one determinisation and plays one iteration of
        each of the ``top`` candidates (by the prior) on it, with the same generator seed for
        the rollouts' random choices. Candidates are thus compared on the same hidden states
        and dice (common random numbers); below the root the tree is shared as usual. The
        best mean return wins, unless it beats the prior's favourite by less than ``margin``.
        """
        ranked = sorted(legal, key=lambda a: -prior[a])
        cands = ranked[: max(1, self.top)]
        total = dict.fromkeys(cands, 0.0)
        seeds: list[int] = []
        rounds = it = 0
        while True:
            if cap is not None and it >= cap:
                break
            if deadline is not None and rounds > 0 and time.process_time() >= deadline:
                break
            k = rounds % max(1, self.dets) if self.dets > 0 else rounds
            if k >= len(pool):
                pool.append(determinisation())
            if k >= len(seeds):
                seeds.append(int(rng.integers(2**62)))
            d = pool[k]
            for a in cands:
                r = np.random.default_rng(seeds[k])
                total[a] += self._iterate(root, d.game.clone(), d, me, prior, horizon, r, first=a)
                it += 1
            rounds += 1
        self.last_iterations = it
        fav = cands[0]
        best = max(cands, key=lambda a: (total[a], prior[a]))
        if best != fav and (total[best] - total[fav]) / rounds < self.margin:
            best = fav
        return int(best)

    # ------------------------------------------------------------------ search
    def _horizon_turn(self, view: View) -> int:
        """The turn number at whose start the rollouts stop."""
        n, me, turn, active = view["num_players"], view["seat"], view["turn"], view["active"]
        if self.horizon == "turn":
            return turn + 1
        wait = (me - active) % n
        return turn + (wait if wait else n)

    def _root_prior(
        self, g: Game, legal: list[int], view: View, marginals: list[np.ndarray]
    ) -> dict[int, float]:
        """Softmax of the scripted bot's look-ahead scores (uniform when ``prior`` is 0)."""
        if self.prior_weight <= 0:
            return dict.fromkeys(legal, 1.0 / len(legal))
        ev: Evaluator | LearnedEvaluator | NetEvaluator
        if self.net is not None:
            ev = NetEvaluator(g.cfg, view["seat"], view["personality"], marginals, self.net)
        else:
            weights = ruleset_weights(g.cfg, self.weights)
            ev = make_evaluator(g.cfg, view["seat"], own_role(view), marginals, weights)
            if self.prior_learned > 0.0:
                model = self.value_model or default_value_model()
                ev = LearnedEvaluator(ev, model, marginals, view["personality"], self.prior_learned)
        scores = np.array(TurnPlanner(ev, depth=self.prior_depth).scores(g, legal))
        z = (scores - scores.max()) / max(self.temperature, 1e-6)
        p = np.exp(z)
        p /= p.sum()
        return {a: float(x) for a, x in zip(legal, p, strict=True)}

    def _iterate(
        self,
        root: Node,
        g: Game,
        det: Determinisation,
        me: int,
        prior: dict[int, float],
        horizon: int,
        rng: np.random.Generator,
        first: int | None = None,
    ) -> float:
        """One iteration on ``g`` (played on); returns the deciding seat's relative return.
        ``first`` forces the root action (the round-robin root)."""
        node = root
        path: list[Node] = []
        if first is not None:
            node = root.children.get(first)
            if node is None:
                node = root.children[first] = Node(me)
            node.avail += 1
            g.apply(first)
            path.append(node)
        # Control variate: each seat's value of this determinisation before anything is done.
        # Subtracting it removes what the sampled hidden state adds to every action alike
        # (e.g. how alarming the sampled opponent's goal is) from the comparison of actions.
        baseline = det.baseline
        while not g.is_terminal and g.turn < horizon:
            legal = g.legal_actions()
            if len(legal) == 1:
                g.apply(legal[0])
                continue
            p = g.current_player
            if node is root:
                allowed = sorted(legal, key=lambda x: -prior.get(x, 0.0))
            else:
                if node.order is None:
                    node.order = greedy_scores(g, legal, det.evaluators_for(g)[p], rng)
                order = node.order
                ranked = sorted(legal, key=lambda x: -order.get(x, -100.0))
                allowed = ranked[: 1 + int(self.widen * math.sqrt(node.n))]
            for b in allowed:
                if b in node.children:
                    node.children[b].avail += 1
            untried = [a for a in allowed if a not in node.children]
            if untried:
                a = untried[0]
                child = Node(p)
                child.avail = 1
                node.children[a] = child
                g.apply(a)
                path.append(child)
                break
            a = self._select(node, allowed, root_prior=prior if node is root else None)
            node = node.children[a]
            g.apply(a)
            path.append(node)
        self._rollout(g, horizon, det, rng)
        values = det.values(g)
        root.n += 1
        for nd in path:
            nd.n += 1
            nd.w += values[nd.player] - baseline[nd.player]
        return values[me] - baseline[me]

    def _select(self, node: Node, legal: list[int], root_prior: dict[int, float] | None) -> int:
        best, best_s = legal[0], -math.inf
        children = node.children
        if root_prior is not None:
            sq = math.sqrt(node.n + 1)
            for b in legal:
                ch = children[b]
                s = ch.w / ch.n + self.c * self.prior_weight * root_prior.get(b, 0.0) * sq / (
                    1 + ch.n
                )
                if s > best_s:
                    best, best_s = b, s
            return best
        for b in legal:
            ch = children[b]
            s = ch.w / ch.n + self.c * math.sqrt(math.log(ch.avail) / ch.n)
            if s > best_s:
                best, best_s = b, s
        return best

    def _rollout(
        self, g: Game, horizon: int, det: Determinisation, rng: np.random.Generator
    ) -> None:
        evaluators = None
        for _ in range(MAX_ROLLOUT):
            if g.is_terminal or g.turn >= horizon:
                return
            legal = g.legal_actions()
            if len(legal) == 1:
                g.apply(legal[0])
                continue
            if evaluators is None:
                evaluators = det.evaluators_for(g)
            g.apply(greedy_action(g, legal, evaluators[g.current_player], rng, self.skip))
