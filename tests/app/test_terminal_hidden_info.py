"""Information-leak test of the terminal game: what ``nanty play`` prints to a seat (the board
and status text, the numbered choices, the lines that show every move) must be the same in every
game the seat cannot tell apart from the real one.

For positions of real games, everything the seat cannot see (the other hands, personalities or
objectives, the order of the decks) is resampled consistently with its view
(``determinize``). The board and the choices must not change. A move is then taken in the
resample as it was in the real game; where the seat's view after it is also the same (the
seat cannot tell the two games apart before or after the move), every line showing the move
must be identical too. "(the only choice)" on another player's move was such a leak: whether
that player had a card to block with.
"""

from __future__ import annotations

import numpy as np
import pytest

from nanty_app.table import HUMAN, Move, Table, choice_words, take_action
from nanty_app.terminal import move_lines
from nanty_env.engine import Game, GameConfig
from nanty_env.engine.determinize import determinize
from nanty_env.presentation.render import render_view_text
from nanty_env.presentation.words import words_for
from nanty_env.storage.records import new_game


def played_record(config: GameConfig, seed: int, bots: list[str]) -> dict:
    """The record of a real game between ``bots`` at a Table (every decision a bot's)."""
    t = Table(config, seed, bots)
    t.advance()
    assert t.over
    return t.record()


def move_in(game: Game, words, action: int) -> tuple[Move, Game]:
    """``action`` taken in a copy of ``game``, described as the Table does (forced when it
    was the single legal action), and the game after it."""
    after = game.clone()
    move, _ = take_action(
        after, words, action, by_bot=True, forced=len(game.legal) == 1, log_seen=len(after.log)
    )
    return move, after


def screen(game: Game, seat: int, config: GameConfig, names: list[str]) -> tuple:
    """What the terminal shows ``seat`` while it is at the table: the board (with its numbered
    choices when it decides) and the choices the Table offers."""
    words = words_for(config.theme, config.num_players, config)
    return (
        render_view_text(game.view(seat), config, names),
        choice_words(game, words, seat),
    )


def leak_check(record: dict, rng: np.random.Generator, every: int = 1, tries: int = 3):
    """Resample every ``every``-th position of ``record`` for every seat; returns (positions
    compared, moves compared, forced moves of others compared) and fails on any difference."""
    config = GameConfig.from_dict({**record["config"], "log": True})
    names = [f"p{q}" for q in range(config.num_players)]
    words = words_for(config.theme, config.num_players, config)
    game = new_game(record)
    boards = moves = forced_others = 0
    for i, entry in enumerate(record["actions"]):
        action = int(entry["action"])
        real_move, real_after = move_in(game, words, action)
        if i % every == 0:
            for seat in range(config.num_players):
                shown = screen(game, seat, config, names)
                real_lines = move_lines(real_move, names, [seat])
                for _ in range(tries):
                    h = determinize(game, seat, rng)
                    h.rng = game.clone().rng  # the same dice ahead: more resamples comparable
                    assert screen(h, seat, config, names) == shown, (i, seat)
                    boards += 1
                    if action not in h.legal:
                        continue
                    move, after = move_in(h, words, action)
                    if after.view(seat) != real_after.view(seat):
                        continue  # the seat learns something that tells the games apart
                    assert move_lines(move, names, [seat]) == real_lines, (i, seat)
                    moves += 1
                    forced_others += real_move.seat != seat and real_move.forced
        game = real_after
    return boards, moves, forced_others


@pytest.mark.parametrize("n", (2, 3, 4))
def test_what_the_terminal_shows_a_seat_depends_only_on_what_it_knows(n: int) -> None:
    rng = np.random.default_rng(n)
    bots = ["heuristic", "random", "random", "random"][:n]
    totals = np.zeros(3, int)
    for seed in range(2):
        record = played_record(GameConfig(num_players=n), 100 * n + seed, bots)
        totals += leak_check(record, rng, every=2)
    boards, moves, forced_others = totals
    assert boards >= 500 and moves >= 400
    assert forced_others >= 50  # others' forced moves were compared, not skipped


def test_the_expansion_terminal_shows_only_what_the_seat_knows() -> None:
    rng = np.random.default_rng(7)
    record = played_record(
        GameConfig(num_players=3, expansion="cthulhu"), 5, ["heuristic", "random", "random"]
    )
    boards, moves, _ = leak_check(record, rng, every=2)
    assert boards >= 300 and moves >= 200


def test_only_the_seats_own_forced_moves_are_marked() -> None:
    """The check above is not vacuous: marking every forced move (as the terminal did) is
    caught, since another player's lack of a blocking card is hidden."""
    original = Move.forced_for
    Move.forced_for = lambda self, seats: self.forced  # type: ignore[method-assign]
    try:
        record = played_record(GameConfig(num_players=4), 3, ["heuristic", "random"] * 2)
        with pytest.raises(AssertionError):
            leak_check(record, np.random.default_rng(0), every=1, tries=4)
    finally:
        Move.forced_for = original  # type: ignore[method-assign]


def test_a_person_sees_the_only_choice_on_their_own_moves_only() -> None:
    t = Table(GameConfig(num_players=3), 4, [HUMAN, "random", "random"])
    names = t.names
    while not t.over:
        if t.human_to_move():
            t.play(0, t.choices(0)[0][0])
        t.advance()
    mine = [m for m in t.moves if m.forced and m.seat == 0]
    others = [m for m in t.moves if m.forced and m.seat != 0]
    assert mine and others
    assert all("(the only choice)" in move_lines(m, names, [0])[0] for m in mine)
    assert not any("(the only choice)" in move_lines(m, names, [0])[0] for m in others)
    # hot-seat: two people at one screen are told of neither one's forced moves
    assert not any("(the only choice)" in move_lines(m, names, [0, 1])[0] for m in mine)


def test_people_sharing_a_screen_are_called_for_every_decision_they_owe() -> None:
    """Hot-seat: a reaction window is offered whatever one holds, so calling a person only
    when they have more than one option would tell the others they hold a card to react with.
    The terminal asks people sharing the screen for every decision they owe."""
    import io

    from nanty_app.terminal import TerminalGame

    def game(seats: list[str]) -> tuple[Table, list[str]]:
        prompts: list[str] = []
        t = Table(GameConfig(num_players=3), 6, seats)
        read = lambda prompt: prompts.append(prompt) or "1"  # noqa: E731
        TerminalGame(t, read=read, out=io.StringIO(), color=False, clear=False).run()
        assert t.over
        return t, [p for p in prompts if "your choice" in p]

    t, asked = game([HUMAN, HUMAN, "random"])
    humans = [m for m in t.moves if m.seat in (0, 1)]
    assert t.ask_forced and len(asked) == len(humans)  # every decision they owed was asked
    assert sum(m.forced for m in humans) >= 5  # ... those with a single option too
    # a lone person's single-option decisions are still taken for them
    alone, asked = game([HUMAN, "random", "random"])
    mine = [m for m in alone.moves if m.seat == 0]
    assert not alone.ask_forced and len(asked) == len(mine) - sum(m.forced for m in mine)
