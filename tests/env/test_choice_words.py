"""The words of a choice say what happens: skipping a symbol says what is not done, a card
played in answer to another says so without claiming it blocks, and the seat that decides is
told it is its own turn."""

from __future__ import annotations

import random

from nanty_env.board_svg import board_svg
from nanty_env.engine import Game, GameConfig, frame_fields
from nanty_env.engine import actions as A
from nanty_env.render import render_view_text
from nanty_env.words import words_for


def choice_words_seen(kinds: set[str], games: int = 30) -> dict[str, list[str]]:
    """Every choice's words at decisions of ``kinds`` met in random games."""
    seen: dict[str, list[str]] = {k: [] for k in kinds}
    for seed in range(games):
        config = GameConfig(num_players=3)
        g, rnd = Game.new(config, seed), random.Random(seed)
        words = words_for(config.theme, config.num_players, config)
        while not g.is_terminal:
            frame = frame_fields(g.view(g.current_player)["stack"][-1])
            if frame["kind"] in kinds:
                seen[frame["kind"]] += [words.choice(frame, a) for a in g.legal_actions()]
            g.apply(rnd.choice(g.legal_actions()))
    return seen


def test_skipping_a_symbol_and_playing_in_reply_say_what_happens() -> None:
    seen = choice_words_seen({"card", "react"})
    skips = [w for w in seen["card"] if "skip" in w]
    assert skips and all(w.startswith("don't ") and w.endswith("(skip this symbol)") for w in skips)
    assert "don't carry out the card's text (skip this symbol)" in skips
    plays = [w for w in seen["react"] if w.startswith("play ")]
    assert plays and all(w.endswith(" in reply") and "block" not in w for w in plays)


def test_the_deciding_seat_reads_your_turn_and_the_others_their_turn() -> None:
    config = GameConfig(num_players=3)
    g = Game.new(config, 1)
    g.apply(A.PASS if A.PASS in g.legal_actions() else g.legal_actions()[0])
    active = g.view(0)["active"]
    mine, other = g.view(active), g.view((active + 1) % 3)
    assert "◆ your turn" in render_view_text(mine, config, [])
    assert "◆ your turn" not in render_view_text(other, config, [])
    assert "◆ their turn" in render_view_text(other, config, [])
    assert "◆ your turn" in board_svg(mine, config, [])
    assert "◆ their turn" in board_svg(other, config, [])


def test_the_end_of_the_game_is_told_in_words_not_its_raw_reason() -> None:
    from nanty_env.words import log_lines, outcome_words

    for expansion in (None, "cthulhu"):
        config = GameConfig(num_players=3, expansion=expansion, log=True)
        g, rnd = Game.new(config, 5), random.Random(5)
        while not g.is_terminal:
            g.apply(rnd.choice(g.legal_actions()))
        lines = log_lines(g)
        o = g.outcome
        said = outcome_words(o.winners, o.reason, config.theme, config)
        assert lines[-1] == f"Game over. {said}."
        assert not any(o.reason in line or line.startswith("[t") for line in lines)
