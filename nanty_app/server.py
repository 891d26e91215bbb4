"""``nanty serve``: the browser UI — play against bots, watch bots play, watch recorded games.

A Starlette app on uvicorn (the ``web`` extra) serving one page (plain HTML and JavaScript in
``nanty_app/static``, no build step) and a small JSON API:

=======  ==================================  ===============================================
GET      /api/bots                           the bots one can play against, and the trained
                                            policies a watched game may seat (``policies``:
                                            names and rulesets; only with ``--allow-policy``)
POST     /api/games                          a new game: ``{"bots": [...], "seed": 1}``
                                            (``"expansion": "cthulhu"``, ``"theme"``,
                                            ``"personalities"``); bots are specs such as
                                            ``ismcts:time=1`` that ``untrusted_spec`` allows
                                            under ``WEB_LIMITS`` (bounded, no paths)
GET      /api/games/{id}                     the game as the person's seat sees it (the seed
                                            and the record's name once it is over)
POST     /api/games/{id}/act                 the person's action: ``{"action": 17}``
POST     /api/games/{id}/advance             let the bots take up to ``{"max": n}`` decisions,
                                            for about ``ADVANCE_SECONDS`` at most; the answer
                                            says how many were taken (``moved``)
POST     /api/watch                          a game of bots to watch: ``{"bots": [2 to 4
                                            specs], "view": "all"}`` (and the fields of a new
                                            game); ``policy:path="NAME"`` only for a
                                            checkpoint inside the ``--allow-policy`` folder
GET      /api/watch/{id}?view=&since=        the watched game as ``view`` shows it: ``all``
                                            (everything revealed, as a replay), ``public``
                                            (what every seat knows) or a seat (that seat's
                                            view); the moves from ``since`` on
POST     /api/watch/{id}/advance             as for a game (``{"max": n, "view", "since"}``)
GET      /api/records                        the records in the records folder (but those of
                                            games being played here) and the uploaded ones,
                                            each with its ruleset, players, bots, winners, date
POST     /api/records                        upload a record (its JSON, up to ``MAX_UPLOAD``
                                            bytes) to watch; the last ``MAX_UPLOADS`` are
                                            kept, ``MAX_UPLOADS_BYTES`` in all
GET      /api/records/{name}/step/{k}        the recorded game after ``k`` actions, revealed
=======  ==================================  ===============================================

What a game's answers show is what the person's seat may know: its view of the board, every
move in words that seat may read, and whether its own decisions were forced (a single legal
action). Until the game is over they carry no seed, no record name and no forced flag of another
seat (an interrupt window with one legal answer tells that its seat held no card to block), and
the records endpoints neither list nor step the record of a game still being played here.
A watched game seats no person: it hides nothing from a spectator who reveals everything, and
from one who follows a seat (or the public view) all that seat (every seat) may not know, the
seed included until the game is over. At most ``MAX_WATCHED`` are kept (one over, or left alone
for ``WATCH_IDLE`` seconds, makes room for a new one; else 429).

Bad requests get a 4xx answer ``{"error": "..."}`` and change nothing: malformed JSON or fields
400 (also bots the web may not ask for, or that cannot play the game asked for), a request from
another web site (an ``Origin`` that is not the page's own) or to a host name the server does not
answer to (a ``Host`` that is not the bound address, ``localhost`` or a loopback address: a
DNS-rebinding page) 403, an unknown game, record or step 404, an action out of turn or a game
whose bots are still moving 409, a body over ``MAX_BODY`` (``MAX_UPLOAD`` for an upload) 413,
read a chunk at a time and refused as soon as it passes, an illegal action 422. An uploaded
record is replayed to its end when it arrives and refused (400) unless it replays exactly as it
says. Anything else that goes wrong is logged and answered with a 500 that names no detail.

Bots think in threads outside the event loop, each game under its own lock, so a slow bot holds
up only its own game: games with slow bots (any but plain ``random`` and ``heuristic``) take
turns for ``BOT_THREADS`` threads, the others never queue behind them, and reading a game never
waits for its bots (it answers the state after the last request that changed it). The server
binds to 127.0.0.1 unless told otherwise; games live in memory (the last ``MAX_GAMES``) and
every one is saved as a record after each of the person's moves.
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import logging
import os
import re
import secrets
import socket
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np

from agents.checkpoint import CheckpointError, checkpoint_files, read_meta
from agents.registry import (
    WEB_LIMITS,
    BotSpecError,
    make_bot,
    parse_spec,
    spec_value,
    untrusted_spec,
)
from nanty_app.table import HUMAN, Move, Table
from nanty_env.board_svg import SEAT_COLOURS, board_svg, revealed_view
from nanty_env.engine import HIDDEN_CARD, Game, GameConfig, IllegalActionError
from nanty_env.records import RecordError, check_record, load_record, new_game, parse_record
from nanty_env.rulesets import spec_for_encoder
from nanty_env.words import decision_words, outcome_words

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
MAX_GAMES = 64  # games kept in memory (the oldest go first; their records stay on disk)
MAX_UPLOADS = 32  # uploaded records kept (the oldest go first) ...
MAX_UPLOADS_BYTES = 64 * 1024 * 1024  # ... and their bodies' bytes in all
MAX_CURSORS = 32  # replays kept at their last step (stepping on from there is cheap)
MAX_ADVANCE = 2000
ADVANCE_SECONDS = 1.0  # an advance stops taking decisions once this long has passed
BOT_THREADS = 2  # games with slow bots thinking at the same time (more wait their turn)
QUICK_BOTS = ("random", "heuristic")  # specs (as they are) whose decisions take under 0.2 s
MAX_BODY = 1024 * 1024  # a JSON request body
MAX_UPLOAD = 8 * 1024 * 1024  # an uploaded record
UPLOADS_AT_ONCE = 2  # uploads read and checked at the same time (more wait, unread)
MAX_SEED = 2**63 - 1
MAX_LISTED = 200
MAX_SUMMARIES = 2000  # record files whose line in the list is kept (by name, time and size)
MAX_STEP_DIGITS = 7
RECORD_NAME = re.compile(r"^[\w.-]+\.json$")
PLAYABLE_BOTS = ("random", "heuristic", "ismcts")  # no 'policy': the page loads no model files
EXPANSIONS = ("cthulhu",)
GAME_FIELDS = ("bots", "seed", "expansion", "theme", "personalities")
WATCH_FIELDS = (*GAME_FIELDS, "view", "since")
MAX_WATCHED = 8  # spectator games kept in memory (over, or left alone, they make room)
WATCH_IDLE = 120.0  # seconds without an advance after which a spectator game may be dropped
MAX_CHECKPOINTS = 100  # policies listed from the --allow-policy folder (the newest)
MAX_SCANNED = 5000  # files and folders looked at to find them
POLICY_OPTIONS = ("path", "deterministic")
BASE_ENCODER = "nanty_env.observation.encode_view"  # what checkpoints naming none were fed
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0][:1000] if text else type(e).__name__


def parse_json(raw: bytes) -> Any:
    """A request body as JSON (empty: ``{}``); 400 for anything that is not UTF-8 JSON with
    finite numbers, including nesting too deep for the parser and integers too long to read."""
    if not raw.strip():
        return {}
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ApiError(400, f"the body is not UTF-8 text ({e.reason} at byte {e.start})") from e
    try:
        return json.loads(text, parse_constant=_no_constant)
    except RecursionError as e:
        raise ApiError(400, "malformed JSON: nested too deeply") from e
    except ValueError as e:  # JSONDecodeError, NaN, an integer of more than 4300 digits
        raise ApiError(400, f"malformed JSON: {_first_line(e)}") from e


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


# ---------------------------------------------------------------------- what the seat sees
def move_json(move: Move, over: bool) -> dict[str, Any]:
    """One move of the log as the person (seat 0) may read it. ``forced`` (the seat had one
    legal action) is told for the person's own moves, for others' only once the game is over
    (``None``: not told)."""
    return {
        "seat": move.seat,
        "text": move.text_for([0]),
        "lines": list(move.log),
        "forced": move.forced if over or move.seat == 0 else None,
    }


def game_state(gid: str, table: Table) -> dict[str, Any]:
    """The game as the person at seat 0 sees it: what ``GET /api/games/{id}`` answers."""
    over = table.over
    view = table.view(0)
    question, _ = decision_words(view, table.config.theme, table.config)
    outcome = None
    if over:
        o = table.game.outcome
        outcome = {
            "winners": list(o.winners),
            "text": outcome_words(o.winners, o.reason, table.config.theme, table.config),
            "points": None if o.points is None else list(o.points),
            "you_won": 0 in o.winners,
        }
    record = table.record_path.name if over and table.record_path is not None else None
    return {
        "id": gid,
        "seat": 0,
        "names": list(table.names),
        "colours": list(SEAT_COLOURS[: len(table.seats)]),
        "seed": table.seed if over else None,
        "expansion": table.config.expansion,
        "over": over,
        "to_move": table.to_move,
        "your_turn": table.human_to_move(),
        "question": question,
        "choices": [{"action": a, "text": t, "hint": table.hint(a)} for a, t in table.choices(0)],
        "svg": board_svg(view, table.config, table.names),
        "log": [move_json(m, over) for m in table.moves],
        "outcome": outcome,
        "record": record,
    }


# ---------------------------------------------------------------------- what a spectator sees
def public_view(game: Game) -> dict[str, Any]:
    """What every seat knows (and no seat more): a seat's view without its hand, its own role,
    what it alone knows of others' cards and its pending choices. Its ``seat`` is -1."""
    view = game.view(0)
    n = game.n
    view.update(
        seat=-1,
        hand=[],
        known_cards=[[] for _ in range(n)],
        known_unused_personalities=[],
        personality=None,
        decision="",
        context={},
        legal_actions=[],
    )
    if "objective" in view:
        view["objective"] = None
    for frame in view["stack"]:
        if frame.get("k") == "keep_one" and "cards" in frame:
            frame["cards"] = [HIDDEN_CARD] * len(frame["cards"])
    return view


