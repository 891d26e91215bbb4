"""The records that can be watched: the files in the records folder (but those of games being
played here) and the uploaded ones, their list and their replay a step at a time."""

from __future__ import annotations

import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nanty_app.web.guard import ApiError, first_line, parse_json
from nanty_app.web.record_list import clean_record, record_summary, replay_problem
from nanty_app.web.views import MAX_STEP_DIGITS, picture
from nanty_env.engine import Game, IllegalActionError
from nanty_env.presentation.board_svg import SEAT_COLOURS
from nanty_env.presentation.theme_text import themed
from nanty_env.presentation.words import log_lines
from nanty_env.storage.records import RecordError, load_record, new_game, parse_record

MAX_UPLOADS = 32  # uploaded records kept (the oldest go first) ...
MAX_UPLOADS_BYTES = 64 * 1024 * 1024  # ... and their bodies' bytes in all
MAX_CURSORS = 32  # replays kept at their last step (stepping on from there is cheap)
MAX_LISTED = 200
MAX_SUMMARIES = 2000  # record files whose line in the list is kept (by name, time and size)
RECORD_NAME = re.compile(r"^[\w.-]+\.json$")

Live = tuple[set[str], set[str]]  # the record files of the games being played: names, stems


@dataclass
class Upload:
    """An uploaded record (checked and trimmed), its line in the list and its body's size."""

    record: dict[str, Any]
    summary: dict[str, Any]
    size: int


