"""The learned leaf value: the shipped models, their symmetry, fitting and the records."""

from __future__ import annotations

import numpy as np
import pytest

from agents.evaluation import metrics
from agents.value_model import (
    NUM_INPUT,
    NUM_POOLED_INPUT,
    NUM_POOLED_SEAT,
    NUM_SEAT,
    PooledValueModel,
    ValueModel,
    default_value_model,
    fit_pooled_model,
    fit_value_model,
    game_features,
    log_loss,
    pair_inputs,
    pooled_inputs,
    pooled_log_loss,
    value_model_for,
)
from lab.value_data import generate_records, record_game
from lab.value_train import dataset, pooled_dataset, targets
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


# --- n players ------------------------------------------------------------------------------


def test_shipped_2p_model_unchanged(states):
    """The n-player code leaves the 2-player model's probabilities as they were fitted."""
    model = value_model_for(2)
    assert model is default_value_model()
    refs = [0.31347395732456257, 0.4365668182394591, 0.46692433103145026, 0.4362995118697184]
    for g, ref in zip(states[2], refs, strict=False):
        p0, _ = model.win_probabilities(metrics(g), g.cfg, g.persona, g.active)
        assert p0 == pytest.approx(ref, abs=1e-12)


def _random_pooled(seed: int = 0, hidden: int = 6) -> PooledValueModel:
    rng = np.random.default_rng(seed)
    return PooledValueModel(
        rng.normal(0, 0.3, (NUM_POOLED_INPUT, hidden)),
        rng.normal(size=hidden),
        rng.normal(size=hidden),
    )


@pytest.mark.parametrize("n", [2, 3, 4])
def test_pooled_inputs_pool_the_other_seats(n):
    rng = np.random.default_rng(2)
    f = rng.random((5, n, NUM_POOLED_SEAT))
    f[:, 0, :3] = f[:, 1, :3]  # ties for the max
    sh = rng.random((5, 3))
    x = pooled_inputs(f, sh)
    k = NUM_POOLED_SEAT
    assert x.shape == (5, n, 3 * k + 3)
    for s in range(n):
        others = [o for o in range(n) if o != s]
        assert np.array_equal(x[:, s, :k], f[:, s])
        assert np.allclose(x[:, s, k : 2 * k], f[:, others].mean(axis=1))
        assert np.array_equal(x[:, s, k : 2 * k], (f.sum(axis=1) - f[:, s]) / (n - 1))
        assert np.array_equal(x[:, s, 2 * k : 3 * k], f[:, others].max(axis=1))
        assert np.array_equal(x[:, s, 3 * k :], sh)
    # one position (no batch axis): the rows of the batch's first position
    assert np.array_equal(pooled_inputs(f[0], sh[0]), x[0])


@pytest.mark.parametrize("n", [3, 4])
def test_pooled_model_sums_to_one_and_is_seat_equivariant(states, n):
    model = _random_pooled()
    for g in states[n][:6]:
        m = metrics(g)
        f, sh = game_features(m, g.cfg, g.persona, g.active)
        p = model.probabilities(f, sh)
        assert p.shape == (n,) and p.sum() == pytest.approx(1.0) and (p > 0).all()
        assert np.allclose(model.win_probabilities(m, g.cfg, g.persona, g.active), p)
        perm = np.random.default_rng(n).permutation(n)
        assert np.allclose(model.probabilities(f[perm], sh), p[perm])


def test_shipped_4p_model(states):
    model = value_model_for(4)
    assert isinstance(model, PooledValueModel)
    for g in states[4]:
        p = model.win_probabilities(metrics(g), g.cfg, g.persona, g.active)
        assert len(p) == 4 and sum(p) == pytest.approx(1.0)


def test_pooled_json_round_trip(tmp_path):
    model = _random_pooled(hidden=3)
    model.save(tmp_path / "m.json")
    back = PooledValueModel.load(tmp_path / "m.json")
    x = np.random.default_rng(0).normal(size=(5, 4, NUM_POOLED_INPUT))
    assert np.allclose(back.scores(x), model.scores(x), atol=1e-4)
    with pytest.raises(ValueError):
        ValueModel.from_json(model.to_json())


def test_targets_spread_shared_wins():
    assert targets((2,), 4).tolist() == [0, 0, 1, 0]
    assert targets((0, 3), 4).tolist() == [0.5, 0, 0, 0.5]
    assert targets((), 4).tolist() == [0.25] * 4


@pytest.mark.parametrize("hidden", [0, 4])
def test_pooled_fit_learns_and_is_deterministic(hidden):
    rng = np.random.default_rng(1)
    f = rng.random((300, 4, NUM_POOLED_SEAT))
    x = pooled_inputs(f, rng.random((300, 3)))
    t = np.eye(4)[np.argmax(f[:, :, 0], axis=1)]  # the seat with the most progress wins
    t[:10] = 0.5 * t[:10] + 0.5 * np.eye(4)[np.argmin(f[:10, :, 0], axis=1)]  # shared wins
    a = fit_pooled_model(x, t, hidden=hidden, iters=300, lr=0.05, seed=3)
    b = fit_pooled_model(x, t, hidden=hidden, iters=300, lr=0.05, seed=3)
    assert np.array_equal(a.w1, b.w1) and np.array_equal(a.w2, b.w2)
    assert pooled_log_loss(a, x, t) < 0.6 < np.log(4)