def parse_who(value: Any, players: int) -> str | int:
    """A spectator's choice of what to see: ``"all"`` (everything revealed), ``"public"``
    (what every seat knows) or a seat number (that seat's view). 400 for anything else."""
    if isinstance(value, str) and value.isdigit() and len(value) < 3:
        value = int(value)
    if value in ("all", "public") or (_is_int(value) and 0 <= value < players):
        return value
    raise ApiError(400, f"'view' must be 'all', 'public' or a seat from 0 to {players - 1}")


def parse_since(value: Any) -> int:
    """How many moves the page has already shown (400 unless a whole number)."""
    if isinstance(value, str) and value.isdigit() and len(value) <= MAX_STEP_DIGITS:
        value = int(value)
    if not _is_int(value) or value < 0:
        raise ApiError(400, "'since' must be a number of moves already shown")
    return value


def picture(game: Game, names: list[str], who: str | int = "all") -> dict[str, Any]:
    """The board and the pending question as ``who`` (:func:`parse_who`) sees them: the same
    drawing for a replay's step and a game being watched."""
    cfg = game.cfg
    if who == "all":
        view = revealed_view(game)
    elif who == "public":
        view = public_view(game)
    else:
        view = game.view(int(who))
    question, _ = decision_words(view, cfg.theme, cfg)
    svg = board_svg(view, cfg, names)
    if who == "public":  # the drawing knows seats' views and everything; name this one
        svg = svg.replace(" · seen by player -1<", " · public view: no hand shown<")
        svg = re.sub(r"<text [^>]*>Your hand \(0\)</text>", "", svg)
    outcome = None
    if game.is_terminal:
        o = game.outcome
        outcome = {
            "winners": list(o.winners),
            "text": outcome_words(o.winners, o.reason, cfg.theme, cfg),
            "points": None if o.points is None else list(o.points),
        }
    return {"svg": svg, "question": question, "over": game.is_terminal, "outcome": outcome}


