"""Games of bots for a spectator: kept, capped, advanced and shown as the spectator chose."""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nanty_app.table import Table
from nanty_app.web import seating
from nanty_app.web.guard import ApiError
from nanty_app.web.policies import PolicyFolder
from nanty_app.web.views import parse_since, parse_who, picture, watched_move
from nanty_env.engine import Game
from nanty_env.presentation.board_svg import SEAT_COLOURS

WATCH_FIELDS = (*seating.GAME_FIELDS, "view", "since")
MAX_WATCHED = 8  # spectator games kept in memory (over, or left alone, they make room)
WATCH_IDLE = 120.0  # seconds without an advance after which a spectator game may be dropped


@dataclass
class Watched:
    """A spectator's game: bots in every seat, and a copy of the game after its last change
    (what readers draw from, never waiting for the bots)."""

    table: Table
    lock: threading.Lock
    seen: Game  # a copy of the game after the last advance
    moves: int  # how many of the table's moves ``seen`` holds
    slow: bool
    touched: float  # time.monotonic() of its creation or last advance


def watch_state(gid: str, w: Watched, who: Any, since: Any = 0) -> dict[str, Any]:
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


class Watching:
    """The games being watched (thread-safe): ``lock`` guards ``watched`` and is held only to
    look one up or put one in; each game has a lock of its own for its bots' moves."""

    def __init__(
        self,
        records: Path,
        lock: threading.Lock,
        advance_seconds: float = seating.ADVANCE_SECONDS,
        policies: PolicyFolder | None = None,
        rulesets: tuple[str, ...] = seating.SHIPPED_RULESETS,
    ) -> None:
        self.records = records
        self.rulesets = rulesets
        self.lock = lock
        self.advance_seconds = advance_seconds
        self.policies = policies
        self.watched: OrderedDict[str, Watched] = OrderedDict()

    def new(self, body: Mapping[str, Any]) -> dict[str, Any]:
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
                spec = seating.web_spec(b)
                name = spec
            specs.append(spec)
            names.append(name)
        config, seed = seating.game_config(body, len(specs), self.rulesets)
        who = parse_who(body.get("view", "all"), len(specs))
        with self.lock:
            self._make_room()  # before the bots are built (a policy is read from disk)
        table = seating.seat_bots(
            config,
            seed,
            specs,
            records=self.records,
            source="nanty serve (watched)",
            names=names,
        )
        watched = Watched(
            table,
            threading.Lock(),
            table.game.clone(),
            0,
            seating.slow_bots(specs),
            time.monotonic(),
        )
        gid = secrets.token_hex(8)
        with self.lock:
            self._make_room()
            self.watched[gid] = watched
        return watch_state(gid, watched, who)

    def _make_room(self) -> None:
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

    def _get(self, gid: str) -> Watched:
        with self.lock:
            w = self.watched.get(gid)
        if w is None:
            raise ApiError(404, f"no watched game with id {gid[:40]!r}")
        return w

    def state(self, gid: str, who: Any, since: Any = 0) -> dict[str, Any]:
        """A spectator's game after its last advance (never waits for its bots)."""
        return watch_state(gid, self._get(gid), who, since)

    def slow(self, gid: str) -> bool:
        """Whether the game's bots may think for seconds (404 for an unknown game)."""
        return self._get(gid).slow

    def advance(self, gid: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """Let the bots of a watched game take up to ``max`` decisions (about
        ``advance_seconds`` at most); saves the record when the game ends."""
        most = seating.advance_max(body)
        w = self._get(gid)
        who = parse_who(body.get("view", "all"), w.table.config.num_players)
        since = parse_since(body.get("since", 0))
        if not w.lock.acquire(blocking=False):
            raise ApiError(409, seating.BUSY)
        try:
            table = w.table
            moved = seating.run_bots(table, most, self.advance_seconds)
            w.seen, w.moves, w.touched = table.game.clone(), len(table.moves), time.monotonic()
            return {**watch_state(gid, w, who, since), "moved": moved}
        finally:
            w.lock.release()
