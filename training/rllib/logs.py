"""What an RLlib training run writes as it goes: ``progress.csv`` (one row a training round),
``eval.csv`` (the exported policy against scripted opponents at every checkpoint, with 95 %
intervals), TensorBoard events under ``tb/`` and, at the end, ``learning_curve.png``, the
figure of the SB3 path (:func:`training.plots.learning_curve`).

TensorBoard (``tensorboard --logdir runs/rllib_quick/tb``) gets the round's rollout figures
(the policy seats' win rate, episode length, throughput) and the shared policy's learner
figures (losses, entropy, KL), each against env steps.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

PROGRESS_FIELDS = (
    "iteration",
    "env_steps",
    "episodes",
    "policy_seat_win_rate",
    "episode_len_mean",
    "seconds",
    "env_steps_per_second",
)
LEARNER_STATS = ("policy_loss", "vf_loss", "entropy", "mean_kl_loss", "total_loss")
EVAL_FIELDS = ("timesteps", "opponent", "games", "wins", "win_rate", "ci_low", "ci_high")


class RunLog:
    """The progress file and TensorBoard writer of one run in ``out`` (a context manager)."""

    def __init__(self, out: Path, policy: str) -> None:
        from torch.utils.tensorboard import SummaryWriter

        self.out = out
        self.policy = policy
        self.file = (out / "progress.csv").open("w", newline="")
        self.csv = csv.DictWriter(self.file, fieldnames=PROGRESS_FIELDS)
        self.csv.writeheader()
        self.tb = SummaryWriter(log_dir=str(out / "tb"))

    def __enter__(self) -> RunLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def round(self, iteration: int, steps: int, result: dict[str, Any]) -> None:
        """Log one training round from RLlib's ``result`` (``steps``: env steps so far)."""
        runners = result.get("env_runners", {})
        seconds = float(result.get("time_this_iter_s", 0.0))
        sampled = int(runners.get("num_env_steps_sampled", 0))
        row = {
            "iteration": iteration,
            "env_steps": steps,
            "episodes": int(runners.get("num_episodes_lifetime", 0)),
            "policy_seat_win_rate": _round(runners.get("policy_seat_win_rate")),
            "episode_len_mean": _round(runners.get("episode_len_mean")),
            "seconds": round(seconds, 2),
            "env_steps_per_second": round(sampled / seconds, 1) if seconds else "",
        }
        self.csv.writerow(row)
        self.file.flush()
        scalars = {
            "rollout/policy_seat_win_rate": row["policy_seat_win_rate"],
            "rollout/episode_len_mean": row["episode_len_mean"],
            "time/env_steps_per_second": row["env_steps_per_second"],
        }
        learner = result.get("learners", {}).get(self.policy, {})
        scalars |= {f"train/{k}": _round(learner.get(k)) for k in LEARNER_STATS}
        for tag, value in scalars.items():
            if value != "":
                self.tb.add_scalar(tag, float(value), steps)
        self.tb.flush()

    def evaluate(self, policy_path: Path, cfg: Any, steps: int) -> list[dict[str, Any]]:
        """Play the exported policy at ``policy_path`` against each of ``cfg.eval.opponents``
        (``cfg``: the run's :class:`~training.rllib.config.RLlibConfig`); append the rows to
        ``eval.csv`` and TensorBoard."""
        rows = [
            {"timesteps": steps, "opponent": opp, **play_policy(policy_path, opp, cfg, steps)}
            for opp in cfg.eval.opponents
        ]
        path = self.out / "eval.csv"
        new = not path.exists()
        with path.open("a", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=EVAL_FIELDS)
            if new:
                writer.writeheader()
            writer.writerows(rows)
        for row in rows:
            self.tb.add_scalar(f"eval/win_rate_vs_{row['opponent']}", row["win_rate"], steps)
        self.tb.flush()
        return rows

    def close(self) -> None:
        self.file.close()
        self.tb.close()

    def curve(self) -> Path:
        """The learning-curve PNG of the run (as the SB3 path draws it)."""
        from training.plots import learning_curve

        return learning_curve(self.out)


def play_policy(path: Path, opponent: str, cfg: Any, steps: int) -> dict[str, Any]:
    """``cfg.eval.games`` games of the policy checkpoint ``path`` against copies of
    ``opponent``, the policy's seat rotated, dealt from seeds of ``cfg.seed`` and ``steps``:
    games, wins, win rate and its 95 % Wilson interval."""
    from agents.base import play_game
    from agents.policy import PolicyBot, load_for_env
    from agents.registry import make_bot
    from arena.stats import wilson_interval
    from nanty_env.engine import GameConfig

    e = cfg.env
    game = GameConfig(
        num_players=e.num_players,
        personalities=e.personalities,
        thresholds=e.thresholds,
        expansion=e.expansion,
        content=e.content,
        log=False,
    )
    policy = load_for_env(path)
    games, wins = cfg.eval.games, 0
    for k in range(games):
        seat = k % e.num_players
        bots = [make_bot(opponent) for _ in range(e.num_players)]
        bots[seat] = PolicyBot(policy=policy)
        _, record = play_game(bots, game, seed=(cfg.seed + steps) * 100_003 + k)
        wins += seat in record.winners
    lo, hi = wilson_interval(wins, games)
    return {"games": games, "wins": wins, "win_rate": wins / games, "ci_low": lo, "ci_high": hi}


def _round(x: Any) -> float | str:
    return "" if x is None else round(float(x), 4)
