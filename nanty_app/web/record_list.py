"""The records list's lines: a record's fields checked and trimmed, and its summary."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nanty_app.web.guard import MAX_SEED, first_line, is_int
from nanty_env.engine import GameConfig, IllegalActionError
from nanty_env.presentation.words import outcome_words
from nanty_env.storage.records import RecordError, check_record


def _text(x: Any, limit: int) -> str:
    return x[:limit] if isinstance(x, str) else ""


def clean_record(rec: Mapping[str, Any], source: str) -> dict[str, Any]:
    """The fields of a parsed record that the replay and the answers use, checked and trimmed
    (so that nothing an upload adds reaches an answer). Raises ``RecordError``."""
    seed = rec["seed"]
    if not is_int(seed) or not 0 <= seed <= MAX_SEED:
        raise RecordError(f"{source}: the seed must be an integer from 0 to {MAX_SEED}")
    config = rec["config"]
    if not isinstance(config, dict) or config.get("content") is not None:
        raise RecordError(f"{source}: the game config must be the shipped game's")
    try:
        cfg = GameConfig.from_dict(config)
    except (TypeError, ValueError) as e:
        raise RecordError(f"{source}: bad game config: {first_line(e)}") from e
    actions = rec["actions"]
    if not isinstance(actions, list):
        raise RecordError(f"{source}: 'actions' must be a list")
    clean = []
    for i, a in enumerate(actions, start=1):
        if not isinstance(a, dict) or not is_int(a.get("action")) or not 0 <= a["action"] < 2**31:
            raise RecordError(f"{source}: action {i} has no integer 'action'")
        entry: dict[str, Any] = {"action": a["action"], "text": _text(a.get("text"), 200)}
        if "seat" in a:
            if not is_int(a["seat"]) or not 0 <= a["seat"] < cfg.num_players:
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
            and all(is_int(w) and 0 <= w < cfg.num_players for w in outcome["winners"])
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


def replay_problem(rec: Mapping[str, Any]) -> str:
    """Why ``rec`` does not replay exactly as it says ("" when it does)."""
    try:
        result = check_record(rec)
    except (IllegalActionError, ValueError, TypeError, KeyError, IndexError) as e:
        return first_line(e)
    return "" if result.ok else result.problem


def record_summary(name: str, rec: Mapping[str, Any]) -> dict[str, Any] | None:
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
