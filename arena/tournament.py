"""Tournaments: many games between bots, seats rotated, deals shared, several processes.

Scheduling: game ``i`` uses deal ``i // n`` (its seed fixes personalities, hands, decks and the
first player) and rotation ``i % n``: entry ``e`` of the bot list sits in seat ``(e + i) % n``.
A block of ``n`` consecutive games therefore plays one deal ``n`` times with every bot in every
seat, so every bot gets exactly the same personalities, hands and seats over the block
("duplicate" play); with ``games`` a multiple of ``n`` the balance is exact.

Outputs (see :func:`write_outputs`): a JSON summary (per bot ``name``, ``games``, ``wins``,
``win_rate``, ``ci95``, ratings, per-personality and per-seat tables, and every game), a CSV
summary, a per-seat CSV of every game and two plots.
"""

from __future__ import annotations

import csv
import json
import os
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from agents.base import Bot, bot_rngs, play_game
from agents.registry import make_bot
from arena.stats import summarize
from nanty_env.engine.config import GameConfig
from nanty_env.engine.tables import tables

DEAL_STRIDE = 100_000  # deal seed = seed * DEAL_STRIDE + deal number


@dataclass(frozen=True)
class TournamentSpec:
    """What to play: bot specs (one per seat), player count, number of games, base seed and
    the game options."""

    bots: tuple[str, ...]
    num_players: int = 4
    games: int = 100
    seed: int = 0
    personalities: str = "standard"
    thresholds: str = "rulebook"
    interrupt_windows: str = "public"

    def __post_init__(self) -> None:
        if len(self.bots) != self.num_players:
            raise ValueError(
                f"{self.num_players} players need {self.num_players} bots, got {len(self.bots)}"
            )

    def game_config(self) -> GameConfig:
        return GameConfig(
            num_players=self.num_players,
            personalities=self.personalities,
            thresholds=self.thresholds,
            interrupt_windows=self.interrupt_windows,
            log=False,
        )


@dataclass(frozen=True)
class Task:
    game: int
    deal_seed: int
    rotation: int


