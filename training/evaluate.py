"""Evaluate a (live or saved) policy against scripted opponents with the game harness."""

from __future__ import annotations

from typing import Any

import numpy as np

from nanty_env.engine import GameConfig
from nanty_env.observation import encode_view, view_action_mask


class ModelBot:
    """A bot playing a MaskablePPO model (greedy by default) from its seat's view."""

    observes = False

    def __init__(self, model: Any, name: str = "ppo", deterministic: bool = True) -> None:
        self.model, self.name, self.deterministic = model, name, deterministic

    def reset(self, seat: int, config: GameConfig) -> None:
        self.seat = seat

    def observe(self, view: dict) -> None:
        return None

    def act(self, view: dict, legal_actions, rng: np.random.Generator) -> int:
        mask = view_action_mask(view).astype(bool)
        action, _ = self.model.predict(
            encode_view(view), action_masks=mask, deterministic=self.deterministic
        )
        return int(action)


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

    cfg = GameConfig(num_players=num_players, personalities=personalities,
                     thresholds=thresholds, log=False)
    wins = 0
    for k in range(games):
        seat = k % num_players
        bots = [scripted(opponent) for _ in range(num_players)]
        bots[seat] = ModelBot(model)
        _, record = play_game(bots, cfg, seed=seed * 100_003 + k)
        wins += seat in record.winners
    from agents.stats import wilson_interval

    lo, hi = wilson_interval(wins, games)
    return {"games": games, "wins": wins, "win_rate": wins / games, "ci_low": lo, "ci_high": hi}
