"""A scripted bot: one determinised look-ahead to the end of its own turn, valued by a
personality-aware evaluation.

How it decides:

1. It rebuilds one full game consistent with its view (``sample_from_view``: other hands, the
   draw pile and the others' personalities are resampled; it never sees the real ones).
2. For every legal action it plays the rest of its own turn on a copy of that game, choosing
   each later step greedily (the best immediate value; a card played inside the turn is itself
   resolved greedily before it is valued), with other seats' out-of-turn answers defaulting to
   "let it happen".
3. It values the end position with :class:`~agents.evaluation.Evaluator`: its own progress
   towards its goal (Moriarty: areas occupied; the Lords: areas controlled; de Sidonia: net
   worth; Fagin: trouble markers; Sherlock Holmes: nothing but keeping everyone else from
   winning) minus the threat that the others pose. The threat weights each opponent's progress
   towards every goal by the probability of that personality, which
   :class:`~agents.roles.RoleBelief` infers from their public play, so the bot blocks the
   player who looks closest to winning.

Every candidate is played out from the same random state (common random numbers), so random
events do not favour one candidate over another by luck.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from agents.base import View
from agents.concealment import Concealment, concealment_model
from agents.evaluation import DEFAULT_WEIGHTS, Evaluator, Weights
from agents.learned_eval import LearnedEvaluator, check_mixture
from agents.roles import RoleAwareBot, RoleModel
from agents.rulesets import (
    has_personalities,
    make_evaluator,
    own_role,
    ruleset_weights,
    symbols,
)
from agents.sampling import determinize_view
from agents.value_model import value_model_for
from nanty_env.engine import Game, GameConfig, tables
from nanty_env.engine.actions import CONFIRM, DISCARD_CARD, PASS, PLAY_CARD, SELECT_CARD

ACT_BONUS = 1e-4  # prefer doing something over passing when the values are level
MAX_STEPS = 80  # safety bound on a look-ahead


def is_card_play(a: int) -> bool:
    return PLAY_CARD <= a < DISCARD_CARD


EXTRA_KINDS = ("main", "card", "two", "end")


def useful_actions(decision: str, legal: Sequence[int]) -> list[int]:
    """``legal`` without discarding interrupt cards at the own-turn decisions where that is
    only an extra (it never helps there: the card is simply lost)."""
    if decision not in EXTRA_KINDS:
        return list(legal)
    kept = [a for a in legal if not DISCARD_CARD <= a < SELECT_CARD]
    return kept or list(legal)


def obvious_action(
    view: View, legal: Sequence[int], symbols: Sequence[Sequence[str]] | None = None
) -> int | None:
    """An answer that needs no search: take the money of a money symbol (``symbols``: each
    card's symbols in the game's ruleset; default the base game's)."""
    if view["decision"] == "card" and list(legal) == [PASS, CONFIRM]:
        ctx = view["context"]
        syms = (symbols or tables().symbols)[ctx["card"]]
        if ctx["symbol_index"] < len(syms) and syms[ctx["symbol_index"]] == "money":
            return CONFIRM
    return None


def default_answer(legal: Sequence[int]) -> int:
    """Another seat's answer inside a look-ahead: decline / let it happen when possible."""
    return PASS if legal[0] == PASS else legal[0]


class TurnPlanner:
    """Greedy look-ahead to the end of the deciding seat's turn (see module docstring);
    ``penalty`` (concealment, :mod:`agents.concealment`) is subtracted from each candidate's
    end position's value."""

    def __init__(
        self, evaluator: Evaluator, depth: int = 1, penalty: Callable[[Game], float] | None = None
    ) -> None:
        self.ev = evaluator
        self.me = evaluator.seat
        self.depth = depth
        self.penalty = penalty

    def scores(self, g: Game, legal: Sequence[int]) -> list[float]:
        """The value of each legal action after the rest of the turn is played out."""
        own_turn = g.active == self.me
        start = g.turn
        out = []
        for a in legal:
            h = g.clone()
            h.apply(a)
            self.finish(h, start, own_turn, self.depth)
            v = self.ev.value(h) + (ACT_BONUS if a != PASS else 0.0)
            out.append(v - self.penalty(h) if self.penalty is not None else v)
        return out

    def best(self, games: Sequence[Game], legal: Sequence[int]) -> int:
        """The action with the best total score over ``games`` (determinisations of one
        decision; each compares every candidate on the same random state)."""
        return self.ranked(games, legal)[0]

    def ranked(self, games: Sequence[Game], legal: Sequence[int]) -> tuple[int, dict[int, float]]:
        """:meth:`best` and the candidates' total scores (none scored when only one
        candidate is left: a discard that only loses a card is never one)."""
        legal = useful_actions(games[0].decision, legal)
        if len(legal) == 1:
            return int(legal[0]), {}
        s = np.sum([self.scores(g, legal) for g in games], axis=0)
        return int(legal[int(np.argmax(s))]), {
            int(a): float(v) for a, v in zip(legal, s, strict=True)
        }

    def finish(self, h: Game, start: int, own_turn: bool, depth: int) -> None:
        """Play on until the turn is over (own turn) or another seat must decide (out of turn)."""
        me = self.me
        for _ in range(MAX_STEPS):
            if h.is_terminal or h.turn != start:
                return
            legal = h.legal_actions()
            if h.current_player != me:
                if not own_turn:
                    return
                h.apply(default_answer(legal))
            elif len(legal) == 1:
                h.apply(legal[0])
            else:
                h.apply(self.greedy(h, legal, start, own_turn, depth))

    def greedy(self, h: Game, legal: Sequence[int], start: int, own_turn: bool, depth: int) -> int:
        legal = useful_actions(h.decision, legal)
        best, best_v = legal[0], -np.inf
        for a in legal:
            c = h.clone()
            c.apply(a)
            if depth > 0 and is_card_play(a):
                self.finish(c, start, own_turn, depth - 1)
            v = self.ev.value(c) + (ACT_BONUS if a != PASS else 0.0)
            if is_card_play(a) and depth <= 0:
                v += self.ev.w.hand  # the card is not lost, it is being used
            if v > best_v:
                best, best_v = a, v
        return best


PLANS = ("turn", "greedy")


def one_ply(ev: Evaluator, g: Game, legal: Sequence[int]) -> int:
    """The legal action with the best value right after it (no look-ahead; a card play is
    valued as if the card were still in hand, since its effects come in later decisions)."""
    legal = useful_actions(g.decision, legal)
    if len(legal) == 1:
        return int(legal[0])
    best, best_v = legal[0], -np.inf
    for a in legal:
        c = g.clone()
        c.apply(a)
        v = ev.value(c) + (ACT_BONUS if a != PASS else 0.0)
        if is_card_play(a):
            v += ev.w.hand
        if v > best_v:
            best, best_v = a, v
    return int(best)


def scripted_evaluator(
    config: GameConfig,
    seat: int,
    own: int,
    marginals: Sequence[np.ndarray],
    weights: Weights | None = None,
    learned: float = 0.0,
    mixture: str = "mean",
    robust: float = 0.0,
    durable: float = 0.0,
) -> Evaluator | LearnedEvaluator:
    """The scripted bot's evaluation for ``seat``, whose role is ``own`` (see
    :class:`HeuristicBot`): the hand-weighted one, blended with the learned win probability
    when ``learned`` > 0 (the base game's personalities only)."""
    ev = make_evaluator(
        config,
        seat,
        own,
        marginals,
        ruleset_weights(config, weights),
        cache_values=learned <= 0.0,
    )
    if learned <= 0.0:
        return ev
    model = value_model_for(config.num_players)
    return LearnedEvaluator(
        ev,
        model,
        marginals,
        own,
        learned,
        cache_values=True,
        mixture=mixture,
        robust=robust,
        durable=durable,
    )


class HeuristicBot(RoleAwareBot):
    """Plays towards its own personality and blocks whoever looks closest to winning.

    In the expansion it plays towards its secret objective with
    :class:`~agents.cthulhu.evaluation.CthulhuEvaluator` (objective progress, the points and
    Sloth endings, threats from the others' possible objectives); ``weights`` then apply only
    if they are :class:`~agents.cthulhu.evaluation.CthulhuWeights`, and ``learned`` (a base
    game model) is refused. A variant of the base game (its personality cards as roles, the
    same board) plays with the base game's evaluation and may use ``learned``.

    Args:
        role_model: ``"default"`` (the shipped role-inference model, if present), a
            :class:`~agents.roles.RoleModel`, or ``None`` to assume the uniform prior.
        weights: the evaluation's weights.
        depth: how many nested card plays inside the turn are looked through.
        plan: ``"turn"`` (default): each candidate is played out to the end of the turn as
            above; ``"greedy"``: a much cheaper one-ply bot that values the position right
            after each candidate (a card play counts as the card kept in hand; the card's
            symbols are then chosen one by one in the same way). Used as a fast training
            opponent (``heuristic:plan=greedy``).
        learned: weight of the learned win probability in the evaluation
            (:class:`~agents.learned_eval.LearnedEvaluator`, with the model shipped for the
            game's player count; 0: the hand-weighted one only).
        mixture: how the learned term averages over the opponents' personalities with more
            than two seats (``"mean"`` or ``"deals"``, see :mod:`agents.learned_eval`).
        robust, durable: with ``learned``, bonuses for a goal the others cannot undo with one
            hit (see :mod:`agents.learned_eval` and :mod:`agents.robustness`; 0: none).
        samples: determinisations the turn look-ahead averages over (1: one, as above); more
            smooth out the luck of one sampled draw pile, event or die roll.
        conceal: λ, the weight of the concealment penalty (:mod:`agents.concealment`): each
            nat by which the turn moves the fitted role model's posterior towards the bot's
            true role costs λ in the evaluation's units (0: off; ``plan="turn"`` only).
    """

    name = "heuristic"

    def __init__(
        self,
        role_model: RoleModel | str | None = "default",
        weights: Weights = DEFAULT_WEIGHTS,
        depth: int = 1,
        plan: str = "turn",
        learned: float = 0.0,
        mixture: str = "mean",
        robust: float = 0.0,
        durable: float = 0.0,
        samples: int = 1,
        conceal: float = 0.0,
    ) -> None:
        super().__init__(role_model)
        if not 0.0 <= float(conceal) < float("inf"):
            raise ValueError(f"conceal must be a finite number of at least 0, got {conceal!r}")
        self.conceal = float(conceal)
        self._hide_from = None
        if int(samples) < 1:
            raise ValueError(f"samples must be at least 1, got {samples!r}")
        self.samples = int(samples)
        self.learned = float(learned)
        self.robust = float(robust)
        self.durable = float(durable)
        if (robust or durable) and self.learned <= 0.0:
            raise ValueError("robust and durable weight the learned value: give learned > 0")
        self.mixture = check_mixture(mixture)
        if plan not in PLANS:
            raise ValueError(f"plan must be one of {PLANS}, got {plan!r}")
        self.weights = weights
        self.depth = depth
        self.plan = plan
        # (what the evaluator was built from, the evaluator)
        self._last: tuple[tuple, Evaluator | LearnedEvaluator] | None = None

    def reset(self, seat: int, config: GameConfig) -> None:
        if self.learned > 0.0 and not has_personalities(config):
            raise ValueError(
                "the learned value (learned > 0) is for the base game and its variants only"
            )
        super().reset(seat, config)
        self._last = None
        self._hide_from = concealment_model(config) if self.conceal > 0.0 else None

    def evaluator(self, view: View) -> Evaluator | LearnedEvaluator:
        """The evaluation for ``view``'s seat under the current belief: the previous decision's
        evaluator (with the values it has cached) if it was built from the same belief."""
        belief = self._belief(view)
        marginals = belief.marginals(view)
        own = own_role(view)
        key = (
            belief.config,
            view["seat"],
            own,
            self.weights,
            tuple(m.tobytes() for m in marginals),
        )
        if self._last is None or self._last[0] != key:
            ev = scripted_evaluator(
                belief.config,
                view["seat"],
                own,
                marginals,
                self.weights,
                self.learned,
                self.mixture,
                self.robust,
                self.durable,
            )
            self._last = (key, ev)
        return self._last[1]

    def act(self, view: View, legal_actions: Sequence[int], rng: np.random.Generator) -> int:
        return self.act_scored(view, legal_actions, rng)[0]

    def act_scored(
        self, view: View, legal_actions: Sequence[int], rng: np.random.Generator
    ) -> tuple[int, dict[int, float]]:
        """:meth:`act` (same choice, same draws from ``rng``) and the turn look-ahead's score
        of every candidate it compared (none when it compared none: one legal action, an
        obvious answer or ``plan="greedy"``). Imitation learns from these scores
        (``pretrain.soft``)."""
        if len(legal_actions) == 1:
            return int(legal_actions[0]), {}
        obvious = obvious_action(view, legal_actions, symbols(self.config_for(view)))
        if obvious is not None:
            self.observe(view)
            return obvious, {}
        ev = self.evaluator(view)
        g = determinize_view(view, rng, ev.config)
        if self.plan == "greedy":
            return one_ply(ev, g, legal_actions), {}
        more = [determinize_view(view, rng, ev.config) for _ in range(self.samples - 1)]
        penalty = None
        if self._hide_from is not None:
            tracker = self._belief(view).tracker
            penalty = Concealment(
                self.conceal, self._hide_from, ev.config, view["seat"], own_role(view), tracker
            )
        return TurnPlanner(ev, self.depth, penalty).ranked([g, *more], legal_actions)