def schedule(spec: TournamentSpec) -> list[Task]:
    n = spec.num_players
    return [Task(i, spec.seed * DEAL_STRIDE + i // n, i % n) for i in range(spec.games)]


def seats_for(rotation: int, n: int) -> list[int]:
    """Entry index sitting in each seat under ``rotation``."""
    return [(s - rotation) % n for s in range(n)]


@cache
def _bots(specs: tuple[str, ...]) -> tuple[Bot, ...]:
    """One bot object per entry, built once per process (bots are reset before each game)."""
    return tuple(make_bot(s) for s in specs)


def play_task(spec: TournamentSpec, task: Task) -> dict[str, Any]:
    """Play one scheduled game and return its record (runs in a worker process)."""
    n = spec.num_players
    entries = _bots(spec.bots)
    seats = seats_for(task.rotation, n)
    bots = [entries[e] for e in seats]
    rngs = bot_rngs(task.deal_seed, n, salt=task.rotation + 1)
    t0, c0 = time.perf_counter(), time.process_time()
    _, rec = play_game(bots, spec.game_config(), task.deal_seed, rngs)
    cpu = time.process_time() - c0
    names = tables().data.personalities
    return {
        "game": task.game,
        "deal_seed": task.deal_seed,
        "rotation": task.rotation,
        "seats": seats,
        "bots": [spec.bots[e] for e in seats],
        "winners": list(rec.winners),
        "reason": rec.reason,
        "personalities": [names[k].id for k in rec.personalities],
        "points": None if rec.points is None else list(rec.points),
        "turns": rec.turns,
        "decisions": rec.decisions,
        "first_player": rec.first_player,
        "seconds": [round(x, 4) for x in rec.seconds],
        "wall_seconds": round(time.perf_counter() - t0, 4),
        "cpu_seconds": round(cpu, 4),  # the whole game on one core (both bots and engine)
    }


def _play_chunk(spec: TournamentSpec, tasks: Sequence[Task]) -> list[dict[str, Any]]:
    return [play_task(spec, t) for t in tasks]


@dataclass
class TournamentResult:
    spec: TournamentSpec
    records: list[dict[str, Any]]
    summary: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "spec": {**asdict(self.spec), "bots": list(self.spec.bots)},
            "chance": 1.0 / self.spec.num_players,
            "seconds": round(self.seconds, 2),
            **self.summary,
            "games": self.records,
        }


def run_tournament(
    spec: TournamentSpec,
    *,
    workers: int | None = None,
    progress: bool = True,
    chunk: int | None = None,
    journal: str | Path | None = None,
    resume: bool = False,
) -> TournamentResult:
    """Play the tournament (in ``workers`` processes; 1 = in this process).

    Args:
        chunk: games per task sent to a worker (default: small batches of fast games; use 1
            for slow bots so that progress and the journal follow every game).
        journal: a JSON-lines file that receives every finished game at once (a header line
            with the spec first), so that a long run can be watched and resumed.
        resume: keep the games already in ``journal`` (when its spec matches) and play only
            the missing ones.
    """
    tasks = schedule(spec)
    records: list[dict[str, Any]] = []
    log = None
    if journal is not None:
        records = _read_journal(journal, spec) if resume else []
        done = {r["game"] for r in records}
        tasks = [t for t in tasks if t.game not in done]
        log = _open_journal(journal, spec, keep=bool(records))
    workers = workers or min(2, os.cpu_count() or 1)
    chunk = chunk or max(1, min(16, len(tasks) // (workers * 8) or 1))
    chunks = [tasks[i : i + chunk] for i in range(0, len(tasks), chunk)]
    bar = progress_bar(len(tasks), progress, f"{spec.num_players}p {','.join(spec.bots)}")
    t0 = time.perf_counter()

    def finished(out: list[dict[str, Any]]) -> None:
        records.extend(out)
        if log is not None:
            for r in out:
                log.write(json.dumps(r) + "\n")
            log.flush()
        bar.update(len(out))

    try:
        if workers <= 1:
            for c in chunks:
                finished(_play_chunk(spec, c))
        elif chunks:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                futures = [pool.submit(_play_chunk, spec, c) for c in chunks]
                for fut in as_completed(futures):
                    finished(fut.result())
    finally:
        bar.close()
        if log is not None:
            log.close()
    records.sort(key=lambda r: r["game"])
    result = TournamentResult(spec, records, seconds=time.perf_counter() - t0)
    result.summary = summarize(spec.bots, records)
    return result


def load_journal(path: str | Path) -> TournamentResult:
    """The (possibly partial) result recorded in a journal written by :func:`run_tournament`."""
    lines = [x for x in Path(path).read_text().splitlines() if x.strip()]
    if not lines:
        raise ValueError(f"{path} is empty")
    head = json.loads(lines[0])["spec"]
    spec = TournamentSpec(**{**head, "bots": tuple(head["bots"])})
    records = sorted(_read_journal(path, spec), key=lambda r: r["game"])
    if not records:
        raise ValueError(f"{path} holds no finished game yet")
    seconds = sum(r.get("wall_seconds", 0.0) for r in records)
    return TournamentResult(spec, records, summarize(spec.bots, records), seconds)


def _spec_header(spec: TournamentSpec) -> dict[str, Any]:
    return {"spec": {**asdict(spec), "bots": list(spec.bots)}}


def _read_journal(path: str | Path, spec: TournamentSpec) -> list[dict[str, Any]]:
    """Games of a matching earlier run (none if the file is missing or for another spec)."""
    path = Path(path)
    if not path.exists():
        return []
    lines = [x for x in path.read_text().splitlines() if x.strip()]
    if not lines or json.loads(lines[0]) != _spec_header(spec):
        return []
    out = {}
    for line in lines[1:]:
        try:
            r = json.loads(line)
        except json.JSONDecodeError:  # a line cut short by an interrupted run
            continue
        out[r["game"]] = r
    return list(out.values())


def _open_journal(path: str | Path, spec: TournamentSpec, *, keep: bool):
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if keep:
        ends_cleanly = path.read_bytes().endswith(b"\n")
        f = path.open("a")
        if not ends_cleanly:  # an interrupted run left half a line
            f.write("\n")
        return f
    f = path.open("w")
    f.write(json.dumps(_spec_header(spec)) + "\n")
    return f


class _NoBar:
    def update(self, k: int) -> None:
        return None

    def close(self) -> None:
        return None


def progress_bar(total: int, enabled: bool, desc: str) -> Any:
    """A tqdm bar (or a silent stand-in when disabled or tqdm is missing)."""
    if not enabled:
        return _NoBar()
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is in the train/eval extras
        return _NoBar()
    return tqdm(total=total, desc=desc, unit="game", dynamic_ncols=True)


# ---------------------------------------------------------------------- outputs
def format_table(result: TournamentResult) -> str:
    """The per-bot table printed by the CLI."""
    s = result.summary
    lines = [
        f"{result.spec.games} games, {result.spec.num_players} players, "
        f"chance {1 / result.spec.num_players:.1%}, {result.seconds:.0f}s",
        f"{'bot':<28} {'games':>6} {'wins':>6} {'win rate':>9} {'95% CI':>17} "
        f"{'rating mu±sigma':>17} {'s/game':>7}",
    ]
    for b in s["bots"]:
        lo, hi = b["ci95"]
        ci = f"[{lo:.1%}, {hi:.1%}]"
        rating = f"{b['rating_mu']:.1f}±{b['rating_sigma']:.1f}"
        lines.append(
            f"{b['name']:<28} {b['games']:>6} {b['wins']:>6} {b['win_rate']:>9.1%} {ci:>17} "
            f"{rating:>17} {b['seconds_per_game']:>7.2f}"
        )
    for title, rows, label in (
        ("by personality", s["by_personality"], lambda r: r["personality"]),
        ("by seat", s["by_seat"], lambda r: f"seat {r['seat']}"),
        (
            "by who held an end-rule personality (Holmes) at the end",
            s["by_end_rule_holder"],
            lambda r: r["holder"],
        ),
    ):
        lines.append(f"{title}:")
        for r in rows:
            lo, hi = r["ci95"]
            lines.append(
                f"  {r['bot']:<26} {label(r):<18} {r['wins']:>5}/{r['games']:<5} "
                f"{r['win_rate']:>6.1%} [{lo:.1%}, {hi:.1%}]"
            )
    lines.append("how games ended: " + ", ".join(f"{k} {v}" for k, v in s["reasons"].items()))
    return "\n".join(lines)


def write_outputs(result: TournamentResult, out: str | Path, *, plots: bool = True) -> list[Path]:
    """Write ``out`` (JSON), ``<stem>.csv`` (per bot), ``<stem>_games.csv`` (per game and
    seat) and, with ``plots``, ``<stem>_winrate.png`` and ``<stem>_personality.png``."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result.to_json(), indent=1) + "\n")
    written = [out]
    stem = out.with_suffix("")
    summary_csv = stem.with_name(stem.name + ".csv")
    with summary_csv.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(
            [
                "name",
                "games",
                "wins",
                "win_rate",
                "ci95_low",
                "ci95_high",
                "rating_mu",
                "rating_sigma",
                "seconds_per_game",
            ]
        )
        for b in result.summary["bots"]:
            w.writerow(
                [
                    b["name"],
                    b["games"],
                    b["wins"],
                    f"{b['win_rate']:.4f}",
                    f"{b['ci95'][0]:.4f}",
                    f"{b['ci95'][1]:.4f}",
                    f"{b['rating_mu']:.3f}",
                    f"{b['rating_sigma']:.3f}",
                    f"{b['seconds_per_game']:.3f}",
                ]
            )
    written.append(summary_csv)
    games_csv = stem.with_name(stem.name + "_games.csv")
    with games_csv.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(
            [
                "game",
                "deal_seed",
                "rotation",
                "seat",
                "bot",
                "personality",
                "won",
                "reason",
                "turns",
                "first_player",
                "seconds",
            ]
        )
        for r in result.records:
            for seat in range(len(r["seats"])):
                w.writerow(
                    [
                        r["game"],
                        r["deal_seed"],
                        r["rotation"],
                        seat,
                        r["bots"][seat],
                        r["personalities"][seat],
                        int(seat in r["winners"]),
                        r["reason"],
                        r["turns"],
                        r["first_player"],
                        r["seconds"][seat],
                    ]
                )
    written.append(games_csv)
    if plots:
        from arena.plots import plot_personality_heatmap, plot_win_rates

        written.append(plot_win_rates(result, stem.with_name(stem.name + "_winrate.png")))
        written.append(
            plot_personality_heatmap(result, stem.with_name(stem.name + "_personality.png"))
        )
    return written
