"""The engine's shortcuts on hot paths agree with the definitions they stand for, over the
states of random games."""

from __future__ import annotations

import random

import pytest

from nanty_env.engine import Game, GameConfig, board, scoring
from nanty_env.engine.tables import tables
from nanty_env.engine.victory import goal_met


def _states(n: int, seeds: int = 4):
    for seed in range(seeds):
        g = Game.new(GameConfig(num_players=n, log=False), seed=seed)
        rng = random.Random(seed)
        while not g.is_terminal:
            yield g
            g.apply(rng.choice(g.legal_actions()))


@pytest.mark.parametrize("n", (2, 3, 4))
def test_controlled_areas_counts_every_controlled_area(n: int) -> None:
    for g in _states(n):
        for s in range(n):
            assert scoring.controlled_areas(g, s) == sum(
                scoring.controls(g, s, a) for a in range(12)
            )


@pytest.mark.parametrize("n", (2, 3, 4))
def test_goal_met_reads_the_personality_goal(n: int) -> None:
    people = tables().data.personalities
    for g in _states(n):
        for s in range(n):
            goal = people[g.persona[s]].goal(n, g.cfg.threshold_set)
            expected = any(scoring.metric(g, name, s) >= need for name, need in goal.items())
            assert goal_met(g, s) == expected


@pytest.mark.parametrize("n", (2, 3, 4))
def test_control_margins_are_the_leads_of_area_control(n: int) -> None:
    """The written-out loop of ``control_margins`` is ``area_control``'s rule, area by area."""
    for g in _states(n):
        for s in range(n):
            leads = [c.lead for c in map(scoring.control, [g] * 12, range(12)) if c.controller == s]
            assert scoring.control_margins(g, s) == leads


@pytest.mark.parametrize("n", (2, 3, 4))
def test_board_counts_are_their_definitions(n: int) -> None:
    """The index loops of the goal metrics and building counts count what they say."""
    cost = tables().cost
    for g in _states(n):
        for s in range(n):
            mine = [a for a in range(12) if g.building[a] == s]
            assert scoring.occupied_areas(g, s) == len(
                [a for a in range(12) if g.agents[s][a] > 0 and g.gren[a] == 0]
            )
            assert scoring.building_value(g, s) == sum(
                cost[a] for a in mine if g.gren[a] == 0
            ) - 12 * len(g.loans[s])
            assert scoring.board_points(g, s) == sum(
                5 * g.agents[s][a] + (cost[a] if a in mine else 0)
                for a in range(12)
                if g.gren[a] == 0
            )
            assert board.own_buildings(g, s) == len(mine)
        assert board.buildings_on_board(g) == len([b for b in g.building if b >= 0])


@pytest.mark.parametrize("expansion", (None, "cthulhu"))
def test_each_cards_effect_and_its_parameters_are_the_cards(expansion) -> None:
    """``Tables.effect`` and ``Tables.effect_params`` (what a played scroll runs with, read as
    C struct members by the compiled build) are each card's own effect and parameters."""
    t = Game.new(GameConfig(expansion=expansion, log=False), seed=0).t
    assert t.effect == tuple(c.effect for c in t.data.cards)
    assert all(p is c.params for p, c in zip(t.effect_params, t.data.cards, strict=True))
    assert any(p for p in t.effect_params)


@pytest.mark.parametrize("expansion", (None, "cthulhu"))
def test_interrupt_flags_are_one_byte_a_card(expansion) -> None:
    """``Tables.is_interrupt`` (bytes, read as C integers by the compiled build): 1 for
    exactly the interrupt cards of the ruleset's deck."""
    t = Game.new(GameConfig(expansion=expansion, log=False), seed=0).t
    assert type(t.is_interrupt) is bytes
    assert list(t.is_interrupt) == [int(c.interrupt) for c in t.data.cards]
    assert 0 < sum(t.is_interrupt) < len(t.data.cards)


@pytest.mark.parametrize("expansion", (None, "cthulhu"))
def test_placement_areas_are_the_neighbourhoods_of_the_seats_pieces(expansion) -> None:
    """The bitmask union of ``placement_areas`` is the rule: next to or with one of your
    agents (or Elder Ones), anywhere when you have none."""
    for seed in range(3):
        g = Game.new(GameConfig(num_players=4, expansion=expansion, log=False), seed=seed)
        rng = random.Random(seed)
        while not g.is_terminal:
            for s in range(g.n):
                own = [a for a in range(12) if g.agents[s][a]]
                if g.has_elders:
                    own += g.elder_areas_of(s)
                near = set().union(*(g.t.near[a] for a in own))
                expected = sorted(near) if own else list(range(12))
                assert board.placement_areas(g, s) == expected
                assert board.has_building(g, s) == (s in g.building)
            g.apply(rng.choice(g.legal_actions()))


@pytest.mark.parametrize("expansion", (None, "cthulhu"))
def test_to_dict_converts_each_field_as_the_generic_conversion_does(expansion) -> None:
    """``to_dict`` converts fields by their known shapes; the result is what the generic
    recursive conversion (tuples to lists, all the way down) makes of the same fields."""
    from dataclasses import asdict

    from nanty_env.engine.state_data import LIST_FIELDS, NESTED_FIELDS, SCALAR_FIELDS, jsonable

    for seed in range(2):
        cfg = GameConfig(num_players=3 + seed, expansion=expansion, log=False)
        expected_config = {k: v for k, v in asdict(cfg).items() if v is not None or k not in
                           ("expansion", "content")}  # fmt: skip
        g = Game.new(cfg, seed=seed)
        rng = random.Random(seed)
        while not g.is_terminal:
            d = g.to_dict()
            assert d["config"] == expected_config
            for name in (*SCALAR_FIELDS, *LIST_FIELDS, *NESTED_FIELDS, "known"):
                assert d[name] == jsonable(getattr(g, name)), name
            g.apply(rng.choice(g.legal_actions()))


def test_the_tables_strings_are_interned() -> None:
    """The kinds and ids the rules compare with their literals are interned, so that an equal
    string is the same object (a pointer test) in both rulesets' tables."""
    import sys

    from nanty_env.engine.cthulhu.tables import cthulhu_tables

    base, expansion = tables(), cthulhu_tables(None)
    names = [*base.ability, *base.effect, *base.interrupt_kind]
    names += [name for row in base.symbols for name in row]
    names += [*expansion.building_ability, *expansion.elder_ability, *expansion.goo_ability]
    names += [name for row in expansion.symbols for name in row]
    assert names and all(name is sys.intern(name) for name in names)
    assert "take_money" in base.ability
