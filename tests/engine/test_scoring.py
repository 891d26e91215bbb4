"""The scoring rules (``nanty_env.engine.scoring``): control with its lead and what a rival
needs, loans at the end, and the same numbers from a game and from a seat's view."""

from __future__ import annotations

import random

import pytest

from nanty_env.engine import (
    Control,
    Game,
    GameConfig,
    area_control,
    board_of_view,
    control_margins,
    controls,
    net_worth,
    net_worth_of,
    pieces_to_control,
    points,
    scoring,
    settle_loans,
)


@pytest.mark.parametrize(
    ("pieces", "citizens", "grenadiers", "expected"),
    [
        ((0, 0, 0), 0, 0, Control(-1, 0)),  # nobody there
        ((1, 0, 0), 0, 0, Control(0, 1)),  # one piece is enough alone
        ((2, 2, 0), 0, 0, Control(-1, 0)),  # a tie at the top: nobody
        ((0, 3, 1), 0, 0, Control(1, 2)),  # the lead is over the strongest rival
        ((2, 0, 0), 2, 0, Control(-1, 0)),  # as many as the citizens: not enough
        ((3, 1, 0), 2, 0, Control(0, 1)),  # all the citizens together are one rival
        ((5, 0, 0), 0, 1, Control(-1, 0)),  # a grenadier: nobody controls
    ],
)
def test_area_control(pieces, citizens, grenadiers, expected):
    assert area_control(pieces, citizens, grenadiers) == expected


def test_what_a_rival_needs_to_take_control():
    assert pieces_to_control((3, 1, 0), 0, 0, 1) == 3  # beat 3: reach 4
    assert pieces_to_control((3, 1, 0), 0, 0, 0) == 0  # in control already
    assert pieces_to_control((1, 1), 2, 0, 0) == 2  # the citizens are the bar
    assert pieces_to_control((0, 0), 0, 1, 0) is None  # a grenadier stands there
    # adding what is needed gives control (and one less does not)
    for pieces, cit in [((3, 1, 0), 0), ((1, 1), 2), ((0, 2, 2), 1)]:
        for seat in range(len(pieces)):
            k = pieces_to_control(pieces, cit, 0, seat)
            more = list(pieces)
            more[seat] += k
            assert area_control(more, cit).controller == seat
            if k:
                more[seat] -= 1
                assert area_control(more, cit).controller != seat


def test_loans_are_repaid_in_turn_or_cost_their_penalty():
    assert settle_loans(30, [(12, 15)] * 2) == 6  # both repaid
    assert settle_loans(20, [(12, 15)] * 2) == 8 - 15  # one repaid, one penalty
    assert settle_loans(5, []) == 5
    assert net_worth_of(10, 18, 2) == 10 + 18 - 24


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_view_gives_the_games_numbers(n):
    """Control, margins, net worth and points from a seat's view equal the game's."""
    for seed in range(3):
        g = Game.new(GameConfig(num_players=n, log=False), seed)
        choose = random.Random(seed).choice
        while not g.is_terminal:
            b = board_of_view(g.view(g.current_player))
            for s in range(n):
                assert control_margins(b, s) == control_margins(g, s)
                assert net_worth(b, s) == net_worth(g, s) and points(b, s) == points(g, s)
                assert all(controls(b, s, a) == controls(g, s, a) for a in range(12))
                assert scoring.occupied_areas(b, s) == scoring.occupied_areas(g, s)
            g.apply(choose(g.legal))
