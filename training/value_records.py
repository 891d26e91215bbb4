"""Game records for the value network: the public board at every turn start, with who won.

A *snapshot* (:func:`snapshot`) is one int16 row holding everything the value network's
features are made of (:mod:`agents.value_features`): every seat's agents per area, the
grenadiers, citizens, buildings and trouble markers per area, money, loans, agents on the board,
cards in hand, the draw pile, every seat's true personality, the seat to move and the turn. The
true personalities are fine here: they are training labels' context, read by the logger, never
by a bot. Features are computed later, so they can change without replaying games.

Records are written in parts of :data:`GAMES_PER_PART` games (``part_00000.npz``, ...; numpy
arrays only, loaded with ``allow_pickle=False``), each written atomically by the worker that
played it, so an interrupted generation resumes by playing only the missing parts.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import bot_rngs, play_game
from agents.registry import make_bot
from arena.seeded_games import game_seed
from arena.tournament import progress_bar
from arena.workers import run_chunks
from nanty_env.engine import NUM_AREAS, Game, GameConfig
from nanty_env.storage.files import atomic_path

GAMES_PER_PART = 10


def snapshot_size(n: int) -> int:
    """Length of a snapshot row of an ``n``-player game (see :func:`snapshot`)."""
    return n * NUM_AREAS + 4 * NUM_AREAS + 4 * n + 1 + n + 2


def snapshot(g: Game) -> np.ndarray:
    """The row :class:`Board` reads back (see module doc)."""
    row = [v for r in g.agents for v in r]
    row += [*g.gren, *g.cit, *g.building, *g.trouble]
    row += g.money + [len(x) for x in g.loans] + g.on_board
    row += [len(h) + len(p) for h, p in zip(g.hands, g.penalties, strict=True)]
    row += [len(g.deck), *g.persona, g.active, g.turn]
    return np.array(row, dtype=np.int16)


class Board:
    """A snapshot read back: the fields of :class:`~nanty_env.engine.game.Game` that the
    features need, under the same names (so :mod:`agents.robustness` can read it too)."""

    __slots__ = (
        "active",
        "agents",
        "building",
        "cit",
        "deck_size",
        "gren",
        "hand",
        "loans",
        "money",
        "n",
        "on_board",
        "persona",
        "trouble",
        "turn",
    )

    def __init__(self, row: Sequence[int], n: int) -> None:
        r = [int(v) for v in row]
        a = NUM_AREAS
        self.n = n
        self.agents = [r[q * a : (q + 1) * a] for q in range(n)]
        i = n * a
        self.gren, self.cit = r[i : i + a], r[i + a : i + 2 * a]
        self.building, self.trouble = r[i + 2 * a : i + 3 * a], r[i + 3 * a : i + 4 * a]
        i += 4 * a
        self.money, self.loans = r[i : i + n], r[i + n : i + 2 * n]
        self.on_board, self.hand = r[i + 2 * n : i + 3 * n], r[i + 3 * n : i + 4 * n]
        i += 4 * n
        self.deck_size = r[i]
        self.persona = r[i + 1 : i + 1 + n]
        self.active, self.turn = r[i + 1 + n], r[i + 2 + n]


def table_specs(bots: Sequence[str], n: int, game: int) -> list[str]:
    """The seats' bot specs of game number ``game``: one spec for every seat, or one per seat
    rotated by the game number (so each spec sits in every seat in turn)."""
    if len(bots) == 1:
        return list(bots) * n
    if len(bots) != n:
        raise ValueError(f"a table of {len(bots)} bots for {n} players: {list(bots)}")
    return [bots[(s - game) % n] for s in range(n)]


def record_game(bots: Sequence[str], config: GameConfig, seed: int, game: int) -> dict[str, Any]:
    """Play one game and return its snapshots (every turn start) and its winners."""
    rows: list[np.ndarray] = []
    n = config.num_players
    players = [make_bot(s) for s in table_specs(bots, n, game)]
    _, rec = play_game(
        players, config, seed, bot_rngs(seed, n, 77), on_turn=lambda g: rows.append(snapshot(g))
    )
    won = np.zeros(n, dtype=np.uint8)
    won[list(rec.winners)] = 1
    return {"rows": np.array(rows, dtype=np.int16), "won": won, "seed": seed}


def part_path(folder: Path, k: int) -> Path:
    return folder / f"part_{k:05d}.npz"


def play_part(bots: Sequence[str], config: GameConfig, seed: int, k: int, folder: Path) -> int:
    """Play part ``k`` (games ``k * GAMES_PER_PART`` ...) and write it atomically."""
    t0 = time.process_time()
    games = range(k * GAMES_PER_PART, (k + 1) * GAMES_PER_PART)
    recs = [record_game(bots, config, game_seed(seed, i), i) for i in games]
    rows = np.concatenate([r["rows"] for r in recs])
    game = np.concatenate(
        [np.full(len(r["rows"]), i, dtype=np.int32) for i, r in zip(games, recs, strict=True)]
    )
    with atomic_path(part_path(folder, k), suffix=".npz") as tmp:
        np.savez_compressed(
            tmp,
            rows=rows,
            game=game,
            won=np.array([r["won"] for r in recs]),
            seeds=np.array([r["seed"] for r in recs], dtype=np.int64),
            bots=np.array(list(bots)),
            players=np.array(config.num_players),
            cpu_seconds=np.array(time.process_time() - t0),
        )
    return k


def _play_part(context: tuple[tuple[str, ...], GameConfig, int, Path], k: int) -> int:
    bots, config, seed, folder = context
    return play_part(bots, config, seed, k, folder)


def _parts(parts: Sequence[int]) -> str:
    return ", ".join(f"part {k}" for k in parts)


def generate(
    folder: str | Path,
    bots: Sequence[str],
    players: int,
    games: int,
    seed: int,
    *,
    workers: int = 1,
    progress: bool = True,
) -> Path:
    """Play the missing parts of ``games`` games (rounded up to whole parts) into ``folder``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    config = GameConfig(num_players=players, log=False)
    parts = -(-games // GAMES_PER_PART)
    todo = [k for k in range(parts) if not part_path(folder, k).is_file()]
    if not todo:
        return folder
    bar = progress_bar(len(todo) * GAMES_PER_PART, progress, f"value records {players}p")
    try:
        run_chunks(
            _play_part,
            (tuple(bots), config, seed, folder),
            [[k] for k in todo],
            lambda _: bar.update(GAMES_PER_PART),
            workers=workers,
            describe=_parts,
        )
    finally:
        bar.close()
    return folder


def cpu_seconds(folder: str | Path, games: int | None = None) -> float:
    """The CPU seconds spent playing the parts in ``folder`` (each part's worker's own; only
    the parts of the first ``games`` games, if given, that exist)."""
    total = 0.0
    paths = sorted(Path(folder).glob("part_*[0-9].npz"))
    if games is not None:
        paths = [p for p in paths if int(p.stem[5:]) < -(-games // GAMES_PER_PART)]
    for p in paths:
        with np.load(p, allow_pickle=False) as d:
            total += float(d["cpu_seconds"]) if "cpu_seconds" in d else 0.0
    return total


def load(folder: str | Path, games: int | None = None) -> dict[str, np.ndarray]:
    """The parts in ``folder`` concatenated: every part, or exactly the parts of the first
    ``games`` games (a missing one is an error). ``rows``; ``game``, each row's index into
    ``won``; ``won`` (per game: 1 for each winning seat) and ``seeds``."""
    folder = Path(folder)
    if games is None:
        paths = sorted(folder.glob("part_*[0-9].npz"))
    else:
        paths = [part_path(folder, k) for k in range(-(-games // GAMES_PER_PART))]
        missing = [p.name for p in paths if not p.is_file()]
        if missing:
            raise FileNotFoundError(f"{folder}: {len(missing)} parts missing ({missing[0]} ...)")
    if not paths:
        raise FileNotFoundError(f"no value records in {folder}")
    parts = [np.load(p, allow_pickle=False) for p in paths]
    out = {key: np.concatenate([p[key] for p in parts]) for key in ("rows", "won", "seeds")}
    # each row's index into ``won`` (game numbers may have gaps while a generation runs)
    index, offset = [], 0
    for p in parts:
        index.append(p["game"] - p["game"].min() + offset)
        offset += len(p["won"])
    out["game"] = np.concatenate(index)
    out["players"] = parts[0]["players"]
    return out
