"""The expansion's observation: its documented layout, what it encodes, and that it depends
only on what the seat knows (resample other hands, objectives, the draw pile and the order of
the events never drawn: observation, mask and render unchanged)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from nanty_env.encoding import cthulhu_observation as co
from nanty_env.encoding.observation import OBS_LAYOUT, OBS_SIZE
from nanty_env.engine import Game, GameConfig
from nanty_env.engine import actions as A
from nanty_env.engine.determinize import determinize


def cfg(n: int) -> GameConfig:
    return GameConfig(num_players=n, expansion="cthulhu", log=False)


def random_states(n: int, count: int, seed: int, longest: int = 500):
    """Mid-game expansion states of random play (one random stop per game)."""
    for k in range(count):
        g = Game.new(cfg(n), seed=seed + k)
        rng = random.Random(seed + k)
        for _ in range(rng.randrange(3, longest)):
            if g.is_terminal:
                break
            g.apply(rng.choice(g.legal_actions()))
        if not g.is_terminal:
            yield g


def test_layout_is_contiguous_and_documented():
    pos = 0
    for name, s in co.CTHULHU_OBS_LAYOUT.items():
        assert s.start == pos, name
        pos = s.stop
    assert pos == co.CTHULHU_OBS_SIZE
    table = co.layout_table()
    assert table.count("\n") == len(co.CTHULHU_OBS_LAYOUT) + 1
    assert "`elder_area`" in table and "`insanity`" in table
    # the base game's layout is untouched by the expansion
    assert OBS_SIZE == 1162 and OBS_LAYOUT["my_turn_to_act"].stop == OBS_SIZE


@pytest.mark.parametrize("n", (2, 3, 4))
def test_observation_and_mask_depend_only_on_what_the_seat_knows(n):
    rng = np.random.default_rng(n)
    checked = 0
    for g in random_states(n, 25, seed=500 * n):
        for seat in range(n):
            x = co.encode(g, seat)
            mask = co.action_mask(g, seat)
            for _ in range(2):
                h = determinize(g, seat, rng)
                assert np.array_equal(x, co.encode(h, seat))
                assert np.array_equal(mask, co.action_mask(h, seat))
                checked += 1
    assert checked >= 80


def test_resampling_changes_what_the_seat_cannot_see():
    """Guard against a vacuous leak test: objectives, hands, the deck and the order of the
    events never drawn do change between resamples."""
    rng = np.random.default_rng(0)
    hands = objectives = deck = events = samples = 0
    for g in random_states(4, 30, seed=77, longest=120):
        samples += 1
        h = determinize(g, 0, rng)
        hands += any(sorted(g.hands[q]) != sorted(h.hands[q]) for q in (1, 2, 3))
        objectives += g.objective[1:] != h.objective[1:]
        deck += g.deck != h.deck
        events += g.event_deck != h.event_deck
        assert h.objective[0] == g.objective[0]
    assert samples >= 20
    assert min(hands, objectives, deck, events) > samples // 2


def test_encode_is_its_views_encoding_and_marks_what_it_should():
    g = next(random_states(3, 1, seed=11, longest=200))
    seat = g.current_player
    x = co.encode(g, seat)
    view = g.view(seat)
    assert np.array_equal(x, co.encode_view(view, g.t))
    lay = co.CTHULHU_OBS_LAYOUT
    assert x[lay["objective"]].argmax() == g.objective[seat] and x[lay["objective"]].sum() == 1
    assert x[lay["insanity"]].argmax() == g.insanity - 1
    assert sorted(np.flatnonzero(x[lay["face_up"]])) == sorted(g.faceup)
    assert sorted(np.flatnonzero(x[lay["hand"]])) == sorted(g.hands[seat])
    assert x[lay["my_turn_to_act"]][0] == 1.0
    assert x[lay["decision"]].sum() == 1.0
    assert co.CTHULHU_KINDS[int(x[lay["decision"]].argmax())] == g.decision
    assert not x[lay["revealed_objectives"]].any()
    for e, a in enumerate(g.elder_area):
        row = x[lay["elder_area"]].reshape(-1, A.NUM_AREAS)[e]
        assert (row.argmax() == a and row.sum() == 1) if a >= 0 else not row.any()
        assert x[lay["elder_in_pool"]][e] == (a < 0)
    assert x.min() >= 0.0 and x.max() <= 100.0
    mask = co.action_mask(g, seat)
    assert mask.shape == (A.NUM_ACTIONS_CTHULHU,)
    assert list(np.flatnonzero(mask)) == g.legal_actions()
    other = (seat + 1) % 3
    assert not co.action_mask(g, other).any()
    assert co.encode(g, other)[lay["my_turn_to_act"]][0] == 0.0


def test_others_objectives_only_with_the_oracle_option():
    g = next(random_states(4, 3, seed=5, longest=150))
    plain = co.encode(g, 0)
    oracle = co.encode(g, 0, reveal_objectives=True)
    sl = co.CTHULHU_OBS_LAYOUT["revealed_objectives"]
    assert not plain[sl].any() and oracle[sl].sum() == 3
    rows = oracle[sl].reshape(3, -1)
    assert tuple(int(r.argmax()) for r in rows) == g.objective[1:]
    outside = np.ones(co.CTHULHU_OBS_SIZE, bool)
    outside[sl] = False
    assert np.array_equal(plain[outside], oracle[outside])


def test_the_next_event_is_public_once_every_event_was_drawn():
    """The event deck cycles: once all nine events were drawn, the next one is the one drawn
    longest ago, which everyone can tell; before that it is hidden."""
    from nanty_env.engine.cthulhu.track import draw_event

    g = Game.new(cfg(2), 3)
    sl = co.CTHULHU_OBS_LAYOUT["next_event"]
    assert not co.encode(g, 0)[sl].any()
    first = []
    for _ in range(len(g.event_deck)):
        first.append(g.event_deck[-1])
        g.event_deck = (first[-1], *g.event_deck[:-1])  # draw without applying
        g.events_done = (*g.events_done, first[-1])
    x = co.encode(g, 0)
    assert x[sl].argmax() == first[0] == g.event_deck[-1] and x[sl].sum() == 1
    assert draw_event  # the engine's own draw does the same rotation


def test_full_state_vector():
    g = next(random_states(4, 3, seed=9, longest=150))
    s = co.encode_state(g)
    assert s.shape == (co.CTHULHU_STATE_SIZE,)
    off = co.CTHULHU_OBS_SIZE
    hand1 = np.flatnonzero(s[off : off + A.NUM_CARDS])
    assert sorted(hand1) == sorted(g.hands[1])
    pool = np.flatnonzero(s[-co.NK :])
    assert tuple(pool) == g.objective_pool
