"""The value network: its features, its checkpoint (no pickle, validated) and the learned bot."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents.base import bot_rngs, play_game
from agents.evaluation import goals
from agents.learned_bot import LearnedBot, NetEvaluator, merged_options
from agents.registry import make_bot
from agents.robustness import break_cost, durable_share
from agents.value_features import MAX_HITS, NUM_SEAT, NUM_SHARED, Position
from agents.value_model import board_features, goal_features
from agents.value_net import NUM_INPUT, CheckpointError, ValueNet, load, pooled_inputs, save
from nanty_env.engine.config import GameConfig
from nanty_env.engine.determinize import determinize
from tests.agents.choices import assert_same_choices
from training.value_records import Board, snapshot, snapshot_size


def random_net(players: int, seed: int = 0, hidden: tuple[int, ...] = (8, 4)) -> ValueNet:
    rng = np.random.default_rng(seed)
    dims = [NUM_INPUT, *hidden, 1]
    layers = [
        (rng.normal(0, 0.3, (dims[i + 1], dims[i])), rng.normal(0, 0.1, dims[i + 1]), "tanh")
        for i in range(len(dims) - 1)
    ]
    layers[-1] = (*layers[-1][:2], "none")
    return ValueNet(layers, players, {"test": True})


@pytest.mark.parametrize("n", [2, 3, 4])
def test_features_agree_with_the_robustness_and_the_old_model(states, n):
    for g in states[n]:
        pos = Position(g, g.cfg)
        for q in range(n):
            for k, goal in goals(g.cfg).items():
                f = pos.goal_features(q, k)
                assert f[:11] == goal_features(pos.m, g.cfg, q, k)
                hits = break_cost(g, q, goal.compiled)
                assert f[11] == pytest.approx(min(hits, MAX_HITS) / MAX_HITS)
                assert f[12] == pytest.approx(durable_share(g, q, goal.compiled))
            assert pos.board_features(q)[:11] == board_features(pos.m, q)
            assert len(pos.seat_features(q, g.persona[q])) == NUM_SEAT
        assert len(pos.shared()) == NUM_SHARED


@pytest.mark.parametrize("n", [2, 4])
def test_a_recorded_snapshot_gives_the_same_features(states, n):
    for g in states[n]:
        row = snapshot(g)
        assert row.shape == (snapshot_size(n),)
        b = Board(row, n)
        assert tuple(b.persona) == g.persona and b.active == g.active and b.deck_size == len(g.deck)
        f, sh = Position(g, g.cfg).table(g.persona)
        f2, sh2 = Position.from_board(b, g.cfg).table(b.persona)
        assert np.array_equal(f, f2) and np.array_equal(sh, sh2)


def test_probabilities_add_up_to_one_and_follow_the_seats(states):
    net = random_net(4)
    g = states[4][3]
    f, sh = Position(g, g.cfg).table(g.persona)
    p = net.probabilities(f, sh)
    assert p.sum() == pytest.approx(1.0) and (p > 0).all()
    perm = [2, 0, 3, 1]
    assert np.allclose(net.probabilities(f[perm], sh), p[perm])
    assert pooled_inputs(f, sh).shape == (4, NUM_INPUT)


def test_checkpoint_round_trip_without_pickle(tmp_path, states):
    net = random_net(2, seed=3)
    st, js = save(net, tmp_path / "v")
    assert st.read_bytes()[:8] != b"\x80\x04\x95"  # not a pickle
    header = json.loads(js.read_text())
    assert header["format"] == "nanty-value" and header["players"] == 2
    assert "play" not in header  # written only when set
    back = load(tmp_path / "v.json")
    assert back.play == {}
    net.play = {"robust": 2.0, "durable": 1.0, "switch": 1.0}
    save(net, tmp_path / "w")
    assert load(tmp_path / "w").play == {"robust": 2.0, "durable": 1.0, "switch": 1.0}
    g = states[2][0]
    f, sh = Position(g, g.cfg).table(g.persona)
    assert np.allclose(back.probabilities(f, sh), net.probabilities(f, sh), atol=1e-6)


def _broken(tmp_path, change) -> str:
    save(random_net(4), tmp_path / "v")
    header = json.loads((tmp_path / "v.json").read_text())
    change(header)
    (tmp_path / "v.json").write_text(json.dumps(header))
    return str(tmp_path / "v")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda h: h.update(format="nanty-policy"), "format"),
        (lambda h: h.update(version=2), "version"),
        (lambda h: h["features"]["seat"].pop(), "other features"),
        (lambda h: h["layers"][0].update(activation="gelu"), "activation"),
        (lambda h: h["layers"][0].update(weight="nope"), "missing"),
        (lambda h: h["layers"].pop(0), "inputs"),
        (lambda h: h.pop("layers"), "malformed"),
        (lambda h: h.update(play={"hint": 1.0}), "play: 'hint'"),
        (lambda h: h.update(play={"robust": 1e9}), "play: robust"),
        (lambda h: h.update(play={"durable": "2"}), "play: durable"),
        (lambda h: h.update(play=[2.0]), "play is"),
        (lambda h: h.update(play={"switch": 0.5}), "play: switch"),
        (lambda h: h.update(play={"switch": True}), "play: switch"),
        (lambda h: h.update(play={"switch": [1]}), "play: switch"),
    ],
)
def test_a_bad_checkpoint_is_refused_with_one_clear_message(tmp_path, change, message):
    with pytest.raises(CheckpointError, match=message):
        load(_broken(tmp_path, change))


def test_missing_or_corrupt_files_are_refused(tmp_path):
    with pytest.raises(CheckpointError, match="missing"):
        load(tmp_path / "none")
    save(random_net(4), tmp_path / "v")
    (tmp_path / "v.safetensors").write_bytes(b"garbage")
    with pytest.raises(CheckpointError, match="safetensors"):
        load(tmp_path / "v")


def test_merged_options_join_the_lords_and_drop_the_unlikely():
    cfg = GameConfig(num_players=4, log=False)
    belief = np.zeros(7)
    belief[1:4] = 0.3  # the three Lords: one goal
    belief[4] = 0.09  # Fagin
    belief[5] = 0.01  # de Sidonia, below the floor: dropped
    options = merged_options(cfg, belief)
    assert len(options) == 2
    assert sum(p for _, p in options) == pytest.approx(1.0)
    assert max(p for _, p in options) == pytest.approx(0.9 / 0.99)


def test_net_evaluator_values_finished_games_as_wins_and_losses(states):
    g = states[2][0].clone()
    rng = np.random.default_rng(0)
    while not g.is_terminal:
        g.apply(int(rng.choice(g.legal_actions())))
    belief = [np.full(7, 1 / 7)] * 2
    for seat in range(2):
        ev = NetEvaluator(g.cfg, seat, g.persona[seat], belief, random_net(2))
        assert abs(ev.value(g)) == 3.0
        assert (ev.value(g) > 0) == (seat in g.outcome.winners)


@pytest.mark.parametrize("n", [2, 4])
def test_learned_bot_plays_legal_actions_from_the_view_alone(tmp_path, states, n):
    save(random_net(n), tmp_path / "v")
    bot = make_bot(f"learned:path={tmp_path / 'v'}")
    assert isinstance(bot, LearnedBot)
    for i, g in enumerate(states[n][:8]):
        seat = g.current_player
        other = determinize(g, seat, np.random.default_rng(100 + i))
        actions = []
        for v in (g.view(seat), other.view(seat)):
            bot.reset(seat, g.cfg)
            actions.append(bot.act(v, v["legal_actions"], np.random.default_rng(7)))
        assert actions[0] == actions[1] and actions[0] in g.legal_actions()


def test_learned_bot_refuses_a_network_of_another_size(tmp_path):
    save(random_net(2), tmp_path / "v")
    cfg = GameConfig(num_players=4, log=False)
    bots = [make_bot(f"learned:path={tmp_path / 'v'}"), *[make_bot("random")] * 3]
    with pytest.raises(ValueError, match="2-player value network"):
        play_game(bots, cfg, 1, bot_rngs(1, 4))
    with pytest.raises(ValueError, match="players=2"):
        make_bot("learned:players=2").reset(0, cfg)


@pytest.mark.parametrize("n", [2, 4])
def test_the_shipped_networks_play_whole_games(n):
    cfg = GameConfig(num_players=n, log=False)
    bots = [make_bot("learned"), *[make_bot("random") for _ in range(n - 1)]]
    g, rec = play_game(bots, cfg, 4, bot_rngs(4, n))
    assert g.is_terminal and rec.decisions > 0


@pytest.mark.parametrize("n", [2, 4])
def test_the_shipped_tiny_model_as_a_network_plays_exactly_like_the_hint_bot(tmp_path, states, n):
    """The whole chain (features, belief mixture, network, look-ahead) reproduces the hint bot
    when the network is its model converted and the sturdiness bonuses are added back."""
    from training.value_fit import shipped_model_as_net

    save(shipped_model_as_net(n), tmp_path / "warm")
    assert_same_choices(f"learned:path={tmp_path / 'warm'}:robust=1:durable=1", states[n])


@pytest.mark.parametrize("n", [2, 4])
def test_the_deals_mixture_averages_the_probability_over_the_others_personalities(states, n):
    """``mixture="deals"`` is the belief-weighted mean of the win probabilities under each
    combination of the others' personalities (each computed as if that deal were known), and
    equals ``"mean"`` when the belief is certain."""
    net = random_net(n, seed=3)
    g = states[n][5]
    seat, cfg = g.current_player, g.cfg
    belief = [np.zeros(7) for _ in range(n)]
    for q in range(n):
        belief[q][[0, 4, 6]] = [0.5, 0.3, 0.2]  # Moriarty, Fagin, Holmes: three goals
    deals = NetEvaluator(cfg, seat, 1, belief, net, mixture="deals")
    assert len(deals.deals) == 3 ** (n - 1)
    by_hand = 0.0
    others = [q for q in range(n) if q != seat]
    for deal, weight in deals.deals:
        point = [np.eye(7)[deal.get(q, 1)] for q in range(n)]
        certain = NetEvaluator(cfg, seat, 1, point, net)
        by_hand += weight * certain.win_probability(g)
        assert weight == pytest.approx(np.prod([belief[q][deal[q]] for q in others]))
    assert deals.win_probability(g) == pytest.approx(by_hand, abs=1e-12)
    assert sum(w for _, w in deals.deals) == pytest.approx(1.0)
    mean = NetEvaluator(cfg, seat, 1, belief, net)
    assert mean.win_probability(g) != pytest.approx(by_hand, abs=1e-9)  # a real difference
    sure = [np.eye(7)[4]] * n
    assert NetEvaluator(cfg, seat, 1, sure, net, mixture="deals").win_probability(
        g
    ) == pytest.approx(NetEvaluator(cfg, seat, 1, sure, net).win_probability(g), abs=1e-12)
    with pytest.raises(ValueError, match="mixture"):
        make_bot("learned:mixture=median")


def test_samples_sum_the_look_ahead_over_that_many_determinisations(states):
    """``samples=k`` plays each candidate on k determinisations drawn one after the other from
    the bot's generator and takes the best total; ``samples=1`` is the bot as it was."""
    from agents.heuristic import TurnPlanner, useful_actions
    from agents.sampling import determinize_view

    for i, g in enumerate(states[2][:6]):
        seat = g.current_player
        v = g.view(seat)
        legal = useful_actions(g.decision, v["legal_actions"])
        if len(legal) < 2:
            continue
        for k in (1, 3):
            bot = make_bot(f"learned:samples={k}")
            bot.reset(seat, g.cfg)
            chosen = bot.act(v, v["legal_actions"], np.random.default_rng(i))
            ev = bot.evaluator(v)
            rng = np.random.default_rng(i)
            games = [determinize_view(v, rng, ev.config) for _ in range(k)]
            total = np.sum([TurnPlanner(ev).scores(h, legal) for h in games], axis=0)
            if np.sort(total)[-1] - np.sort(total)[-2] > 1e-9:  # a clear best
                assert chosen == legal[int(np.argmax(total))], (i, k)
    with pytest.raises(ValueError, match="samples"):
        make_bot("heuristic:samples=0")


