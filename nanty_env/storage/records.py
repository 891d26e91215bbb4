"""Game records: one versioned JSON file per game, enough to replay and verify it.

A record holds the game's configuration and seed (which fix the deal and every die roll), every
action in order with the seat that took it and its text, the outcome, and a digest of the final
state, so that ``check_record`` can re-simulate the game and say whether it ends exactly as
recorded. The format is described in docs/records.md; this module is its only reader and writer.

Records are written atomically (a temporary file renamed over the target), so a crash or a
signal never leaves half a record behind, and a game's first save claims a file name nobody has
(:func:`save_record`), so two games never share a file. Reading a record never opens any other
file: a record of a game played with a user's own content pack (``config.content``, a path) is
refused, since that path is not part of the record.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from nanty_env.engine import Game, GameConfig, IllegalActionError, frame_fields
from nanty_env.storage.files import (
    BadJSON,
    FileTooLarge,
    atomic_write_text,
    read_capped,
    strict_loads,
)

FORMAT = "nanty-narking-record"
VERSION = 1

# State fields (``Game.to_dict``) that the digest covers: the documented board, money, cards and
# personalities, not the engine's internal bookkeeping (frames, RNG state, knowledge, log), so
# that an engine refactor which plays the same game keeps old records valid.
DIGEST_FIELDS = (
    "n",
    "active",
    "turn",
    "first_player",
    "agents",
    "gren",
    "cit",
    "trouble",
    "building",
    "city_retired",
    "money",
    "hands",
    "penalties",
    "loans",
    "deck",
    "discard",
    "removed",
    "events_done",
    "persona",
)

# The expansion's state adds the Insanity level, the Elder Ones, the Great Old One boards, the
# objectives, the face-up cards and the building types (``CthulhuGame.to_dict``); the digest
# covers those of them that a game's state has, whatever its ruleset.
EXPANSION_DIGEST_FIELDS = (
    "insanity",
    "elder_area",
    "elder_owner",
    "goo",
    "objective",
    "faceup",
    "btype",
)

REQUIRED = ("config", "seed", "actions", "outcome", "final_digest")
MAX_RECORD_BYTES = 64 * 1024 * 1024  # a record file bigger than this is refused unread

# version -> function turning a record of that version into one of the next version. Empty
# while version 1 is the only one; an older record with no path here fails with a message.
UPGRADES: Mapping[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}


class RecordError(ValueError):
    """A file that is not a readable game record (the message says why)."""


def state_digest(game: Game) -> str:
    """A short fingerprint of the game's documented state (see ``DIGEST_FIELDS``, and those of
    ``EXPANSION_DIGEST_FIELDS`` that the state has)."""
    state = game.to_dict()
    keys = DIGEST_FIELDS + tuple(k for k in EXPANSION_DIGEST_FIELDS if k in state)
    payload = json.dumps({k: state[k] for k in keys}, sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(payload.encode()).hexdigest()


def outcome_dict(game: Game) -> dict[str, Any] | None:
    o = game.outcome
    if o is None:
        return None
    return {
        "winners": list(o.winners),
        "reason": o.reason,
        "points": None if o.points is None else list(o.points),
    }


def action_entry(game: Game, action: int) -> dict[str, Any]:
    """What a record keeps of ``action`` about to be taken in ``game`` (before ``apply``)."""
    from nanty_env.presentation.words import words_for

    seat = game.current_player
    frame = frame_fields(game.view(seat)["stack"][-1])
    return {
        "seat": seat,
        "action": int(action),
        "decision": game.decision,
        "text": words_for(game.cfg.theme, game.n, game.cfg).choice(frame, int(action)),
    }


@dataclass
class GameRecorder:
    """Collects a game's actions as they are taken; :meth:`record` builds the record.

    Use :meth:`apply` (records, then applies; nothing is recorded if the action is illegal) or,
    when something else applies the action, :meth:`note` just before it is applied.
    """

    config: GameConfig
    seed: int
    players: Sequence[str] = ()
    source: str = ""
    meta: dict[str, Any] = field(default_factory=dict)
    actions: list[dict[str, Any]] = field(default_factory=list)
    started: str = field(default_factory=lambda: _now())

    def note(self, game: Game, action: int) -> None:
        self.actions.append(action_entry(game, action))

    def apply(self, game: Game, action: int) -> None:
        entry = action_entry(game, action)
        game.apply(int(action))  # IllegalActionError: nothing recorded, game unchanged
        self.actions.append(entry)

    def record(self, game: Game) -> dict[str, Any]:
        """The record of ``game`` as played so far (finished or not)."""
        players = list(self.players) or [f"player {s}" for s in range(game.n)]
        return {
            "format": FORMAT,
            "version": VERSION,
            "source": self.source,
            "started": self.started,
            "saved": _now(),
            "config": self.config.to_dict(),
            "seed": int(self.seed),
            "players": players,
            "meta": self.meta,
            "actions": list(self.actions),
            "outcome": outcome_dict(game),
            "turns": game.turn,
            "final_digest": state_digest(game),
        }


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# ---------------------------------------------------------------------- files
def write_record(path: str | Path, record: Mapping[str, Any]) -> Path:
    """Write ``record`` to ``path`` atomically (parent folders are created), replacing any
    file there: for a game's later saves. A game's first save goes through
    :func:`save_record`, which never replaces another game's file."""
    return atomic_write_text(path, json.dumps(record, indent=1) + "\n")


