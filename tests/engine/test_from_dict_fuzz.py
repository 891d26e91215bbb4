"""Property: ``Game.from_dict`` of a mutated real state either refuses it with one
``InvalidStateError`` naming a field, or returns a game that re-serialises and plays 150
random legal moves without raising.

The states come from seeded random play of both rulesets at 2-4 players (the pool of
``benchmarks/fuzz_state.py``, whose mutations Hypothesis drives here: replace, nudge, borrow,
delete or insert a value at a JSON path). The fast property runs in the normal suite; the slow
one tries many more examples; the benchmark runs a million without shrinking.
"""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nanty_env.engine import Game, InvalidStateError


def _load_fuzz():
    """``benchmarks/fuzz_state.py`` by path (the benchmarks are scripts, not a package)."""
    path = Path(__file__).parents[2] / "benchmarks" / "fuzz_state.py"
    spec = importlib.util.spec_from_file_location("nanty_fuzz_state", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


fuzz = _load_fuzz()
POOL = fuzz.sample_states(seed=11, games=18, per_game=3)  # 9 configurations, both rulesets

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-3, max_value=15)
    | st.integers()
    | st.sampled_from(fuzz.HUGE)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from(fuzz.WORDS)
    | st.text(max_size=6)
)
KEYS = st.sampled_from(("k", "p", "s", "a", "up", "winners", "reason")) | st.text(max_size=4)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=8,
)
MUTATIONS = {
    "index": st.integers(min_value=0, max_value=len(POOL) - 1),
    "op": st.sampled_from(fuzz.OPS),
    "choices": st.lists(st.integers(min_value=0, max_value=2**30), min_size=1, max_size=6),
    "value": JSON,
    "seed": st.integers(min_value=0, max_value=2**32 - 1),
}


def mutated_state_loads_or_is_refused(index, op, choices, value, seed) -> None:
    d = json.loads(json.dumps(POOL[index]))
    m = fuzz.mutate(d, op, choices, value)
    verdict, detail = fuzz.check(d, seed, 150)
    assert verdict != "failure", f"{m}: {detail}"


def test_the_pool_holds_both_rulesets_every_player_count_and_finished_games():
    kinds = {(d["config"].get("expansion"), d["n"], d["outcome"] is not None) for d in POOL}
    assert {(e, n) for e, n, _ in kinds} == {(e, n) for e in (None, "cthulhu") for n in (2, 3, 4)}
    assert any(done for *_, done in kinds)


@given(**MUTATIONS)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_mutated_state_loads_and_plays_or_is_refused_naming_a_field(
    index, op, choices, value, seed
):
    mutated_state_loads_or_is_refused(index, op, choices, value, seed)


@pytest.mark.slow
@given(**MUTATIONS)
@settings(max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_many_mutated_states_load_and_play_or_are_refused(index, op, choices, value, seed):
    mutated_state_loads_or_is_refused(index, op, choices, value, seed)


def test_the_seeded_mutation_loop_finds_no_failure():
    """A few hundred mutations of the benchmark's own seeded loop (what the million runs)."""
    tally = fuzz.worker((3, 0, 300, 12, 150, 0))
    assert tally.failure_count == 0, tally.failures
    assert tally.rejected and tally.accepted


@pytest.mark.parametrize("value", [math.nan, math.inf, 2**64, -1, "3", [3], None, True])
def test_odd_json_values_in_a_frame_are_refused_naming_the_frame(value):
    d = json.loads(json.dumps(POOL[1]))
    d["stack"][-1]["p"] = value
    with pytest.raises(InvalidStateError, match=r"^stack\[\d+\]\.p: "):
        Game.from_dict(d)


def test_an_unknown_expansion_is_refused_naming_the_field():
    d = json.loads(json.dumps(next(d for d in POOL if d["config"].get("expansion"))))
    d["config"]["expansion"] = "x"
    with pytest.raises(InvalidStateError, match=r"^config\.expansion: "):
        Game.from_dict(d)


def test_the_pool_states_themselves_load_unchanged():
    for d in POOL:
        assert json.loads(json.dumps(Game.from_dict(d).to_dict())) == d
