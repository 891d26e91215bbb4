"""The fast observation code against a plain reference and a recorded fingerprint.

``_ref_encode``, ``_ref_mask`` and ``_ref_state`` write every entry one at a time, straight
from the layout, exactly as the encoder did before it was optimised. They are compared
element for element (bits, not closeness) with ``encode``, ``action_mask`` and
``encode_state`` on every state of seeded random games, for every seat, with and without the
others' personalities revealed. ``test_env_fingerprint`` pins whole AEC games (observations,
masks, rewards, ``state()``, infos) to a digest recorded before the speed work, so an engine
or env change that alters any trajectory fails too.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Iterator

import numpy as np
import pytest

from nanty_env.aec import env as make_env
from nanty_env.aec import raw_env
from nanty_env.engine import Game, GameConfig
from nanty_env.engine import actions as A
from nanty_env.observation import (
    KIND_INDEX,
    MAX_SYMBOLS,
    NA,
    NC,
    NE,
    NP,
    NS,
    OBS_SIZE,
    OFF,
    STATE_SIZE,
    Encoder,
    action_mask,
    encode,
    encode_state,
)


# ---------------------------------------------------------------------- reference encoder
def _ref_encode(g: Game, seat: int, reveal: bool = False) -> np.ndarray:
    """The observation, one entry at a time (float64 arithmetic, stored as float32)."""
    x = np.zeros(OBS_SIZE, dtype=np.float32)
    n = g.n
    rel = [(seat + r) % n for r in range(n)]
    for r, q in enumerate(rel):
        for a in range(NA):
            x[OFF["agents"] + a * NS + r] = g.agents[q][a] * 0.25
    for a in range(NA):
        b = g.building[a]
        if b >= 0:
            x[OFF["buildings"] + a * NS + (b - seat) % n] = 1.0
        x[OFF["grenadiers"] + a] = g.gren[a] * 0.25
        x[OFF["citizens"] + a] = g.cit[a] * (1 / 3)
        x[OFF["trouble"] + a] = g.trouble[a]
        x[OFF["city_retired"] + a] = g.city_retired[a]
        x[OFF["city_gained_this_turn"] + a] = g.city_gained[a] == g.turn
        x[OFF["abilities_used"] + a] = g.ability_used >> a & 1
    for r, q in enumerate(rel):
        x[OFF["money"] + r] = g.money[q] / 50
        x[OFF["loans"] + r] = len(g.loans[q])
        x[OFF["penalties"] + r] = len(g.penalties[q])
        x[OFF["hand_sizes"] + r] = len(g.hands[q]) / 10
        x[OFF["agents_on_board"] + r] = g.on_board[q] / 12
        x[OFF["seat_present"] + r] = 1.0
    x[OFF["active"] + (g.active - seat) % n] = 1.0
    x[OFF["num_players"] + n - 2] = 1.0
    for c in g.hands[seat]:
        x[OFF["hand"] + c] = 1.0
    for r in range(1, n):
        for c in g.known[seat][rel[r]]:
            x[OFF["known_cards"] + (r - 1) * NC + c] = 1.0
    x[OFF["personality"] + g.persona[seat]] = 1.0
    for p in g.known_unused[seat]:
        x[OFF["known_unused"] + p] = 1.0
    if reveal:
        for r in range(1, n):
            x[OFF["revealed_personalities"] + (r - 1) * NP + g.persona[rel[r]]] = 1.0
    for name, items in (("discard", g.discard), ("in_play", g.in_play)):
        for c in items:
            x[OFF[name] + c] = 1.0
    for e in g.events_done:
        x[OFF["events_done"] + e] = 1.0
    s = OFF["scalars"]
    x[s] = len(g.deck) / NC
    x[s + 1] = len(g.event_deck) / NE
    x[s + 2] = g.turn / 100
    x[s + 3] = sum(g.trouble) / NA
    for f in reversed(g.stack):
        if f["k"] == "card":
            x[OFF["resolving_card"] + f["c"]] = 1.0
            x[OFF["symbol_index"] + min(f["i"], MAX_SYMBOLS - 1)] = 1.0
            break
    if g.outcome is None and g.stack[-1]["p"] == seat:
        _ref_context(x, g.stack[-1], seat, n)
    return x


def _ref_context(x: np.ndarray, f: dict, seat: int, n: int) -> None:
    x[OFF["decision"] + KIND_INDEX[f["k"]]] = 1.0
    x[OFF["my_turn_to_act"]] = 1.0
    a = f.get("a", -1)
    if isinstance(a, int) and 0 <= a < NA:
        x[OFF["context_area"] + a] = 1.0
    for key in ("t", "to", "payer", "src"):
        q = f.get(key, -1)
        if isinstance(q, int) and 0 <= q < n:
            x[OFF["context_player"] + (q - seat) % n] = 1.0
            break
    c = f.get("c", -1)
    if isinstance(c, int) and 0 <= c < NC:
        x[OFF["context_cards"] + c] = 1.0
    for c in f.get("cards", ()):
        x[OFF["context_cards"] + c] = 1.0


def _ref_mask(g: Game, seat: int) -> np.ndarray:
    m = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
    if g.outcome is None and g.stack[-1]["p"] == seat:
        for a in g.legal_actions():
            m[a] = 1
    return m


def _ref_state(g: Game) -> np.ndarray:
    x = np.zeros(STATE_SIZE, dtype=np.float32)
    x[:OBS_SIZE] = _ref_encode(g, 0, reveal=True)
    off = OBS_SIZE
    for r in range(1, g.n):
        for c in g.hands[r]:
            x[off + (r - 1) * NC + c] = 1.0
    off += (NS - 1) * NC
    for c in g.deck:
        x[off + c] = 1.0
    off += NC
    for p in g.persona_pool:
        x[off + p] = 1.0
    off += NP
    for s, p in enumerate(g.persona):
        x[off + p] = max(x[off + p], (s + 1) / NS)
    return x


# ---------------------------------------------------------------------- element-wise equality
def _states(n: int, games: int, seed: int) -> Iterator[Game]:
    """Every state of ``games`` seeded random games, the final one included."""
    for k in range(games):
        g = Game.new(GameConfig(num_players=n, log=False), seed=seed + k)
        rng = random.Random(seed + k)
        yield g
        while not g.is_terminal:
            g.apply(rng.choice(g.legal_actions()))
            yield g


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("n", (2, 3, 4))
def test_encoder_matches_reference_on_every_state_and_seat(n: int) -> None:
    """``encode`` and an ``Encoder`` kept across the games (as an env keeps it)."""
    kinds: Counter[str] = Counter()
    interrupts = terminal = states = 0
    incremental = Encoder()
    for g in _states(n, games=5, seed=4242 + n):
        states += 1
        terminal += g.is_terminal
        if not g.is_terminal:
            kinds[g.decision] += 1
            interrupts += g.current_player != g.active
        for seat in range(n):
            reveal = (states + seat) % 3 == 0
            ref = _ref_encode(g, seat, reveal)
            assert _same_bits(encode(g, seat, reveal_personalities=reveal), ref), (states, seat)
            got = incremental(g, seat, reveal_personalities=reveal)
            assert _same_bits(got, ref), (states, seat)
            assert _same_bits(action_mask(g, seat), _ref_mask(g, seat)), (states, seat)
        if states % 5 == 0 or g.is_terminal:
            assert _same_bits(encode_state(g), _ref_state(g)), states
    # the comparison is not vacuous: long games, decisions out of turn, their ends
    assert states > 1000 and terminal == 5 and interrupts > 20 and len(kinds) >= 8


def test_encoder_in_any_order() -> None:
    """One ``Encoder`` fed shuffled states of 2-4 player games (copies, so each state stays as
    it was), any seat: only the values passed count, never the previous call."""
    states = []
    for n in (2, 3, 4):
        rng = random.Random(n)
        states += [(g.clone(), n) for g in _states(n, games=3, seed=99) if rng.random() < 0.2]
    random.Random(0).shuffle(states)
    incremental = Encoder()
    for i, (g, n) in enumerate(states):
        for seat in random.Random(i).sample(range(n), k=2):
            reveal = i % 4 == 0
            got = incremental(g, seat, reveal_personalities=reveal)
            assert _same_bits(got, _ref_encode(g, seat, reveal)), (i, seat)
    assert len(states) > 300


def test_encoder_returns_a_new_array() -> None:
    g = Game.new(GameConfig(num_players=2, log=False), seed=3)
    incremental = Encoder()
    x = incremental(g, 0)
    x[:] = 7.0
    assert _same_bits(incremental(g, 0), _ref_encode(g, 0))


def test_reference_sees_a_changed_entry() -> None:
    """Guard: one perturbed entry makes the bitwise comparison fail."""
    g = Game.new(GameConfig(num_players=3, log=False), seed=1)
    x = encode(g, 1)
    assert _same_bits(x, _ref_encode(g, 1))
    y = x.copy()
    y[OFF["money"]] = np.nextafter(y[OFF["money"]], np.float32(1))
    assert not _same_bits(y, _ref_encode(g, 1))


# ---------------------------------------------------------------------- whole-game fingerprint
# Recorded on the code before the speed work (commit f04b442); change only on purpose.
FINGERPRINT = {
    (2, False): "54ceb1021bc36a64c4b85f178d2a2eede7304e391c3fc76e2c8844caf9038254",
    (3, False): "97d1c34f9aaa3942c87a13ff8f00d4466da6eb8a24d8b642044abe104fbf0a1c",
    (4, False): "0de4bc8759622cf89a94629cde019dbe4786627ef243c9fb0ca8f24b1e36cc5d",
    (4, True): "344d870505eb93ae7fe1b35a8a885736dd5686ac1ac77b665809b09af204b584",
}


def _money(g: Game, seat: int) -> float:
    """A shaping potential (for the fingerprint of shaped rewards)."""
    return g.money[seat] / 7


def _fingerprint(n: int, reveal: bool, wrapped: bool, games: int = 3, shaped: bool = False) -> str:
    """SHA-256 over seeded random AEC games: every observation, mask, reward (of the step and
    cumulative, every seat), termination, info, and ``state()`` after each step."""
    h = hashlib.sha256()
    make = make_env if wrapped else raw_env
    shaping = _money if shaped else None
    e = make(num_players=n, reveal_personalities=reveal, reward_mode="zero_sum", shaping=shaping)
    rng = random.Random(n)
    for k in range(games):
        e.reset(seed=100 * n + k)
        while e.agents:
            obs, rew, term, trunc, info = e.last()
            h.update(obs["observation"].tobytes())
            h.update(obs["action_mask"].tobytes())
            h.update(repr((e.agent_selection, rew, term, trunc, sorted(info.items()))).encode())
            if term or trunc:
                e.step(None)
                continue
            for agent in e.agents:  # every seat, not only the one to act
                h.update(e.observe(agent)["observation"].tobytes())
            e.step(rng.choice(obs["action_mask"].nonzero()[0].tolist()))
            h.update(e.state().tobytes())
            h.update(repr((e.rewards, e._cumulative_rewards)).encode())  # every seat's
    return h.hexdigest()


# 3 players, rewards shaped by ``_money``; recorded on f04b442, re-recorded when a finished
# game's potential became 0 (the last step's shaping is then -phi(before); nothing else changed)
SHAPED_FINGERPRINT = "910791ba5c22663754cc1e87c1cf6f7f03373d954e5aabf54c60c37e21a276c7"


def test_env_fingerprint_with_shaping() -> None:
    assert _fingerprint(3, False, wrapped=False, shaped=True) == SHAPED_FINGERPRINT


@pytest.mark.parametrize(("n", "reveal"), sorted(FINGERPRINT))
def test_env_fingerprint(n: int, reveal: bool) -> None:
    digest = _fingerprint(n, reveal, wrapped=False)
    assert digest == FINGERPRINT[n, reveal]
    assert _fingerprint(n, reveal, wrapped=True) == digest
