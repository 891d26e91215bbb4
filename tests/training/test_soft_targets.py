"""Imitation from the teacher's scores (``pretrain.soft``): the look-ahead's scores are what it
chose by, recording them changes no game, the soft targets spread over the teacher's ties, and
a fit to them learns the ties rather than the teacher's arbitrary tie-break."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from agents.heuristic import HeuristicBot
from nanty_env.engine import NUM_ACTIONS, Game, GameConfig
from training.config import ConfigError, load_config
from training.pretrain import (
    _load,
    cache_arrays,
    cache_key,
    cache_path,
    fit_stats,
    generate_part,
    play_recorded,
    pretrain_policy,
    score_gaps,
    soft_targets,
)

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "configs" / "quick.yaml"


TWO = GameConfig(num_players=2, log=False)


def _decisions(n: int, seed: int = 4):
    """The first ``n`` real decisions (several legal actions) of a random 2-player game."""
    g = Game.new(TWO, seed)
    rng = np.random.default_rng(seed)
    while n:
        legal = g.legal_actions()
        if len(legal) > 1:
            yield g
            n -= 1
        g.apply(int(rng.choice(legal)))


def test_act_scored_is_act_with_the_scores_it_chose_by() -> None:
    compared = 0
    for g in _decisions(40):
        p = g.current_player
        view = g.view(p)
        one, two = HeuristicBot(), HeuristicBot()
        one.reset(p, TWO)
        two.reset(p, TWO)
        r1, r2 = np.random.default_rng(9), np.random.default_rng(9)
        a = one.act(view, view["legal_actions"], r1)
        b, seen = two.act_scored(g.view(p), view["legal_actions"], r2)
        assert a == b
        assert r1.random() == r2.random()  # the same draws: the game goes on unchanged
        if seen:
            compared += 1
            assert set(seen) <= set(view["legal_actions"])
            assert seen[b] == max(seen.values())
    assert compared > 10


def test_score_gaps_and_soft_targets() -> None:
    row = score_gaps(7, {3: 0.5, 7: 0.5, 9: 0.4})
    assert row[3] == row[7] == 0.0 and row[9] == pytest.approx(-0.1)
    assert np.isneginf(np.delete(row, [3, 7, 9])).all()
    q = soft_targets(row[None], temperature=0.01)[0]
    assert q.sum() == pytest.approx(1.0)
    assert q[3] == pytest.approx(q[7]) and q[9] < 1e-4 * q[3]
    assert (np.delete(q, [3, 7, 9]) == 0).all()
    hotter = soft_targets(row[None], temperature=1.0)[0]
    assert hotter[9] == pytest.approx(np.exp(-0.1) * hotter[3])
    lone = score_gaps(5, {})  # nothing compared: the action alone
    assert soft_targets(lone[None], 0.01)[0][5] == 1.0


def test_recording_the_scores_changes_no_game() -> None:
    cfg = GameConfig(num_players=2, log=False)
    args = ("heuristic", cfg, 11, 0.99, "none", "win_loss")
    plain = play_recorded(*args)
    scored = play_recorded(*args, scores=True)
    for k in plain:
        assert np.array_equal(plain[k], scored[k]), k
    gap = scored["gap"].astype(np.float32)
    n = len(plain["action"])
    assert gap.shape == (n, NUM_ACTIONS)
    assert (gap[np.arange(n), plain["action"]] == 0).all()  # the action taken is a best one
    assert (gap <= 0).all() and ((gap > -np.inf) <= plain["mask"]).all()
    assert ((gap > -np.inf).sum(axis=1) > 1).mean() > 0.5  # most decisions compared several


def test_dagger_labels_carry_the_teachers_scores() -> None:
    cfg = GameConfig(num_players=2, log=False)
    d = play_recorded(
        ["random", "random"], cfg, 2, 0.99, "none", "win_loss", {0}, {0: "heuristic"}, True
    )
    n = len(d["action"])
    assert (d["gap"].astype(np.float32)[np.arange(n), d["action"]] == 0).all()
    assert (d["played"] != d["action"]).any()  # random plays, the heuristic labels


def _tied_data(n: int = 256) -> dict[str, np.ndarray]:
    """Every row: actions 3 and 4 tied best, 5 worse; the recorded action is always 3."""
    from nanty_env.encoding.observation import OBS_SIZE

    mask = np.zeros((n, NUM_ACTIONS), dtype=bool)
    mask[:, [3, 4, 5]] = True
    gap = np.stack([score_gaps(3, {3: 0.6, 4: 0.6, 5: 0.3})] * n).astype(np.float16)
    return {
        "obs": np.random.default_rng(0).random((n, OBS_SIZE)).astype(np.float16),
        "mask": mask,
        "action": np.full(n, 3, dtype=np.int64),
        "ret": np.zeros(n, dtype=np.float32),
        "won": np.zeros(n, dtype=np.int8),
        "gap": gap,
    }


@pytest.mark.parametrize("soft", [0.0, 1.0])
def test_a_soft_fit_learns_the_tie_a_hard_fit_learns_the_tie_break(soft: float) -> None:
    import torch

    from training.distill import student

    cfg = load_config(CONFIG, **{"ppo.net_arch": [16], "pretrain.epochs": 30})
    cfg = replace(cfg, pretrain=replace(cfg.pretrain, soft=soft, batch_size=64))
    model = student(cfg)
    data = _tied_data()
    pretrain_policy(model, data, cfg, log=lambda *_: None)
    obs = torch.as_tensor(data["obs"][:32].astype(np.float32))
    with torch.no_grad():
        probs = model.policy.get_distribution(obs, action_masks=data["mask"][:32])
        p = probs.distribution.probs.numpy()
    if soft:
        assert np.abs(p[:, 3] - p[:, 4]).max() < 0.15 and p[:, 5].max() < 0.05
    else:
        assert p[:, 3].min() > 0.8  # the arbitrary first-of-the-tied label
    stats = fit_stats(model.policy, data, np.arange(32))
    assert stats["best"] == 1.0  # either way its greedy choice is one of the best


def test_scored_games_have_a_cache_of_their_own(tmp_path: Path, capsys) -> None:
    base = {
        "env.num_players": 2,
        "pretrain.enabled": True,
        "pretrain.teacher": "heuristic:plan=greedy",
        "pretrain.games": 1,
        "pretrain.workers": 1,
        "pretrain.cache_dir": str(tmp_path),
    }
    hard = load_config(CONFIG, **base)
    soft = load_config(CONFIG, **base, **{"pretrain.soft": 0.5})
    assert cache_path(hard) != cache_path(soft)
    a, _, _ = generate_part(hard, log=lambda *_: None)
    b, _, _ = generate_part(soft, log=lambda *_: None)
    assert "gap" not in a and "gap" in b and np.array_equal(a["action"], b["action"])
    # greedy plans compare nothing: every row is the action alone
    assert ((b["gap"].astype(np.float32) > -np.inf).sum(axis=1) == 1).all()
    assert _load(cache_path(hard), cache_key(hard, 1)) is not None
    # a file without the scores is not taken for one with them
    assert _load(cache_path(hard), cache_key(soft, 1), cache_arrays(soft)) is None
    assert "written for other settings" in capsys.readouterr().out
    assert _load(cache_path(hard), cache_key(hard, 1), cache_arrays(soft)) is None
    assert "arrays" in capsys.readouterr().out


@pytest.mark.parametrize("bad", [{"pretrain.soft": 1.5}, {"pretrain.temperature": 0.0}])
def test_soft_settings_are_checked(bad: dict) -> None:
    with pytest.raises((ConfigError, ValueError)):
        load_config(CONFIG, **bad)
