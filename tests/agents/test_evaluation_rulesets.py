"""The evaluation and role features as one skeleton with a table per ruleset: the expansion's
tables, and a variant of the base game (the house ruleset of ``tests/rulesets``) served by the
base game's without a copy, ``learned`` included."""

from __future__ import annotations

import pytest

import tests.rulesets.house  # noqa: F401  (registers house_sixes)
from agents.base import play_game
from agents.cthulhu import evaluation as cthulhu_evaluation
from agents.cthulhu import roles as cthulhu_roles
from agents.evaluation import BASE_RULES, DEFAULT_WEIGHTS, Evaluator, Weights
from agents.registry import make_bot
from agents.roles import FEATURES, TRACKER, features_for, make_tracker
from agents.rulesets import evaluator_class, ruleset_weights
from nanty_env.engine import GameConfig

HOUSE = GameConfig(num_players=2, expansion="house_sixes", log=False)
CTHULHU = GameConfig(num_players=2, expansion="cthulhu", log=False)


def test_each_ruleset_gets_its_tables():
    assert evaluator_class(GameConfig(num_players=2)) is Evaluator
    assert evaluator_class(HOUSE) is Evaluator and Evaluator.rules is BASE_RULES
    assert evaluator_class(CTHULHU) is cthulhu_evaluation.CthulhuEvaluator
    assert make_tracker(HOUSE).spec is TRACKER and features_for("house_sixes") == FEATURES
    assert make_tracker(CTHULHU).spec is cthulhu_roles.TRACKER
    assert features_for("cthulhu") == cthulhu_roles.CTHULHU_FEATURES


def test_weights_of_the_other_kind_give_the_rulesets_defaults():
    mine = Weights(points=0.5)
    assert ruleset_weights(HOUSE, mine) is mine
    assert ruleset_weights(HOUSE, None) is DEFAULT_WEIGHTS
    assert ruleset_weights(CTHULHU, mine) is cthulhu_evaluation.DEFAULT_CTHULHU_WEIGHTS
    theirs = cthulhu_evaluation.CthulhuWeights(sloth=0.5)
    assert ruleset_weights(CTHULHU, theirs) is theirs


def test_learned_heuristic_plays_the_house_variant_but_not_the_expansion():
    bots = [make_bot("heuristic:learned=1"), make_bot("heuristic:plan=greedy")]
    g, rec = play_game(bots, HOUSE, 5)
    assert g.is_terminal and rec.winners
    with pytest.raises(ValueError, match="base game"):
        play_game([make_bot("heuristic:learned=1"), make_bot("random")], CTHULHU, 5)
