"""The profiling run of the compiled build (``agents.pgo_workload``) plays what it says: random
games of both rulesets with clones and observations, and the bots' games."""

from __future__ import annotations

from agents import pgo_workload


def test_it_plays_random_games_of_every_ruleset_with_observations() -> None:
    for expansion in pgo_workload.RULESETS:
        assert pgo_workload.random_games(expansion, 1, encode=True) > 100
    assert pgo_workload.RULESETS == (None, "cthulhu")


def test_it_plays_a_whole_bot_game() -> None:
    pgo_workload.bot_games(None, "heuristic", 1)
