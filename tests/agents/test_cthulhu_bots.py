"""The bots on the expansion: the objective-aware evaluation reads the engine's own metrics,
role inference guesses objectives, and every bot plays whole games legally."""

from __future__ import annotations

import numpy as np
import pytest

from agents.base import play_game
from agents.cthulhu.evaluation import (
    CthulhuEvaluator,
    board_key,
    end_proximity,
    initial_deck,
    metrics,
    objective_goals,
    view_metrics,
)
from agents.heuristic import HeuristicBot
from agents.random_bot import RandomBot
from agents.registry import make_bot
from agents.roles import RoleBelief, candidates, posterior
from agents.rulesets import own_role, role_count, role_deck
from nanty_env.data.cthulhu.model import OBJECTIVE_METRICS
from nanty_env.engine import Game, GameConfig
from nanty_env.engine.cthulhu import pieces, victory
from nanty_env.engine.cthulhu.position import build_position


def cfg(n: int) -> GameConfig:
    return GameConfig(num_players=n, expansion="cthulhu", log=False)


def random_positions(n: int, seed: int, every: int = 7):
    """Positions along a random game (every ``every``-th decision)."""
    g = Game.new(cfg(n), seed)
    rng = np.random.default_rng(seed)
    i = 0
    while not g.is_terminal:
        if i % every == 0:
            yield g
        legal = g.legal_actions()
        g.apply(legal[int(rng.integers(len(legal)))])
        i += 1
    yield g


@pytest.mark.parametrize("n", [2, 3, 4])
def test_metrics_are_the_engines_objective_metrics_and_points(n):
    checked = 0
    for seed in range(3):
        for g in random_positions(n, seed):
            m = metrics(g)
            from_view = view_metrics(g.view(0), g.cfg)
            for i, name in enumerate(OBJECTIVE_METRICS):
                engine = [pieces.METRICS[name](g, s) for s in range(n)]
                assert m.by_metric[i] == engine, (name, g.turn)
                assert from_view.by_metric[i] == engine
            assert m.points == [victory.points(g, s) for s in range(n)]
            assert from_view.points == m.points
            assert m.insanity == g.insanity and m.deck == len(g.deck)
            checked += 1
    assert checked > 100


def test_threshold_progress_agrees_with_objective_met():
    """The evaluation's 'met' is the engine's start-of-turn test (every objective but Sloth)."""
    from agents.evaluation import needs_progress

    seen_met = 0
    for seed in range(4):
        for g in random_positions(3, seed, every=5):
            m = metrics(g)
            goals = objective_goals(g.cfg)
            for s in range(3):
                goal = goals[g.objective[s]]
                met = (
                    False
                    if goal.end_rule == victory.SLOTH
                    else needs_progress(goal.compiled, m, s)[1]
                )
                assert met == victory.objective_met(g, s)
                seen_met += met
    assert seen_met > 0


def test_board_key_covers_every_metric_input():
    g = next(iter(random_positions(3, 5, every=40)))
    h = g.clone()
    assert board_key(g) == board_key(h)
    h.insanity += 1
    assert board_key(g) != board_key(h)
    h = g.clone()
    e = next(i for i, a in enumerate(h.elder_area) if a < 0)
    pieces.set_elder(h, e, 0, 1, h.turn)
    assert board_key(g) != board_key(h)


def uniform_belief(n: int, seat: int, own: int, k: int = 7) -> list[np.ndarray]:
    out = []
    for q in range(n):
        v = np.zeros(k)
        if q == seat:
            v[own] = 1.0
        else:
            v[[x for x in range(k) if x != own]] = 1.0 / (k - 1)
        out.append(v)
    return out


def objective_index(name: str) -> int:
    from nanty_env.engine.cthulhu.position import objective

    return objective(name)


def test_sloth_wants_the_end_near_and_others_fear_it():
    """Sloth's holder values a higher Insanity level; a seat that is not Sloth and may face
    it values it less."""
    sloth, pride = objective_index("sloth"), objective_index("pride")
    g = build_position(3, config=cfg(3), insanity=4)
    h = build_position(3, config=cfg(3), insanity=10)
    holder = CthulhuEvaluator(g.cfg, 0, sloth, uniform_belief(3, 0, sloth))
    other = CthulhuEvaluator(g.cfg, 0, pride, uniform_belief(3, 0, pride))
    assert holder.value(h) > holder.value(g)
    assert other.value(h) < other.value(g)
    assert end_proximity(metrics(h), initial_deck(g.cfg)) == pytest.approx(9 / 12)


