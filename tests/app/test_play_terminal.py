"""``nanty play`` driven through a pipe, as ``yes 1 | nanty play ...`` would."""

from __future__ import annotations

import json
import re

from nanty_env.storage.records import check_record, load_record


def test_yes_1_plays_a_whole_game_and_saves_it(nanty, tmp_path) -> None:
    answers = "1\n" * 5000
    out = nanty(
        ["play", "--bots", "random,random,random", "--seed", "3", "--records", str(tmp_path)],
        answers,
    )
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "Your hand:" in text and "personality: " in text
    assert "Your decision: Choose the card to play this turn" in text
    assert "   1. " in text  # numbered choices
    assert "Game over." in text and ("You win!" in text or "You lose." in text)
    (path,) = tmp_path.iterdir()
    rec = load_record(path)
    assert rec["outcome"] is not None and rec["players"] == ["you", "random", "random", "random"]
    assert rec["seed"] == 3 and check_record(rec).ok
    assert str(path) in text


def test_the_same_seed_and_answers_play_the_same_game(nanty, tmp_path) -> None:
    runs = []
    for k in range(2):
        folder = tmp_path / str(k)
        out = nanty(
            ["play", "--bots", "random", "--seed", "11", "--records", str(folder)], "1\n" * 3000
        )
        assert out.returncode == 0
        (path,) = folder.iterdir()
        runs.append(json.loads(path.read_text())["actions"])
    assert runs[0] == runs[1]


def test_bad_input_asks_again_and_end_of_input_stops_clearly(nanty, tmp_path) -> None:
    answers = "hello\n0\n999\n\n1\n2\n1\n"
    out = nanty(["play", "--bots", "heuristic", "--seed", "1", "--records", str(tmp_path)], answers)
    assert out.returncode == 3
    text = out.stdout
    assert text.count("Please type a number from 1 to") == 4  # hello, 0, 999 and an empty line
    assert "Traceback" not in text + out.stderr
    assert "End of input before the game ended. The game is stopped and saved" in text
    (path,) = tmp_path.iterdir()
    rec = load_record(path)
    assert rec["outcome"] is None and check_record(rec).ok
    humans = [a for a in rec["actions"] if a["seat"] == 0]
    assert len(humans) >= 3  # the three valid answers were played


def test_q_saves_and_quits(nanty, tmp_path) -> None:
    out = nanty(
        ["play", "--bots", "random,random", "--seed", "2", "--records", str(tmp_path)], "1\nq\n"
    )
    assert "q save and quit]: " in out.stdout  # every prompt says what q does
    assert out.returncode == 0  # quitting is no error (the end of a pipe's input is: 3)
    (path,) = tmp_path.iterdir()
    assert re.search(r"You quit at turn \d+\. The game is stopped and saved to ", out.stdout)
    assert f"nanty replay {path}" in out.stdout
    assert load_record(path)["outcome"] is None


def test_the_board_is_shown_when_it_changed_at_a_turn_start_and_on_b(nanty, tmp_path) -> None:
    args = ["play", "--bots", "random,random,random", "--seed", "3", "--records", str(tmp_path)]
    text = nanty(args, "1\n" * 5000).stdout
    decisions = text.count("your choice [")
    boards = text.count("Nanty Narking — turn")
    assert decisions > 40 and 0 < boards < decisions / 2  # not at every decision
    assert text.count("Your decision:") == decisions  # the hand and the question: always
    asked = nanty([*args, "--no-color"], "1\nb\nb\nq\n").stdout
    assert asked.count("Nanty Narking — turn") == 3  # the first decision's, then each 'b'


def test_hot_seat_calls_each_person_before_showing_a_hand(nanty, tmp_path) -> None:
    out = nanty(
        ["play", "--humans", "2", "--bots", "random", "--seed", "4", "--records", str(tmp_path)],
        "1\n" * 6000,
    )
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "Player 0, press Enter when only you can see the screen" in text
    assert "Player 1, press Enter when only you can see the screen" in text
    rec = load_record(next(tmp_path.iterdir()))
    assert rec["players"][:2] == ["person 1", "person 2"] and check_record(rec).ok


def test_bad_settings_are_refused(nanty, tmp_path) -> None:
    out = nanty(["play", "--bots", "random,random,random,random", "--records", str(tmp_path)])
    assert out.returncode == 2 and "2 to 4 players" in out.stderr
    out = nanty(["play", "--bots", "nobody", "--records", str(tmp_path)])
    assert out.returncode == 2 and "unknown bot 'nobody'" in out.stderr


def test_a_seed_the_player_did_not_choose_is_said_only_when_the_game_is_over(
    nanty, tmp_path
) -> None:
    out = nanty(["play", "--bots", "random", "--records", str(tmp_path)], "1\n" * 3000)
    assert out.returncode == 0, out.stderr
    seed = load_record(next(tmp_path.iterdir()))["seed"]
    said = out.stdout.index(f"The deal was seed {seed}")
    assert out.stdout.index("Game over.") < said
    assert f"seed {seed}" not in out.stdout[:said]
    chosen = nanty(["play", "--bots", "random", "--seed", "5", "--records", str(tmp_path)], "q\n")
    assert "Nanty Narking, seed 5." in chosen.stdout