def watched_move(move: Move, who: str | int, players: int, over: bool) -> dict[str, Any]:
    """One move as a spectator who sees ``who`` may read it: every word when everything is
    revealed, else the words every seat (``"public"``) or that seat may read; ``forced`` as
    that seat would be told it (``None``: not told)."""
    if who == "all":
        text, told = move.text, True
    else:
        seats = list(range(players)) if who == "public" else [int(who)]
        text, told = move.text_for(seats), over or move.seat == who
    return {
        "seat": move.seat,
        "text": text,
        "lines": list(move.log),
        "forced": move.forced if told else None,
    }


@dataclass
class _Watched:
    """A spectator's game: bots in every seat, and a copy of the game after its last change
    (what readers draw from, never waiting for the bots)."""

    table: Table
    lock: threading.Lock
    seen: Game  # a copy of the game after the last advance
    moves: int  # how many of the table's moves ``seen`` holds
    slow: bool
    touched: float  # time.monotonic() of its creation or last advance


def watch_state(gid: str, w: _Watched, who: Any, since: Any = 0) -> dict[str, Any]:
    """A spectator's game as ``who`` sees it (``GET /api/watch/{id}?view=``), with the moves
    from ``since`` on. The seed (which recreates every hand) only with everything revealed or
    once the game is over."""
    table = w.table
    game = w.seen
    n = game.n
    who = parse_who(who, n)
    since = parse_since(since)
    over = game.is_terminal
    moves = table.moves[: w.moves]
    since = min(since, len(moves))
    record = table.record_path.name if over and table.record_path is not None else None
    return {
        "id": gid,
        "watching": True,
        "view": who,
        "names": list(table.names),
        "colours": list(SEAT_COLOURS[:n]),
        "seed": table.seed if over or who == "all" else None,
        "expansion": table.config.expansion,
        "to_move": game.current_player,
        "total": len(moves),
        "since": since,
        "log": [watched_move(m, who, n, over) for m in moves[since:]],
        "record": record,
        **picture(game, list(table.names), who),
    }


