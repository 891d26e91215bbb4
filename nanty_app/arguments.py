"""Command-line plumbing shared by the ``nanty`` subcommands: one-line usage errors, help that
shows defaults, argument types that reject bad counts before anything runs, and the checks of
the options several commands share (``--bots``, ``--content``, an output folder).

A user mistake is reported as ``nanty <command>: error: <problem>; <fix>`` on stderr with exit
code 2 (argparse's convention), never as a traceback; :class:`UsageError` carries such a
message from a command's body to :func:`nanty_app.cli.main`.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
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


RAY_HELP = (
    "play the games as tasks on this Ray cluster ('auto', HOST:PORT, or 'local' to start Ray "
    "here) instead of --workers processes; same seeds, same games"
)


def check_content(args: argparse.Namespace) -> None:
    """``--content`` only with ``--expansion``, and a pack that loads (checked before any
    game or worker starts, so that a mistake in it is one line)."""
    if args.content and not args.expansion:
        raise UsageError("--content is an expansion's content pack: give --expansion too")
    if args.content:
        from nanty_env.engine import GameConfig, tables_for

        try:
            tables_for(GameConfig(expansion=args.expansion, content=args.content))
        except (OSError, ValueError) as e:  # DataError is a ValueError
            raise UsageError(f"--content {args.content}: {str(e).splitlines()[0]}") from e


def make_folder(folder: str | Path, flag: str) -> None:
    """Create ``folder`` (and its parents) before any work, or say in one line why not (a
    file in the way, no permission)."""
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UsageError(
            f"{flag}: cannot make the folder {folder} ({e.strerror or e}); choose another place"
        ) from e


def bot_list(text: str, checkpoint: str | None, trust: bool = False) -> tuple[str, ...]:
    """The ``--bots`` specs, ``ppo`` standing for ``--checkpoint``; each one built once here so
    that a mistake is reported before any worker process starts."""
    from agents.registry import check_spec

    specs = [s.strip() for s in text.split(",")]
    if not all(specs):
        raise UsageError(f"--bots {text!r} has an empty entry; give one spec per seat")
    if checkpoint is not None and "ppo" not in specs:
        raise UsageError("--checkpoint is only used by the bot 'ppo': add ppo to --bots")
    specs = [_ppo(s, checkpoint, trust) for s in specs]
    for spec in dict.fromkeys(specs):
        check_spec(spec)
    return tuple(specs)


def _ppo(spec: str, checkpoint: str | None, trust: bool = False) -> str:
    """``ppo`` in a bot list names the ``--checkpoint`` given to ``nanty eval`` (an SB3
    ``.zip`` only with ``--trust-checkpoint``, which then applies to every policy bot)."""
    if spec.startswith("policy:") and trust and ":trust=" not in spec:
        return spec + ":trust=1"
    if spec != "ppo" or not checkpoint:  # plain ppo: the shipped PPO policy
        return spec
    from agents.checkpoint import is_policy_checkpoint

    path = Path(checkpoint)
    if not path.exists() and not is_policy_checkpoint(path):
        raise UsageError(
            f"checkpoint {path} not found (absolute: {path.resolve()}); give a run folder of "
            "nanty train or its NAME.json"
        )
    from agents.registry import spec_value

    return f"policy:path={spec_value(checkpoint)}" + (":trust=1" if trust else "")
