"""Game records for the learned leaf value: public metrics at every turn start, labelled
with who won.

A record holds, for every turn start of one self-play game, the public
:class:`~agents.evaluation.Metrics` of the board, the true personality of every seat (read from
the game at that turn: the logger sees everything, since labels are outcomes anyway) and the
seat whose turn starts, plus the game's winners. Features are computed from the records later
(:func:`agents.value_model.seat_features`), so they can change without replaying games.
"""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

from agents.base import bot_rngs, play_game
from agents.evaluation import metrics
from agents.registry import make_bot
from arena.seeded_games import seeded_games
from arena.tournament import seats_for
from nanty_env.engine.config import GameConfig
from nanty_env.engine.game import Game


def table_specs(bot: str, n: int, seed: int) -> list[str]:
    """The seats' bot specs: ``bot`` in every seat, or a comma-separated table of ``n`` specs
    rotated by ``seed % n`` (so over consecutive seeds each spec sits in every seat)."""
    specs = bot.split(",")
    if len(specs) == 1:
        return specs * n
    if len(specs) != n:
        raise ValueError(f"a table of {len(specs)} bots for {n} players: {bot!r}")
    return [specs[e] for e in seats_for(seed % n, n)]


def record_game(bot: str, config: GameConfig, seed: int) -> dict[str, Any]:
    """Play one game with ``bot`` in every seat (or the table :func:`table_specs` makes of it);
    log every turn start (see module doc)."""
    positions: list[tuple[Any, tuple[int, ...], int]] = []

    def on_turn(g: Game) -> None:
        positions.append((metrics(g), tuple(g.persona), g.active))

    n = config.num_players
    bots = [make_bot(spec) for spec in table_specs(bot, n, seed)]
    _, rec = play_game(bots, config, seed, bot_rngs(seed, n, 77), on_turn=on_turn)
    return {
        "seed": seed,
        "bot": bot,
        "n": n,
        "positions": positions,
        "winners": tuple(rec.winners),
        "reason": rec.reason,
    }


def generate_records(
    bot: str,
    players: int,
    games: int,
    seed: int,
    *,
    workers: int | None = None,
    progress: bool = True,
) -> list[dict[str, Any]]:
    """Records of ``games`` games (seeds ``seed * 100000 + i``), in seed order whatever the
    number of workers (so the output depends only on the arguments)."""
    return seeded_games(
        record_game,
        bot,
        players,
        games,
        seed,
        workers=workers,
        progress=progress,
        label="value records",
    )


def save_records(records: list[dict[str, Any]], path: str | Path) -> None:
    """Pickle records (a cache under ``runs/``; never committed)."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_bytes(pickle.dumps(records, protocol=pickle.HIGHEST_PROTOCOL))


def load_records(path: str | Path) -> list[dict[str, Any]]:
    return pickle.loads(Path(path).read_bytes())
