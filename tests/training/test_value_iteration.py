"""Value-network training: records in resumable parts, TD(lambda) targets, the fit, and the
rounds of ``nanty train`` with ``value.enabled`` (resumed by running it again)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents.value_net import NUM_INPUT, load, shipped
from training.config import ConfigError, load_config
from training.train import RunFolderError, train
from training.value_fit import dataset, fit, lambda_targets, targets
from training.value_iteration import _starting_net, round_bots
from training.value_records import GAMES_PER_PART, generate, part_path
from training.value_records import load as load_records

GREEDY = "heuristic:plan=greedy"


def test_targets_spread_over_the_winners():
    won = np.array([[1, 0, 0], [1, 1, 0], [0, 0, 0]])
    t = targets(won)
    assert np.allclose(t, [[1, 0, 0], [0.5, 0.5, 0], [1 / 3] * 3])


def test_lambda_targets_bootstrap_within_games_only():
    p = np.array([[0.5, 0.5], [0.8, 0.2], [0.1, 0.9], [0.6, 0.4]])
    outcome = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 1.0]])
    game = np.array([0, 0, 1, 1])
    t = lambda_targets(p, outcome, game, 0.5)
    # game 0: the last row keeps the outcome, the first mixes the next prediction and target
    assert np.allclose(t[1], [1.0, 0.0]) and np.allclose(t[0], [0.9, 0.1])
    assert np.allclose(t[3], [0.0, 1.0]) and np.allclose(t[2], [0.3, 0.7])
    assert np.allclose(lambda_targets(p, outcome, game, 1.0), outcome)


def test_records_resume_and_fit(tmp_path):
    folder = tmp_path / "rec"
    generate(folder, [GREEDY], 2, 2 * GAMES_PER_PART, 7, progress=False)
    first = part_path(folder, 0)
    stamp = first.stat().st_mtime_ns
    part_path(folder, 1).unlink()
    generate(folder, [GREEDY], 2, 2 * GAMES_PER_PART, 7, progress=False)  # plays part 1 only
    assert first.stat().st_mtime_ns == stamp
    rec = load_records(folder)
    assert rec["won"].shape == (2 * GAMES_PER_PART, 2)
    assert rec["game"].max() == 2 * GAMES_PER_PART - 1
    x, t, game = dataset(rec)
    assert x.shape == (len(rec["rows"]), 2, NUM_INPUT)
    assert np.allclose(t.sum(axis=1), 1.0)
    net, report = fit(x, t, game, hidden=(8,), epochs=3, holdout=0.25)
    assert report["rows_holdout"] > 0 and report["best_epoch"] >= 0
    p = net.probabilities_from_inputs(x[:5])
    assert np.allclose(p.sum(axis=1), 1.0)


OFF = ":robust=0:durable=0:switch=0"  # a round's `learned` seats ignore the network's `play`


def test_learned_seats_are_bound_to_the_previous_network(tmp_path):
    assert round_bots(["learned", GREEDY], tmp_path / "n") == [
        f"learned:path={tmp_path / 'n'}{OFF}",
        GREEDY,
    ]
    assert round_bots(["learned:path=x"], None) == [f"learned:path=x{OFF}"]
    assert round_bots(["learned:path=x:switch=1"], None) == [
        "learned:path=x:switch=1:robust=0:durable=0"
    ]
    with pytest.raises(ValueError, match="earlier round"):
        round_bots(["learned"], None)


def _config(tmp_path, rounds: str, extra: str = "", hidden: str = "[8]"):
    path = tmp_path / "c.yaml"
    path.write_text(
        f"out: {tmp_path / 'out'}\nenv: {{num_players: 2}}\nvalue: {{enabled: true, "
        f"hidden: {hidden}, epochs: 2, workers: 1, rounds: {rounds}{extra}}}\n"
    )
    return load_config(path)


def test_the_first_round_cannot_be_learned(tmp_path):
    with pytest.raises(ConfigError, match="first round"):
        _config(tmp_path, "[{bots: [learned], games: 10}]")


def test_extend_starts_from_the_shipped_network(tmp_path):
    """``extend`` lets the first round play the shipped network (``learned`` left unbound) and
    starts every fit from its function; it excludes the tiny model's warm start."""
    assert round_bots(["learned", GREEDY], None, shipped_first=True) == [f"learned{OFF}", GREEDY]
    assert round_bots(["learned"], tmp_path / "n", shipped_first=True) == [
        f"learned:path={tmp_path / 'n'}{OFF}"
    ]
    cfg = _config(tmp_path, "[{bots: [learned, random], games: 10}]", ", extend: true")
    with pytest.raises(ConfigError, match="choose one"):
        _config(tmp_path, "[{bots: [random], games: 10}]", ", extend: true, warm_start: true")
    with pytest.raises(ConfigError, match="one hidden layer"):
        _config(tmp_path, "[{bots: [random], games: 10}]", ", extend: true", hidden="[8, 8]")
    start = _starting_net(cfg)
    x = np.random.default_rng(0).normal(size=(6, 2, NUM_INPUT)).astype(np.float32)
    assert np.allclose(start.probabilities_from_inputs(x), shipped(2).probabilities_from_inputs(x))
    net, _ = fit(x, np.full((6, 2), 0.5, np.float32), np.arange(6), hidden=(8,), epochs=1,
                 learning_rate=1e-12, weight_decay=0.0, warm=start)  # fmt: skip
    assert net.layers[0][0].shape[1] == shipped(2).layers[0][0].shape[1] + 8
    assert np.allclose(net.probabilities_from_inputs(x), start.probabilities_from_inputs(x))


