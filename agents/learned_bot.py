"""The learned bot: the scripted bot's look-ahead with the value network at its leaves.

:class:`LearnedBot` decides exactly as :class:`~agents.heuristic.HeuristicBot` searches (one
determinisation, every legal action played out to the end of its own turn, later steps
greedy), but every position is valued by the trained value network (:mod:`agents.value_net`):
``TERMINAL * (2 P - 1)`` with ``P`` the network's probability that the seat wins, a finished
game ``+-TERMINAL``. The seat does not know the others' personalities, so each opponent's
personality-dependent features are their expectation under the seat's belief
(:class:`~agents.roles.RoleBelief`); personalities with the same goal are merged and those
below :data:`~agents.learned_eval.MIN_PROB` dropped.

Spec: ``learned`` (the checkpoint shipped for the game's player count), ``learned:players=2``
(insist on the 2-player one), ``learned:path=DIR/NAME`` (a checkpoint of your own).
``robust`` and ``durable`` add the hint bot's bonuses for a sturdy goal
(:class:`~agents.learned_eval.LearnedEvaluator`) to the network's value (default: the
checkpoint's ``play`` values, else 0). ``hint`` (default 0) blends in the hint bot's own
value: ``(1 - hint) * network + hint * hint bot``, where the hint bot's value is that of
``heuristic:learned=1:robust=1:durable=1``. ``adapt=1`` scales ``robust`` and ``durable`` by how
hard the table blocks, as the game goes (:class:`~agents.blocking.BlockingRate`: 0 at a table
that races, 1 at one that breaks control as HeuristicBots do). ``switch=1`` makes the hint
bot's weight follow how widely the others spread (:class:`~agents.blocking.SpreadRate`, at
least ``hint``): the network's opening wins at tables that spread little and loses where the
others spread as HeuristicBots do (docs/experiments.md, 2026-11-29).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np

from agents.base import View
from agents.blocking import BlockingRate, SpreadRate
from agents.evaluation import DEFAULT_WEIGHTS, MAX_CACHED_VALUES, board_key, goals
from agents.heuristic import HeuristicBot, scripted_evaluator
from agents.learned_eval import MIN_PROB, TERMINAL, LearnedEvaluator, check_mixture
from agents.value_features import MAX_HITS, Position
from agents.value_model import goal_class
from agents.value_net import ValueNet, load, shipped
from nanty_env.engine import Game, GameConfig

HINT_BOT = {"learned": 1.0, "robust": 1.0, "durable": 1.0}
"""The hint bot's options for :func:`~agents.heuristic.scripted_evaluator`
(``heuristic:learned=1:robust=1:durable=1``)."""


def merged_options(config: GameConfig, belief: np.ndarray) -> list[tuple[int, float]]:
    """A belief over personalities as ``(index, probability)``, one per distinct goal (the
    three standard Lords merged), below :data:`MIN_PROB` dropped, renormalised."""
    dealt = goals(config)
    merged: dict[tuple, list] = {}
    for k, p in enumerate(belief):
        if p > 1e-6 and k in dealt:
            key = (dealt[k].needs, goal_class(dealt[k].id))
            merged.setdefault(key, [k, 0.0])[1] += float(p)
    kept = [(k, p) for k, p in merged.values() if p >= MIN_PROB] or [
        max(merged.values(), key=lambda kp: kp[1])
    ]
    total = sum(p for _, p in kept)
    return [(k, p / total) for k, p in kept]


class NetEvaluator:
    """Values positions for one seat with the value network (see module doc); the interface
    :class:`~agents.heuristic.TurnPlanner` uses (``seat``, ``w``, ``config``, ``value``)."""

    def __init__(
        self,
        config: GameConfig,
        seat: int,
        own: int,
        belief: Sequence[np.ndarray],
        net: ValueNet,
        robust: float = 0.0,
        durable: float = 0.0,
        mixture: str = "mean",
        hint: LearnedEvaluator | None = None,
        hint_weight: float = 0.0,
    ) -> None:
        if net.players != config.num_players:
            raise ValueError(
                f"a {net.players}-player value network for a {config.num_players}-player game"
            )
        self.config = config
        self.seat = seat
        self.own = own
        self.net = net
        self.w = DEFAULT_WEIGHTS  # TurnPlanner reads w.hand (a card kept in hand)
        self.n = config.num_players
        self.robust = float(robust)
        self.durable = float(durable)
        self.hint = hint
        self.hint_weight = float(hint_weight) if hint is not None else 0.0
        self.options = {q: merged_options(config, belief[q]) for q in range(self.n) if q != seat}
        self.mixture = check_mixture(mixture)
        # mixture "deals": every combination of the others' personalities, with its probability
        others = [q for q in range(self.n) if q != seat]
        combos = itertools.product(*(self.options[q] for q in others)) if mixture == "deals" else ()
        self.deals = [
            (dict(zip(others, (k for k, _ in combo), strict=True)), math.prod(p for _, p in combo))
            for combo in combos
        ]
        self._values: dict[tuple, float] = {}

    def win_probability(self, g: Game, pos: Position | None = None) -> float:
        """The seat's win probability under the network, the others' personalities averaged."""
        pos = Position(g, self.config) if pos is None else pos
        if self.mixture == "deals":
            return self._deals_win_probability(pos)
        rows = []
        for q in range(self.n):
            if q == self.seat:
                goal = pos.goal_features(q, self.own)
            else:
                goal = pos.expected_goal_features(q, self.options[q])
            rows.append(goal + pos.board_features(q))
        p = self.net.probabilities(np.array(rows), np.array(pos.shared()))
        return float(p[self.seat])

    def _deals_win_probability(self, pos: Position) -> float:
        """The seat's win probability averaged over the deals of the others' personalities
        (the network is trained on true personalities: one batched call for every deal)."""
        boards = [pos.board_features(q) for q in range(self.n)]
        goal = {(self.seat, self.own): pos.goal_features(self.seat, self.own)}
        rows = []
        for deal, _ in self.deals:
            row = []
            for q in range(self.n):
                k = self.own if q == self.seat else deal[q]
                if (q, k) not in goal:
                    goal[q, k] = pos.goal_features(q, k)
                row.append(goal[q, k] + boards[q])
            rows.append(row)
        p = self.net.probabilities(np.array(rows), np.array(pos.shared()))[:, self.seat]
        return float(np.dot([w for _, w in self.deals], p))

    def value(self, g: Game) -> float:
        values = self._values
        key = (board_key(g), g.active)
        v = values.get(key)
        if v is None:
            if len(values) >= MAX_CACHED_VALUES:
                values.clear()
            if g.is_terminal:
                v = TERMINAL if self.seat in g.outcome.winners else -TERMINAL
            else:
                pos = Position(g, self.config)
                v = TERMINAL * (2.0 * self.win_probability(g, pos) - 1.0)
                if self.robust or self.durable:
                    goal = pos.goal_features(self.seat, self.own)  # break cost / 3, durable
                    hits = round(goal[-2] * MAX_HITS)
                    v += self.robust * max(0, hits - 1) + self.durable * goal[-1]
                if self.hint_weight:
                    w = self.hint_weight
                    v = (1.0 - w) * v + w * self.hint.value(g)
            values[key] = v
        return v


class LearnedBot(HeuristicBot):
    """See the module docstring.

    Args:
        path: a value checkpoint (``NAME`` of ``NAME.json`` + ``NAME.safetensors``); default:
            the one shipped for the game's player count.
        players: the player count whose shipped checkpoint to use (default: the game's); a
            game of another size is refused.
        depth, samples: as for :class:`~agents.heuristic.HeuristicBot`.
        robust, durable: the sturdiness bonuses (see the module docstring); default: the
            checkpoint's ``play`` values (:func:`~agents.value_net.check_play`), else 0.
        mixture: how the others' unknown personalities enter the network: ``"mean"`` (their
            personality-dependent features averaged under the belief, one evaluation) or
            ``"deals"`` (the win probability averaged over every combination of their
            personalities, one batched evaluation).
        hint: weight in [0, 1] of the hint bot's value blended with the network's (0: none;
            1: the hint bot's choices).
        adapt: 1: ``robust`` and ``durable`` times the table's blocking scale (see the module
            docstring); 0: as given.
        switch: 1: the hint bot's weight is the larger of ``hint`` and the others' spread
            scale (see the module docstring); 0: ``hint`` throughout; default: the
            checkpoint's ``play`` value, else 0.
    """

    name = "learned"

    def __init__(
        self,
        path: str | None = None,
        players: int | None = None,
        depth: int = 1,
        robust: float | None = None,
        durable: float | None = None,
        samples: int = 1,
        mixture: str = "mean",
        hint: float = 0.0,
        adapt: int = 0,
        switch: int | None = None,
    ) -> None:
        super().__init__(depth=depth, samples=samples)
        for name, flag, allowed in (("adapt", adapt, (0, 1)), ("switch", switch, (0, 1, None))):
            if flag not in allowed:
                raise ValueError(f"{name} is 0 or 1, got {flag}")
        self.adapt = bool(adapt)
        self.net_switch = None if switch is None else float(switch)
        self.switch = bool(switch)  # resolved against the checkpoint in reset()
        self.blocking = BlockingRate(0)
        self.spread = SpreadRate(0)
        if not 0.0 <= hint <= 1.0:
            raise ValueError(f"hint is a weight in [0, 1], got {hint}")
        self.hint_weight = float(hint)
        self.net_mixture = check_mixture(mixture)
        self.net_robust = None if robust is None else float(robust)
        self.net_durable = None if durable is None else float(durable)
        self.path = path
        self.players = None if players is None else int(players)
        self._net: ValueNet | None = None if path is None else load(path)

    def reset(self, seat: int, config: GameConfig) -> None:
        if self.players is not None and config.num_players != self.players:
            raise ValueError(
                f"learned:players={self.players} in a {config.num_players}-player game"
            )
        super().reset(seat, config)
        self.switch = bool(
            self._play_option(self.network(config.num_players), "switch", self.net_switch)
        )
        self.blocking = BlockingRate(seat)
        self.spread = SpreadRate(seat)

    def observe(self, view: View) -> None:
        super().observe(view)
        if self.adapt or self.switch:
            self._read_table(self._belief(view).tracker.prev)

    def _read_table(self, snap: object) -> None:
        """Feed a turn-start snapshot to the table rates that the options use."""
        if self.adapt:
            self.blocking.update(snap)
        if self.switch:
            self.spread.update(snap)

    def _play_option(self, net: ValueNet, name: str, given: float | None) -> float:
        """A play option: the spec's, else the checkpoint's ``play`` value, else 0."""
        return net.play.get(name, 0.0) if given is None else given

    def network(self, num_players: int) -> ValueNet:
        if self._net is None or self._net.players != num_players:
            if self.path is not None:
                raise ValueError(f"{self.path} is a {self._net.players}-player value network")
            self._net = shipped(num_players)
        return self._net

    def evaluator(self, view: View) -> NetEvaluator | LearnedEvaluator:
        belief = self._belief(view)
        marginals = belief.marginals(view)
        self._read_table(belief.tracker.prev)
        sturdy = self.blocking.scale() if self.adapt else 1.0
        weight = max(self.hint_weight, self.spread.scale()) if self.switch else self.hint_weight
        key = (
            belief.config,
            view["seat"],
            view["personality"],
            tuple(m.tobytes() for m in marginals),
            sturdy,
            weight,
        )
        if self._last is None or self._last[0] != key:
            net = self.network(belief.config.num_players)
            hint = None
            if weight:
                hint = scripted_evaluator(
                    belief.config,
                    view["seat"],
                    view["personality"],
                    marginals,
                    **HINT_BOT,
                    mixture=self.net_mixture,
                )
            ev: NetEvaluator | LearnedEvaluator
            if hint is not None and weight >= 1.0:
                ev = hint  # the hint bot's value alone: no network call
            else:
                ev = NetEvaluator(
                    belief.config,
                    view["seat"],
                    view["personality"],
                    marginals,
                    net,
                    sturdy * self._play_option(net, "robust", self.net_robust),
                    sturdy * self._play_option(net, "durable", self.net_durable),
                    self.net_mixture,
                    hint,
                    weight,
                )
            self._last = (key, ev)
        return self._last[1]