def test_4p_records_and_dataset_are_deterministic():
    a = generate_records("heuristic:plan=greedy", 4, 1, 3, workers=1, progress=False)
    b = generate_records("heuristic:plan=greedy", 4, 1, 3, workers=1, progress=False)
    assert a[0]["winners"] == b[0]["winners"] and a[0]["n"] == 4
    xa, ta, game = pooled_dataset(a)
    xb, tb, _ = pooled_dataset(b)
    assert np.array_equal(xa, xb) and np.array_equal(ta, tb)
    assert xa.shape == (len(a[0]["positions"]), 4, NUM_POOLED_INPUT)
    assert np.allclose(ta.sum(axis=1), 1.0) and set(game) == {0}


def test_learned_evaluator_4p(states):
    from agents.evaluation import NUM_PERSONALITIES, Evaluator
    from agents.learned_eval import LearnedEvaluator
    from agents.roles import posterior

    model = _random_pooled()
    for g in states[4][:5]:
        seat = g.current_player
        m = metrics(g)
        onehot = [np.eye(NUM_PERSONALITIES)[k] for k in g.persona]
        hand = Evaluator(g.cfg, seat, g.persona[seat], onehot)
        p = model.win_probabilities(m, g.cfg, g.persona, g.active)[seat]
        for mixture in ("mean", "deals"):  # a certain belief: both are the model itself
            ev = LearnedEvaluator(hand, model, onehot, g.persona[seat], 1.0, mixture=mixture)
            assert ev.win_probability(m, g.active) == pytest.approx(p)
            assert ev.value(g) == pytest.approx(3.0 * (2.0 * p - 1.0))
        # An uncertain belief: "deals" is the weighted average over whole deals.
        v = g.view(seat)
        belief = posterior(v, g.cfg, None)
        ev = LearnedEvaluator(hand, model, belief, v["personality"], 1.0, mixture="deals")
        assert ev._weights.sum() == pytest.approx(1.0)
        q = ev.win_probability(m, g.active)
        mean = LearnedEvaluator(hand, model, belief, v["personality"], 1.0)
        assert 0.0 < q < 1.0
        # "mean": the model on each opponent's features averaged under the (merged) belief
        f, sh = game_features(m, g.cfg, g.persona, g.active)
        for q_seat, options, merged in zip(
            mean._opponents, mean._personas, mean._options, strict=True
        ):
            probs = np.array([p for *_, p in merged])
            rows = [game_features(m, g.cfg, [k] * 4, g.active)[0][q_seat] for k in options]
            f[q_seat] = probs @ np.array(rows)
        expected = model.probabilities(f, sh)[seat]
        assert mean.win_probability(m, g.active) == pytest.approx(expected)
    with pytest.raises(ValueError):
        LearnedEvaluator(hand, default_value_model(), onehot, g.persona[seat], 1.0)


@pytest.mark.parametrize("learned", [0.5, 1.0])
def test_heuristic_with_learned_value_plays_legal_actions_4p(states, learned):
    from agents.heuristic import HeuristicBot
    from agents.learned_eval import LearnedEvaluator

    bot = HeuristicBot(learned=learned)
    for g in states[4][:5]:
        seat = g.current_player
        bot.reset(seat, g.cfg)
        v = g.view(seat)
        assert bot.act(v, v["legal_actions"], np.random.default_rng(0)) in g.legal_actions()
        if bot._last is not None:
            assert isinstance(bot._last[1], LearnedEvaluator)
            assert isinstance(bot._last[1].model, PooledValueModel)


def test_table_specs_rotate_each_bot_through_every_seat():
    from lab.value_data import table_specs

    assert table_specs("heuristic", 3, 7) == ["heuristic"] * 3
    tables = [table_specs("a,b,c,d", 4, s) for s in range(4)]
    assert tables[0] == ["a", "b", "c", "d"] and tables[1] == ["d", "a", "b", "c"]
    for seat in range(4):  # over four consecutive seeds every bot sits in every seat once
        assert sorted(t[seat] for t in tables) == ["a", "b", "c", "d"]
    with pytest.raises(ValueError, match="3 bots for 4 players"):
        table_specs("a,b,c", 4, 0)


def test_gather_records_reads_cached_files_and_writes_the_missing_one(tmp_path):
    import argparse

    from lab.value_data import save_records
    from lab.value_train import gather_records

    table = "heuristic:plan=greedy,random"
    cached = generate_records(table, 2, 2, 5, workers=1, progress=False)
    assert [d["bot"] for d in cached] == [table] * 2
    save_records(cached, tmp_path / "a.pkl")
    args = argparse.Namespace(
        records=[str(tmp_path / "a.pkl"), str(tmp_path / "b.pkl")],
        bot="heuristic:plan=greedy",
        players=2,
        games=1,
        seed=6,
        workers=1,
    )
    got = gather_records(args)
    assert [d["seed"] for d in got] == [500_000, 600_000]  # a.pkl's first game, then the new one
    assert (tmp_path / "b.pkl").is_file() and got[1]["bot"] == "heuristic:plan=greedy"
    args.records.append(str(tmp_path / "c.pkl"))
    args.records.append(str(tmp_path / "d.pkl"))
    with pytest.raises(SystemExit, match="only one"):
        gather_records(args)
    args.records, args.players = [str(tmp_path / "a.pkl")], 3
    with pytest.raises(SystemExit, match="2-player games"):
        gather_records(args)


def test_refit_writes_the_shipped_files_by_default():
    from importlib import resources
    from pathlib import Path

    from agents.value_model import model_file
    from lab.value_train import DATA_DIR

    shipped = Path(str(resources.files("agents") / "data")).resolve()
    assert DATA_DIR.resolve() == shipped
    assert (DATA_DIR / model_file(2)).is_file() and (DATA_DIR / model_file(4)).is_file()