def claim_record_path(folder: str | Path, name: str) -> Path:
    """A file name in ``folder`` (created if missing) that no other file has: ``name``, else
    ``<stem>-2<suffix>``, ``<stem>-3<suffix>``, ... The file is created empty, exclusively
    (``O_CREAT | O_EXCL``), so two writers (threads or processes) never get the same name."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    stem, suffix = Path(name).stem, Path(name).suffix
    for k in itertools.count(1):
        path = folder / (name if k == 1 else f"{stem}-{k}{suffix}")
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            continue
        os.close(fd)
        return path
    raise AssertionError("unreachable")  # pragma: no cover


def save_record(
    record: Mapping[str, Any], folder: str | Path, name: str, path: Path | None = None
) -> Path:
    """Save one game's record and return its file: the first time (``path`` None) under a
    fresh name in ``folder`` (``name``, or ``name`` with a ``-2``, ``-3``, ... suffix when that
    file exists: :func:`claim_record_path`); later (``path``: what the first save returned) by
    atomically replacing that same file. A finished game is never overwritten by another."""
    if path is None:
        path = claim_record_path(folder, name)
    try:
        return write_record(path, record)
    except BaseException:
        if path.exists() and path.stat().st_size == 0:
            path.unlink(missing_ok=True)  # the claimed name, still empty: give it back
        raise


def load_record(path: str | Path) -> dict[str, Any]:
    """Read and validate a record file (older versions are upgraded where a path exists).

    Raises:
        RecordError: not a file, bigger than ``MAX_RECORD_BYTES``, not UTF-8 JSON, not a
            record, a version this program cannot read, or a missing or malformed field; the
            one-line message names the file and, where relevant, the version.
    """
    path = Path(path)
    try:
        if path.is_dir():
            raise RecordError(f"{path}: a folder, not a record file")
        raw = read_capped(path, MAX_RECORD_BYTES)
    except FileTooLarge:
        raise RecordError(
            f"{path}: more than a record can be ({MAX_RECORD_BYTES // (1024 * 1024)} MB); not read"
        ) from None
    except OSError as e:
        raise RecordError(f"{path}: cannot read it ({e.strerror or e})") from e
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RecordError(f"{path}: not a text (UTF-8) file ({e.reason} at byte {e.start})") from e
    return parse_record(loads_json(text, str(path)), str(path))


def loads_json(text: str, source: str = "record") -> Any:
    """Strict JSON (:func:`~nanty_env.storage.files.strict_loads`) whose every failure is a one-line
    :class:`RecordError`: bad JSON, NaN or infinities, nesting too deep for the parser,
    numbers too long to convert."""
    try:
        return strict_loads(text)
    except BadJSON as e:
        raise RecordError(f"{source}: not JSON ({e})") from e


def parse_record(obj: Any, source: str = "record") -> dict[str, Any]:
    """Validate a record already parsed from JSON (see :func:`load_record`)."""
    if not isinstance(obj, dict) or obj.get("format") != FORMAT:
        raise RecordError(f"{source}: not a Nanty Narking game record (no format {FORMAT!r})")
    version = obj.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise RecordError(f"{source}: record format version {version!r} is not a number")
    if version > VERSION:
        raise RecordError(
            f"{source}: record format version {version} is newer than this program reads "
            f"(version {VERSION}); update nanty-narking to read it"
        )
    while version < VERSION:
        upgrade = UPGRADES.get(version)
        if upgrade is None:
            raise RecordError(
                f"{source}: record format version {version} is no longer supported "
                f"(this program reads version {VERSION}) and cannot be upgraded"
            )
        obj = upgrade(obj)
        version = obj["version"]
    missing = [k for k in REQUIRED if k not in obj]
    if missing:
        raise RecordError(f"{source}: record version {version} lacks {', '.join(missing)}")
    problem = _record_problem(obj)
    if problem:
        raise RecordError(f"{source}: {problem}")
    return obj


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _record_problem(obj: Mapping[str, Any]) -> str:
    """What is wrong with a record's fields ("" when nothing): every field the readers use
    is checked here, so that they never meet a value of the wrong type."""
    config = obj["config"]
    if not isinstance(config, dict):
        return f"config must be an object, got {type(config).__name__}"
    if config.get("content") is not None:
        return (
            f"the game was played with a content pack of its own ({str(config['content'])[:80]!r}"
            "); a record never names a file to open, so it cannot be replayed here"
        )
    try:
        cfg = GameConfig.from_dict(config)
    except (TypeError, ValueError) as e:
        return f"bad game config: {str(e).splitlines()[0] if str(e) else type(e).__name__}"
    seed = obj["seed"]
    if not _is_int(seed) or seed < 0:
        shown = repr(seed) if not isinstance(seed, float) or math.isfinite(seed) else str(seed)
        return f"the seed must be a non-negative integer, got {shown[:40]}"
    actions = obj["actions"]
    if not isinstance(actions, list):
        return f"actions must be a list, got {type(actions).__name__}"
    for i, a in enumerate(actions, start=1):
        if not isinstance(a, dict) or not _is_int(a.get("action")) or a["action"] < 0:
            return f"action {i} has no non-negative integer 'action'"
        if "seat" in a and not (_is_int(a["seat"]) and 0 <= a["seat"] < cfg.num_players):
            return f"action {i} has a 'seat' that is not a player (0 to {cfg.num_players - 1})"
    outcome = obj["outcome"]
    if outcome is not None:
        if not isinstance(outcome, dict):
            return f"outcome must be an object or null, got {type(outcome).__name__}"
        winners, points = outcome.get("winners"), outcome.get("points")
        if not isinstance(winners, list) or not all(
            _is_int(w) and 0 <= w < cfg.num_players for w in winners
        ):
            return "outcome winners must be a list of players"
        if not isinstance(outcome.get("reason"), str):
            return "outcome reason must be text"
        if points is not None and not (
            isinstance(points, list) and all(_is_int(p) for p in points)
        ):
            return "outcome points must be a list of integers or null"
    if not isinstance(obj["final_digest"], str):
        return "final_digest must be text"
    players = obj.get("players")
    if players is not None and not (
        isinstance(players, list) and all(isinstance(p, str) for p in players)
    ):
        return "players must be a list of names"
    return ""


# ---------------------------------------------------------------------- replay
def record_config(record: Mapping[str, Any], *, log: bool = True) -> GameConfig:
    """The record's game configuration (with the readable log on, for people)."""
    return GameConfig.from_dict({**record["config"], "log": log})


