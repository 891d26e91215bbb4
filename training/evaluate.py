"""Evaluate a (live or saved) policy against scripted opponents with the game harness."""

from __future__ import annotations

from typing import Any

from nanty_env.engine import GameConfig


def scripted(kind: str):
    if kind == "random":
        from agents.random_bot import RandomBot

        return RandomBot()
    if kind == "heuristic":
        from agents.heuristic import HeuristicBot

        return HeuristicBot()
    raise ValueError(f"unknown opponent {kind!r}")


def evaluate_model(
    model: Any,
    opponent: str,
    num_players: int,
    games: int,
    seed: int = 0,
    personalities: str = "standard",
    thresholds: str = "rulebook",
) -> dict[str, Any]:
    """Play ``games`` games of the model against ``num_players - 1`` copies of ``opponent``,
    rotating the model's seat; returns games, wins, win_rate and the 95 % Wilson interval."""
    from agents.base import play_game
    from agents.policy import PolicyBot

    cfg = GameConfig(
        num_players=num_players, personalities=personalities, thresholds=thresholds, log=False
    )
    wins = 0
    for k in range(games):
        seat = k % num_players
        bots = [scripted(opponent) for _ in range(num_players)]
        bots[seat] = PolicyBot(model=model)
        _, record = play_game(bots, cfg, seed=seed * 100_003 + k)
        wins += seat in record.winners
    from agents.stats import wilson_interval

    lo, hi = wilson_interval(wins, games)
    return {"games": games, "wins": wins, "win_rate": wins / games, "ci_low": lo, "ci_high": hi}
