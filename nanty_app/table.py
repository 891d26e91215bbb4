"""A game with people and bots at it: who moves next, the bots' moves, the record.

Both the terminal game (``nanty play``) and the browser UI (``nanty serve``) sit people at a
``Table``. Bots see only their own seat's view (as in ``agents.base.play_game``); every action,
whoever takes it, goes into the game record, which :meth:`Table.save` writes atomically: the
first save claims a file name of its own (two games started in the same second with the same
seed get two files), later saves replace that file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from agents.base import Bot, bot_rngs
from agents.registry import make_bot
from nanty_env.engine import Game, GameConfig, IllegalActionError, frame_fields
from nanty_env.presentation.words import log_lines, words_for
from nanty_env.storage.records import GameRecorder, action_entry, save_record

HUMAN = "human"


@dataclass(frozen=True)
class Move:
    """One action taken at the table: by whom, in words, and what the game log said after.

    ``forced``: the seat had this single legal action. Whether a decision had one option may
    depend on the seat's hidden hand (with ``interrupt_windows="public"`` a window is offered
    whatever one holds), so it may be shown only to the seat itself (:meth:`forced_for`)."""

    seat: int
    action: int
    text: str
    by_bot: bool
    forced: bool
    log: tuple[str, ...]
    public_text: str = ""  # the words for those who may not see the card passed
    knowers: tuple[int, ...] | None = None  # who may see ``text`` (None: everyone)

    def text_for(self, seats: Sequence[int]) -> str:
        """The words that may be shown to people at ``seats`` (all of them)."""
        if self.knowers is None or all(s in self.knowers for s in seats):
            return self.text
        return self.public_text

    def forced_for(self, seats: Sequence[int]) -> bool:
        """Whether people at ``seats`` (all of them) may be told the move was forced: only
        when the seat that made it is the only one looking."""
        return self.forced and set(seats) == {self.seat}


class Table:
    """``seats[s]`` is ``"human"`` or a bot spec (``agents.registry``). A decision with a single
    legal action is taken for whoever owes it (nothing to choose), as the tournaments do; with
    ``ask_forced`` a person is asked even then (for people sharing one screen: whether another
    is called must not tell them that person had a card to react with)."""

    def __init__(
        self,
        config: GameConfig,
        seed: int,
        seats: Sequence[str],
        *,
        records: str | Path | None = None,
        source: str = "nanty play",
        names: Sequence[str] | None = None,
        ask_forced: bool = False,
    ) -> None:
        if len(seats) != config.num_players:
            raise ValueError(f"{config.num_players} players but {len(seats)} seats")
        self.config = GameConfig.from_dict({**config.to_dict(), "log": True})
        self.seed = int(seed)
        self.seats = [s.strip() for s in seats]
        self.bots: dict[int, Bot] = {
            s: make_bot(spec) for s, spec in enumerate(self.seats) if spec != HUMAN
        }
        self.game = Game.new(self.config, self.seed)
        for s, bot in self.bots.items():
            bot.reset(s, self.config)
        self._rngs = bot_rngs(self.seed, self.config.num_players)
        self.names = list(names) if names else [self.default_name(s) for s in range(len(seats))]
        self.recorder = GameRecorder(
            self.config, self.seed, players=self.names, source=source, meta={"seats": self.seats}
        )
        self.records = Path(records) if records is not None else None
        self.record_name = f"play_{_stamp()}_seed{self.seed}.json"
        self.record_path: Path | None = None  # the record's file, once saved
        self.ask_forced = ask_forced
        self.moves: list[Move] = []
        self._last_turn = -1
        self._log_seen = 0
        self.words = words_for(self.config.theme, self.config.num_players, self.config)

    def default_name(self, seat: int) -> str:
        spec = self.seats[seat]
        if spec != HUMAN:
            return spec
        humans = [s for s, x in enumerate(self.seats) if x == HUMAN]
        return "you" if len(humans) == 1 else f"person {humans.index(seat) + 1}"

    # ------------------------------------------------------------------ state
    @property
    def over(self) -> bool:
        return self.game.is_terminal

    @property
    def to_move(self) -> int:
        """The seat that owes the pending decision (-1 once the game is over)."""
        return self.game.current_player

    def human_to_move(self) -> bool:
        return not self.over and self.seats[self.to_move] == HUMAN

    def view(self, seat: int) -> dict[str, Any]:
        return self.game.view(seat)

    def hint(self, action: int) -> str:
        """What the card an action names does ("" if it names none)."""
        return self.words.hint(action)

    def choices(self, seat: int) -> list[tuple[int, str]]:
        """The legal actions of ``seat`` with their words (empty unless it decides)."""
        return choice_words(self.game, self.words, seat)

    # ------------------------------------------------------------------ moving
    def play(self, seat: int, action: int) -> Move:
        """A person's action. Raises ``IllegalActionError`` (game unchanged) when it is not
        ``seat``'s decision or not legal."""
        if self.over:
            raise IllegalActionError("the game is over")
        if seat != self.to_move:
            raise IllegalActionError(f"it is player {self.to_move}'s decision, not player {seat}'s")
        if self.seats[seat] != HUMAN:
            raise IllegalActionError(f"player {seat} is a bot")
        return self._apply(int(action), by_bot=False, forced=len(self.game.legal) == 1)

    def step(self) -> Move | None:
        """Take the next decision if nobody needs to be asked (a bot's, or a forced one unless
        ``ask_forced``); ``None`` when a person must decide or the game is over."""
        if self.over:
            return None
        self._observe_turn()
        g = self.game
        legal = g.legal_actions()
        seat = g.current_player
        bot = self.bots.get(seat)
        if len(legal) == 1 and (bot is not None or not self.ask_forced):
            return self._apply(legal[0], by_bot=bot is not None, forced=True)
        if bot is None:
            return None
        view = g.view(seat)
        action = int(bot.act(view, view["legal_actions"], self._rngs[seat]))
        if action not in legal:
            raise IllegalActionError(
                f"bot {bot.name!r} in seat {seat} chose the illegal action {action!r}"
            )
        return self._apply(action, by_bot=True)

    def advance(self, limit: int = 100_000) -> list[Move]:
        """Take decisions until a person must decide or the game is over (at most ``limit``)."""
        out = []
        for _ in range(limit):
            move = self.step()
            if move is None:
                break
            out.append(move)
        return out

    def _apply(self, action: int, *, by_bot: bool, forced: bool = False) -> Move:
        g = self.game
        move, entry = take_action(g, self.words, action, by_bot, forced, self._log_seen)
        self.recorder.actions.append(entry)
        self._log_seen = len(g.log)
        self.moves.append(move)
        if g.is_terminal:
            self._observe_end()
        return move

    def _observe_turn(self) -> None:
        g = self.game
        if g.turn == self._last_turn:
            return
        self._last_turn = g.turn
        for s, bot in self.bots.items():
            if getattr(bot, "observes", False):
                bot.observe(g.view(s))

    def _observe_end(self) -> None:
        for s, bot in self.bots.items():
            if getattr(bot, "observes", False):
                bot.observe(self.game.view(s))

    # ------------------------------------------------------------------ record
    def record(self) -> dict[str, Any]:
        return self.recorder.record(self.game)

    def save(self) -> Path | None:
        """Write the record (finished or not) if the table has a records folder: the first
        time under a name no other file has (``play_<started>_seed<seed>.json``, ``-2`` ...
        added when taken), then always to that same file."""
        if self.records is None:
            return None
        self.record_path = save_record(
            self.record(), self.records, self.record_name, self.record_path
        )
        return self.record_path


def choice_words(game: Game, words: Any, seat: int) -> list[tuple[int, str]]:
    """The legal actions of ``seat`` in ``game`` with their words (empty unless it decides)."""
    if game.is_terminal or game.current_player != seat:
        return []
    frame = frame_fields(game.view(seat)["stack"][-1])
    return [(a, words.choice(frame, a)) for a in game.legal_actions()]


def take_action(
    game: Game, words: Any, action: int, by_bot: bool, forced: bool, log_seen: int
) -> tuple[Move, dict[str, Any]]:
    """Apply ``action`` to ``game`` and describe it: the :class:`Move` (with the log lines
    after ``log_seen``) and the record's entry for it. Raises ``IllegalActionError``."""
    seat = game.current_player
    entry = action_entry(game, action)
    frame = frame_fields(game.view(seat)["stack"][-1])
    knowers = words.knowers(frame, action)
    public = words.choice(frame, action, hide_card=True) if knowers else entry["text"]
    game.apply(action)
    new_log = tuple(log_lines(game, log_seen))
    move = Move(seat, action, entry["text"], by_bot, forced, new_log, public, knowers)
    return move, entry


def _stamp() -> str:
    """When a table is set: the time part of its record's name (UTC, to the second)."""
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
