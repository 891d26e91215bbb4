"""The game's generator (``nanty_env.engine.rng.GameRng``) gives numpy's numbers: the same
draws, in the same order, from the same state, for every call the rules make and for the
calls it hands to numpy, so that a game's random stream is the one numpy's ``Generator``
would give and a saved state means the same thing either way."""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest

from nanty_env.engine.rng import (
    FLOYD_MAX,
    SHUFFLED_HERE,
    GameRng,
    _shuffle_list,
    copy_rng,
    rng_state,
)

BOUNDS = [1, 2, 3, 5, 7, 12, 13, 31, 100, 1000, 2**16 + 1, 2**31 - 1, 2**31, 2**32 - 1, 2**32]
BOUNDS += [2**32 + 1, 2**33 + 7, 2**40, 2**53 + 3, 2**62 + 11, 2**63 - 1, 2**63]


def pair(seed: int) -> tuple[np.random.Generator, GameRng]:
    gen = np.random.default_rng(seed)
    return gen, GameRng.from_generator(np.random.default_rng(seed))


def same_state(gen: np.random.Generator, rng: GameRng) -> bool:
    return gen.bit_generator.state == rng.bit_generator.state


@pytest.mark.parametrize("seed", range(6))
def test_bounded_integers_match_numpy_draw_by_draw(seed):
    gen, rng = pair(seed)
    order = random.Random(seed)
    for _ in range(3000):  # a mix of 32- and 64-bit draws keeps the buffered half-word busy
        high = order.choice(BOUNDS)
        low = order.choice([0, 0, 0, -5, 3]) if high < 2**62 else 0
        a = gen.integers(low, low + high) if low else gen.integers(high)
        b = rng.integers(low, low + high) if low else rng.integers(high)
        assert a == b and type(b) is int, (high, low)
    assert same_state(gen, rng)


@pytest.mark.parametrize("seed", range(4))
def test_floats_and_shuffles_match_numpy(seed):
    gen, rng = pair(seed)
    order = random.Random(seed)
    for _ in range(400):
        kind = order.randrange(3)
        if kind == 0:
            assert gen.random() == rng.random()
        elif kind == 1:
            n = order.choice([0, 1, 2, 3, 5, 12, 48, 53, 101, 300])
            a, b = list(range(n)), list(range(n))
            gen.shuffle(a)
            rng.shuffle(b)
            assert a == b
        else:
            assert gen.integers(12) == rng.integers(12)
    assert same_state(gen, rng)


@pytest.mark.parametrize("n", [SHUFFLED_HERE - 1, SHUFFLED_HERE, SHUFFLED_HERE + 1, 101])
def test_the_shuffle_drawn_here_is_numpys_at_every_length(n):
    """``shuffle`` draws a short list here and hands a longer one to numpy: the draws here
    give numpy's order on both sides of that length, so the choice changes no game."""
    gen, rng = pair(n)
    for _ in range(20):
        a, b = list(range(n)), list(range(n))
        gen.shuffle(a)
        _shuffle_list(rng, b)
        assert a == b
    assert same_state(gen, rng)


@pytest.mark.parametrize("seed", range(3))
def test_distinct_integers_are_numpys_draw_by_draw(seed):
    """``choice(n, size=k, replace=False)`` is drawn here (Floyd's algorithm, then a
    shuffle unless ``shuffle=False``): the same integers, in the same order, as numpy's, with
    the same state after; other choices still go to numpy."""
    gen, rng = pair(seed)
    order = random.Random(seed)
    for _ in range(300):
        n = order.choice([0, 1, 2, 3, 5, 8, 12, 40, 1000, FLOYD_MAX])
        k = min(n, order.choice([0, 1, 2, n // 2, max(0, n - 1), n]))
        shuffle = order.random() < 0.8
        assert gen.integers(7) == rng.integers(7)  # sometimes half a word is left buffered
        a = gen.choice(n, size=k, replace=False, shuffle=shuffle)
        b = rng.choice(n, size=k, replace=False, shuffle=shuffle)
        assert b.dtype == np.int64 and b.tolist() == a.tolist(), (n, k, shuffle)
    for args, kw in [((FLOYD_MAX + 1, 300), {"replace": False}), ((6, 3), {}), ((["x", "y"],), {})]:
        assert np.array_equal(gen.choice(*args, **kw), rng.choice(*args, **kw))
    assert same_state(gen, rng)
    with pytest.raises(ValueError):
        rng.choice(3, size=4, replace=False)


def test_calls_handed_to_numpy_continue_the_same_stream():
    gen, rng = pair(9)
    for _ in range(3):
        assert gen.integers(12) == rng.integers(12)  # leaves half a word buffered
        assert list(gen.choice(7, size=3, replace=False)) == list(
            rng.choice(7, size=3, replace=False)
        )
        assert list(gen.integers(12, size=5)) == list(rng.integers(12, size=5))
        a, b = np.arange(10), np.arange(10)
        gen.shuffle(a)
        rng.shuffle(b)
        assert list(a) == list(b)
        assert gen.normal() == rng.normal()
        assert list(gen.random(4)) == list(rng.random(4))
    assert same_state(gen, rng)


def test_bad_arguments_raise_as_numpy_does():
    _, rng = pair(1)
    for bad in [(0,), (5, 5), (6, 2), (0, 2**63 + 1)]:
        with pytest.raises(ValueError):
            rng.integers(*bad)


def test_state_round_trips_and_copies_are_independent():
    gen, rng = pair(3)
    rng.integers(12)
    gen.integers(12)
    state = rng_state(rng)
    assert state == gen.bit_generator.state
    copies = [
        GameRng.from_state(state),
        copy_rng(rng),
        copy_rng(gen),
        copy.deepcopy(rng),
        pickle.loads(pickle.dumps(rng)),
    ]
    draws = [rng.integers(12) for _ in range(20)]
    assert draws == [gen.integers(12) for _ in range(20)]
    for other in copies:  # each copy replays the stream; drawing from one moves no other
        assert [other.integers(12) for _ in range(20)] == draws
    rng.bit_generator.state = state
    assert [rng.integers(12) for _ in range(20)] == draws
    for bad in [{"bit_generator": "PCG64", "state": {"state": -1}}, {"state": 3}, "PCG64"]:
        with pytest.raises(ValueError, match="not a PCG64 generator state"):
            GameRng.from_state(bad)
