"""Information-leak test: resample everything a seat cannot see, consistently with what it has
seen, and its observation, action mask and ansi render must not change."""

from __future__ import annotations

import random

import numpy as np
import pytest

from nanty_env.encoding.observation import Encoder, action_mask, encode
from nanty_env.engine import Game, GameConfig
from nanty_env.engine.determinize import determinize
from nanty_env.presentation.render import render_text


def random_states(n: int, count: int, seed: int):
    """Mid-game states of random play (``count`` games, one random stop each)."""
    for k in range(count):
        g = Game.new(GameConfig(num_players=n, log=False), seed=seed + k)
        rng = random.Random(seed + k)
        for _ in range(rng.randrange(5, 600)):
            if g.is_terminal:
                break
            g.apply(rng.choice(g.legal_actions()))
        if not g.is_terminal:
            yield g


@pytest.mark.parametrize("n", (2, 3, 4))
def test_observation_mask_render_depend_only_on_what_the_seat_knows(n: int) -> None:
    checked = 0
    rng = np.random.default_rng(n)
    incremental = Encoder()  # going from a game to its resample: only changes it may see
    for g in random_states(n, 120, seed=1000 * n):
        for seat in range(n):
            for _ in range(2):
                h = determinize(g, seat, rng)
                assert np.array_equal(encode(g, seat), encode(h, seat))
                assert np.array_equal(incremental(g, seat), incremental(h, seat))
                assert np.array_equal(action_mask(g, seat), action_mask(h, seat))
                assert render_text(g, seat) == render_text(h, seat)
                assert g.view(seat) == h.view(seat)
                checked += 1
    assert checked >= 200


def test_resampling_really_changes_hidden_information() -> None:
    """Guard against a vacuous test: the resampled games do differ where the seat is blind."""
    rng = np.random.default_rng(0)
    changed_hands = changed_personas = changed_deck = samples = 0
    for g in random_states(4, 40, seed=77):
        samples += 1
        h = determinize(g, 0, rng)
        changed_hands += any(sorted(g.hands[q]) != sorted(h.hands[q]) for q in (1, 2, 3))
        changed_personas += g.persona[1:] != h.persona[1:]
        changed_deck += g.deck != h.deck
        assert h.hands[0] == g.hands[0] or sorted(h.hands[0]) == sorted(g.hands[0])
        assert h.persona[0] == g.persona[0]
    assert samples >= 20
    assert min(changed_hands, changed_personas, changed_deck) > samples // 2


def test_others_personalities_only_with_oracle_option() -> None:
    g = next(random_states(4, 1, seed=5))
    plain = encode(g, 0)
    oracle = encode(g, 0, reveal_personalities=True)
    from nanty_env.encoding.observation import OBS_LAYOUT

    sl = OBS_LAYOUT["revealed_personalities"]
    assert not plain[sl].any()
    assert oracle[sl].sum() == 3


def test_resampling_while_a_stanley_taker_decides() -> None:
    """The two cards the taker holds up stay in the victim's hand in every resample, so the
    taker's choice is legal and applies in the sampled game too."""
    from nanty_env.engine.position import build_position

    g = build_position(
        2, hands=[["stanley"], ["groat", "dwarves", "ruby"]], personalities=["fagin", "moriarty"]
    )
    g.apply(g.legal_actions()[0])  # play Stanley
    g.apply(g.legal_actions()[-1])  # confirm the scroll (no ability to use)
    while g.decision != "keep_one":
        g.apply(g.legal_actions()[0])
    taker = g.current_player
    rng = np.random.default_rng(0)
    for _ in range(20):
        h = determinize(g, taker, rng)
        assert h.view(taker) == g.view(taker)
        for a in h.legal_actions():
            h.clone().apply(a)
