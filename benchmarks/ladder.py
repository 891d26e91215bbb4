"""The agent ladder (docs/ladder.md): random -> heuristic -> hint bot -> ISMCTS -> learned.

    python benchmarks/ladder.py                      # every cell, into runs/ladder/ (long)
    python benchmarks/ladder.py --only learned_vs_3hint --only hint_vs_3hint
    python benchmarks/ladder.py --table              # the table from what has been played

Each cell is a tournament of the row's bot in one seat against copies of the column's bot
(seats rotated, every deal played once per rotation), on fixed deal seeds; every finished game
is appended to ``<out>/<cell>_s<seed>_games.jsonl`` at once, and running the command again
plays only the missing games. The 4-player cells against the hint bot use the evaluation deals
of docs/ladder.md (seeds 40-43); ``hint_vs_3hint`` is the hint bot in the same seats on the
same deals, so ``nanty compare`` pairs it with ``learned_vs_3hint`` game by game.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.paired import compare, format_paired, pooled, won_games
from arena.stats import wilson_interval
from arena.tournament import TournamentSpec, load_journal, run_tournament

HINT = "heuristic:learned=1:robust=1:durable=1"
ISMCTS = (
    "ismcts:budget=25:root=rr:prior_depth=1:margin=0.05:only=main+card:learned=1:prior_learned=1"
)
NETWORK_4P = "learned:switch=0"
EVAL_SEEDS = (40, 41, 42, 43)
ISMCTS_SEEDS = (70, 71, 72)  # 40 games each: ISMCTS thinks 25 CPU-s a game


@dataclass(frozen=True)
class Cell:
    name: str
    bot: str
    opponent: str
    players: int
    games: int  # per seed
    seeds: tuple[int, ...] = (70,)


CELLS = (
    # 4 players: the row's bot against three copies of the column's
    Cell("random_vs_3hint", "random", HINT, 4, 200),
    Cell("heuristic_vs_3hint", "heuristic", HINT, 4, 200),
    Cell("hint_vs_3random", HINT, "random", 4, 200),
    Cell("hint_vs_3heuristic", HINT, "heuristic", 4, 200),
    Cell("hint_vs_3hint", HINT, HINT, 4, 400, EVAL_SEEDS),
    # the 4-player network alone: the shipped `learned` switches to the hint bot's value where
    # the others spread (its network's `play`), measured on its own deals in docs/ladder.md
    Cell("learned_vs_3random", NETWORK_4P, "random", 4, 200),
    Cell("learned_vs_3heuristic", NETWORK_4P, "heuristic", 4, 400),
    Cell("learned_vs_3hint", NETWORK_4P, HINT, 4, 400, EVAL_SEEDS),
    # 2 players, head to head
    Cell("heuristic_vs_random_2p", "heuristic", "random", 2, 100),
    Cell("hint_vs_heuristic_2p", HINT, "heuristic", 2, 200),
    Cell("ismcts_vs_hint_2p", ISMCTS, HINT, 2, 40, ISMCTS_SEEDS),
    Cell("learned_vs_random_2p", "learned", "random", 2, 100),
    Cell("learned_vs_heuristic_2p", "learned", "heuristic", 2, 200),
    Cell("learned_vs_hint_2p", "learned", HINT, 2, 400),
    Cell("learned_vs_ismcts_2p", "learned", ISMCTS, 2, 40, ISMCTS_SEEDS),
)


def journal(out: Path, cell: Cell, seed: int) -> Path:
    return out / f"{cell.name}_s{seed}_games.jsonl"


def play(cell: Cell, out: Path, workers: int) -> None:
    for seed in cell.seeds:
        spec = TournamentSpec(
            bots=(cell.bot, *[cell.opponent] * (cell.players - 1)),
            num_players=cell.players,
            games=cell.games,
            seed=seed,
        )
        print(f"{cell.name}, seed {seed}: {cell.games} games", flush=True)
        run_tournament(
            spec, workers=workers, chunk=1, journal=journal(out, cell, seed), resume=True
        )


def row(cell: Cell, out: Path) -> str | None:
    """One markdown row: the row bot's wins over every seed played so far."""
    records = []
    for seed in cell.seeds:
        path = journal(out, cell, seed)
        if path.is_file():
            records += load_journal(path).records
    if not records:
        return None
    wins = sum(won_games(records, 0).values())
    games = len(records)
    lo, hi = wilson_interval(wins, games)
    cpu = sum(r["cpu_seconds"] for r in records) / games
    seeds = ",".join(str(s) for s in cell.seeds)
    return (
        f"| {cell.bot} | {cell.opponent} x{cell.players - 1} | {wins} / {games} = "
        f"{wins / games:.1%} [{lo:.1%}, {hi:.1%}] | {1 / cell.players:.0%} | {cpu:.2f} | "
        f"{seeds} |"
    )


def table(out: Path) -> None:
    print("| bot | against | wins / games, 95 % CI | chance | CPU s / game (all seats) | seeds |")
    print("| --- | --- | --- | --- | --- | --- |")
    for cell in CELLS:
        line = row(cell, out)
        if line:
            print(line)
    cells = {c.name: c for c in CELLS}
    a = [journal(out, cells["learned_vs_3hint"], s) for s in EVAL_SEEDS]
    b = [journal(out, cells["hint_vs_3hint"], s) for s in EVAL_SEEDS]
    pairs = [(x, y) for x, y in zip(a, b, strict=True) if x.is_file() and y.is_file()]
    if pairs:
        result = pooled(
            [compare(load_journal(x).records, load_journal(y).records) for x, y in pairs]
        )
        print(f"\n{NETWORK_4P} against the hint bot in the same seats on the same deals:")
        print(format_paired(result, NETWORK_4P, HINT))


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", action="append", help="cell name (repeatable)")
    ap.add_argument("--out", default="runs/ladder")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--table", action="store_true", help="only print the table")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if not args.table:
        names = {c.name for c in CELLS}
        for name in args.only or []:
            if name not in names:
                raise SystemExit(f"unknown cell {name!r}; known: {', '.join(sorted(names))}")
        for cell in CELLS:
            if not args.only or cell.name in args.only:
                play(cell, out, args.workers)
    table(out)


if __name__ == "__main__":
    main()
