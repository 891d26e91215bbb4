"""Behaviour-cloning warm start: recorded decisions match what the env's learner sees, the
returns follow the env's rewards, the cache is reused, and a tiny pretrain + PPO run works
end to end with a CPU-time limit."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from nanty_env.engine import GameConfig
from training.config import load_config
from training.pretrain import (
    _returns,
    cache_path,
    game_seats,
    game_seed,
    generate,
    generate_part,
    play_recorded,
)
from training.train import train

ROOT = Path(__file__).resolve().parents[2]

TINY = {
    "env.num_players": 3,
    "ppo.num_envs": 2,
    "ppo.n_steps": 64,
    "ppo.batch_size": 64,
    "ppo.n_epochs": 1,
    "ppo.net_arch": [32, 32],
    "checkpoint_every": 512,
    "eval.every": 1024,
    "eval.games": 2,
    "eval.opponents": ["random"],
    "eval.at_start": True,
    "selfplay.weights": {"random": 1.0},
    "pretrain.enabled": True,
    "pretrain.teacher": "heuristic:plan=greedy",
    "pretrain.games": 2,
    "pretrain.workers": 1,
    "pretrain.epochs": 2,
    "pretrain.batch_size": 64,
}


def test_returns_add_shaping_and_terminal_reward() -> None:
    r = _returns([0.0, 0.5], final_phi=1.0, reward=1.0, gamma=1.0)
    assert r == pytest.approx([2.0, 1.5])
    r = _returns([0.2], final_phi=0.2, reward=-1.0, gamma=0.9)
    assert r == pytest.approx([-1.0])


def test_recorded_decisions_are_legal_and_encoded() -> None:
    cfg = GameConfig(num_players=3, log=False)
    d = play_recorded(
        "heuristic:plan=greedy",
        cfg,
        seed=3,
        gamma=0.99,
        shaping="goal_progress",
        reward_mode="win_loss",
    )
    n = len(d["action"])
    assert n > 20
    assert d["obs"].shape[0] == d["mask"].shape[0] == d["ret"].shape[0] == n
    assert d["mask"][np.arange(n), d["action"]].all()
    assert (d["mask"].sum(axis=1) > 1).all()  # only real decisions
    assert np.isfinite(d["ret"]).all() and np.abs(d["ret"]).max() <= 3.0


@pytest.mark.slow
def test_pretrain_then_ppo_with_cpu_limit(tmp_path: Path, capfd) -> None:
    overrides = {**TINY, "pretrain.cache_dir": str(tmp_path / "cache"), "cpu_limit_minutes": 30}
    overrides["pretrain.dagger_rounds"] = 1
    overrides["pretrain.dagger_vs"] = {"random": 1}
    cfg = load_config(ROOT / "configs" / "quick.yaml", **overrides)
    out = train(cfg, total_timesteps=256, out=tmp_path / "run", progress=False)
    err = capfd.readouterr().err
    assert "teacher games" not in err and "dagger round" not in err  # no bar (--no-progress)
    assert (out / "pretrained.json").exists() and (out / "model.safetensors").exists()
    info = json.loads((out / "train.json").read_text())
    assert info["pretrain"]["decisions"] > 0 and len(info["pretrain"]["epochs"]) == 2
    assert info["cpu_seconds_total"] > 0
    rows = (out / "eval.csv").read_text().splitlines()
    assert rows[1].startswith("0,random")  # evaluated before PPO
    # the second time the data comes from the cache, with the CPU time it cost
    assert cache_path(cfg).exists()
    data, cpu, earlier = generate(cfg, log=lambda *_: None)
    assert earlier == cpu > 0 and len(data["action"]) == info["pretrain"]["decisions"]
    # more games extend the cached ones: the first games are the same
    more = load_config(ROOT / "configs" / "quick.yaml", **{**overrides, "pretrain.games": 3})
    data3, cpu3, earlier3 = generate(more, log=lambda *_: None)
    assert earlier3 == pytest.approx(cpu) and cpu3 > cpu
    n = len(data["action"])
    assert len(data3["action"]) > n and (data3["action"][:n] == data["action"]).all()


def test_cpu_limit_stops_training(tmp_path: Path) -> None:
    overrides = {k: v for k, v in TINY.items() if not k.startswith(("pretrain", "eval.at"))}
    cfg = load_config(ROOT / "configs" / "quick.yaml", **overrides, cpu_limit_minutes=1e-4)
    out = train(cfg, total_timesteps=100_000, out=tmp_path / "run", progress=False)
    assert json.loads((out / "train.json").read_text())["timesteps"] < 100_000


def test_only_the_recorded_seat_is_kept() -> None:
    cfg = GameConfig(num_players=3, log=False)
    specs = ["random", "heuristic:plan=greedy", "random"]
    full = play_recorded(
        specs, cfg, seed=4, gamma=0.99, shaping="goal_progress", reward_mode="win_loss"
    )
    one = play_recorded(specs, cfg, 4, 0.99, "goal_progress", "win_loss", record={1})
    assert 0 < len(one["action"]) < len(full["action"])
    # the same game: the recorded seat's decisions are a subsequence of all decisions
    rows = {(a, m.tobytes()) for a, m in zip(full["action"], full["mask"], strict=True)}
    assert all((a, m.tobytes()) in rows for a, m in zip(one["action"], one["mask"], strict=True))
    assert len(set(one["won"].tolist())) == 1  # one seat: one outcome
    with pytest.raises(ValueError, match="2 bot specs for 3 players"):
        play_recorded(specs[:2], cfg, 4, 0.99, "goal_progress", "win_loss")


def test_vs_games_rotate_the_teacher_seat() -> None:
    assert game_seats("heuristic", None, 4, 5) == (["heuristic"] * 4, None)
    for k in range(6):
        specs, record = game_seats("heuristic", "random", 3, k)
        assert record == {k % 3} and specs[k % 3] == "heuristic"
        assert specs.count("random") == 2
    # the mirror games keep their seeds; the other parts get different ones
    assert game_seed(0, None, 3) == 7919 + 3
    assert game_seed(0, "random", 3) != game_seed(0, None, 3)


def test_vs_parts_cached_separately(tmp_path: Path) -> None:
    base = {**TINY, "pretrain.cache_dir": str(tmp_path), "pretrain.teacher": "random"}
    cfg = load_config(ROOT / "configs" / "quick.yaml", **base, **{"pretrain.vs": {"random": 3}})
    mirror = cache_path(cfg)
    assert mirror == cache_path(load_config(ROOT / "configs" / "quick.yaml", **base))
    vs = cache_path(cfg, opponent="random")
    assert vs != mirror and "_vs_random_3g_" in vs.name
    assert vs.stem.split("_")[-1] != mirror.stem.split("_")[-1]  # different digest
    other = load_config(ROOT / "configs" / "quick.yaml", **{**base, "seed": 1})
    assert cache_path(other, 3, "random").name != cache_path(cfg, 3, "random").name
    data, cpu, earlier = generate(cfg, log=lambda *_: None)
    assert mirror.exists() and vs.exists() and earlier == 0 and cpu > 0
    mirror_data, mirror_cpu, _ = generate(
        load_config(ROOT / "configs" / "quick.yaml", **base), log=lambda *_: None
    )
    part, part_cpu, _ = generate_part(cfg, "random", log=lambda *_: None)
    assert len(data["action"]) == len(mirror_data["action"]) + len(part["action"])
    assert mirror_cpu + part_cpu == pytest.approx(cpu)  # the parts' costs add up
    # the second time everything comes from the caches, with the CPU time it cost
    again, cpu2, earlier2 = generate(cfg, log=lambda *_: None)
    assert earlier2 == pytest.approx(cpu2) and cpu2 == pytest.approx(cpu)
    assert (again["action"] == data["action"]).all()


def test_unshaped_returns_share_the_unshaped_cache(tmp_path: Path) -> None:
    """``pretrain.shaped_returns: false``: the value targets are the win/loss returns, so a
    shaped run reads the teacher games cached without shaping, and the same data."""
    base = {**TINY, "pretrain.cache_dir": str(tmp_path), "pretrain.teacher": "random"}
    base["env.shaping"] = "none"
    plain = load_config(ROOT / "configs" / "quick.yaml", **base)
    shaped = load_config(
        ROOT / "configs" / "quick.yaml", **{**base, "env.shaping": "goal_progress"}
    )
    unshaped = load_config(
        ROOT / "configs" / "quick.yaml",
        **{**base, "env.shaping": "goal_progress", "pretrain.shaped_returns": False},
    )
    assert cache_path(unshaped) == cache_path(plain) != cache_path(shaped)
    data, _, _ = generate_part(plain, log=lambda *_: None)
    again, _, earlier = generate_part(unshaped, log=lambda *_: None)
    assert earlier > 0 and np.array_equal(again["ret"], data["ret"])
    with_shaping, _, _ = generate_part(shaped, log=lambda *_: None)
    assert np.array_equal(with_shaping["action"], data["action"])  # the same games
    assert not np.allclose(with_shaping["ret"], data["ret"])  # valued with the shaping
    assert set(np.unique(np.sign(data["ret"]))) <= {-1.0, 1.0}  # win/loss alone


def test_cache_of_a_learned_teacher_follows_the_shipped_value_model(monkeypatch) -> None:
    """Teacher games of a bot using the learned value are keyed by the model file's digest, so
    refitting the model does not reuse games the old model played."""
    import agents.value_model as value_model

    learned = load_config(
        ROOT / "configs" / "quick.yaml", **{"pretrain.teacher": "heuristic:learned=1"}
    )
    plain = load_config(ROOT / "configs" / "quick.yaml", **{"pretrain.teacher": "heuristic"})
    before = cache_path(learned), cache_path(learned, 3, "random"), cache_path(plain)
    monkeypatch.setattr(value_model, "model_digest", lambda n: "another-model")
    after = cache_path(learned), cache_path(learned, 3, "random"), cache_path(plain)
    assert before[0] != after[0] and before[1] != after[1]
    assert before[2] == after[2]  # a teacher without the learned value keeps its key


def test_teacher_games_show_a_bar_unless_told_not_to(tmp_path: Path, capfd) -> None:
    base = {**TINY, "pretrain.cache_dir": str(tmp_path), "pretrain.teacher": "random"}
    generate_part(load_config(ROOT / "configs" / "quick.yaml", **base), log=lambda *_: None)
    assert "teacher games 'random'" in capfd.readouterr().err
    base["seed"] = 1  # not cached
    cfg = load_config(ROOT / "configs" / "quick.yaml", **base)
    generate_part(cfg, log=lambda *_: None, progress=False)
    assert "teacher games" not in capfd.readouterr().err


def test_a_cache_is_trusted_for_its_content_not_its_name(tmp_path: Path, capsys) -> None:
    """A damaged file, or one written for other settings, under the expected name is ignored
    and replaced by freshly generated data (written atomically: no temporary file is left)."""
    base = {**TINY, "pretrain.cache_dir": str(tmp_path), "pretrain.teacher": "random"}
    base["pretrain.games"] = 2
    cfg = load_config(ROOT / "configs" / "quick.yaml", **base)
    fresh, _, _ = generate_part(cfg, log=lambda *_: None)
    path = cache_path(cfg)
    good = path.read_bytes()
    for damage in (b"not an npz at all", good[: len(good) // 2]):
        path.write_bytes(damage)
        data, _, earlier = generate_part(cfg, log=lambda *_: None)
        assert earlier == 0 and (data["action"] == fresh["action"]).all()
        assert "ignoring cache" in capsys.readouterr().out
    other = load_config(ROOT / "configs" / "quick.yaml", **{**base, "seed": 5})
    generate_part(other, log=lambda *_: None)
    path.write_bytes(cache_path(other).read_bytes())  # another run's data under this name
    data, _, earlier = generate_part(cfg, log=lambda *_: None)
    assert "written for other settings" in capsys.readouterr().out
    assert earlier == 0 and (data["action"] == fresh["action"]).all()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted({path.name, cache_path(other).name})