def test_own_objective_progress_and_the_threat_of_a_likely_objective():
    greed = objective_index("greed")
    wrath = objective_index("wrath")
    g = build_position(2, config=cfg(2), money=[10, 10])
    rich = build_position(2, config=cfg(2), money=[40, 10])
    ev = CthulhuEvaluator(g.cfg, 0, greed, uniform_belief(2, 0, greed))
    assert ev.value(rich) > ev.value(g) + 0.3  # 30 of the 50 net worth Greed needs
    # the opponent surely holds Greed: their money is a threat to me (Wrath)
    belief = [np.eye(7)[wrath], np.eye(7)[greed]]
    mine = CthulhuEvaluator(g.cfg, 0, wrath, belief)
    theirs = build_position(2, config=cfg(2), money=[10, 45])
    assert mine.threats(metrics(theirs))[1] > mine.threats(metrics(g))[1]
    assert mine.value(theirs) < mine.value(g)


def test_roles_are_the_objectives():
    c = cfg(4)
    assert role_count(c) == 7 and role_deck(c) == list(range(7))
    g = Game.new(c, 3)
    view = g.view(1)
    assert own_role(view) == g.objective[1]
    assert candidates(view, c) == [k for k in range(7) if k != g.objective[1]]
    post = posterior(view, c)
    assert post[1][g.objective[1]] == 1.0
    for q in (0, 2, 3):
        assert post[q][g.objective[1]] == 0.0
        assert post[q].sum() == pytest.approx(1.0)
        assert post[q].max() == pytest.approx(1 / 6)


def test_role_belief_refuses_a_model_of_the_other_ruleset():
    from agents.roles import default_model

    base = default_model()
    assert base is not None
    with pytest.raises(ValueError, match="base"):
        RoleBelief(cfg(3), base)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_and_heuristic_play_whole_expansion_games(n):
    bots = [HeuristicBot()] + [RandomBot() for _ in range(n - 1)]
    g, rec = play_game(bots, cfg(n), 11)
    assert g.is_terminal and rec.reason == g.outcome.reason
    assert rec.objectives == tuple(g.objective) and rec.roles == rec.objectives
    assert rec.personalities == ()


def test_heuristic_is_reproducible_and_refuses_learned_values():
    runs = [play_game([make_bot("heuristic"), make_bot("random")], cfg(2), 4) for _ in range(2)]
    assert runs[0][0].to_dict() == runs[1][0].to_dict()
    with pytest.raises(ValueError, match="base game"):
        play_game([make_bot("heuristic:learned=1"), make_bot("random")], cfg(2), 4)


def test_ismcts_plays_an_expansion_game():
    bots = [make_bot("ismcts:iters=4"), make_bot("random")]
    g, rec = play_game(bots, cfg(2), 2)
    assert g.is_terminal and rec.winners


def test_heuristic_action_ignores_what_it_cannot_see():
    """Resampling everything seat 0 cannot see (hands, deck, objectives, event order) leaves
    the heuristic's choice unchanged: it decides from its view and its generator only."""
    from nanty_env.engine.determinize import determinize

    g = Game.new(cfg(3), 9)
    rng = np.random.default_rng(0)
    for _ in range(30):
        legal = g.legal_actions()
        g.apply(legal[int(rng.integers(len(legal)))])
    while g.current_player != 0 or len(g.legal_actions()) < 2:
        legal = g.legal_actions()
        g.apply(legal[int(rng.integers(len(legal)))])
    choices = set()
    for k in range(3):
        h = determinize(g, 0, np.random.default_rng(100 + k))
        bot = HeuristicBot()
        bot.reset(0, h.cfg)
        view = h.view(0)
        choices.add(bot.act(view, view["legal_actions"], np.random.default_rng(7)))
    assert len(choices) == 1


def test_an_objective_model_applies_only_to_the_pack_it_was_trained_on():
    from agents.roles import RoleModel

    model = RoleModel({2: np.zeros((22, 7))}, {"roles": ["a", "b"]}, "cthulhu", 7)
    assert not model.fits(cfg(2))  # other objective ids than the shipped pack's
    from agents.rulesets import role_ids

    model.meta["roles"] = role_ids(cfg(2))
    assert model.fits(cfg(2)) and not model.fits(GameConfig(num_players=2))
