"""Game records: one versioned JSON file per game, enough to replay and verify it.

A record holds the game's configuration and seed (which fix the deal and every die roll), every
action in order with the seat that took it and its text, the outcome, and a digest of the final
state, so that ``check_record`` can re-simulate the game and say whether it ends exactly as
recorded. The format is described in docs/records.md; this module is its only reader and writer.

Records are written atomically (a temporary file renamed over the target), so a crash or a
signal never leaves half a record behind.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from nanty_env.engine import Game, GameConfig, IllegalActionError, frame_fields

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
# objectives, the face-up cards and the building types (``CthulhuGame.to_dict``).
CTHULHU_DIGEST_FIELDS = (
    *DIGEST_FIELDS,
    "insanity",
    "elder_area",
    "elder_owner",
    "goo",
    "objective",
    "faceup",
    "btype",
)

REQUIRED = ("config", "seed", "actions", "outcome", "final_digest")

# version -> function turning a record of that version into one of the next version. Empty
# while version 1 is the only one; an older record with no path here fails with a message.
UPGRADES: Mapping[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}


class RecordError(ValueError):
    """A file that is not a readable game record (the message says why)."""


def state_digest(game: Game) -> str:
    """A short fingerprint of the game's documented state (see ``DIGEST_FIELDS``; an
    expansion game's also covers ``CTHULHU_DIGEST_FIELDS``)."""
    state = game.to_dict()
    keys = DIGEST_FIELDS if game.cfg.expansion is None else CTHULHU_DIGEST_FIELDS
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
    from nanty_env.words import words_for

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
    """Write ``record`` to ``path`` atomically (parent folders are created)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(record, indent=1) + "\n"
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def load_record(path: str | Path) -> dict[str, Any]:
    """Read and validate a record file (older versions are upgraded where a path exists).

    Raises:
        RecordError: not JSON, not a record, a version this program cannot read, or a
            missing field; the message names the file and, where relevant, the version.
    """
    path = Path(path)
    try:
        obj = json.loads(path.read_text())
    except OSError as e:
        raise RecordError(f"{path}: cannot read it ({e.strerror or e})") from e
    except json.JSONDecodeError as e:
        raise RecordError(f"{path}: not JSON ({e})") from e
    return parse_record(obj, str(path))


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
    try:
        GameConfig.from_dict(obj["config"])
    except (TypeError, ValueError) as e:
        raise RecordError(f"{source}: bad game config: {e}") from e
    for i, a in enumerate(obj["actions"]):
        if not isinstance(a, dict) or not isinstance(a.get("action"), int):
            raise RecordError(f"{source}: action {i + 1} has no integer 'action'")
    return obj


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