class Shelf:
    """The records to watch (thread-safe): ``lock`` guards the uploads, the replay cursors and
    the list's lines, and is held only to look something up or put it in. ``live`` tells the
    record files of the games being played here (see :meth:`Lobby.live_records`), which are
    neither listed nor stepped."""

    def __init__(self, records: Path, lock: threading.Lock, live: Callable[[], Live]) -> None:
        self.records = records
        self.lock = lock
        self.live = live
        self.uploads: OrderedDict[str, Upload] = OrderedDict()
        self.cursors: OrderedDict[tuple[Any, ...], tuple[int, Game]] = OrderedDict()
        self._summaries: dict[tuple[str, int, int], dict[str, Any] | None] = {}

    def _is_live(self, name: str, rec: Mapping[str, Any], live: Live | None = None) -> bool:
        """Whether the record file ``name`` (``rec``: it, or its line in the list) is that of a
        game being played here (``live``: what ``live`` tells, if known)."""
        names, stems = live or self.live()
        if name in names:
            return True
        if rec.get("outcome") is not None:
            return False
        stem = Path(name).stem
        return any(stem == s or re.fullmatch(re.escape(s) + r"-\d+", stem) for s in stems)

    def list_records(self) -> dict[str, Any]:
        with self.lock:
            out = [u.summary for u in reversed(self.uploads.values())]
        if self.records.is_dir():
            files = []
            for path in self.records.glob("*.json"):
                try:
                    st = path.stat()
                except OSError:
                    continue
                files.append((st.st_mtime_ns, path.name, st.st_size))
            live = self.live()
            for mtime, name, size in sorted(files, reverse=True):
                if len(out) >= MAX_LISTED:
                    break
                summary = self._file_summary(name, mtime, size)
                if summary is not None and not self._is_live(name, summary, live):
                    out.append(summary)
        return {"records": out[:MAX_LISTED]}

    def _file_summary(self, name: str, mtime: int, size: int) -> dict[str, Any] | None:
        """The list's line for a record file (``None``: not a readable record), read once per
        version of the file."""
        key = (name, mtime, size)
        with self.lock:
            if key in self._summaries:
                return self._summaries[key]
        summary = None
        if RECORD_NAME.match(name):
            try:
                summary = record_summary(name, clean_record(load_record(self.records / name), name))
            except (RecordError, ValueError, RecursionError):
                summary = None
        with self.lock:
            if len(self._summaries) >= MAX_SUMMARIES:
                self._summaries.clear()
            self._summaries[key] = summary
        return summary

    def upload(self, raw: bytes) -> dict[str, Any]:
        body = parse_json(raw)
        try:
            rec = clean_record(parse_record(body, "the uploaded record"), "the uploaded record")
        except RecordError as e:
            raise ApiError(400, first_line(e)) from e
        problem = replay_problem(rec)
        if problem:
            raise ApiError(400, f"the uploaded record does not replay: {problem}")
        name = f"upload-{secrets.token_hex(6)}"
        summary = record_summary(name, rec)
        if summary is None:
            raise ApiError(400, "the uploaded record's outcome cannot be read")
        with self.lock:
            self.uploads[name] = Upload(rec, summary, len(raw))
            while len(self.uploads) > MAX_UPLOADS or (
                len(self.uploads) > 1
                and sum(u.size for u in self.uploads.values()) > MAX_UPLOADS_BYTES
            ):
                gone, _ = self.uploads.popitem(last=False)
                for key in [k for k in self.cursors if k[0] == gone]:
                    del self.cursors[key]
        return summary

    def record(self, name: str) -> tuple[dict[str, Any], tuple[Any, ...]]:
        """A record to watch and the key of its replay cursor (which changes with the file)."""
        with self.lock:
            up = self.uploads.get(name)
        if up is not None:
            return up.record, (name,)
        missing = ApiError(404, f"no record named {name[:80]!r}")
        if not RECORD_NAME.match(name):
            raise missing
        path = self.records / name
        try:
            if not path.is_file():
                raise missing
            st = path.stat()
            rec = clean_record(load_record(path), name)
        except OSError as e:
            raise missing from e
        except (RecordError, ValueError, RecursionError) as e:  # RecordError is a ValueError
            raise ApiError(422, first_line(e)) from e
        if self._is_live(name, rec):
            raise missing
        return rec, (name, st.st_mtime_ns, st.st_size)

    def step(self, name: str, k_text: str) -> dict[str, Any]:
        if not k_text.isdigit() or len(k_text) > MAX_STEP_DIGITS:
            raise ApiError(404, f"no step {k_text[:20]!r}: a step is a number of actions")
        k = int(k_text)
        rec, key = self.record(name)
        actions = rec["actions"]
        if not 0 <= k <= len(actions):
            raise ApiError(404, f"step {k} is outside 0..{len(actions)}")
        with self.lock:  # this request's own cursor while it replays
            at, cursor = self.cursors.pop(key, (0, None))
        try:
            if cursor is None or at > k:
                at, cursor = 0, new_game(rec)
            game = cursor
            lines: list[str] = []
            while at < k:
                before = len(game.log)
                game.apply(actions[at]["action"])
                lines = log_lines(game, before)
                at += 1
            names = rec["players"]
            theme = game.cfg.theme
            shown = picture(game, names, "all")  # as a watched game with everything revealed
            answer = {
                "name": name,
                "index": k,
                "total": len(actions),
                "names": names,
                "colours": list(SEAT_COLOURS[: len(names)]),
                "svg": shown["svg"],
                "panel": shown["panel"],
                "last": _themed(actions[k - 1], theme) if k > 0 else None,
                "next": _themed(actions[k], theme) if k < len(actions) else None,
                "lines": lines if k > 0 else [],
                "question": shown["question"],
                "over": shown["over"],
                "outcome": shown["outcome"]["text"] if shown["outcome"] else None,
            }
        except (IllegalActionError, ValueError, TypeError, KeyError, IndexError) as e:
            raise ApiError(
                422, f"the record does not replay at action {at + 1}: {first_line(e)}"
            ) from e
        with self.lock:
            if key[0] in self.uploads or len(key) > 1:
                self.cursors[key] = (at, game)
                while len(self.cursors) > MAX_CURSORS:
                    self.cursors.popitem(last=False)
        return answer


def _themed(action: Mapping[str, Any], theme: str) -> dict[str, Any]:
    """A record's action with its words in the game's theme (records saved before one theme
    at a time may mix them)."""
    return {**action, "text": themed(str(action.get("text", "")), theme)}
