"""``nanty replay FILE``: a recorded game turn by turn with everything revealed (hands,
personalities, the order of the draw pile); ``--check`` re-simulates it and exits 0 only if every
action is legal and the game ends exactly as recorded (1 with the first mismatch, 2 when the
file is not a readable record: not JSON, a field of the wrong kind, too big, or a game of a
content pack of one's own, whose files a record never names)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from typing import Any, TextIO

from nanty_env.engine import IllegalActionError
from nanty_env.presentation.board_svg import revealed_view
from nanty_env.presentation.render import COLOUR_NAMES, render_view_text
from nanty_env.presentation.theme_text import themed
from nanty_env.presentation.words import log_lines, outcome_words
from nanty_env.storage.records import (
    RecordError,
    check_record,
    load_record,
    new_game,
    record_config,
)

EXIT_MISMATCH, EXIT_UNREADABLE = 1, 2


def print_replay(record: Mapping[str, Any], out: TextIO, *, boards: bool = False) -> int:
    """Write the game turn by turn; the full revealed board at the start, at the end and (with
    ``boards``) at the start of every turn. Returns the exit code."""
    cfg = record_config(record)
    names = [printable(x) for x in record.get("players") or []]
    seats = ", ".join(
        f"player {s} ({COLOUR_NAMES[s]}{', ' + names[s] if s < len(names) else ''})"
        for s in range(cfg.num_players)
    )
    print(
        f"Game record: {cfg.num_players} players ({seats}); seed {record['seed']}; "
        f"{len(record['actions'])} actions; from {printable(record.get('source') or 'unknown')}",
        file=out,
    )
    game = new_game(record)
    turn = -1
    print("\n" + render_view_text(revealed_view(game), cfg, names, choices=False), file=out)
    for i, entry in enumerate(record["actions"], start=1):
        if game.turn != turn:
            turn = game.turn
            if boards and i > 1:
                print(
                    "\n" + render_view_text(revealed_view(game), cfg, names, choices=False),
                    file=out,
                )
            print(f"\n── turn {turn}: player {game.active}'s turn ──", file=out)
            print(_hands_line(game, cfg), file=out)
        seat = entry.get("seat", game.current_player)
        label = names[seat] if 0 <= seat < len(names) else ""
        who = f"player {seat}" + (f" ({label})" if label else "")
        said = themed(printable(entry.get("text", entry["action"])), cfg.theme)
        print(f"  {i:>4}. {who}: {said}", file=out)
        before = len(game.log)
        try:
            game.apply(int(entry["action"]))
        except IllegalActionError as e:
            print(f"\nThe record does not replay at action {i}: {e}", file=out)
            return EXIT_MISMATCH
        for line in log_lines(game, before):
            print(f"          {line}", file=out)
    print("\n" + render_view_text(revealed_view(game), cfg, names, choices=False), file=out)
    return 0


def printable(value: Any, limit: int = 200) -> str:
    """Text from a record as it may be printed: control characters (a terminal's escape
    sequences, line breaks) shown escaped, and at most ``limit`` characters."""
    text = str(value)
    if len(text) > limit:
        text = text[:limit] + "..."
    return "".join(
        c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text
    )


def _hands_line(game: Any, cfg: Any) -> str:
    from nanty_env.presentation.words import words_for

    w = words_for(cfg.theme, game.n, cfg)
    state = game.to_dict()
    parts = []
    for s in range(game.n):
        hand = ", ".join(w.card(c) for c in sorted(state["hands"][s])) or "(empty)"
        parts.append(f"   player {s} £{state['money'][s]}: {hand}")
    return themed("\n".join(parts), cfg.theme)


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        record = load_record(args.file)
    except RecordError as e:
        print(f"nanty replay: error: {e}", file=sys.stderr)
        return EXIT_UNREADABLE
    if args.check:
        result = check_record(record)
        if not result.ok:
            print(f"MISMATCH in {args.file}: {printable(result.problem, 600)}", file=sys.stderr)
            return EXIT_MISMATCH
        o = record["outcome"]
        cfg = record_config(record)
        ending = (
            outcome_words(o["winners"], o["reason"], cfg.theme, cfg) if o else "unfinished game"
        )
        print(f"OK {args.file}: {result.actions} actions replayed; {ending}")
        return 0
    return print_replay(record, sys.stdout, boards=args.boards)


def add_replay_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "replay",
        help="replay a game record with everything revealed, or --check it",
        description=__doc__,
    )
    p.add_argument("file", help="a game record (JSON) from nanty play, nanty eval or the env")
    p.add_argument(
        "--check",
        action="store_true",
        help="re-simulate: exit 0 only if every action is legal and the outcome matches",
    )
    p.add_argument("--boards", action="store_true", help="the whole board at every turn")
    p.set_defaults(func=cmd_replay)
    return p
