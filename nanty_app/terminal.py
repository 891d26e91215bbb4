"""``nanty play``: play Nanty Narking against the bots in the terminal.

One person sits at seat 0 (``--humans 2`` or more: hot-seat, the screen is cleared and the
next person called before each hand is shown). Each decision shows your hand and the legal
actions numbered from 1; type a number. The board (areas, players, piles) is shown at your
first decision of a turn when it has changed since you last saw it, and whenever you type
``b``; ``q`` saves the game and quits. Choices can come from a pipe (``yes 1 | nanty play --bots
random,random,random --seed 3``); at the end of the input the game stops with a message. Every
game is saved as a record (after each of your moves, and at the end), to be replayed with
``nanty replay``.

Nothing printed tells a person what their seat could not know: the others' cards passed face
down are not named, and "(the only choice)" marks only the person's own forced decisions (that
another player had a single option, e.g. no card to block with, is hidden information). With
several people at the screen each is called for every decision they owe, even one with a single
option, so that being called tells the others nothing.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from nanty_app.arguments import (
    EXPANSION_HELP,
    UsageError,
    non_negative_int,
    ruleset_name,
)
from nanty_app.table import HUMAN, Move, Table
from nanty_env.engine import GameConfig
from nanty_env.presentation.render import COLOUR_NAMES, render_view_text
from nanty_env.presentation.theme_text import game_title
from nanty_env.presentation.words import outcome_words

CLEAR = "\x1b[2J\x1b[H"
EXIT_STOPPED = 3  # the input ended before the game did (a person's 'q' is no error: 0)
HELP = (
    "Type the number of your choice; 'b' shows the board, 'h' this help, "
    "'q' saves the game and quits."
)


class Stop(Exception):
    """The person stopped the game (``q``, ``quit``) or the input ended (``ended``)."""

    def __init__(self, message: str, *, ended: bool = False) -> None:
        super().__init__(message)
        self.ended = ended


class TerminalGame:
    """The play loop, reading choices from ``read`` and writing to ``out``."""

    def __init__(
        self,
        table: Table,
        *,
        read: Callable[[str], str],
        out: TextIO,
        color: bool,
        clear: bool,
        seed_known: bool = True,
    ) -> None:
        self.table = table
        # a seed the player did not choose recreates the deal: said only once the game is over
        self.seed_known = seed_known
        self.read = read
        self.out = out
        self.color = color
        self.clear = clear
        self.humans = [s for s, x in enumerate(table.seats) if x == HUMAN]
        # people sharing the screen see who is called: call them for every decision they owe,
        # forced or not, or a call would tell the others that one had a card to react with
        table.ask_forced = table.ask_forced or len(self.humans) > 1
        self.last_human = -1
        self.boards: dict[int, tuple[int, str]] = {}  # per person: the turn and board last shown

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def run(self) -> int:
        t = self.table
        self.say(self.welcome())
        try:
            while not t.over:
                for move in t.advance():
                    self.show_move(move)
                if t.over:
                    break
                self.human_turn(t.to_move)
        except Stop as stop:
            path = t.save()
            self.say(f"\n{stop} The game is stopped and saved" + (f" to {path}." if path else "."))
            self.say(f"Replay it with: nanty replay {path}" if path else "")
            return EXIT_STOPPED if stop.ended else 0
        except KeyboardInterrupt:
            path = t.save()
            self.say(f"\nInterrupted. The game is saved to {path}." if path else "\nInterrupted.")
            return EXIT_STOPPED
        path = t.save()
        seat = self.humans[0] if len(self.humans) == 1 else -1
        final = t.view(max(seat, 0))
        o = t.game.outcome
        if seat >= 0:
            self.say(render_view_text(final, t.config, t.names, color=self.color))
        else:
            said = outcome_words(o.winners, o.reason, t.config.theme, t.config, t.game.persona)
            self.say("\nGame over. " + said)
        if o.points:
            self.say("Points: " + ", ".join(f"player {q} {p}" for q, p in enumerate(o.points)))
        mine = [s for s in self.humans if s in o.winners]
        if self.humans:
            self.say("You win!" if mine else "You lose.")
        if not self.seed_known:
            self.say(f"The deal was seed {t.seed} (nanty play --seed {t.seed} deals it again).")
        if path:
            self.say(f"The game is saved to {path}; replay it with: nanty replay {path}")
        return 0

    def welcome(self) -> str:
        t = self.table
        seats = ", ".join(
            f"player {s} ({COLOUR_NAMES[s]}): {t.names[s]}" for s in range(len(t.seats))
        )
        title = game_title(t.config.theme, t.config.expansion)
        deal = f", seed {t.seed}" if self.seed_known else ""
        return f"{title}{deal}. {seats}.\n{HELP}"

    def show_move(self, move: Move) -> None:
        for line in move_lines(move, self.table.names, self.humans):  # all at the screen
            self.say(line)

    def human_turn(self, seat: int) -> None:
        t = self.table
        switched = len(self.humans) > 1 and seat != self.last_human  # the screen was cleared
        if switched:
            if self.clear:
                self.out.write(CLEAR)
            self.say(f"\n=== Player {seat} ({t.names[seat]}): your turn to decide. ===")
            self.ask_line(f"Player {seat}, press Enter when only you can see the screen: ")
            if self.clear:
                self.out.write(CLEAR)
        self.last_human = seat
        choices = t.choices(seat)
        self.say("")
        self.show_board(seat, always=switched)
        self.say(self.text(seat, "decision"))
        while True:
            answer = self.ask_line(
                f"Player {seat}, your choice [1-{len(choices)}, b board, h help, q save and quit]: "
            ).strip()
            if answer.lower() in ("q", "quit", "exit"):
                raise Stop(f"You quit at turn {t.game.turn}.")
            if answer.lower() in ("b", "board"):
                self.show_board(seat, always=True)
                self.say(self.text(seat, "decision"))
                continue
            if answer.lower() in ("h", "help", "?"):
                self.say(HELP)
                continue
            if not answer.isdigit() or not 1 <= int(answer) <= len(choices):
                self.say(f"Please type a number from 1 to {len(choices)} ('h' for help).")
                continue
            action, _ = choices[int(answer) - 1]
            move = t.play(seat, action)
            self.show_move(move)
            t.save()
            return

    def text(self, seat: int, part: str) -> str:
        """What ``seat`` sees: ``part`` of :func:`render_view_text` of its view."""
        t = self.table
        return render_view_text(t.view(seat), t.config, t.names, color=self.color, part=part)

    def show_board(self, seat: int, *, always: bool = False) -> None:
        """The board, for the first decision of a turn if it changed since ``seat`` saw it
        last, or ``always`` (asked for, or the screen was cleared for another person)."""
        turn = self.table.game.turn
        board = self.text(seat, "board")
        seen_turn, seen = self.boards.get(seat, (-1, ""))
        if always or (turn != seen_turn and board != seen):
            self.say(board)
            self.say("")
            self.boards[seat] = (turn, board)
        elif turn != seen_turn:
            self.boards[seat] = (turn, board)

    def ask_line(self, prompt: str) -> str:
        try:
            return self.read(prompt)
        except EOFError:
            raise Stop("End of input before the game ended.", ended=True) from None


def move_lines(move: Move, names: list[str], viewers: list[int]) -> list[str]:
    """The lines that show ``move`` to the people at ``viewers`` (everyone at the screen):
    only what all of them may know."""
    only = " (the only choice)" if move.forced_for(viewers) else ""
    text = move.text_for(viewers)
    return [f"  player {move.seat} ({names[move.seat]}): {text}{only}"] + [
        f"      {line}" for line in move.log
    ]


def _read_line(inp: TextIO, out: TextIO) -> Callable[[str], str]:
    """A prompt reader that raises EOFError at the end of ``inp`` (a pipe or a terminal)."""

    def read(prompt: str) -> str:
        out.write(prompt)
        out.flush()
        line = inp.readline()
        if not line:
            raise EOFError
        if not inp.isatty():
            out.write(line if line.endswith("\n") else line + "\n")
        return line

    return read


def add_play_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "play",
        help="play a game against bots in the terminal",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    p.add_argument(
        "--bots",
        default="heuristic,random,random",
        help="bot specs for the other seats, comma-separated (see 'nanty bots')",
    )
    p.add_argument("--humans", type=int, default=1, help="people at the table (hot-seat)")
    p.add_argument(
        "--seed", type=non_negative_int, default=None, help="deal (default: a random one)"
    )
    p.add_argument("--records", default="records", help="folder for the game record")
    p.add_argument("--personalities", default="standard", help="standard, variant or classic")
    p.add_argument("--theme", default="nanty", help="nanty (London) or discworld")
    p.add_argument("--expansion", type=ruleset_name, metavar="RULESET", help=EXPANSION_HELP)
    p.add_argument("--content", help="the expansion's content pack (with --expansion)")
    p.add_argument("--no-color", action="store_true", help="no ANSI colours")
    p.set_defaults(func=cmd_play)
    return p


def cmd_play(args: argparse.Namespace) -> int:
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if args.humans < 1:
        raise UsageError("--humans must be at least 1")
    if args.content and not args.expansion:
        raise UsageError("--content is an expansion's content pack: give --expansion too")
    seats = [HUMAN] * args.humans + bots
    if not 2 <= len(seats) <= 4:
        raise UsageError(
            f"a game has 2 to 4 players; {args.humans} people and {len(bots)} bots make "
            f"{len(seats)}"
        )
    seed = args.seed if args.seed is not None else _random_seed()
    try:
        config = GameConfig(
            num_players=len(seats),
            personalities=args.personalities,
            theme=args.theme,
            expansion=args.expansion,
            content=args.content,
        )
        table = Table(config, seed, seats, records=Path(args.records), source="nanty play")
    except ValueError as e:
        raise UsageError(str(e).splitlines()[0]) from e
    try:
        Path(args.records).mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UsageError(
            f"--records {args.records}: cannot make the folder ({e.strerror or e}); give a folder "
            "for the game records"
        ) from e
    tty = sys.stdout.isatty()
    game = TerminalGame(
        table,
        read=_read_line(sys.stdin, sys.stdout),
        out=sys.stdout,
        color=tty and not args.no_color,
        clear=tty and sys.stdin.isatty(),
        seed_known=args.seed is not None,
    )
    return game.run()


def _random_seed() -> int:
    import secrets

    return secrets.randbelow(1_000_000)
