"""The league: pairwise scores, PFSP priorities, member draws and the payoff log of a run."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from training.config import ConfigError, load_config
from training.league import LeagueScores, pairwise_scores, pfsp_priority, read_payoffs
from training.selfplay import OpponentPool, snapshot_name

ROOT = Path(__file__).resolve().parents[2]


def _info(seat: int, winners: list[int], opponents: dict[int, str]) -> dict:
    return {"seat": seat, "winners": winners, "opponents": opponents}


def test_pairwise_scores_say_who_finished_above_whom() -> None:
    opponents = {0: "random", 2: "heuristic", 3: "snapshot:step_5"}
    assert pairwise_scores(_info(1, [1], opponents)) == [
        ("random", 1.0),
        ("heuristic", 1.0),
        ("snapshot:step_5", 1.0),
    ]
    assert pairwise_scores(_info(1, [2], opponents)) == [
        ("random", 0.5),  # neither won
        ("heuristic", 0.0),
        ("snapshot:step_5", 0.5),
    ]
    assert pairwise_scores(_info(1, [1, 3], opponents))[2] == ("snapshot:step_5", 0.5)
    assert pairwise_scores({"seat": 0, "winners": [0]}) == []  # no named opponents


def test_scores_start_even_then_decay_toward_recent_results() -> None:
    scores = LeagueScores(decay=0.5, min_games=3)
    for _ in range(2):
        scores.add("a", 1.0)
    assert scores.score("a") == 0.5  # fewer than min_games results: even
    scores.add("a", 1.0)
    assert scores.score("a") == 1.0
    scores.add("a", 0.0)  # the newest result weighs as much as all before it
    assert scores.score("a") == pytest.approx(0.875 / 1.875)
    assert scores.games("a") == 4 and scores.score("never met") == 0.5


def test_pfsp_priorities() -> None:
    hard = [pfsp_priority(x, "hard", 2.0, 0.05) for x in (0.1, 0.5, 0.9)]
    assert hard[0] > hard[1] > hard[2] > 0  # the members the learner loses to first
    var = [pfsp_priority(x, "variance", 2.0, 0.05) for x in (0.1, 0.5, 0.9)]
    assert var[1] > var[0] and var[0] == pytest.approx(var[2])  # even matches first
    assert pfsp_priority(1.0, "hard", 2.0, 0.05) == 0.05  # beaten members stay in play
    with pytest.raises(ValueError, match="pfsp"):
        pfsp_priority(0.5, "nash")


def test_priorities_shift_the_draws_and_tables_name_their_members() -> None:
    weights = {"random": 1.0, "heuristic:plan=greedy": 1.0, "snapshots": 2.0}
    snaps = ["run/snapshots/step_10", "run/snapshots/step_20"]
    pool = OpponentPool(3, weights, snaps)
    members = pool.members()
    assert members == pytest.approx(
        {"random": 0.25, "heuristic:plan=greedy": 0.25, "snapshot:step_10": 0.25,
         "snapshot:step_20": 0.25}
    )  # fmt: skip
    ranked = pool.with_priorities({"random": 8.0})
    names, p = ranked.distribution()
    assert p[names.index("random")] == pytest.approx(8 / 11)
    bots = OpponentPool(3, {"random": 1.0, "heuristic:plan=greedy": 1.0})
    rng = np.random.default_rng(3)
    drawn = [bots.with_priorities({"random": 3.0})(rng).names for _ in range(300)]
    share = np.mean([n == "random" for t in drawn for n in t])
    assert 0.68 < share < 0.82  # 3/4


def test_the_pool_without_priorities_keeps_its_tables() -> None:
    pool = OpponentPool(3, {"random": 1.0, "heuristic:plan=greedy": 1.0})
    table = pool(np.random.default_rng(0))
    assert len(table.names) == 3
    assert [type(b).__name__ for b in table] == [
        {"random": "RandomOpponent", "heuristic:plan=greedy": "HeuristicBot"}[n]
        for n in table.names
    ]
    assert snapshot_name("a/b/snapshots/step_7") == "snapshot:step_7"


def test_a_table_is_reported_by_the_env_at_the_end() -> None:
    from nanty_env.faces.single import NantySingleAgentEnv

    pool = OpponentPool(3, {"random": 1.0})
    env = NantySingleAgentEnv(num_players=4, opponents=pool)
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    done, info = False, {}
    while not done:
        legal = np.flatnonzero(env.action_masks())
        _, _, done, _, info = env.step(int(rng.choice(legal)))
    assert info["opponents"] == {s: "random" for s in range(4) if s != info["seat"]}
    assert pairwise_scores(info)  # the league can score it


def test_league_settings_are_checked(tmp_path: Path) -> None:
    for key, value in (
        ("selfplay.pfsp", "nash"),
        ("selfplay.score_decay", 0.0),
        ("selfplay.min_games", 0),
        ("selfplay.pfsp_power", -1.0),
    ):
        with pytest.raises(ConfigError, match=key.split(".")[1]):
            load_config(ROOT / "configs" / "quick.yaml", **{key: value})


@pytest.mark.slow
def test_a_league_run_logs_its_payoffs_and_resumes(tmp_path: Path) -> None:
    from training.train import train

    tiny = {
        "env.num_players": 3,
        "env.shaping": "none",
        "ppo.num_envs": 2,
        "ppo.n_steps": 128,
        "ppo.batch_size": 128,
        "ppo.n_epochs": 1,
        "ppo.net_arch": [32],
        "checkpoint_every": 512,
        "eval.every": 100_000,
        "selfplay.snapshot_every": 512,
        "selfplay.weights": {"random": 1.0, "snapshots": 1.0},
        "selfplay.pfsp": "hard",
        "selfplay.min_games": 2,
    }
    cfg = load_config(ROOT / "configs" / "quick.yaml", **tiny)
    out = train(cfg, total_timesteps=1536, out=tmp_path / "run", progress=False)
    times, members, grid = read_payoffs(out / "league.csv")
    assert times[0] == 512 and times[-1] >= 1536
    assert members[0] == "random" and "snapshot:step_512" in members
    assert np.isnan(grid[0, members.index("snapshot:step_512")])  # not a member yet at 512
    assert np.nanmin(grid) >= 0 and np.nanmax(grid) <= 1
    assert (out / "league.png").stat().st_size > 0
    with (out / "league_episodes.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert {r["member"] for r in rows} >= {"random"}
    assert all(float(r["score"]) in (0.0, 0.5, 1.0) for r in rows)

    train(cfg, total_timesteps=2048, out=out, resume=out, progress=False)
    times_after, _, _ = read_payoffs(out / "league.csv")
    assert times_after[: len(times)] == times and times_after[-1] >= 2048
