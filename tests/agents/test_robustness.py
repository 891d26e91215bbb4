"""How many hits a met goal can take (agents/robustness.py), and the robust bonus in the
learned evaluation."""

from __future__ import annotations

import numpy as np
import pytest

from agents.evaluation import DEFAULT_WEIGHTS, Evaluator, goals
from agents.heuristic import HeuristicBot
from agents.learned_eval import MAX_HITS, TERMINAL, LearnedEvaluator
from agents.robustness import break_cost, controlled_margins, durable_share
from agents.value_model import value_model_for
from nanty_env.engine.board import set_pawns
from nanty_env.engine.config import GameConfig
from nanty_env.engine.game import Outcome
from nanty_env.engine.position import build_position, personality
from nanty_env.engine.scoring import controls

CFG = GameConfig(num_players=4, log=False)
LORD = ("lord_bellinger", "moriarty", "fagin", "de_sidonia")
NINE_AREAS = [
    "Chelsea",
    "Westminster",
    "West End",
    "Holborn",
    "City",
    "Highbury",
    "East End",
    "Bermondsey",
    "Southwark",
]


def needs(name: str) -> tuple:
    return goals(CFG)[personality(name)].compiled


def lord_position(mine: dict[str, int], theirs: dict[str, int], **kw):
    return build_position(
        config=CFG, agents={0: mine, 1: theirs}, personalities=LORD, active=1, **kw
    )


@pytest.mark.parametrize(
    ("mine", "theirs", "cost"),
    [
        # three areas controlled: the goal (four) is not met
        ({"Chelsea": 1, "Westminster": 1, "West End": 1}, {}, 0),
        # four areas, each held by one piece more than the rival: one hit undoes it
        (
            {"Chelsea": 2, "Westminster": 2, "West End": 2, "Holborn": 2},
            {"Chelsea": 1, "Westminster": 1, "West End": 1, "Holborn": 1},
            1,
        ),
        # four areas, one of them by a single piece: still one hit
        ({"Chelsea": 2, "Westminster": 2, "West End": 2, "Holborn": 1}, {}, 1),
        # four areas, each by two pieces: two hits
        ({"Chelsea": 2, "Westminster": 2, "West End": 2, "Holborn": 2}, {}, 2),
        # five areas by one piece: one spare area, so two hits
        ({"Chelsea": 1, "Westminster": 1, "West End": 1, "Holborn": 1, "City": 1}, {}, 2),
        # five areas by three pieces each: two of the weakest must fall, 3 + 3
        ({"Chelsea": 3, "Westminster": 3, "West End": 3, "Holborn": 3, "City": 3}, {}, 6),
    ],
)
def test_lord_break_cost(mine, theirs, cost):
    g = lord_position(mine, theirs)
    assert break_cost(g, 0, needs("lord_bellinger")) == cost


def test_lord_building_counts_and_rivals_include_new_citizens_and_grenadiers():
    mine = {"Chelsea": 1, "Westminster": 1, "West End": 1, "Holborn": 1}
    g = lord_position(
        mine, {}, buildings={"Chelsea": 0, "Westminster": 0, "West End": 0, "Holborn": 0}
    )
    assert break_cost(g, 0, needs("lord_bellinger")) == 2
    g = lord_position(
        mine,
        {},
        buildings={"Chelsea": 0, "Westminster": 0, "West End": 0, "Holborn": 0},
        citizens={"Chelsea": 1},
    )
    assert break_cost(g, 0, needs("lord_bellinger")) == 1
    # a grenadier: nobody controls the area, so the goal is short of one
    g = lord_position(mine, {}, grenadiers={"Chelsea": 1})
    assert break_cost(g, 0, needs("lord_bellinger")) == 0


def test_moriarty_counts_agents_per_occupied_area():
    seats = ("moriarty", "lord_bellinger", "fagin", "de_sidonia")
    g = build_position(
        config=CFG, agents={0: dict.fromkeys(NINE_AREAS, 1)}, personalities=seats, active=1
    )
    assert break_cost(g, 0, needs("moriarty")) == 1
    g = build_position(
        config=CFG,
        agents={0: dict.fromkeys([*NINE_AREAS, "Strand"], 1)},
        personalities=seats,
        active=1,
    )
    assert break_cost(g, 0, needs("moriarty")) == 2
    g = build_position(
        config=CFG, agents={0: dict.fromkeys(NINE_AREAS, 2)}, personalities=seats, active=1
    )
    assert break_cost(g, 0, needs("moriarty")) == 2


