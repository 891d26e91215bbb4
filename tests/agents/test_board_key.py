"""The look-ahead's value-cache key (:func:`agents.evaluation.board_key`): packed bytes that
tell apart every change of what :func:`~agents.evaluation.metrics` reads, and the tuple key
when a number does not fit its byte."""

from __future__ import annotations

import pytest

from agents.evaluation import board_key, board_tuple, metrics
from nanty_env.engine.state import with_cell, with_item

# one edit of each number the key holds (the game's other numbers untouched)
EDITS = {
    "agents": lambda g: setattr(g, "agents", with_cell(g.agents, 1, 7, g.agents[1][7] + 1)),
    "grenadiers": lambda g: setattr(g, "gren", with_item(g.gren, 11, g.gren[11] + 1)),
    "citizens": lambda g: setattr(g, "cit", with_item(g.cit, 0, g.cit[0] + 1)),
    "trouble": lambda g: g.trouble.__setitem__(5, 1 - g.trouble[5]),
    "building": lambda g: setattr(
        g, "building", with_item(g.building, 3, (g.building[3] + 2) % 3 - 1)
    ),
    "money": lambda g: g.money.__setitem__(2, g.money[2] + 1),
    "money by 256": lambda g: g.money.__setitem__(0, g.money[0] + 256),
    "loans": lambda g: setattr(g, "loans", with_item(g.loans, 1, (*g.loans[1], 0))),
    "agents on the board": lambda g: g.on_board.__setitem__(3, g.on_board[3] + 1),
    "hand": lambda g: g.hands[0].append(g.deck.pop()),
    "penalties": lambda g: setattr(g, "penalties", with_item(g.penalties, 2, (*g.penalties[2], 0))),
    "draw pile": lambda g: g.deck.pop(),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_every_number_the_metrics_read_changes_the_key(edit, states):
    g = states[4][5]
    h = g.clone()
    assert board_key(g) == board_key(h) and isinstance(board_key(g), bytes)
    EDITS[edit](h)
    assert board_key(h) != board_key(g), edit
    assert isinstance(board_key(h), bytes)


def test_equal_keys_mean_equal_metrics_and_seat_counts_differ(states):
    seen: dict[bytes | tuple, object] = {}
    for n in (2, 3, 4):
        for g in states[n] + [g.clone() for g in states[n]]:
            assert seen.setdefault(board_key(g), metrics(g)) == metrics(g)
    assert len(seen) > 3 * 7  # different positions, different keys
    assert len({len(k) for k in seen}) == 3  # a layout per seat count


def test_a_number_beyond_its_byte_gives_the_tuple_key(states):
    g = states[3][0]
    rich = g.clone()
    rich.money[1] = 70_000  # beyond the two bytes of money
    assert board_key(rich) == board_tuple(rich)
    assert board_key(rich) == board_key(rich.clone())
    assert board_key(rich) != board_key(g)
    crowded = g.clone()
    crowded.gren = with_item(crowded.gren, 0, 300)  # beyond a count's byte
    assert board_key(crowded) == board_tuple(crowded) != board_key(g)
