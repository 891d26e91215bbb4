"""Invariants after every step of random expansion games at 2, 3 and 4 players, the mix of
endings on a fixed set of seeds, and random play reaching every decision of the expansion.

The long soak (2,000+ games) is ``benchmarks/cthulhu_soak.py``; these are a modest sample.
Every failure names its (players, seed).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from nanty_env.engine import actions as A
from nanty_env.engine.cthulhu.invariants import violations
from nanty_env.engine.errors import IllegalActionError
from nanty_env.engine.frames import ACT, _no_act, ruleset_handlers
from nanty_env.engine.game import Game, Termination
from tests.cthulhu.conftest import cfg, position

STEP_CAP = 20_000
GAMES = 24  # per player count and chunk


def play_random(g: Game, rng: random.Random, where: str, seen: Counter | None = None) -> Game:
    bad = violations(g)
    assert not bad, f"{where} start: {bad}"
    for step in range(STEP_CAP):
        if g.is_terminal:
            break
        if seen is not None:
            seen["decision:" + g.decision] += 1
        level = g.insanity
        g.apply(rng.choice(g.legal_actions()))
        bad = violations(g, level)
        assert not bad, f"{where} step {step}: {bad}"
    else:
        pytest.fail(f"{where}: no end after {STEP_CAP} decisions")
    assert g.returns().count(1.0) == len(g.outcome.winners) >= 1
    with pytest.raises(IllegalActionError):
        g.apply(A.PASS)
    if seen is not None:
        seen["end:" + g.outcome.termination.value] += 1
    return g


@pytest.mark.parametrize("chunk", range(2))
@pytest.mark.parametrize("n", [2, 3, 4])
def test_invariants_hold_after_every_step(n, chunk):
    for seed in range(chunk * GAMES, (chunk + 1) * GAMES):
        g = Game.new(cfg(n, log=False), seed)
        play_random(g, random.Random(seed * 31 + n), f"n={n} seed={seed}")


def six_buildings_out() -> Game:
    six = {
        "Westminster": "tenement",
        "Holborn": "mansion",
        "West End": "palace",
        "Highbury": "hotel",
        "Bermondsey": "office",
        "Southwark": "factory",
    }
    return position(
        3,
        agents={0: {"Lambeth": 1}, 1: {"City": 1}, 2: {"Chelsea": 1}},
        buildings={a: (0, k) for a, k in six.items()},
        money=[40, 10, 10],
        hands=[["ruby", "wee_mad_arthur"], ["groat"], ["dwarves"]],
    )


def elder_fight() -> Game:
    return position(
        3,
        agents={0: {"Lambeth": 2}, 1: {"Lambeth": 1}, 2: {"Chelsea": 1}},
        elders={"ghatanothoa": (1, "Lambeth"), "basatan": (0, "Lambeth")},
        trouble=["Lambeth"],
        insanity=8,
        hands=[["death", "dr_cruces"], ["gaspode"], ["susan"]],
    )


@pytest.mark.slow
def test_random_play_reaches_every_decision_and_ends_every_way():
    seen: Counter = Counter()
    for seed in range(60):
        n = 2 + seed % 3
        play_random(Game.new(cfg(n, log=False), 500 + seed), random.Random(seed), f"{seed}", seen)
    for start in (six_buildings_out, elder_fight):
        for seed in range(8):
            play_random(start(), random.Random(seed), f"{start.__name__} {seed}", seen)
    options, act, _ = ruleset_handlers("cthulhu")
    decisions = {k for k in options if act[k] is not _no_act}
    # base decisions of effects and City Area abilities the expansion does not have
    unreachable = {"buy_building", "trouble_off"}
    assert all(ACT[k] is not _no_act for k in unreachable)
    missing = sorted(k for k in decisions - unreachable if not seen[f"decision:{k}"])
    assert missing == []
    ends = {k for k in seen if k.startswith("end:")}
    assert ends == {
        "end:" + t.value for t in (Termination.SUDDEN_DEATH, Termination.DECK, Termination.DOOMSDAY)
    }
