"""The expansion's public surface matches the base game's: ``rolls=`` on its position builder,
the builder under its documented name, and area control and the building reserves readable
from the game (``Game.controllers``, ``CthulhuGame.building_reserve``) and from a view."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import nanty_env.engine as engine
from nanty_env.engine import Game, GameConfig, board_of_view, build_position, control
from nanty_env.engine.cthulhu import pieces
from nanty_env.engine.cthulhu.view import building_reserve_of_view
from tests.cthulhu.conftest import A, ar, area, el, elder, goo_spent, pc, play, position

DOCS = Path(__file__).resolve().parents[2] / "docs" / "engine.md"


def test_rolls_fix_a_summon_like_the_base_builders_rolls():
    g = goo_spent(
        position(
            3,
            insanity=4,
            money=[6, 10, 10],
            agents={0: {"Lambeth": 1, "Chelsea": 1}, 1: {"City": 1}, 2: {"Strand": 1}},
            hands=[["buggy_swires", "groat"], ["gaspode"], ["susan"]],
            rolls=[6],  # area index 6: the die shows 7
        )
    )
    play(g, pc("buggy_swires"))
    g.apply(A.CONFIRM)
    assert g.decision == "summon" and g.stack[-1]["roll"] == 7
    assert g.fixed_rolls == ()
    play(g, el("basatan"), ar("Chelsea"))  # HP 2 x (7 - 4) = £6
    assert g.money[0] == 0 and g.elder_owner[elder("basatan")] == 0


def test_rolls_take_area_names_and_a_further_roll_is_an_error():
    g = position(3, rolls=["Chelsea", 3])
    assert g.fixed_rolls == (area("Chelsea"), 3)
    with pytest.raises(ValueError):
        position(3, rolls=[12])


def test_the_documented_builder_names_exist():
    assert engine.build_cthulhu_position.__module__ == "nanty_env.engine.cthulhu.position"
    text = DOCS.read_text()
    assert "nanty_env.engine.build_cthulhu_position" in text
    assert "position.build_cthulhu_position" not in text.replace(
        "nanty_env.engine.build_cthulhu_position", ""
    )


@pytest.mark.parametrize("expansion", [None, "cthulhu"])
def test_controllers_and_reserves_follow_the_rules_in_random_games(expansion):
    rng = random.Random(7)
    for seed in range(3):
        g = Game.new(GameConfig(num_players=3, log=False, expansion=expansion), seed)
        while not g.is_terminal:
            if expansion is None:
                view = g.view(0)
                expect = [control(board_of_view(view), a).controller for a in range(12)]
            else:
                expect = [pieces.control(g, a).controller for a in range(12)]
                for s in range(g.n):
                    reserve = g.building_reserve(s)
                    assert reserve == pieces.reserve(g, s)
                    assert reserve == building_reserve_of_view(g.view((s + 1) % g.n), s)
            assert g.controllers() == expect
            g.apply(rng.choice(g.legal))


def test_an_elder_one_counts_for_control_in_the_expansion_only():
    tied = {0: {"Lambeth": 1}, 1: {"Lambeth": 1}}
    g = position(3, agents=tied, elders={"basatan": (0, "Lambeth")})
    assert g.controllers()[area("Lambeth")] == 0  # agent + Elder One against one agent
    assert position(3, agents=tied).controllers()[area("Lambeth")] == -1
    b = build_position(3, agents={0: {"Chelsea": 2}, 1: {"Chelsea": 1}})
    assert b.controllers()[area("Chelsea")] == 0
    assert b.controllers().count(-1) == 11