def test_fagin_counts_trouble_markers_beyond_eight():
    seats = ("fagin", "lord_bellinger", "moriarty", "de_sidonia")
    for k, cost in [(7, 0), (8, 1), (9, 2)]:
        g = build_position(
            config=CFG,
            agents={1: dict.fromkeys(NINE_AREAS, 1)},
            trouble=NINE_AREAS[:k],
            personalities=seats,
            active=1,
        )
        assert break_cost(g, 0, needs("fagin")) == cost


def test_controlled_margins_follow_the_engines_control_rule(states):
    """One margin per area ``board.controls`` says the seat controls, and each is the lead:
    without ``margin - 1`` of its agents the seat still controls the area, without ``margin``
    it does not."""
    checked = 0
    for n, games in states.items():
        for g in games:
            for seat in range(n):
                held = [a for a in range(12) if controls(g, seat, a)]
                margins = controlled_margins(g, seat)
                assert len(margins) == len(held)
                for a, margin in zip(held, margins, strict=True):
                    agents = g.agents[seat][a]
                    if agents < margin:  # the building is part of the lead
                        continue
                    h = g.clone()
                    set_pawns(h, seat, a, agents - (margin - 1))
                    assert controls(h, seat, a)
                    set_pawns(h, seat, a, agents - margin)
                    assert not controls(h, seat, a)
                    checked += 1
    assert checked >= 20


def test_de_sidonia_and_holmes_have_no_break_cost():
    g = lord_position({"Chelsea": 1}, {}, money=[80, 0, 0, 0])
    assert break_cost(g, 0, needs("de_sidonia")) == 0
    assert break_cost(g, 0, needs("sherlock_holmes")) == 0


def test_durable_share_counts_lord_areas_held_by_two_pieces():
    two_by_two = {"Chelsea": 2, "Westminster": 2, "West End": 1, "Holborn": 1}
    assert durable_share(lord_position(two_by_two, {}), 0, needs("lord_bellinger")) == 0.5
    # a rival's agent cuts a lead of two to one
    g = lord_position(two_by_two, {"Chelsea": 1})
    assert durable_share(g, 0, needs("lord_bellinger")) == 0.25
    # more firm areas than the goal needs count as the whole goal
    five = dict.fromkeys(["Chelsea", "Westminster", "West End", "Holborn", "City"], 2)
    assert durable_share(lord_position(five, {}), 0, needs("lord_bellinger")) == 1.0
    # only the controlled-area goals have a durable share
    assert durable_share(lord_position(five, {}), 0, needs("moriarty")) == 0.0


def learned_evaluator(g, **kw) -> LearnedEvaluator:
    onehot = [np.eye(len(goals(CFG)))[k] for k in g.persona]
    hand = Evaluator(CFG, 0, g.persona[0], onehot, DEFAULT_WEIGHTS)
    return LearnedEvaluator(hand, value_model_for(4), onehot, g.persona[0], 1.0, **kw)


@pytest.mark.parametrize(
    ("mine", "hits"),
    [
        ({"Chelsea": 2, "Westminster": 2, "West End": 2, "Holborn": 1}, 1),
        ({"Chelsea": 2, "Westminster": 2, "West End": 2, "Holborn": 2}, 2),
        (dict.fromkeys(["Chelsea", "Westminster", "West End", "Holborn", "City"], 3), 6),
    ],
)
def test_robust_bonus_adds_each_hit_beyond_the_first_up_to_the_cap(mine, hits):
    g = lord_position(mine, {})
    assert break_cost(g, 0, needs("lord_bellinger")) == hits
    plain = learned_evaluator(g).value(g)
    bonus = learned_evaluator(g, robust=0.5).value(g) - plain
    assert bonus == pytest.approx(0.5 * (min(hits, MAX_HITS) - 1))


def test_durable_bonus_is_the_weighted_share_and_terminal_values_have_none():
    g = lord_position({"Chelsea": 2, "Westminster": 2, "West End": 1, "Holborn": 1}, {})
    plain = learned_evaluator(g).value(g)
    assert learned_evaluator(g, durable=0.8).value(g) - plain == pytest.approx(0.8 * 0.5)
    # a finished game is worth the terminal value alone
    g.outcome = Outcome(winners=(0,), reason="personality")
    assert g.is_terminal
    both = learned_evaluator(g, robust=1.0, durable=1.0)
    assert both.value(g) == learned_evaluator(g).value(g) == TERMINAL


def test_heuristic_bot_refuses_sturdiness_without_the_learned_value():
    with pytest.raises(ValueError, match="learned"):
        HeuristicBot(robust=1.0)
    with pytest.raises(ValueError, match="learned"):
        HeuristicBot(durable=0.5)
    assert HeuristicBot(learned=1.0, robust=1.0, durable=0.5).robust == 1.0
