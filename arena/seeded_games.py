"""The project's seeded game runner for work that is not a tournament (the role-inference
logs, the learned value's records): one seed scheme, and the worker processes of
:mod:`arena.workers` (a dead or stalled worker is named; Ctrl-C stops every worker).

Game ``i`` of a run with seed ``seed`` is played from the game seed :func:`game_seed`, so a
run's output depends only on its arguments, never on the number of workers.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from arena.tournament import progress_bar
from arena.workers import run_chunks
from nanty_env.engine import GameConfig

SEED_STRIDE = 100_000  # game seed = seed * SEED_STRIDE + game number

GameLogger = Callable[[str, GameConfig, int], dict[str, Any]]
"""``(bot spec, config, seed) -> a dict with at least "seed"``; must be picklable."""


def game_seed(seed: int, game: int) -> int:
    """The seed of game number ``game`` of a run seeded ``seed``."""
    return seed * SEED_STRIDE + game


def _log_one(context: tuple[GameLogger, str, GameConfig], seed: int) -> dict[str, Any]:
    log, bot, config = context
    return log(bot, config, seed)


def _seeds(seeds: Sequence[int]) -> str:
    return f"game seeds {seeds[0]}-{seeds[-1]}" if seeds else "no games"


def seeded_games(
    log: GameLogger,
    bot: str,
    players: int,
    games: int,
    seed: int,
    *,
    workers: int | None = None,
    progress: bool = True,
    label: str = "games",
    expansion: str | None = None,
    content: str | None = None,
    ray_address: str | None = None,
) -> list[dict[str, Any]]:
    """``log(bot, config, s)`` for the game seeds ``s = game_seed(seed, i)``, ``i < games``,
    in seed order (so the output depends only on the arguments); ``expansion``/``content``: the
    ruleset (see ``GameConfig``); ``ray_address``: spread the games over that Ray cluster
    (:mod:`arena.ray_runner`) instead of ``workers`` local processes."""
    config = GameConfig(num_players=players, log=False, expansion=expansion, content=content)
    seeds = [game_seed(seed, i) for i in range(games)]
    workers = workers or min(2, os.cpu_count() or 1)
    size = max(1, min(8, games // (workers * 4) or 1))
    chunks = [seeds[i : i + size] for i in range(0, len(seeds), size)]
    bar = progress_bar(games, progress, f"{label} {players}p {bot}")
    out: list[dict[str, Any]] = []

    def finished(d: dict[str, Any]) -> None:
        out.append(d)
        bar.update(1)

    try:
        if ray_address is not None:
            from arena.ray_runner import run_chunks_on_ray

            context = (log, bot, config)
            run_chunks_on_ray(
                _log_one, context, chunks, finished, address=ray_address, describe=_seeds
            )
        else:
            run_chunks(
                _log_one, (log, bot, config), chunks, finished, workers=workers, describe=_seeds
            )
    finally:
        bar.close()
    return sorted(out, key=lambda d: d["seed"])