@pytest.mark.parametrize("n", [2, 4])
def test_hint_blends_the_hint_bots_value_with_the_networks(tmp_path, states, n):
    """``hint=w`` values a position at ``(1 - w) * network + w * hint bot``: ``hint=1`` plays
    move for move like the hint bot whatever the network, and ``hint=0.5`` is the midpoint."""
    from agents.heuristic import scripted_evaluator
    from agents.learned_bot import HINT_BOT

    save(random_net(n, seed=5), tmp_path / "v")
    assert_same_choices(f"learned:path={tmp_path / 'v'}:hint=1", states[n])
    net = load(tmp_path / "v")
    g = states[n][3]
    seat, cfg = g.current_player, g.cfg
    belief = [np.full(7, 1 / 7) for _ in range(n)]
    own = g.view(seat)["personality"]
    scripted = scripted_evaluator(cfg, seat, own, belief, **HINT_BOT)
    alone = NetEvaluator(cfg, seat, own, belief, net).value(g)
    half = NetEvaluator(cfg, seat, own, belief, net, hint=scripted, hint_weight=0.5).value(g)
    assert half == pytest.approx(0.5 * alone + 0.5 * scripted.value(g), abs=1e-12)
    assert alone != pytest.approx(scripted.value(g), abs=1e-6)  # the blend moves the value
    for bad in ("-0.1", "1.5"):
        with pytest.raises(ValueError, match="hint"):
            make_bot(f"learned:hint={bad}")
