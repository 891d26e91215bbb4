"""heuristic:conceal=λ (agents/concealment.py): the penalty is the fitted observer's evidence
for the bot's true role, off at λ = 0, bounded for specs from files and the web."""

from __future__ import annotations

import numpy as np
import pytest

from agents.base import bot_rngs, play_game
from agents.concealment import Concealment, concealment_model
from agents.registry import BotSpecError, make_bot, untrusted_spec
from agents.roles import make_tracker
from agents.rulesets import own_role
from agents.spec_limits import WEB_LIMITS
from nanty_env.engine import Game, GameConfig


def _actions(spec: str, seed: int = 11) -> list[int]:
    config = GameConfig(num_players=3, log=False)
    acts: list[int] = []
    bots = [make_bot(spec), make_bot("heuristic"), make_bot("heuristic")]
    play_game(bots, config, seed, bot_rngs(seed, 3, 99), on_action=lambda g, a: acts.append(a))
    return acts


@pytest.mark.slow
def test_zero_weight_plays_as_the_plain_bot_and_a_large_one_differs() -> None:
    plain = _actions("heuristic")
    assert _actions("heuristic:conceal=0") == plain
    assert _actions("heuristic:conceal=10") != plain


def _turn_start(config: GameConfig, seed: int, seat: int) -> Game:
    g = Game.new(config, seed)
    rng = np.random.default_rng(seed)
    while g.active != seat or g.turn < 2 * config.num_players:
        g.apply(int(rng.choice(g.legal_actions())))
    return g


def test_evidence_is_the_change_in_the_fitted_log_posterior_of_the_truth() -> None:
    config = GameConfig(num_players=3, log=False)
    model = concealment_model(config)
    seat = 1
    g = _turn_start(config, 5, seat)
    tracker = make_tracker(config)
    tracker.update(g.view(seat))
    before = (tracker.sums.copy(), tracker.turns.copy(), tracker.prev)
    role = own_role(g.view(seat))
    c = Concealment(2.0, model, config, seat, role, tracker)
    assert c.evidence(g) == 0.0  # the same turn: nothing handed over yet
    h = g.clone()
    rng = np.random.default_rng(0)
    while h.turn == g.turn:
        h.apply(int(rng.choice(h.legal_actions())))
    by_hand = make_tracker(config)
    by_hand.update(g.view(seat))
    by_hand.update(h.view(seat))
    p0 = model.probabilities(tracker.features(), 3)[seat][role]
    p1 = model.probabilities(by_hand.features(), 3)[seat][role]
    assert c.evidence(h) == pytest.approx(np.log(p1) - np.log(p0))
    assert c(h) == pytest.approx(2.0 * c.evidence(h))
    # the bot's own tracker is left as it was
    assert np.array_equal(tracker.sums, before[0]) and tracker.prev is before[2]


def test_conceal_is_a_bounded_option() -> None:
    assert untrusted_spec("heuristic:conceal=1.5") == "heuristic:conceal=1.5"
    assert untrusted_spec("heuristic:conceal=2", WEB_LIMITS) == "heuristic:conceal=2"
    for bad in ("heuristic:conceal=11", "heuristic:conceal=-1", "heuristic:conceal=x"):
        with pytest.raises(BotSpecError):
            untrusted_spec(bad)
    with pytest.raises(ValueError):
        make_bot("heuristic:conceal=-1")