@pytest.mark.slow
def test_an_extending_run_continues_the_shipped_network(tmp_path):
    cfg = _config(tmp_path, "[{bots: [learned, random], games: 2, seed: 3}]", ", extend: true")
    out = train(cfg, progress=False)
    net = load(out / "value_net_2p")
    assert net.layers[0][0].shape[1] == shipped(2).layers[0][0].shape[1] + 8
    assert net.meta["config"]["extend"] is True
    assert json.loads((out / "records" / "round_0" / "round.json").read_text())["bots"] == [
        "learned",
        "random",
    ]


@pytest.mark.slow
def test_an_extending_run_continues_a_named_network_and_stamps_how_to_play_it(
    tmp_path, monkeypatch
):
    """``extend_from`` is the network round 0's ``learned`` seats play and every fit starts
    from; ``play`` is written into the final network only, and ``learned`` plays by it."""
    import training.value_iteration as vi
    from agents.learned_bot import LearnedBot
    from agents.value_net import save
    from nanty_env.engine import Game, GameConfig

    base = tmp_path / "base"
    save(shipped(2), base)
    played = []
    real = vi.generate
    monkeypatch.setattr(
        vi, "generate", lambda f, bots, *a, **k: played.append(bots) or real(f, bots, *a, **k)
    )
    extra = f", extend: true, extend_from: {base}, play: {{robust: 2, durable: 1.5}}"
    cfg = _config(tmp_path, "[{bots: [learned, random], games: 2, seed: 3}]", extra)
    x = np.random.default_rng(1).normal(size=(4, 2, NUM_INPUT)).astype(np.float32)
    assert np.allclose(
        _starting_net(cfg).probabilities_from_inputs(x), load(base).probabilities_from_inputs(x)
    )
    out = train(cfg, progress=False)
    assert played == [[f"learned:path={base}{OFF}", "random"]]
    final, fitted = load(out / "value_net_2p"), load(out / "nets" / "round_0")
    assert final.play == {"robust": 2.0, "durable": 1.5} and fitted.play == {}
    assert final.meta["config"]["extend_from"] == str(base)
    g = Game.new(GameConfig(num_players=2, log=False), 5)
    for options, want in [({}, (2.0, 1.5)), ({"robust": 0.0}, (0.0, 1.5))]:
        bot = LearnedBot(path=str(out / "value_net_2p"), **options)
        bot.reset(g.current_player, g.cfg)
        ev = bot.evaluator(g.view(g.current_player))
        assert (ev.robust, ev.durable) == want
    with pytest.raises(ConfigError, match="extend_from"):
        _config(tmp_path, "[{bots: [random], games: 2}]", f", extend_from: {base}")
    save(shipped(4), tmp_path / "four")
    (tmp_path / "m").mkdir()
    extra = f", extend: true, extend_from: {tmp_path / 'four'}"
    other = _config(tmp_path / "m", "[{bots: [random], games: 2}]", extra)
    with pytest.raises(ValueError, match="4-player network"):
        train(other, progress=False)
    assert len(played) == 1  # refused before any game of the second run
    for bad in ("{bold: 1}", "{robust: 11}", "{robust: true}"):
        with pytest.raises(ConfigError, match="play"):
            _config(tmp_path, "[{bots: [random], games: 2}]", f", play: {bad}")


