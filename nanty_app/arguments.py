"""Command-line plumbing shared by the ``nanty`` subcommands: one-line usage errors, help that
shows defaults, and argument types that reject bad counts before anything runs.

A user mistake is reported as ``nanty <command>: error: <problem>; <fix>`` on stderr with exit
code 2 (argparse's convention), never as a traceback; :class:`UsageError` carries such a
message from a command's body to :func:`nanty_app.cli.main`.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, NoReturn


class UsageError(Exception):
    """A user mistake found while running a command (the message names problem and fix)."""


class OneLineParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose errors are one line (no usage block), exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


class DefaultsFormatter(argparse.HelpFormatter):
    """Help that appends ``(default: X)`` to every option with a meaningful default."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        default = action.default
        if (
            "%(default)" in text
            or not action.option_strings
            or default is None
            or default is False
            or default is argparse.SUPPRESS
            or isinstance(action, argparse._HelpAction)
        ):
            return text
        return f"{text} (default: %(default)s)"


def positive_int(text: str) -> int:
    """An argparse type: an integer of at least 1."""
    return _whole(text, 1, "must be at least 1")


def non_negative_int(text: str) -> int:
    """An argparse type: an integer of at least 0 (a seed)."""
    return _whole(text, 0, "must be 0 or more")


def _whole(text: str, low: int, rule: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"want a whole number, got {text!r}") from None
    if value < low:
        raise argparse.ArgumentTypeError(f"{rule}, got {value}")
    return value


def positive_float(text: str) -> float:
    """An argparse type: a number greater than 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"want a number, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be greater than 0, got {text}")
    return value


def player_count(text: str) -> int:
    """An argparse type: 2, 3 or 4 players."""
    value = positive_int(text)
    if value not in (2, 3, 4):
        raise argparse.ArgumentTypeError(f"the game takes 2, 3 or 4 players, got {value}")
    return value


def player_counts(text: str) -> list[int]:
    """An argparse type: a comma-separated list of player counts, e.g. ``2,3,4``."""
    counts = [player_count(x.strip()) for x in text.split(",") if x.strip()]
    if not counts:
        raise argparse.ArgumentTypeError("give at least one player count, e.g. 2,3,4")
    return counts


def ruleset_name(text: str) -> str:
    """An argparse type: a ruleset to play instead of the base game (``cthulhu``, or one that an
    installed package offers as a plug-in, which is imported now: the user named it)."""
    from nanty_env.engine.ruleset import load_ruleset

    try:
        load_ruleset(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


EXPANSION_HELP = "play this ruleset instead of the base game: cthulhu, or an installed plug-in's"


def fail(prog: str, message: str) -> int:
    """Print a one-line usage error for ``prog`` and return exit code 2."""
    print(f"{prog}: error: {message}", file=sys.stderr)
    return 2


class QuietPipe:
    """Standard output that goes quiet when its reader has gone (``nanty replay F | head``):
    the first write that meets a closed pipe points the file descriptor at ``/dev/null`` and
    every later write is dropped, so the command runs to its end and exits as it would have,
    with no ``BrokenPipeError`` traceback."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.gone = False

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                self.stream.write(text)
            except BrokenPipeError:
                self._go_quiet()
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self.stream.flush()
            except BrokenPipeError:
                self._go_quiet()

    def _go_quiet(self) -> None:
        self.gone = True
        try:
            fd = self.stream.fileno()
        except (AttributeError, OSError, ValueError):
            return
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)  # what is still buffered goes nowhere, quietly, at exit
        os.close(null)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)