class PolicyFolder:
    """The trained policies ``nanty serve --allow-policy FOLDER`` lets the page name: nanty-policy
    checkpoints (``NAME.json`` and ``NAME.safetensors``) whose files, symbolic links followed,
    are inside ``FOLDER``. A spec names one by its path relative to the folder; SB3 ``.zip``
    files and ``trust`` are never accepted."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root).resolve(strict=True)
        if not self.root.is_dir():
            raise NotADirectoryError(f"{root} is not a folder")

    def _inside(self, path: Path) -> Path | None:
        """``path`` with its links followed, if it is a file inside the folder."""
        try:
            real = path.resolve(strict=True)
        except (OSError, RuntimeError):
            return None
        return real if real.is_relative_to(self.root) and real.is_file() else None

    def find(self, name: str) -> tuple[Path, str]:
        """The checkpoint's description file and its name in the list, for ``name`` (relative
        to the folder). 400, the same whatever a path outside would have named, otherwise."""
        shown = name[:80]
        missing = ApiError(400, f"no policy checkpoint {shown!r} in the allowed folder")
        if not name or len(name) > 300 or "\x00" in name:
            raise missing
        if name.lower().endswith(".zip"):
            raise ApiError(400, "SB3 .zip files are never opened here (they can run code)")
        candidate = self.root / name
        try:
            meta, tensors = checkpoint_files(candidate)
        except (OSError, ValueError):
            raise missing from None
        real_meta, real_tensors = self._inside(meta), self._inside(tensors)
        if real_meta is None or real_tensors is None:
            raise missing
        if real_tensors != real_meta.with_suffix(".safetensors"):
            raise missing  # the pair the bot will open is not the pair checked here
        try:
            read_meta(real_meta)
        except CheckpointError as e:
            raise ApiError(400, f"{shown!r} is not a nanty-policy checkpoint") from e
        return real_meta, real_meta.relative_to(self.root).with_suffix("").as_posix()

    def spec(self, spec: str) -> tuple[str, str]:
        """A ``policy:path=NAME`` spec from the page as the canonical spec of the checkpoint
        it names (its real path, quoted) and a short name for its seat."""
        try:
            name, options = parse_spec(spec)
        except BotSpecError as e:
            raise ApiError(400, _first_line(e)) from e
        unknown = sorted(k[:40] for k in options if k not in POLICY_OPTIONS)
        if name != "policy" or unknown:
            raise ApiError(400, f"a policy may set only {list(POLICY_OPTIONS)}, not {unknown}")
        path = options.get("path")
        if not isinstance(path, str):
            raise ApiError(400, "policy:path= must name a checkpoint listed by /api/bots")
        deterministic = options.get("deterministic", 1)
        if deterministic not in (0, 1) or isinstance(deterministic, bool):
            raise ApiError(400, "policy:deterministic= must be 0 or 1")
        meta, listed = self.find(path)
        canonical = f"policy:path={spec_value(str(meta))}"
        if deterministic == 0:
            canonical += ":deterministic=0"
            listed += " (sampling)"
        return canonical, f"policy {listed}"

    def listing(self) -> list[dict[str, Any]]:
        """The checkpoints in the folder, newest first: name and ruleset."""
        found: list[tuple[int, str, str | None]] = []
        looked = 0
        for top, dirs, files in os.walk(self.root, followlinks=False):
            dirs.sort()
            looked += 1 + len(files)
            if looked > MAX_SCANNED:
                break
            for f in files:
                if not f.endswith(".json") or f[:-5] + ".safetensors" not in files:
                    continue
                rel = (Path(top) / f).relative_to(self.root).as_posix()
                try:
                    meta, name = self.find(rel)
                    obs = read_meta(meta)["observation"]
                    ruleset = spec_for_encoder(obs.get("encoder", BASE_ENCODER))
                except (ApiError, CheckpointError, KeyError, TypeError, AttributeError):
                    continue
                if ruleset is None:
                    continue
                found.append((meta.stat().st_mtime_ns, name, ruleset.expansion))
        found.sort(key=lambda x: (-x[0], x[1]))
        return [
            {"name": name, "expansion": expansion} for _, name, expansion in found[:MAX_CHECKPOINTS]
        ]


# ---------------------------------------------------------------------- the app's state
@dataclass
class _Game:
    table: Table
    lock: threading.Lock  # held by the request moving this game (never by a reader)
    state: dict[str, Any]  # the answer after the last change: what a reader gets
    slow: bool = False  # a bot that may think for seconds a decision sits at the table


@dataclass
class _Upload:
    record: dict[str, Any]
    summary: dict[str, Any]
    size: int


class Lobby:
    """The games being played and the records that can be watched (thread-safe).

    ``lock`` guards the tables of games, uploads and replay cursors, and is held only to look
    something up or put it in; each game has a lock of its own for the (slow) bots' moves."""

    def __init__(
        self,
        records: Path,
        advance_seconds: float = ADVANCE_SECONDS,
        policies: PolicyFolder | None = None,
    ) -> None:
        self.records = records
        self.advance_seconds = advance_seconds
        self.policies = policies
        self.games: OrderedDict[str, _Game] = OrderedDict()
        self.watched: OrderedDict[str, _Watched] = OrderedDict()
        self.uploads: OrderedDict[str, _Upload] = OrderedDict()
        self._cursor: OrderedDict[tuple[Any, ...], tuple[int, Game]] = OrderedDict()
        self._summaries: dict[tuple[str, int, int], dict[str, Any] | None] = {}
        self.lock = threading.Lock()

    # games
    def new_game(self, body: Mapping[str, Any]) -> dict[str, Any]:
        unknown = sorted(str(k)[:40] for k in body if k not in GAME_FIELDS)
        if unknown:
            raise ApiError(400, f"unknown field(s) {unknown}; a new game takes {GAME_FIELDS}")
        bots = body.get("bots", ["heuristic", "random", "random"])
        if not isinstance(bots, list) or not all(isinstance(b, str) for b in bots):
            raise ApiError(400, "'bots' must be a list of bot names")
        if not 1 <= len(bots) <= 3:
            raise ApiError(400, "choose 1 to 3 bots (games have 2 to 4 players)")
        specs = [self._web_spec(b) for b in bots]
        config, seed = self._config(body, len(specs) + 1)
        try:
            table = Table(config, seed, [HUMAN, *specs], records=self.records, source="nanty serve")
        except (ValueError, BotSpecError) as e:
            raise ApiError(400, _first_line(e)) from e
        except Exception as e:  # an allowed bot that cannot play this game (a missing model)
            log.warning("bots %s cannot play this game", specs, exc_info=True)
            raise ApiError(400, f"these bots cannot play this game ({type(e).__name__})") from e
        _try_bots(table, specs)
        gid = secrets.token_hex(8)
        slow = any(spec not in QUICK_BOTS for spec in specs)  # ismcts, heuristic:depth=3...
        game = _Game(table, threading.Lock(), {}, slow)
        with game.lock:
            with self.lock:  # known (and its record hidden) before the record is written
                self.games[gid] = game
                while len(self.games) > MAX_GAMES:
                    self.games.popitem(last=False)
            table.save()
            game.state = game_state(gid, table)
            return game.state

    @staticmethod
    def _web_spec(bot: str) -> str:
        """A bot the page may ask for, in its canonical form (400 if it may not)."""
        name = bot.split(":")[0].strip()
        if name not in PLAYABLE_BOTS:
            shown = name[:40]
            raise ApiError(400, f"unknown bot {shown!r}; choose from {', '.join(PLAYABLE_BOTS)}")
        try:
            return untrusted_spec(bot, WEB_LIMITS)
        except BotSpecError as e:
            raise ApiError(400, _first_line(e)) from e

    @staticmethod
    def _config(body: Mapping[str, Any], players: int) -> tuple[GameConfig, int]:
        """The game config and seed a request asks for (400 for a bad field)."""
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbelow(1_000_000)
        if not _is_int(seed) or not 0 <= seed <= MAX_SEED:
            raise ApiError(400, f"'seed' must be a non-negative integer up to {MAX_SEED}")
        expansion = body.get("expansion") or None
        if expansion not in (None, *EXPANSIONS):
            raise ApiError(400, f"unknown expansion; choose from {list(EXPANSIONS)}")
        theme = body.get("theme", "nanty")
        personalities = body.get("personalities", "standard")
        if not isinstance(theme, str) or not isinstance(personalities, str):
            raise ApiError(400, "'theme' and 'personalities' must be text")
        try:
            config = GameConfig(
                num_players=players,
                personalities=personalities[:40],
                theme=theme[:40],
                expansion=expansion,
            )
        except ValueError as e:
            raise ApiError(400, _first_line(e)) from e
        return config, seed

    # spectator games
    def new_watch(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """A game of bots in every seat for a spectator (``POST /api/watch``)."""
        unknown = sorted(str(k)[:40] for k in body if k not in WATCH_FIELDS)
        if unknown:
            raise ApiError(400, f"unknown field(s) {unknown}; a game to watch takes {WATCH_FIELDS}")
        bots = body.get("bots", ["heuristic", "random"])
        if not isinstance(bots, list) or not all(isinstance(b, str) for b in bots):
            raise ApiError(400, "'bots' must be a list of bot specs, one a seat")
        if not 2 <= len(bots) <= 4:
            raise ApiError(400, "choose 2 to 4 bots, one for every seat")
        specs, names = [], []
        for b in bots:
            if b.split(":")[0].strip() == "policy":
                if self.policies is None:
                    raise ApiError(
                        400,
                        "trained policies are not allowed here: the server's operator may "
                        "start it with --allow-policy FOLDER",
                    )
                spec, name = self.policies.spec(b)
            else:
                spec = self._web_spec(b)
                name = spec
            specs.append(spec)
            names.append(name)
        config, seed = self._config(body, len(specs))
        who = parse_who(body.get("view", "all"), len(specs))
        with self.lock:
            self._room_to_watch()  # before the bots are built (a policy is read from disk)
        try:
            table = Table(
                config,
                seed,
                specs,
                records=self.records,
                source="nanty serve (watched)",
                names=names,
            )
        except (ValueError, BotSpecError) as e:  # CheckpointError, a policy of another ruleset
            raise ApiError(400, _first_line(e)) from e
        except Exception as e:
            log.warning("bots %s cannot play this game", specs, exc_info=True)
            raise ApiError(400, f"these bots cannot play this game ({type(e).__name__})") from e
        _try_bots(table, specs)
        slow = any(spec not in QUICK_BOTS for spec in specs)
        watched = _Watched(table, threading.Lock(), table.game.clone(), 0, slow, time.monotonic())
        gid = secrets.token_hex(8)
        with self.lock:
            self._room_to_watch()
            self.watched[gid] = watched
        return watch_state(gid, watched, who)

    def _room_to_watch(self) -> None:
        """Make room for one more watched game (with ``lock`` held): drop the oldest that is
        over or left alone for ``WATCH_IDLE`` seconds when ``MAX_WATCHED`` are kept; 429 when
        none is."""
        if len(self.watched) < MAX_WATCHED:
            return
        now = time.monotonic()
        for key, w in self.watched.items():
            if w.seen.is_terminal or now - w.touched > WATCH_IDLE:
                del self.watched[key]
                return
        raise ApiError(
            429,
            f"{MAX_WATCHED} games are being watched; let one finish or try again in "
            f"{int(WATCH_IDLE)} seconds",
        )

    def _watched(self, gid: str) -> _Watched:
        with self.lock:
            w = self.watched.get(gid)
        if w is None:
            raise ApiError(404, f"no watched game with id {gid[:40]!r}")
        return w

    def watch_state(self, gid: str, who: Any, since: Any = 0) -> dict[str, Any]:
        """A spectator's game after its last advance (never waits for its bots)."""
        return watch_state(gid, self._watched(gid), who, since)

    def watch_slow(self, gid: str) -> bool:
        return self._watched(gid).slow

    def watch_advance(self, gid: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """Let the bots of a watched game take up to ``max`` decisions (about
        ``advance_seconds`` at most); saves the record when the game ends."""
        most = body.get("max", 1)
        if not _is_int(most) or not 1 <= most <= MAX_ADVANCE:
            raise ApiError(400, f"'max' must be an integer from 1 to {MAX_ADVANCE}")
        w = self._watched(gid)
        who = parse_who(body.get("view", "all"), w.table.config.num_players)
        since = parse_since(body.get("since", 0))
        if not w.lock.acquire(blocking=False):
            raise ApiError(409, "the bots are still moving in this game; ask again shortly")
        try:
            table = w.table
            start = time.monotonic()
            moved = 0
            while moved < most and table.step() is not None:
                moved += 1
                if time.monotonic() - start >= self.advance_seconds:
                    break
            if table.over and moved:
                table.save()
            w.seen, w.moves, w.touched = table.game.clone(), len(table.moves), time.monotonic()
            return {**watch_state(gid, w, who, since), "moved": moved}
        finally:
            w.lock.release()

    def _game(self, gid: str) -> _Game:
        with self.lock:
            game = self.games.get(gid)
        if game is None:
            raise ApiError(404, f"no game with id {gid[:40]!r}")
        return game

    def state(self, gid: str) -> dict[str, Any]:
        """The game's answer after its last change (never waits for its bots)."""
        return self._game(gid).state

    def slow(self, gid: str) -> bool:
        """Whether the game's bots may think for seconds (404 for an unknown game)."""
        return self._game(gid).slow

    def _moving(self, gid: str) -> _Game:
        game = self._game(gid)
        if not game.lock.acquire(blocking=False):
            raise ApiError(409, "the bots are still moving in this game; ask again shortly")
        return game

    def act(self, gid: str, body: Mapping[str, Any]) -> dict[str, Any]:
        action = body.get("action")
        if not _is_int(action):
            raise ApiError(400, "'action' must be an integer (one of the offered choices)")
        game = self._moving(gid)
        try:
            table = game.table
            if table.over:
                raise ApiError(409, "the game is over")
            if table.to_move != 0:
                raise ApiError(409, f"it is player {table.to_move}'s decision, not yours")
            legal = table.game.legal_actions()
            if action not in legal:
                shown = str(action) if abs(action) < 10**12 else "out of range"
                raise ApiError(422, f"illegal action {shown}; legal: {list(legal)}")
            try:
                table.play(0, action)
            except IllegalActionError as e:
                raise ApiError(422, f"illegal action {action}: {e}; legal: {list(legal)}") from e
            table.save()
            game.state = game_state(gid, table)
            return game.state
        finally:
            game.lock.release()

    def advance(self, gid: str, body: Mapping[str, Any]) -> dict[str, Any]:
        most = body.get("max", 1)
        if not _is_int(most) or not 1 <= most <= MAX_ADVANCE:
            raise ApiError(400, f"'max' must be an integer from 1 to {MAX_ADVANCE}")
        game = self._moving(gid)
        try:
            table = game.table
            start = time.monotonic()
            moved = 0
            while moved < most and table.step() is not None:
                moved += 1
                if time.monotonic() - start >= self.advance_seconds:
                    break  # the page asks again: other requests of this game get a turn
            if table.over and moved:
                table.save()
            game.state = game_state(gid, table)
            return {**game.state, "moved": moved}
        finally:
            game.lock.release()

    def _live_records(self) -> tuple[set[str], set[str]]:
        """The record files of the games being played here: their names, and the names the
        games ask for (a first save may be under way, and add ``-2``...)."""
        names: set[str] = set()
        stems: set[str] = set()
        with self.lock:
            games = list(self.games.values())
        for g in games:
            t = g.table
            if t.over:
                continue
            if t.record_path is not None:
                names.add(t.record_path.name)
            stems.add(Path(t.record_name).stem)
        return names, stems

    def _is_live(
        self, name: str, rec: Mapping[str, Any], live: tuple[set[str], set[str]] | None = None
    ) -> bool:
        """Whether the record file ``name`` (``rec``: it, or its line in the list) is that of a
        game being played here (``live``: :meth:`_live_records`, if known)."""
        names, stems = live or self._live_records()
        if name in names:
            return True
        if rec.get("outcome") is not None:
            return False
        stem = Path(name).stem
        return any(stem == s or re.fullmatch(re.escape(s) + r"-\d+", stem) for s in stems)

    # records
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
            live = self._live_records()
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
                summary = _summary(name, _clean_record(load_record(self.records / name), name))
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
            rec = _clean_record(parse_record(body, "the uploaded record"), "the uploaded record")
        except RecordError as e:
            raise ApiError(400, _first_line(e)) from e
        problem = _replay_problem(rec)
        if problem:
            raise ApiError(400, f"the uploaded record does not replay: {problem}")
        name = f"upload-{secrets.token_hex(6)}"
        summary = _summary(name, rec)
        if summary is None:
            raise ApiError(400, "the uploaded record's outcome cannot be read")
        with self.lock:
            self.uploads[name] = _Upload(rec, summary, len(raw))
            while len(self.uploads) > MAX_UPLOADS or (
                len(self.uploads) > 1
                and sum(u.size for u in self.uploads.values()) > MAX_UPLOADS_BYTES
            ):
                gone, _ = self.uploads.popitem(last=False)
                for key in [k for k in self._cursor if k[0] == gone]:
                    del self._cursor[key]
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
            rec = _clean_record(load_record(path), name)
        except OSError as e:
            raise missing from e
        except (RecordError, ValueError, RecursionError) as e:  # RecordError is a ValueError
            raise ApiError(422, _first_line(e)) from e
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
            at, cursor = self._cursor.pop(key, (0, None))
        try:
            if cursor is None or at > k:
                at, cursor = 0, new_game(rec)
            game = cursor
            lines: list[str] = []
            while at < k:
                before = len(game.log)
                game.apply(actions[at]["action"])
                lines = [_strip(x) for x in game.log[before:]]
                at += 1
            names = rec["players"]
            shown = picture(game, names, "all")  # as a watched game with everything revealed
            answer = {
                "name": name,
                "index": k,
                "total": len(actions),
                "names": names,
                "svg": shown["svg"],
                "last": actions[k - 1] if k > 0 else None,
                "next": actions[k] if k < len(actions) else None,
                "lines": lines if k > 0 else [],
                "question": shown["question"],
                "over": shown["over"],
                "outcome": shown["outcome"]["text"] if shown["outcome"] else None,
            }
        except (IllegalActionError, ValueError, TypeError, KeyError, IndexError) as e:
            raise ApiError(
                422, f"the record does not replay at action {at + 1}: {_first_line(e)}"
            ) from e
        with self.lock:
            if key[0] in self.uploads or len(key) > 1:
                self._cursor[key] = (at, game)
                while len(self._cursor) > MAX_CURSORS:
                    self._cursor.popitem(last=False)
        return answer


def _try_bots(table: Table, specs: list[str]) -> None:
    """Have a fresh copy of each bot that loads a model at its first decision (heuristic with
    options) make one, from the deal, so that a bot that cannot play this game is a 400 now
    rather than a failure at its first move."""
    game = table.game
    seat = game.current_player
    view = game.view(seat)
    for spec in sorted({s for s in specs if s.startswith("heuristic:")}):
        try:
            bot = make_bot(spec)
            bot.reset(seat, table.config)
            bot.act(view, view["legal_actions"], np.random.default_rng(0))
        except Exception as e:
            log.warning("bot %s cannot play %s", spec, table.config, exc_info=True)
            raise ApiError(400, f"bot {spec!r} cannot play this game ({type(e).__name__})") from e


def _strip(line: str) -> str:
    return re.sub(r"^\[t\d+ p\d+\] ", "", line)


def _text(x: Any, limit: int) -> str:
    return x[:limit] if isinstance(x, str) else ""


def _clean_record(rec: Mapping[str, Any], source: str) -> dict[str, Any]:
    """The fields of a parsed record that the replay and the answers use, checked and trimmed
    (so that nothing an upload adds reaches an answer). Raises ``RecordError``."""
    seed = rec["seed"]
    if not _is_int(seed) or not 0 <= seed <= MAX_SEED:
        raise RecordError(f"{source}: the seed must be an integer from 0 to {MAX_SEED}")
    config = rec["config"]
    if not isinstance(config, dict) or config.get("content") is not None:
        raise RecordError(f"{source}: the game config must be the shipped game's")
    try:
        cfg = GameConfig.from_dict(config)
    except (TypeError, ValueError) as e:
        raise RecordError(f"{source}: bad game config: {_first_line(e)}") from e
    actions = rec["actions"]
    if not isinstance(actions, list):
        raise RecordError(f"{source}: 'actions' must be a list")
    clean = []
    for i, a in enumerate(actions, start=1):
        if not isinstance(a, dict) or not _is_int(a.get("action")) or not 0 <= a["action"] < 2**31:
            raise RecordError(f"{source}: action {i} has no integer 'action'")
        entry: dict[str, Any] = {"action": a["action"], "text": _text(a.get("text"), 200)}
        if "seat" in a:
            if not _is_int(a["seat"]) or not 0 <= a["seat"] < cfg.num_players:
                raise RecordError(f"{source}: action {i} has a 'seat' that is not a player")
            entry["seat"] = a["seat"]
        clean.append(entry)
    players = rec.get("players")
    if not isinstance(players, list) or len(players) != cfg.num_players:
        players = [f"player {s}" for s in range(cfg.num_players)]
    players = [_text(p, 60) or f"player {s}" for s, p in enumerate(players)]
    outcome = rec["outcome"]
    if outcome is not None:
        ok = (
            isinstance(outcome, dict)
            and isinstance(outcome.get("winners"), list)
            and all(_is_int(w) and 0 <= w < cfg.num_players for w in outcome["winners"])
            and isinstance(outcome.get("reason"), str)
        )
        if not ok:
            raise RecordError(f"{source}: the outcome is not winners and a reason")
    return {
        "format": rec.get("format"),
        "version": rec.get("version"),
        "config": config,
        "seed": seed,
        "players": players,
        "actions": clean,
        "outcome": outcome,
        "final_digest": _text(rec.get("final_digest"), 200),
        "source": _text(rec.get("source"), 100),
        "saved": _text(rec.get("saved"), 40),
        "bots": _seats(rec.get("meta"), cfg.num_players),
    }


def _seats(meta: Any, players: int) -> list[str | None]:
    """Who sat where, as a record's ``meta.seats`` says (a bot's spec, ``"human"``): ``None``
    for a seat it does not tell. A policy's spec is shortened to its checkpoint's file name."""
    seats = meta.get("seats") if isinstance(meta, dict) else None
    if not isinstance(seats, list) or len(seats) != players:
        return [None] * players
    out: list[str | None] = []
    for seat in seats:
        if not isinstance(seat, str):
            out.append(None)
        elif seat.startswith("policy:"):
            out.append("policy")
        else:
            out.append(seat[:60])
    return out


def _replay_problem(rec: Mapping[str, Any]) -> str:
    """Why ``rec`` does not replay exactly as it says ("" when it does)."""
    try:
        result = check_record(rec)
    except (IllegalActionError, ValueError, TypeError, KeyError, IndexError) as e:
        return _first_line(e)
    return "" if result.ok else result.problem


def _summary(name: str, rec: Mapping[str, Any]) -> dict[str, Any] | None:
    """A record's line in the list (``None``: its outcome cannot be put in words)."""
    o = rec["outcome"]
    words = None
    if o is not None:
        try:
            config = GameConfig.from_dict(rec["config"])
            words = outcome_words(o["winners"], o["reason"], config.theme, config)
        except (TypeError, ValueError, KeyError, IndexError):
            return None
    players = rec["players"]
    return {
        "name": name,
        "players": players,
        "bots": rec["bots"],
        "expansion": rec["config"].get("expansion"),
        "winners": [] if o is None else sorted(set(o["winners"])),
        "actions": len(rec["actions"]),
        "source": rec["source"],
        "saved": rec["saved"],
        "outcome": words,
    }


# ---------------------------------------------------------------------- HTTP
def allowed_host(host_header: str, bound: str) -> bool:
    """Whether a request's ``Host`` names this server: the bound address, ``localhost`` or a
    loopback address (and any IP address when bound to all of them). A web page that a DNS
    name was rebound for sends its own name and is refused."""
    host = host_header.strip().lower()
    if host.startswith("["):
        host = host[1 : host.find("]")] if "]" in host else ""
    elif host.count(":") == 1:
        host = host.split(":")[0]
    host = host.rstrip(".")
    if not host:
        return False
    bound = bound.strip("[]").lower()
    if host in LOCAL_HOSTS or host == bound:
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or bound in ("0.0.0.0", "::", "")


def same_origin(origin: str, host_header: str) -> bool:
    """Whether an ``Origin`` header is the page's own (``http://`` + the ``Host`` it asked)."""
    parts = urlsplit(origin.strip())
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host_header.lower()


class _Guard:
    """ASGI middleware: 403 for a request to a host name this server does not answer to, and
    for a request that changes something (not GET/HEAD) from another web site's page."""

    def __init__(self, app: Any, host: str) -> None:
        self.app = app
        self.host = host

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            from starlette.datastructures import Headers
            from starlette.responses import JSONResponse

            headers = Headers(scope=scope)
            host = headers.get("host", "")
            why = ""
            if not allowed_host(host, self.host):
                why = f"this server does not answer to the host name {host[:80]!r}"
            elif scope["method"] not in ("GET", "HEAD"):
                origin = headers.get("origin")
                if origin is not None and not same_origin(origin, host):
                    why = f"requests from another site ({origin[:80]!r}) are refused"
            if why:
                await JSONResponse({"error": why}, status_code=403)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def create_app(
    records: str | Path = "records",
    *,
    host: str = "127.0.0.1",
    advance_seconds: float = ADVANCE_SECONDS,
    allow_policy: str | Path | None = None,
) -> Any:
    """The Starlette application (records are read from and written to ``records``; ``host``:
    the address it is served at, for the ``Host`` check; ``allow_policy``: a folder whose
    trained policies spectator games may seat). Raises ``OSError`` for an ``allow_policy``
    that is not a folder."""
    import anyio
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException
    from starlette.middleware import Middleware
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse, Response
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    policies = PolicyFolder(allow_policy) if allow_policy is not None else None
    lobby = Lobby(Path(records), advance_seconds, policies)
    limiter: list[anyio.CapacityLimiter] = []

    uploading: list[anyio.Semaphore] = []

    def bot_threads() -> anyio.CapacityLimiter:
        if not limiter:
            limiter.append(anyio.CapacityLimiter(BOT_THREADS))
        return limiter[0]

    def upload_slots() -> anyio.Semaphore:
        if not uploading:
            uploading.append(anyio.Semaphore(UPLOADS_AT_ONCE))
        return uploading[0]

    async def read_body(request: Request, cap: int) -> bytes:
        """The body, read a chunk at a time and refused (413) as soon as it passes ``cap``."""
        too_big = ApiError(413, f"the request body is over {cap // 1024} KB")
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared[:20]) > cap:
            raise too_big
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > cap:
                raise too_big
            chunks.append(chunk)
        return b"".join(chunks)

    async def object_body(request: Request) -> dict[str, Any]:
        body = parse_json(await read_body(request, MAX_BODY))
        if not isinstance(body, dict):
            raise ApiError(400, "the request body must be a JSON object")
        return body

    Handler = Callable[[Request], Awaitable[Response]]

    def api(handler: Handler) -> Handler:
        """``handler`` with its errors as JSON answers: an ``ApiError`` as it says, anything
        else logged and answered 500 without detail."""

        async def run(request: Request) -> Response:
            try:
                return await handler(request)
            except ApiError as e:
                return JSONResponse({"error": e.message}, status_code=e.status)
            except Exception:
                log.exception("%s %s failed", request.method, request.url.path)
                return JSONResponse(
                    {"error": "the server failed to answer (it logged why)"}, status_code=500
                )

        return run

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def bots(request: Request) -> Response:
        listed = await run_in_threadpool(policies.listing) if policies is not None else []
        return JSONResponse(
            {"bots": list(PLAYABLE_BOTS), "policy": policies is not None, "policies": listed}
        )

    async def create_game(request: Request) -> Response:
        body = await object_body(request)
        return JSONResponse(await run_in_threadpool(lobby.new_game, body), status_code=201)

    async def get_game(request: Request) -> Response:
        return JSONResponse(lobby.state(request.path_params["gid"]))

    async def act(request: Request) -> Response:
        body = await object_body(request)
        gid = request.path_params["gid"]
        return JSONResponse(await run_in_threadpool(lobby.act, gid, body))

    async def advance(request: Request) -> Response:
        body = await object_body(request)
        gid = request.path_params["gid"]
        # slow bots take turns for BOT_THREADS threads; the others' decisions are quick
        limiter = bot_threads() if lobby.slow(gid) else None
        answer = await anyio.to_thread.run_sync(lobby.advance, gid, body, limiter=limiter)
        return JSONResponse(answer)

    async def create_watch(request: Request) -> Response:
        body = await object_body(request)
        return JSONResponse(await run_in_threadpool(lobby.new_watch, body), status_code=201)

    async def get_watch(request: Request) -> Response:
        gid = request.path_params["gid"]
        query = request.query_params
        who, since = query.get("view", "all"), query.get("since", "0")
        return JSONResponse(await run_in_threadpool(lobby.watch_state, gid, who, since))

    async def advance_watch(request: Request) -> Response:
        body = await object_body(request)
        gid = request.path_params["gid"]
        limiter = bot_threads() if lobby.watch_slow(gid) else None
        answer = await anyio.to_thread.run_sync(lobby.watch_advance, gid, body, limiter=limiter)
        return JSONResponse(answer)

    async def records_list(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(lobby.list_records))

    async def upload(request: Request) -> Response:
        async with upload_slots():  # at most UPLOADS_AT_ONCE bodies in memory
            raw = await read_body(request, MAX_UPLOAD)
            summary = await run_in_threadpool(lobby.upload, raw)
        return JSONResponse(summary, status_code=201)

    async def step(request: Request) -> Response:
        name, k = request.path_params["name"], request.path_params["k"]
        return JSONResponse(await run_in_threadpool(lobby.step, name, k))

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)

    async def server_error(request: Request, exc: Exception) -> Response:
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        return JSONResponse({"error": "the server failed to answer (it logged why)"}, 500)

    routes = [
        Route("/", index),
        Route("/api/bots", api(bots)),
        Route("/api/games", api(create_game), methods=["POST"]),
        Route("/api/games/{gid}", api(get_game)),
        Route("/api/games/{gid}/act", api(act), methods=["POST"]),
        Route("/api/games/{gid}/advance", api(advance), methods=["POST"]),
        Route("/api/watch", api(create_watch), methods=["POST"]),
        Route("/api/watch/{gid}", api(get_watch)),
        Route("/api/watch/{gid}/advance", api(advance_watch), methods=["POST"]),
        Route("/api/records", api(records_list)),
        Route("/api/records", api(upload), methods=["POST"]),
        Route("/api/records/{name}/step/{k}", api(step)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        middleware=[Middleware(_Guard, host=host)],
        exception_handlers={HTTPException: http_error, Exception: server_error},
    )
    app.state.lobby = lobby
    return app


# ---------------------------------------------------------------------- the command
def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port {port} is outside 0..65535")
    return port


def add_serve_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser("serve", help="the browser UI: play against bots, watch records")
    p.add_argument("--host", default="127.0.0.1", help="address to bind")
    p.add_argument("--port", type=_port, default=8000, help="port to listen on (0: any free one)")
    p.add_argument("--records", default="records", help="folder of game records")
    p.add_argument(
        "--allow-policy",
        metavar="FOLDER",
        help="let watched games seat the trained policies (nanty-policy checkpoints) found "
        "in FOLDER, e.g. runs/; without it the page offers only the shipped bots",
    )
    p.set_defaults(func=cmd_serve)
    return p


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` and listening. Raises ``OSError`` (a busy port, an
    address this machine does not have, a name that does not resolve)."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def _url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def cmd_serve(args: argparse.Namespace) -> int:
    from nanty_app.arguments import fail

    try:
        import uvicorn
    except ImportError as e:
        raise SystemExit("nanty serve needs the web extra: pip install 'nanty-narking[web]'") from e
    try:
        sock = listen(args.host, args.port)
    except OSError as e:  # socket.gaierror included
        reason = e.strerror or _first_line(e)
        return fail("nanty serve", f"cannot listen on {args.host} port {args.port}: {reason}")
    try:
        app = create_app(
            args.records, host=args.host, allow_policy=getattr(args, "allow_policy", None)
        )
    except OSError as e:
        sock.close()
        reason = e.strerror or _first_line(e)
        return fail("nanty serve", f"--allow-policy {args.allow_policy}: {reason}")
    port = sock.getsockname()[1]
    sys.setswitchinterval(0.001)
    print(f"Nanty Narking at {_url(args.host, port)} (Ctrl-C to stop)", flush=True)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    return 0
