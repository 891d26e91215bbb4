"""Many seeded self-play games, each turned into a dict by a logging function, over worker
processes, returned in seed order whatever the number of workers (used for the role-inference
logs and the learned value's records)."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from arena.tournament import progress_bar
from nanty_env.engine import GameConfig

GameLogger = Callable[[str, GameConfig, int], dict[str, Any]]
"""``(bot spec, config, seed) -> a dict with at least "seed"``; must be picklable."""


def _chunk(log: GameLogger, bot: str, config: GameConfig, seeds: Sequence[int]) -> list[dict]:
    return [log(bot, config, s) for s in seeds]


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
) -> list[dict[str, Any]]:
    """``log(bot, config, s)`` for the game seeds ``s = seed * 100000 + i``, ``i < games``, in
    seed order (so the output depends only on the arguments); ``expansion``/``content``: the
    ruleset (see ``GameConfig``)."""
    config = GameConfig(num_players=players, log=False, expansion=expansion, content=content)
    seeds = [seed * 100_000 + i for i in range(games)]
    workers = workers or min(2, os.cpu_count() or 1)
    size = max(1, min(8, games // (workers * 4) or 1))
    chunks = [seeds[i : i + size] for i in range(0, len(seeds), size)]
    bar = progress_bar(games, progress, f"{label} {players}p {bot}")
    out: list[dict[str, Any]] = []
    try:
        if workers <= 1:
            parts = (_chunk(log, bot, config, c) for c in chunks)
            for part in parts:
                out += part
                bar.update(len(part))
        else:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                n = len(chunks)
                for part in pool.map(_chunk, [log] * n, [bot] * n, [config] * n, chunks):
                    out += part
                    bar.update(len(part))
    finally:
        bar.close()
    return sorted(out, key=lambda d: d["seed"])
