"""Evaluate a (live or saved) policy against scripted opponents with the game harness."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from nanty_env.engine import GameConfig
from nanty_env.vector.batch import process_context


def scripted(kind: str):
    """An opponent from its bot spec (``random``, ``heuristic``, ``heuristic:plan=greedy``)."""
    if kind == "random":
        from agents.random_bot import RandomBot

        return RandomBot()
    if kind == "heuristic":
        from agents.heuristic import HeuristicBot

        return HeuristicBot()
    from agents.registry import make_bot

    return make_bot(kind)


def _play(policy: Any, opponent: str, cfg: GameConfig, seed: int, games: range) -> int:
    """Wins of ``policy`` (a :class:`~agents.checkpoint.PolicyCheckpoint`) in ``games``."""
    from agents.base import play_game
    from agents.policy import PolicyBot

    n = cfg.num_players
    wins = 0
    for k in games:
        seat = k % n
        bots = [scripted(opponent) for _ in range(n)]
        bots[seat] = PolicyBot(policy=policy)
        _, record = play_game(bots, cfg, seed=seed * 100_003 + k)
        wins += seat in record.winners
    return wins


def _play_saved(args: tuple) -> int:
    """A worker's share: the policy is read from its nanty-policy checkpoint (numpy only)."""
    from agents.policy import load_for_env

    path, opponent, cfg_dict, seed, games = args
    return _play(load_for_env(path), opponent, GameConfig.from_dict(cfg_dict), seed, games)


def evaluate_model(
    model: Any,
    opponent: str,
    num_players: int,
    games: int,
    seed: int = 0,
    personalities: str = "standard",
    thresholds: str = "rulebook",
    workers: int = 1,
    scratch: str | Path | None = None,
    expansion: str | None = None,
    content: str | None = None,
) -> dict[str, Any]:
    """Play ``games`` games of the model against ``num_players - 1`` copies of ``opponent``,
    rotating the model's seat; returns games, wins, win_rate and the 95 % Wilson interval.

    With ``workers`` > 1 the policy is saved to ``scratch`` (a nanty-policy checkpoint) and
    the games are split over that many processes (the same games and seeds as in one
    process)."""
    from agents.sb3_export import export_sb3_policy, policy_from_sb3
    from arena.stats import wilson_interval

    cfg = GameConfig(
        num_players=num_players,
        personalities=personalities,
        thresholds=thresholds,
        log=False,
        expansion=expansion,
        content=content,
    )
    ruleset = {} if expansion is None else {"expansion": expansion}
    if workers <= 1 or games < 2:
        policy = policy_from_sb3(model.policy, env=ruleset)
        wins = _play(policy, opponent, cfg, seed, range(games))
    else:
        if scratch is None:
            raise ValueError("evaluating in several processes needs a scratch path")
        export_sb3_policy(model.policy, scratch, env=ruleset)
        jobs = [
            (str(scratch), opponent, cfg.to_dict(), seed, range(w, games, workers))
            for w in range(workers)
        ]
        ctx = process_context()
        with ctx.Pool(workers) as pool:
            wins = sum(pool.map(_play_saved, jobs))
    lo, hi = wilson_interval(wins, games)
    return {"games": games, "wins": wins, "win_rate": wins / games, "ci_low": lo, "ci_high": hi}
