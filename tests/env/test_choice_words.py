"""The words of a choice say what happens: skipping a symbol says what is not done, a card
played in answer to another says what it does (it does not always block), an interrupt card
discarded in the middle of another decision says why, the seat that decides is told it is its
own turn, and the end of the game names the winner and the goal or ending."""

from __future__ import annotations

import random

from nanty_env.engine import Game, GameConfig, frame_fields, tables
from nanty_env.engine import actions as A
from nanty_env.presentation.base_words import INTERRUPT_DISCARD
from nanty_env.presentation.board_svg import board_svg
from nanty_env.presentation.render import render_view_text
from nanty_env.presentation.words import outcome_words, words_for


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
    assert plays and not any("block" in w or w.endswith(" in reply") for w in plays)
    replaced = [w for w in plays if "Red-Headed League" in w or "Victor Frankenstein" in w]
    assert replaced and all(
        w.endswith("is still removed, then you place it in another area") for w in replaced
    )  # it moves your piece: it blocks nothing


def test_an_interrupt_discarded_mid_decision_says_why() -> None:
    seen = choice_words_seen({"card", "main", "end"})
    discards = [w for k in seen for w in seen[k] if w.startswith("discard ")]
    assert discards and all(w.endswith(f"({INTERRUPT_DISCARD})") for w in discards)


def test_the_end_names_the_winner_and_the_goal_or_ending() -> None:
    config = GameConfig(num_players=3)
    goal = outcome_words([1], "personality:lord_balmoral", "nanty", config)
    assert goal.startswith("player 1 wins as Lord Balmoral: the secret goal is met (")
    assert "areas" in goal
    holmes = tables().data.personality_index["sherlock_holmes"]
    deck = outcome_words([2], "deck_exhausted:personality", "nanty", config, [0, 1, holmes])
    assert deck == (
        "The draw pile ran out: player 2 wins by their personality, Sherlock Holmes "
        "(win if nobody has won when the draw pile runs out)"
    )
    assert "on points" in outcome_words([0], "deck_exhausted:points", "nanty", config)
    x = GameConfig(num_players=3, expansion="cthulhu")
    said = outcome_words([0], "objective:gluttony", "nanty", x)
    assert said.startswith("player 0 wins: the secret objective Gluttony is met (At the start")


def test_the_deciding_seat_reads_your_turn_and_the_others_on_turn() -> None:
    config = GameConfig(num_players=3)
    g = Game.new(config, 1)
    g.apply(A.PASS if A.PASS in g.legal_actions() else g.legal_actions()[0])
    active = g.view(0)["active"]
    mine, other = g.view(active), g.view((active + 1) % 3)
    assert "◆ your turn" in render_view_text(mine, config, [])
    assert "◆ your turn" not in render_view_text(other, config, [])
    assert "◆ on turn" in render_view_text(other, config, [])
    assert "◆ your turn" in board_svg(mine, config, [])
    assert "◆ on turn" in board_svg(other, config, [])


def test_the_end_of_the_game_is_told_in_words_not_its_raw_reason() -> None:
    from nanty_env.presentation.words import log_lines, outcome_words

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