@pytest.mark.parametrize("extra", [", td_lambda: 1.0", ", td_lambda: -0.1", ", td_iterations: 0"])
def test_td_settings_are_checked(tmp_path, extra):
    with pytest.raises(ConfigError, match="td_"):
        _config(tmp_path, f"[{{bots: ['{GREEDY}'], games: 10}}]", extra)


@pytest.mark.slow
def test_td_fits_refine_the_last_network(tmp_path):
    """With td_lambda, the last round's network is fitted again td_iterations times, each on
    TD(lambda) targets from the fit before, and the last of them is the run's network."""
    cfg = _config(tmp_path, f"[{{bots: ['{GREEDY}'], games: 10, seed: 3}}]", ", td_lambda: 0.5")
    out = train(cfg, progress=False)
    nets = out / "nets"
    source, final = load(nets / "round_0_td0.5_0"), load(out / "value_net_2p")
    assert final.meta["td_lambda"] == 0.5 and final.meta["bootstrapped_from"] == "round_0_td0.5_0"
    x, t, game = dataset(load_records(out / "records" / "round_0"))
    valid = game >= np.unique(game)[9]  # the last 10 % of the 10 games
    t_lam = lambda_targets(source.probabilities_from_inputs(x), t, game, 0.5)
    assert not np.allclose(t_lam, t)  # bootstrapped, not the outcomes
    expected, report = fit(
        x, t_lam, game, hidden=(8,), epochs=2, valid=valid, valid_targets=t, seed=0
    )
    for (w1, b1, _), (w2, b2, _) in zip(final.layers, expected.layers, strict=True):
        assert np.array_equal(w1, w2) and np.array_equal(b1, b2)
    info = json.loads((out / "train.json").read_text())
    assert info["holdout_cross_entropy"] == report["holdout_cross_entropy"]
    stamps = {p: p.stat().st_mtime_ns for p in nets.iterdir()}
    train(cfg, resume=out, progress=False)  # the fits exist: none is redone
    assert all(p.stat().st_mtime_ns == t for p, t in stamps.items())
    other = _config(tmp_path, f"[{{bots: ['{GREEDY}'], games: 10, seed: 3}}]", ", td_lambda: 0.9")
    train(other, resume=out, progress=False)  # another lambda: fits of its own
    assert load(out / "value_net_2p").meta["bootstrapped_from"] == "round_0_td0.9_0"
    assert all(p.stat().st_mtime_ns == t for p, t in stamps.items())


@pytest.mark.slow
def test_value_rounds_write_a_network_and_resume(tmp_path):
    cfg = _config(
        tmp_path,
        f"[{{bots: ['{GREEDY}'], games: 10, seed: 3}}, {{bots: [learned, '{GREEDY}'], games: 10}}]",
    )
    out = train(cfg, progress=False)
    info = json.loads((out / "train.json").read_text())
    assert info["rounds_played"] == 2 and info["cpu_seconds_total"] > 0
    net = load(out / "value_net_2p")
    assert net.players == 2
    stamps = {p: p.stat().st_mtime_ns for p in out.rglob("*.npz")}
    stamps |= {p: p.stat().st_mtime_ns for p in (out / "nets").iterdir()}
    train(cfg, resume=out, progress=False)  # everything exists: nothing played or fitted
    assert all(p.stat().st_mtime_ns == t for p, t in stamps.items())
    with pytest.raises(RunFolderError, match="already holds a run"):
        train(cfg, progress=False)
    with pytest.raises(RunFolderError, match="its own folder"):
        train(cfg, resume=tmp_path, progress=False)
    changed = _config(tmp_path, f"[{{bots: ['{GREEDY}'], games: 10, seed: 4}}]")
    with pytest.raises(RunFolderError, match="holds games of"):
        train(changed, resume=out, progress=False)
