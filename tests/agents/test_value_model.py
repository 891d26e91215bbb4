"""The learned 2-player leaf value: the shipped model, its symmetry, fitting and the records."""

from __future__ import annotations

import numpy as np
import pytest

from agents.evaluation import metrics
from agents.value_data import generate_records, record_game
from agents.value_model import (
    NUM_INPUT,
    NUM_SEAT,
    ValueModel,
    default_value_model,
    fit_value_model,
    log_loss,
    pair_inputs,
)
from agents.value_train import dataset
from nanty_env.engine.config import GameConfig


def test_shipped_model_gives_consistent_probabilities(states):
    model = default_value_model()
    assert model.w1.shape[0] == NUM_INPUT
    for g in states[2]:
        m = metrics(g)
        p0, p1 = model.win_probabilities(m, g.cfg, g.persona, g.active)
        assert 0.0 <= p0 <= 1.0 and 0.0 <= p1 <= 1.0
        assert p0 + p1 == pytest.approx(1.0)
        # The two rows are the same position seen from either seat: opposite logits.
        z = model.logits(pair_inputs(m, g.cfg, g.persona, g.active))
        assert z[0] == pytest.approx(-z[1])
        assert p0 == pytest.approx(1.0 / (1.0 + np.exp(-z[0])))


def test_model_ignores_seat_numbers(states):
    """Swapping the seats' boards, personalities and the mover swaps the probabilities."""
    model = default_value_model()
    g = states[2][5]
    m = metrics(g)
    x = pair_inputs(m, g.cfg, g.persona, g.active)
    swapped = np.concatenate(
        [x[:, NUM_SEAT : 2 * NUM_SEAT], x[:, :NUM_SEAT], x[:, 2 * NUM_SEAT :]], 1
    )
    assert np.allclose(model.logits(swapped), -model.logits(x))


def test_json_round_trip(tmp_path):
    rng = np.random.default_rng(0)
    model = ValueModel(rng.normal(size=(NUM_INPUT, 3)), rng.normal(size=3), rng.normal(size=3))
    model.save(tmp_path / "m.json")
    back = ValueModel.load(tmp_path / "m.json")
    x = rng.normal(size=(5, NUM_INPUT))
    assert np.allclose(back.logits(x), model.logits(x), atol=1e-4)


@pytest.mark.parametrize("hidden", [0, 4])
def test_fit_learns_and_is_deterministic(hidden):
    rng = np.random.default_rng(1)
    x = rng.random((400, NUM_INPUT))
    y = (x[:, 0] > x[:, NUM_SEAT]).astype(float)  # seat s wins when its progress is ahead
    a = fit_value_model(x, y, hidden=hidden, iters=300, lr=0.05, seed=3)
    b = fit_value_model(x, y, hidden=hidden, iters=300, lr=0.05, seed=3)
    assert np.array_equal(a.w1, b.w1) and np.array_equal(a.w2, b.w2)
    assert log_loss(a, x, y) < 0.4


def test_records_are_deterministic_and_labelled():
    config = GameConfig(num_players=2, log=False)
    a = record_game("heuristic:plan=greedy", config, 4)
    b = generate_records("heuristic:plan=greedy", 2, 1, 0, workers=1, progress=False)[0]
    assert b["seed"] == 0
    again = record_game("heuristic:plan=greedy", config, 4)
    assert a["winners"] == again["winners"] and len(a["positions"]) == len(again["positions"])
    for (m1, p1, s1), (m2, p2, s2) in zip(a["positions"], again["positions"], strict=True):
        assert m1 == m2 and p1 == p2 and s1 == s2
    x, y, game = dataset([a, b])
    assert x.shape == (len(a["positions"]) + len(b["positions"]), NUM_INPUT)
    assert set(np.unique(y)) <= {0.0, 0.5, 1.0}
    assert list(np.unique(game)) == [0, 1]


def test_learned_evaluator_matches_model_and_hand(states):
    from agents.evaluation import NUM_PERSONALITIES, Evaluator
    from agents.learned_eval import LearnedEvaluator

    model = default_value_model()
    for g in states[2][:5]:
        onehot = [np.eye(NUM_PERSONALITIES)[k] for k in g.persona]
        hand = Evaluator(g.cfg, 0, g.persona[0], onehot)
        ev = LearnedEvaluator(hand, model, onehot, g.persona[0], 1.0)
        p0, _ = model.win_probabilities(metrics(g), g.cfg, g.persona, g.active)
        assert ev.win_probability(metrics(g), g.active) == pytest.approx(p0)
        assert ev.value(g) == pytest.approx(3.0 * (2.0 * p0 - 1.0))
        zero = LearnedEvaluator(hand, model, onehot, g.persona[0], 0.0)
        assert zero.value(g) == pytest.approx(hand.value(g))


def test_heuristic_with_learned_value_plays_legal_actions(states):
    from agents.heuristic import HeuristicBot

    bot = HeuristicBot(learned=0.5)
    for g in states[2][:5]:
        seat = g.current_player
        bot.reset(seat, g.cfg)
        v = g.view(seat)
        assert bot.act(v, v["legal_actions"], np.random.default_rng(0)) in g.legal_actions()
