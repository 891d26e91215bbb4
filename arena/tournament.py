"""Tournaments: many games between bots, seats rotated, deals shared, several processes.

Scheduling: game ``i`` uses deal ``i // n`` (its seed fixes personalities, hands, decks and the
first player) and rotation ``i % n``: entry ``e`` of the bot list sits in seat ``(e + i) % n``.
A block of ``n`` consecutive games therefore plays one deal ``n`` times with every bot in every
seat, so every bot gets exactly the same personalities, hands and seats over the block
("duplicate" play); with ``games`` a multiple of ``n`` the balance is exact.

Outputs (see :func:`write_outputs`): a JSON summary (per bot ``name``, ``games``, ``wins``,
``win_rate``, ``ci95``, ratings, per-personality and per-seat tables, and every game), a CSV
summary, a per-seat CSV of every game and two plots, each written atomically.

No finished game is lost: every game goes to the journal (JSON lines, a header with the spec
first) the moment it is finished; a journal is never truncated (another tournament's journal,
or this one's without ``resume``, is refused with a message naming the difference); Ctrl-C
and SIGTERM stop within a couple of seconds with every finished game kept and every worker
gone (:class:`TournamentInterrupted` carries the partial result); a worker that dies or stops
answering ends the run with one :class:`~arena.workers.WorkerError`.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, fields
from functools import cache
from pathlib import Path
from typing import Any

from agents.base import Bot, bot_rngs, play_game
from agents.interrupts import Interrupted, StopRequest
from agents.registry import make_bot
from agents.rulesets import bot_expansion, role_ids
from arena.stats import end_rule_roles, summarize
from arena.workers import WorkerError, WorkerPool
from nanty_env.engine import GameConfig
from nanty_env.storage.files import atomic_path, atomic_write_text
from nanty_env.storage.records import GameRecorder, record_name, save_record

DEAL_STRIDE = 100_000  # deal seed = seed * DEAL_STRIDE + deal number
RECORD_KEYS = ("game", "deal_seed", "rotation", "seats", "bots", "winners", "reason")


class TournamentError(ValueError):
    """A tournament that cannot be played as asked (one line saying why)."""


class JournalError(TournamentError):
    """A journal that is damaged or belongs to another tournament."""


class TournamentInterrupted(Interrupted):
    """Ctrl-C / SIGTERM stopped the tournament; ``result`` holds every finished game (all of
    them also in the journal, if there is one)."""

    def __init__(self, signum: int, message: str, result: TournamentResult) -> None:
        super().__init__(signum, message)
        self.result = result


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
    expansion: str | None = None
    content: str | None = None

    def __post_init__(self) -> None:
        if len(self.bots) != self.num_players:
            raise TournamentError(
                f"{self.num_players} players need {self.num_players} bots, got {len(self.bots)}"
            )
        for name in ("num_players", "games", "seed"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise TournamentError(f"{name} must be an integer, got {value!r}")
        if self.games < 1:
            raise TournamentError(f"games must be at least 1, got {self.games}")
        if self.seed < 0:
            raise TournamentError(f"seed must be non-negative, got {self.seed}")
        try:
            self.game_config()
        except ValueError as e:
            raise TournamentError(str(e)) from e

    def game_config(self) -> GameConfig:
        return GameConfig(
            num_players=self.num_players,
            personalities=self.personalities,
            thresholds=self.thresholds,
            interrupt_windows=self.interrupt_windows,
            log=False,
            expansion=self.expansion,
            content=self.content,
        )

    def to_dict(self) -> dict[str, Any]:
        """The spec as JSON-safe data; ``expansion`` and ``content`` only when set (so a base
        game tournament's journal and summary read as before expansions existed)."""
        d = {**asdict(self), "bots": list(self.bots)}
        for key in ("expansion", "content"):
            if d[key] is None:
                del d[key]
        return d

    def enders(self) -> frozenset[str]:
        """The end-rule roles of the spec's ruleset (Holmes; Sloth in the expansion)."""
        return end_rule_roles(self.expansion, self.content)


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


def play_task(
    spec: TournamentSpec, task: Task, record_dir: str | Path | None = None
) -> dict[str, Any]:
    """Play one scheduled game and return its result (runs in a worker process); with
    ``record_dir``, also write the game's record there (``game_000042.json``, or
    ``game_000042-2.json`` ... when another run's record has that name: none is replaced)."""
    n = spec.num_players
    entries = _bots(spec.bots)
    seats = seats_for(task.rotation, n)
    bots = [entries[e] for e in seats]
    rngs = bot_rngs(task.deal_seed, n, salt=task.rotation + 1)
    t0, c0 = time.perf_counter(), time.process_time()
    recorder = None
    if record_dir is not None:
        recorder = GameRecorder(
            spec.game_config(),
            task.deal_seed,
            players=[spec.bots[e] for e in seats],
            source="nanty eval",
            meta={"game": task.game, "rotation": task.rotation, "tournament_seed": spec.seed},
        )
    on_action = recorder.note if recorder is not None else None
    game, rec = play_game(bots, spec.game_config(), task.deal_seed, rngs, on_action=on_action)
    cpu = time.process_time() - c0
    record_path = None
    if recorder is not None:
        record_path = save_record(recorder.record(game), record_dir, record_name(task.game))
    names = role_ids(spec.game_config())
    return {
        "game": task.game,
        "deal_seed": task.deal_seed,
        "rotation": task.rotation,
        "seats": seats,
        "bots": [spec.bots[e] for e in seats],
        "winners": list(rec.winners),
        "reason": rec.reason,
        "personalities": [names[k] for k in rec.roles],  # objectives in the expansion
        "points": None if rec.points is None else list(rec.points),
        "turns": rec.turns,
        "decisions": rec.decisions,
        "first_player": rec.first_player,
        "seconds": [round(x, 4) for x in rec.seconds],
        "wall_seconds": round(time.perf_counter() - t0, 4),
        "cpu_seconds": round(cpu, 4),  # the whole game on one core (both bots and engine)
        **({"record": str(record_path)} if record_path is not None else {}),
    }


@dataclass
class TournamentResult:
    spec: TournamentSpec
    records: list[dict[str, Any]]
    summary: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "spec": self.spec.to_dict(),
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
    stall_timeout: float = 300.0,
    log: Callable[[str], None] | None = None,
    record_dir: str | Path | None = None,
    ray_address: str | None = None,
) -> TournamentResult:
    """Play the tournament (in ``workers`` processes; 1 = in this process; with
    ``ray_address``, as tasks on that Ray cluster: :mod:`arena.ray_runner`).

    Args:
        chunk: games per task sent to a worker (default: small batches of fast games); every
            game is reported (and journaled) as soon as it is finished whatever the chunk.
        journal: a JSON-lines file that receives every finished game at once (a header line
            with the spec first), so that a long run can be watched and resumed. An existing
            journal is never overwritten: see ``resume``.
        resume: keep the games already in ``journal`` (its spec must be this one) and play
            only the missing ones. Without it an existing, non-empty journal is refused.
        stall_timeout: seconds without a sign of life from a busy worker before it is
            declared stuck (a :class:`~arena.workers.WorkerError`).
        log: where notes go (skipped journal lines); default standard error.
        record_dir: write one game record per game there (``nanty replay`` reads them); each
            game's journal entry names its record.

    Raises:
        TournamentError / JournalError: before any game, for bad arguments or journals.
        TournamentInterrupted: on Ctrl-C / SIGTERM, with every finished game kept.
        WorkerError: a worker died, stopped answering or failed.
    """
    log = log or _stderr
    if workers is not None and workers < 1:
        raise TournamentError(f"workers must be at least 1, got {workers}")
    if chunk is not None and chunk < 1:
        raise TournamentError(f"chunk must be at least 1, got {chunk}")
    _bots(spec.bots)  # every bot is built (and every checkpoint checked) before any game
    tasks = schedule(spec)
    records: list[dict[str, Any]] = []
    if journal is not None:
        records = _prepare_journal(Path(journal), spec, resume, log)
        done = {r["game"] for r in records}
        tasks = [t for t in tasks if t.game not in done]
    workers = workers or min(2, os.cpu_count() or 1)
    chunk = chunk or max(1, min(16, len(tasks) // (workers * 8) or 1))
    chunks = [tasks[i : i + chunk] for i in range(0, len(tasks), chunk)]
    t0 = time.perf_counter()
    writer = None if journal is None else _JournalWriter(Path(journal), spec)
    bar = progress_bar(len(tasks), progress, f"{spec.num_players}p {','.join(spec.bots)}")
    session = round(time.time(), 3)  # tells this run's games from a resumed run's in the journal

    def finished(record: dict[str, Any]) -> None:
        record["session_start_seconds"] = session
        record["session_elapsed_seconds"] = round(time.perf_counter() - t0, 3)
        if writer is not None:
            writer.add(record)
        records.append(record)
        bar.update(1)

    stop = StopRequest(soft=workers > 1)
    try:
        with stop:
            if ray_address is not None:
                from arena.ray_runner import run_chunks_on_ray

                context = (spec, record_dir)
                run_chunks_on_ray(_play_in_worker, context, chunks, finished, address=ray_address)
            elif workers <= 1:
                for t in tasks:
                    finished(play_task(spec, t, record_dir))
            elif chunks:
                context = (spec, record_dir)
                _play_in_workers(context, chunks, workers, stall_timeout, stop, finished)
    except Interrupted as e:
        stop.signum = e.signum
    except WorkerError as e:
        kept = "" if journal is None else f" in {journal} (--resume plays the rest)"
        raise WorkerError(f"{e}; the {len(records)} finished games are kept{kept}") from e
    finally:
        bar.close()
        if writer is not None:
            writer.close()
    records.sort(key=lambda r: r["game"])
    result = TournamentResult(spec, records, seconds=time.perf_counter() - t0)
    result.summary = summarize(spec.bots, records, spec.enders())
    if stop.requested:
        where = "" if journal is None else f" (kept in {journal}; --resume plays the rest)"
        raise TournamentInterrupted(
            stop.signum,
            f"stopped by {stop.name}: {len(records)} of {spec.games} games finished{where}",
            result,
        )
    return result


def _play_in_worker(context: tuple[TournamentSpec, str | Path | None], task: Task) -> dict:
    """One game in a worker process (``context``: the spec and the record folder)."""
    spec, record_dir = context
    return play_task(spec, task, record_dir)


def _play_in_workers(
    context: tuple[TournamentSpec, str | Path | None],
    chunks: list[list[Task]],
    workers: int,
    stall_timeout: float,
    stop: StopRequest,
    finished: Callable[[dict[str, Any]], None],
) -> None:
    def describe(tasks: Sequence[Task]) -> str:
        return f"games {tasks[0].game}-{tasks[-1].game}" if tasks else "no games"

    pool = WorkerPool(
        _play_in_worker,
        context,
        min(workers, len(chunks)),
        stall_timeout=stall_timeout,
        describe=describe,
    )
    try:
        for record in pool.run(chunks, lambda: stop.requested):
            finished(record)
    finally:
        pool.close()  # also on errors and signals: no worker outlives the tournament
        for record in pool.leftovers:  # finished while the workers were being stopped
            finished(record)


def _stderr(text: str) -> None:
    print(text, file=sys.stderr)


def load_journal(path: str | Path, log: Callable[[str], None] | None = None) -> TournamentResult:
    """The (possibly partial) result recorded in a journal written by :func:`run_tournament`."""
    path = Path(path)
    spec = _journal_spec(path)
    if spec is None:
        raise JournalError(f"{path} is empty")
    records = sorted(_read_journal(path, spec, log or _stderr), key=lambda r: r["game"])
    if not records:
        raise JournalError(f"{path} holds no finished game yet")
    seconds = run_seconds(records)
    return TournamentResult(spec, records, summarize(spec.bots, records, spec.enders()), seconds)


def run_seconds(records: Sequence[dict[str, Any]]) -> float:
    """Wall time the run took: for each session (a run and each resume of it) the time from
    its start to its last finished game. Journals written before games carried these times
    give the sum of the games' own wall times instead (too long with several workers)."""
    if not all("session_elapsed_seconds" in r for r in records):
        return sum(r.get("wall_seconds", 0.0) for r in records)
    last: dict[Any, float] = {}
    for r in records:
        start, elapsed = r["session_start_seconds"], r["session_elapsed_seconds"]
        last[start] = max(last.get(start, 0.0), elapsed)
    return sum(last.values())


def _spec_header(spec: TournamentSpec) -> dict[str, Any]:
    return {"spec": spec.to_dict()}


def _journal_lines(path: Path) -> list[str]:
    try:
        return path.read_text().splitlines()
    except UnicodeDecodeError as e:
        raise JournalError(f"{path}: not a text file ({e.reason})") from e
    except OSError as e:
        raise JournalError(f"{path}: cannot read the journal ({e.strerror or e})") from e


def _journal_spec(path: Path) -> TournamentSpec | None:
    """The spec in a journal's header (None for a missing or empty file)."""
    if not path.exists():
        return None
    if path.is_dir():
        raise JournalError(f"{path} is a folder, not a games journal")
    lines = _journal_lines(path)
    if not any(x.strip() for x in lines):
        return None
    try:
        head = _loads(lines[0])["spec"]
        known = {f.name for f in fields(TournamentSpec)}
        unknown = sorted(set(head) - known)
        if unknown:
            raise ValueError(f"unknown spec fields {unknown}")
        if not isinstance(head["bots"], list) or not all(isinstance(b, str) for b in head["bots"]):
            raise ValueError("bots must be a list of bot specs")
        return TournamentSpec(**{**head, "bots": tuple(head["bots"])})
    except (ValueError, KeyError, TypeError) as e:
        raise JournalError(
            f"{path} line 1: not a tournament journal header ({type(e).__name__}: {e}); the "
            "file is left as it is"
        ) from e


def spec_differences(a: TournamentSpec, b: TournamentSpec) -> list[str]:
    """``name: x there, y here`` for every field in which two specs differ."""
    return [
        f"{f.name} {getattr(a, f.name)!r} there, {getattr(b, f.name)!r} here"
        for f in fields(TournamentSpec)
        if getattr(a, f.name) != getattr(b, f.name)
    ]


def _prepare_journal(
    path: Path, spec: TournamentSpec, resume: bool, log: Callable[[str], None]
) -> list[dict[str, Any]]:
    """The finished games to keep (refusing any journal that would otherwise be lost)."""
    old = _journal_spec(path)
    if old is None:
        return []
    if old != spec:
        raise JournalError(
            f"{path} holds another tournament ({'; '.join(spec_differences(old, spec))}); it is "
            "never overwritten: choose another --out"
        )
    records = _read_journal(path, spec, log)
    if not resume:
        raise JournalError(
            f"{path} already holds {len(records)} finished games of this tournament; pass "
            "--resume to keep them and play the rest, or choose another --out"
        )
    return records


def _read_journal(
    path: str | Path, spec: TournamentSpec, log: Callable[[str], None]
) -> list[dict[str, Any]]:
    """The games of the journal that belong to ``spec`` (one per game index). A line cut
    short at the end (an interrupted write) is dropped quietly; damaged lines elsewhere,
    records with a field of the wrong kind (which would break the statistics) and records that
    do not fit the spec's schedule are skipped with one note each."""
    path = Path(path)
    lines = _journal_lines(path)
    expected = {t.game: t for t in schedule(spec)}
    out: dict[int, dict[str, Any]] = {}
    damaged, invalid, foreign, repeated = [], [], [], []
    last = max((i for i, x in enumerate(lines) if x.strip()), default=0)
    for i, line in enumerate(lines[1:], start=1):
        if not line.strip():
            continue
        try:
            r = _loads(line)
            if not isinstance(r, dict) or any(k not in r for k in RECORD_KEYS):
                raise ValueError("missing fields")
        except ValueError:
            if i != last:
                damaged.append(i + 1)
            continue
        t = expected.get(r["game"]) if _is_int(r["game"]) else None
        if t is None or (r["deal_seed"], r["rotation"]) != (t.deal_seed, t.rotation):
            foreign.append(i + 1)
            continue
        problem = journal_record_problem(r, spec)
        if problem:
            invalid.append(f"{i + 1} ({problem})")
            continue
        if r["game"] in out:
            repeated.append(i + 1)
        out[r["game"]] = r
    for what, rows in (
        ("damaged lines", damaged),
        ("records with bad fields", invalid),
        ("records of games outside this tournament's schedule", foreign),
        ("repeated games (the last copy kept)", repeated),
    ):
        if rows:
            log(f"{path}: skipped {what}: {len(rows)} (line {', '.join(map(str, rows[:5]))})")
    return list(out.values())


def _loads(line: str) -> Any:
    """``json.loads`` for a journal line; JSON nested too deeply is a ValueError too."""
    try:
        return json.loads(line)
    except RecursionError as e:
        raise ValueError("nested too deeply") from e


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_number(x: Any) -> bool:
    return (_is_int(x) or isinstance(x, float)) and abs(x) < float("inf")


def journal_record_problem(r: dict[str, Any], spec: TournamentSpec) -> str:
    """What is wrong with a journal's game record for ``spec`` ("" when nothing): every field
    that the statistics, the CSV files and ``nanty compare`` read is checked here."""
    n = spec.num_players
    seats = seats_for(r["rotation"], n) if _is_int(r["rotation"]) else None
    if r["seats"] != seats:
        return "seats do not fit the rotation"
    if r["bots"] != [spec.bots[e] for e in seats]:
        return "bots do not fit the seats"
    winners = r["winners"]
    if not (
        isinstance(winners, list)
        and all(_is_int(w) and 0 <= w < n for w in winners)
        and len(set(winners)) == len(winners)
    ):
        return "winners is not a list of seats"
    if not isinstance(r["reason"], str):
        return "reason is not text"
    personalities = r.get("personalities")
    if not (
        isinstance(personalities, list)
        and len(personalities) == n
        and all(isinstance(x, str) for x in personalities)
    ):
        return "personalities is not one name per seat"
    for key in ("seconds", "points"):
        value = r.get(key)
        if value is None and key == "points":
            continue
        if not (isinstance(value, list) and len(value) == n and all(map(_is_number, value))):
            return f"{key} is not one number per seat"
    for key in ("turns", "first_player"):
        if not _is_int(r.get(key)):
            return f"{key} is not an integer"
    for key in ("wall_seconds", "session_start_seconds", "session_elapsed_seconds"):
        if key in r and not _is_number(r[key]):
            return f"{key} is not a number"
    return ""


def _mend_tail(path: Path) -> None:
    """End the journal with a newline before appending: a last line cut short by a killed run
    (never a finished game: each is written whole) is dropped, by an atomic rewrite."""
    data = path.read_bytes()
    if data.endswith(b"\n"):
        return
    head, _, tail = data.rpartition(b"\n")
    try:
        _loads(tail.decode("utf-8", "replace"))
        keep = data + b"\n"  # whole, only the newline missing
    except ValueError:
        keep = head + b"\n"
    with atomic_path(path) as tmp:
        tmp.write_bytes(keep)


class _JournalWriter:
    """Appends finished games to a journal, one flushed line each (a header first for a new
    file, written atomically); synced to disk at most every couple of seconds and at close."""

    def __init__(self, path: Path, spec: TournamentSpec) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        if _journal_spec(path) is None:  # a new (or empty) journal: the header alone, atomically
            atomic_write_text(path, json.dumps(_spec_header(spec)) + "\n")
        else:
            _mend_tail(path)
        self.file = path.open("a")
        self.synced = time.monotonic()

    def add(self, record: dict[str, Any]) -> None:
        self.file.write(json.dumps(record) + "\n")
        self.file.flush()
        if time.monotonic() - self.synced > 2.0:
            os.fsync(self.file.fileno())
            self.synced = time.monotonic()

    def close(self) -> None:
        self.file.flush()
        os.fsync(self.file.fileno())
        self.file.close()


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
    expansion = result.spec.expansion
    objectives = bot_expansion(expansion) is not None  # the expansion's roles, or its child's
    role = "objective" if objectives else "personality"
    ender = "an end-rule objective (Sloth)" if objectives else "an end-rule personality (Holmes)"
    ruleset = f", the {expansion} expansion" if expansion else ""
    lines = [
        f"{result.spec.games} games, {result.spec.num_players} players{ruleset}, "
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
        (f"by {role}", s["by_personality"], lambda r: r["personality"]),
        ("by seat", s["by_seat"], lambda r: f"seat {r['seat']}"),
        (
            f"by who held {ender} at the end",
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
    deals = s["deals"]
    if deals["complete_deals"]:
        d = deals["complete_deals"]
        bots = ", ".join(f"{b} {k}" for b, k in deals["same_bot"].items())
        lines.append(
            f"deals played in every seating: {d}; won by the same seat every time "
            f"{deals['same_seat']} ({deals['same_seat'] / d:.1%}), by the same bot every time: "
            f"{bots}; otherwise {deals['mixed']}"
        )
    return "\n".join(lines)


def write_outputs(result: TournamentResult, out: str | Path, *, plots: bool = True) -> list[Path]:
    """Write ``out`` (JSON), ``<stem>.csv`` (per bot), ``<stem>_games.csv`` (per game and
    seat) and, with ``plots``, ``<stem>_winrate.png`` and ``<stem>_personality.png``."""
    out = Path(out)
    if out.is_dir():
        raise TournamentError(
            f"{out} is a folder; write_outputs needs a file name (see output_paths)"
        )
    atomic_write_text(out, json.dumps(result.to_json(), indent=1) + "\n")
    written = [out]
    stem = out.with_suffix("")
    summary_csv = stem.with_name(stem.name + ".csv")
    with _atomic_csv(summary_csv) as w:
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
    with _atomic_csv(games_csv) as w:
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

        for plot, suffix in (
            (plot_win_rates, "_winrate"),
            (plot_personality_heatmap, "_personality"),
        ):
            path = stem.with_name(stem.name + suffix + ".png")
            with atomic_path(path, suffix=".png") as tmp:
                plot(result, tmp)
            written.append(path)
    return written


@contextlib.contextmanager
def _atomic_csv(path: Path) -> Iterator[Any]:
    """A csv writer whose rows replace ``path`` atomically when the block ends."""
    buf = io.StringIO(newline="")
    yield csv.writer(buf)
    atomic_write_text(path, buf.getvalue())


def output_paths(out: str | Path) -> tuple[Path, Path]:
    """The JSON summary and the games journal of ``nanty eval --out``, both inside the folder
    ``out`` names: ``--out DIR`` (an existing folder, a trailing slash or a name without a
    suffix) writes ``DIR/results.json`` and ``DIR/results_games.jsonl``; ``--out FILE.json``
    writes ``FILE.json`` and ``FILE_games.jsonl`` beside it."""
    text = str(out)
    path = Path(out)
    if path.is_dir() or text.endswith(("/", os.sep)) or not path.suffix:
        path = path / "results.json"
    return path, path.with_name(path.stem + "_games.jsonl")