def new_game(record: Mapping[str, Any], *, log: bool = True) -> Game:
    """The record's game before its first action."""
    return Game.new(record_config(record, log=log), int(record["seed"]))


def replay(record: Mapping[str, Any], *, log: bool = True) -> Iterator[tuple[Game, dict[str, Any]]]:
    """``(game, entry)`` before each recorded action; the action is applied once the consumer
    moves on (so after the loop ``game`` is the final state). Raises ``IllegalActionError`` for
    an action the re-simulated game does not allow."""
    g = new_game(record, log=log)
    for entry in record["actions"]:
        yield g, entry
        g.apply(int(entry["action"]))


def final_game(record: Mapping[str, Any], *, log: bool = False) -> Game:
    g = new_game(record, log=log)
    for entry in record["actions"]:
        g.apply(int(entry["action"]))
    return g


@dataclass(frozen=True)
class CheckResult:
    """``ok`` only if every action was legal for the recorded seat and the game ended as
    recorded; otherwise ``problem`` describes the first mismatch (``step`` is 1-based, 0 for
    the end of the game)."""

    ok: bool
    actions: int
    problem: str = ""
    step: int = 0


def check_record(record: Mapping[str, Any]) -> CheckResult:
    """Re-simulate ``record`` and compare every step and the ending with what it says."""
    g = new_game(record, log=False)
    actions = record["actions"]
    for i, entry in enumerate(actions, start=1):
        text = entry.get("text", "")
        if g.is_terminal:
            return CheckResult(False, i - 1, f"action {i} ({text}) comes after the end", i)
        seat = entry.get("seat", g.current_player)
        if seat != g.current_player:
            return CheckResult(
                False,
                i - 1,
                f"action {i} ({text}) is recorded for player {seat}, "
                f"but player {g.current_player} decides there",
                i,
            )
        try:
            g.apply(int(entry["action"]))
        except IllegalActionError as e:
            return CheckResult(False, i - 1, f"action {i} ({text}) is illegal: {e}", i)
    n = len(actions)
    recorded = record["outcome"]
    replayed = outcome_dict(g)
    if recorded != replayed:
        return CheckResult(
            False, n, f"the outcome differs: recorded {recorded}, replayed {replayed}", 0
        )
    digest = state_digest(g)
    if record["final_digest"] != digest:
        return CheckResult(
            False,
            n,
            f"the final state differs (digest {record['final_digest']} recorded, {digest} "
            "replayed)",
            0,
        )
    return CheckResult(True, n)


def record_name(index: int | str, prefix: str = "game") -> str:
    """A record file name: ``game_000042.json``."""
    return f"{prefix}_{index:06d}.json" if isinstance(index, int) else f"{prefix}_{index}.json"
