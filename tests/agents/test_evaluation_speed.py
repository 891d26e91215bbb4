"""The evaluation gives exactly the same numbers (and the heuristic bot the same decisions) as
the reference implementation it was optimised from.

The fingerprints below were recorded with the unoptimised ``agents/evaluation.py`` (commit
bb5c22b). Floats are compared through their ``repr``, which round-trips exactly, so any change in
the order of floating-point operations shows up here. If the evaluation is *meant* to change,
re-record them (run this file with ``-s`` and ``PRINT_FINGERPRINTS = True``).

The game fingerprints also cover the value cache of :class:`~agents.heuristic.HeuristicBot`
(an evaluator kept over the decisions of a turn, valuing by :func:`board_key`).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

import numpy as np
import pytest

from agents import HeuristicBot
from agents.base import View, play_game
from agents.evaluation import (
    NUM_PERSONALITIES,
    Evaluator,
    Metrics,
    Weights,
    board_key,
    metrics,
    sampled_values,
    view_metrics,
)
from nanty_env.engine import Game, GameConfig, scoring
from nanty_env.engine.setup import personality_deck

PRINT_FINGERPRINTS = False

METRIC_FIELDS = (
    "occupied",
    "controlled",
    "contested",
    "net_worth",
    "building_value",
    "own_buildings",
    "pieces",
    "agents",
    "points",
    "money",
    "hand",
    "trouble",
    "buildings",
    "deck",
    "exposed",
    "loans",
)

CONFIGS = (
    GameConfig(num_players=2, log=False),
    GameConfig(num_players=3, personalities="variant", log=False),
    GameConfig(num_players=4, thresholds="player_aid", log=False),
    GameConfig(num_players=4, personalities="variant", log=False),
    GameConfig(num_players=3, personalities="classic", log=False),
)

OTHER_WEIGHTS = Weights(threat_power=2.5, threat_sum=0.45, points=0.3, exposed=0.02)


def digest(items: Sequence[object]) -> str:
    return hashlib.sha256(repr(list(items)).encode()).hexdigest()[:24]


def fields(m: Metrics) -> tuple:
    return tuple(getattr(m, f) for f in METRIC_FIELDS)


def random_positions(config: GameConfig, games: int, per_game: int, seed: int) -> list[Game]:
    """Positions reached by seeded random play, at random depths (terminal ones included)."""
    rnd = random.Random(seed)
    out = []
    for k in range(games):
        g = Game.new(config, seed * 100 + k)
        stops = set(rnd.sample(range(400), per_game))
        step = 0
        while not g.is_terminal:
            if step in stops:
                out.append(g.clone())
            g.apply(rnd.choice(g.legal_actions()))
            step += 1
        out.append(g)
    return out


def heuristic_positions(config: GameConfig, seed: int) -> list[Game]:
    """Every turn start of one game between cheap (``greedy``) heuristic bots."""
    out: list[Game] = []
    bots = [HeuristicBot(plan="greedy") for _ in range(config.num_players)]
    g, _ = play_game(bots, config, seed, on_turn=lambda h: out.append(h.clone()))
    return [*out, g]


def beliefs(g: Game, rng: np.random.Generator) -> list[Sequence[np.ndarray] | dict]:
    """Uniform over the deck, the truth, a random one (also outside the deck), a sparse dict."""
    n = g.n
    deck = personality_deck(g.cfg)
    uniform = np.zeros(NUM_PERSONALITIES)
    uniform[deck] = 1.0 / len(deck)
    truth = [np.eye(NUM_PERSONALITIES)[g.persona[q]] for q in range(n)]
    noisy = [rng.dirichlet(np.full(NUM_PERSONALITIES, 0.5)) for _ in range(n)]
    sparse = {q: truth[(q + 1) % n] * 0.7 + uniform * 0.3 for q in range(n)}
    return [[uniform] * n, truth, noisy, sparse]


def evaluation_record(g: Game, rng: np.random.Generator) -> list[object]:
    rec: list[object] = [fields(metrics(g)), sampled_values(g), sampled_values(g, OTHER_WEIGHTS)]
    for seat in range(g.n):
        rec.append(fields(view_metrics(g.view(seat))))
        for b in beliefs(g, rng):
            for w in (Weights(), OTHER_WEIGHTS):
                for own in (g.persona[seat], g.persona[(seat + 1) % g.n]):
                    ev = Evaluator(g.cfg, seat, own, b, w)
                    rec.append(ev.value(g))
                    rec.append(ev.threats(metrics(g)))
    return rec


# config index: (number of positions, digest of every metric, value and threat list)
EXPECTED_VALUES = {
    0: (37, "7c10a93f51e71c64548eef07"),
    1: (53, "0eece621fe37a87f8a61ef1a"),
    2: (64, "5532740fabdfc2ef11996856"),
    3: (75, "20ff42721c9717d56e6411d9"),
    4: (75, "f4bf2ed4979ebc7a7bd2c036"),
}


@pytest.mark.parametrize("index", range(len(CONFIGS)))
def test_evaluation_values_are_unchanged(index):
    config = CONFIGS[index]
    rng = np.random.default_rng(index)
    positions = random_positions(config, games=2, per_game=12, seed=index)
    positions += heuristic_positions(config, seed=index)
    records = [evaluation_record(g, rng) for g in positions]
    got = (len(positions), digest(records))
    if PRINT_FINGERPRINTS:
        print(f"    {index}: {got!r},")
    assert got == EXPECTED_VALUES[index]


@pytest.mark.parametrize("index", range(len(CONFIGS)))
def test_metrics_are_the_engines_goal_metrics_and_points(index):
    """The evaluation's pass over the board writes the engine's control rule out (for speed):
    it must count what the engine's own goal metrics and scoring count, from a game and from
    a seat's view (as the expansion's metrics are checked in ``test_cthulhu_bots``)."""
    config = CONFIGS[index]
    n = config.num_players
    positions = random_positions(config, games=4, per_game=20, seed=index)
    for g in positions:
        m, from_view = metrics(g), view_metrics(g.view(0), g.cfg)
        for i, name in enumerate(Metrics.names):
            engine = [scoring.METRICS[name](g, s) for s in range(n)]
            assert m.by_metric[i] == engine == from_view.by_metric[i], (name, g.turn)
        assert m.points == [scoring.points(g, s) for s in range(n)] == from_view.points
        assert m.controlled == [sum(c == s for c in g.controllers()) for s in range(n)]
    assert len(positions) > 40


def test_cached_values_equal_computed_ones():
    """A caching evaluator returns what a plain one computes, and equal board keys mean equal
    metrics (every position is valued twice, the second time from a copy)."""
    for index in (0, 3):
        config = CONFIGS[index]
        positions = random_positions(config, games=1, per_game=30, seed=10 + index)
        uniform = beliefs(positions[0], np.random.default_rng(0))[0]
        for seat in range(config.num_players):
            own = positions[0].persona[seat]
            cached = Evaluator(config, seat, own, uniform, cache_values=True)
            plain = Evaluator(config, seat, own, uniform)
            for g in positions + [g.clone() for g in positions]:
                assert cached.value(g) == plain.value(g)
        by_key: dict[tuple, Metrics] = {}
        for g in positions + [g.clone() for g in positions]:
            assert by_key.setdefault(board_key(g), metrics(g)) == metrics(g)


class RecordingBot(HeuristicBot):
    """A heuristic bot that remembers every action it chose."""

    def __init__(self) -> None:
        super().__init__()
        self.chosen: list[int] = []

    def act(self, view: View, legal_actions: Sequence[int], rng: np.random.Generator) -> int:
        a = super().act(view, legal_actions, rng)
        self.chosen.append(a)
        return a


# (players, seed): (winners, reason, turns, decisions, digest of every seat's chosen actions)
EXPECTED_GAMES = {
    (2, 1): ((1,), "personality:moriarty", 27, 167, "fc3325db1a5e4de8cb2c1ad7"),
    (4, 0): ((3,), "deck_exhausted:personality", 45, 370, "dd03efa13f413a54ceff8af4"),
}


@pytest.mark.slow
@pytest.mark.parametrize(("n", "seed"), [(2, 1), (4, 0)])
def test_heuristic_games_are_unchanged(n, seed):
    bots = [RecordingBot() for _ in range(n)]
    _, rec = play_game(bots, GameConfig(num_players=n, log=False), seed)
    got = (rec.winners, rec.reason, rec.turns, rec.decisions, digest([b.chosen for b in bots]))
    if PRINT_FINGERPRINTS:
        print(f"    {(n, seed)!r}: {got!r},")
    assert got == EXPECTED_GAMES[n, seed]
