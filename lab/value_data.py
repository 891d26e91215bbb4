"""Game records for the learned leaf value: public metrics at every turn start, labelled
with who won.

A record holds, for every turn start of one self-play game, the public
:class:`~agents.evaluation.Metrics` of the board, the true personality of every seat (read from
the game at that turn: the logger sees everything, since labels are outcomes anyway) and the
seat whose turn starts, plus the game's winners. Features are computed from the records later
(:func:`agents.value_model.seat_features`), so they can change without replaying games.

Records are cached as JSON (``save_records`` / ``load_records``), never pickled: a records file
may come from anywhere, and unpickling one could run code.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from agents.base import bot_rngs, play_game
from agents.evaluation import Metrics, metrics
from agents.registry import make_bot
from arena.seeded_games import seeded_games
from arena.tournament import seats_for
from nanty_env.engine import Game, GameConfig
from nanty_env.storage.files import atomic_write_text


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


RECORDS_FORMAT = "nanty-value-records"
RECORDS_VERSION = 1
METRIC_FIELDS = tuple(f.name for f in dataclasses.fields(Metrics) if f.name != "by_metric")


def metrics_to_json(m: Metrics) -> dict[str, Any]:
    return {name: getattr(m, name) for name in METRIC_FIELDS}


def metrics_from_json(d: dict[str, Any], n: int) -> Metrics:
    """A :class:`Metrics` from :func:`metrics_to_json` output (``by_metric`` rebuilt in
    ``agents.evaluation.METRICS`` order, sharing the lists as ``board_metrics`` does)."""
    if set(d) != set(METRIC_FIELDS):
        raise ValueError(f"metrics fields {sorted(set(d) ^ set(METRIC_FIELDS))} differ")
    f = {k: [int(x) for x in v] if isinstance(v, list) else int(v) for k, v in d.items()}
    by_metric = (
        f["occupied"],
        f["controlled"],
        f["net_worth"],
        f["building_value"],
        f["own_buildings"],
        f["pieces"],
        [f["trouble"]] * n,
        [f["buildings"]] * n,
    )
    return Metrics(**f, by_metric=by_metric)


def save_records(records: list[dict[str, Any]], path: str | Path) -> None:
    """Write records as JSON, atomically (a cache under ``runs/``; never committed)."""
    games = [
        {
            **{k: v for k, v in r.items() if k != "positions"},
            "winners": list(r["winners"]),
            "positions": [
                {"metrics": metrics_to_json(m), "persona": list(p), "active": a}
                for m, p, a in r["positions"]
            ],
        }
        for r in records
    ]
    doc = {"format": RECORDS_FORMAT, "version": RECORDS_VERSION, "games": games}
    atomic_write_text(path, json.dumps(doc, separators=(",", ":")) + "\n")


def load_records(path: str | Path) -> list[dict[str, Any]]:
    """Records written by :func:`save_records`; a ``ValueError`` naming the file and the
    problem for anything else (older pickled caches are not read: regenerate them)."""
    try:
        doc = json.loads(Path(path).read_text())
    except (ValueError, UnicodeDecodeError) as e:
        raise ValueError(
            f"{path}: not a JSON records file ({e}); pickled records of older versions are "
            "not read (they could run code): delete the file to regenerate it"
        ) from e
    if not isinstance(doc, dict) or doc.get("format") != RECORDS_FORMAT:
        raise ValueError(f"{path}: not a {RECORDS_FORMAT} file")
    if doc.get("version") != RECORDS_VERSION:
        raise ValueError(f"{path}: version {doc.get('version')!r} is not supported")
    out = []
    for i, g in enumerate(doc.get("games", [])):
        try:
            n = int(g["n"])
            positions = [
                (metrics_from_json(p["metrics"], n), tuple(p["persona"]), int(p["active"]))
                for p in g["positions"]
            ]
            out.append({**g, "winners": tuple(g["winners"]), "positions": positions})
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"{path}: game {i} is malformed ({e!r})") from e
    return out
