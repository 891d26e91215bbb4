"""The observation encoder against expectations written by hand, and its fast paths against
each other and against recorded fingerprints.

The expected vectors below are written from the documented layout (``docs/env.md``,
"Observation layout": the slice starts are copied into ``DOC``, not read from the encoder) for
hand-built positions whose every piece, card and pound is known, and compared entry for entry
(bits, not closeness) with ``encode``, ``encode_view``, ``action_mask`` and ``encode_state``.
The incremental ``Encoder`` the envs use is compared bit for bit with ``encode`` on every
state of seeded random games, for every seat, in game order and shuffled. The fingerprints pin
whole AEC games (observations, masks, rewards, ``state()``, infos) and every encoder output to
digests recorded before the speed work, so an engine or env change that alters any
trajectory fails too.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Iterator

import numpy as np
import pytest

from nanty_env.encoding.observation import (
    OBS_SIZE,
    STATE_SIZE,
    Encoder,
    action_mask,
    encode,
    encode_state,
    encode_view,
)
from nanty_env.engine import Game, GameConfig, build_position, frame_kinds
from nanty_env.engine import actions as A
from nanty_env.engine.position import card, personality
from nanty_env.faces.aec import env as make_env
from nanty_env.faces.aec import raw_env

# The slice starts of docs/env.md's observation layout (seats relative to the observer).
DOC = {
    "agents": 0,  # per area x relative seat, count / 4
    "buildings": 48,  # per area x relative seat, one-hot owner
    "grenadiers": 96,  # per area, count / 4
    "citizens": 108,  # per area, count / 3
    "trouble": 120,
    "money": 168,  # per relative seat, / 50
    "loans": 172,
    "penalties": 176,
    "hand_sizes": 180,  # / 10
    "agents_on_board": 184,  # / 12
    "seat_present": 188,
    "active": 192,
    "num_players": 196,  # 2, 3, 4
    "hand": 199,
    "known_cards": 300,
    "personality": 603,
    "revealed_personalities": 633,
    "discard": 678,
    "in_play": 779,
    "scalars": 892,  # deck / 101, event deck / 12, turn / 100, trouble markers / 12
    "decision": 896,  # one-hot over the sorted decision kinds
    "resolving_card": 938,
    "symbol_index": 1039,
    "context_area": 1044,
    "context_player": 1056,
    "context_cards": 1060,
    "my_turn_to_act": 1161,
}
OBS_LENGTH, STATE_LENGTH = 1162, 1596  # docs/env.md: Spaces
CHELSEA, CITY, STRAND, LAMBETH = 0, 4, 9, 10  # die number - 1
PERSONAS = ["sherlock_holmes", "moriarty", "lord_bellinger", "lord_holdhurst"]


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def _kind(name: str) -> int:
    return sorted(frame_kinds()).index(name)


def board_position() -> Game:
    """Seat 0 to play its card; every piece, card and pound known (see the expectations)."""
    g = build_position(
        4,
        agents={0: {"Chelsea": 2}, 1: {"City": 1}, 3: {"Strand": 1}},
        buildings={"City": 1, "Lambeth": 2},
        grenadiers={"Strand": 1},
        citizens={"City": 1},
        trouble=["City"],
        money=[10, 7, 25, 50],
        hands=[["dr_cruces"], ["groat", "mr_gryle"], [], ["ruby"]],
        loans={2: ["mr_bent"]},
        penalties={3: ["dr_whiteface"]},
        discard=["the_bank_of_ankh_morpork"],
        personalities=PERSONAS,
        active=0,
        turn=5,
    )
    assert (len(g.deck), len(g.event_deck), g.decision) == (94, 12, "main")
    return g


def test_a_seat_sees_the_board_from_its_own_chair():
    """Seat 1's observation of the hand-built board, every entry written out."""
    g = board_position()
    x = np.zeros(OBS_LENGTH, dtype=np.float32)
    # relative seats of seat 1: seat 1 -> 0, seat 2 -> 1, seat 3 -> 2, seat 0 -> 3
    x[DOC["agents"] + CHELSEA * 4 + 3] = 2 / 4
    x[DOC["agents"] + CITY * 4 + 0] = 1 / 4
    x[DOC["agents"] + STRAND * 4 + 2] = 1 / 4
    x[DOC["buildings"] + CITY * 4 + 0] = 1
    x[DOC["buildings"] + LAMBETH * 4 + 1] = 1
    x[DOC["grenadiers"] + STRAND] = 1 / 4
    x[DOC["citizens"] + CITY] = 1 / 3
    x[DOC["trouble"] + CITY] = 1
    x[DOC["money"] : DOC["money"] + 4] = [7 / 50, 25 / 50, 50 / 50, 10 / 50]
    x[DOC["loans"] + 1] = 1
    x[DOC["penalties"] + 2] = 1
    x[DOC["hand_sizes"] : DOC["hand_sizes"] + 4] = [2 / 10, 0, 1 / 10, 1 / 10]
    x[DOC["agents_on_board"] : DOC["agents_on_board"] + 4] = [1 / 12, 0, 1 / 12, 2 / 12]
    x[DOC["seat_present"] : DOC["seat_present"] + 4] = 1
    x[DOC["active"] + 3] = 1
    x[DOC["num_players"] + 2] = 1
    x[DOC["hand"] + card("groat")] = 1
    x[DOC["hand"] + card("mr_gryle")] = 1
    x[DOC["personality"] + personality("moriarty")] = 1
    x[DOC["discard"] + card("the_bank_of_ankh_morpork")] = 1
    x[DOC["scalars"] : DOC["scalars"] + 4] = [94 / 101, 12 / 12, 5 / 100, 1 / 12]
    assert _same_bits(encode(g, 1), x)
    assert _same_bits(encode_view(g.view(1)), x)
    assert _same_bits(Encoder()(g, 1), x)
    assert not action_mask(g, 1).any()  # not seat 1's decision

    # the oracle option adds the others' personalities, by relative seat
    for r, seat in enumerate((2, 3, 0), start=1):
        x[DOC["revealed_personalities"] + (r - 1) * 15 + personality(PERSONAS[seat])] = 1
    assert _same_bits(encode(g, 1, reveal_personalities=True), x)


def test_the_deciding_seat_sees_its_decision_and_its_context():
    g = board_position()
    cruces = card("dr_cruces")  # assassinate, then money
    x = encode(g, 0)
    assert x[DOC["decision"] + _kind("main")] == 1 and x[DOC["my_turn_to_act"]] == 1
    mask = action_mask(g, 0)
    assert sorted(np.flatnonzero(mask)) == [A.PLAY_CARD + cruces]

    g.apply(A.PLAY_CARD + cruces)  # its assassinate symbol waits for a target
    d = np.zeros(OBS_LENGTH - DOC["decision"], dtype=np.float32)
    d[_kind("card")] = 1
    d[DOC["resolving_card"] - DOC["decision"] + cruces] = 1
    d[DOC["symbol_index"] - DOC["decision"] + 0] = 1
    d[DOC["context_cards"] - DOC["decision"] + cruces] = 1
    d[-1] = 1
    x = encode(g, 0)
    assert _same_bits(x[DOC["decision"] :], d)
    assert x[DOC["in_play"] + cruces] == 1 and x[DOC["hand"] + cruces] == 0

    # seat 0 assassinates seat 1's agent in the City; seat 1 (holding cards) may react
    g.apply(A.pawn_action(CITY, 1))
    assert (g.decision, g.current_player) == ("react", 1)
    d = np.zeros(OBS_LENGTH - DOC["decision"], dtype=np.float32)
    d[_kind("react")] = 1
    d[DOC["resolving_card"] - DOC["decision"] + cruces] = 1
    d[DOC["symbol_index"] - DOC["decision"] + 1] = 1  # the money symbol is next
    d[DOC["context_area"] - DOC["decision"] + CITY] = 1
    d[DOC["context_player"] - DOC["decision"] + 3] = 1  # the assassin, seat 0, from seat 1
    d[-1] = 1
    assert _same_bits(encode(g, 1)[DOC["decision"] :], d)
    assert _same_bits(encode_view(g.view(1))[DOC["decision"] :], d)
    assert sorted(np.flatnonzero(action_mask(g, 1))) == g.legal_actions() == [A.PASS]
    assert not encode(g, 0)[DOC["decision"] : DOC["resolving_card"]].any()  # not seat 0's


def test_the_full_state_adds_every_hidden_card_and_personality():
    g = board_position()
    s = encode_state(g)
    assert s.shape == (STATE_LENGTH,) == (STATE_SIZE,) and OBS_SIZE == OBS_LENGTH
    assert _same_bits(s[:OBS_LENGTH], encode(g, 0, reveal_personalities=True))
    hidden = np.zeros(STATE_LENGTH - OBS_LENGTH, dtype=np.float32)
    hidden[0 * 101 + card("groat")] = 1  # seat 1's hand
    hidden[0 * 101 + card("mr_gryle")] = 1
    hidden[2 * 101 + card("ruby")] = 1  # seat 3's hand (seat 2 holds none)
    for c in g.deck:
        hidden[303 + c] = 1
    for p in g.persona_pool:
        hidden[404 + p] = 1
    for seat, name in enumerate(PERSONAS):
        hidden[404 + 15 + personality(name)] = (seat + 1) / 4
    assert _same_bits(s[OBS_LENGTH:], hidden)


# ---------------------------------------------------------------------- the fast paths
def _states(n: int, games: int, seed: int) -> Iterator[Game]:
    """Every state of ``games`` seeded random games, the final one included."""
    for k in range(games):
        g = Game.new(GameConfig(num_players=n, log=False), seed=seed + k)
        rng = random.Random(seed + k)
        yield g
        while not g.is_terminal:
            g.apply(rng.choice(g.legal_actions()))
            yield g


@pytest.mark.parametrize("n", (2, 3, 4))
def test_kept_encoder_and_mask_agree_on_every_state_and_seat(n: int) -> None:
    """The ``Encoder`` kept across games (as an env keeps it) gives ``encode``'s bits, and the
    mask is exactly the legal actions of the seat that decides (zero for the others)."""
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
            want = encode(g, seat, reveal_personalities=reveal)
            assert _same_bits(incremental(g, seat, reveal_personalities=reveal), want)
            legal = g.legal_actions() if seat == g.current_player else []
            assert sorted(np.flatnonzero(action_mask(g, seat))) == legal, (states, seat)
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
            assert _same_bits(got, encode(g, seat, reveal_personalities=reveal)), (i, seat)
    assert len(states) > 300


def test_encoder_returns_a_new_array() -> None:
    g = Game.new(GameConfig(num_players=2, log=False), seed=3)
    incremental = Encoder()
    x = incremental(g, 0)
    x[:] = 7.0
    assert _same_bits(incremental(g, 0), encode(g, 0))


def test_the_comparison_sees_a_changed_entry() -> None:
    """Guard: one perturbed entry makes the bitwise comparison fail."""
    g = board_position()
    x = encode(g, 1)
    y = x.copy()
    y[DOC["money"]] = np.nextafter(y[DOC["money"]], np.float32(1))
    assert _same_bits(x, encode(g, 1)) and not _same_bits(y, encode(g, 1))


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


# ---------------------------------------------------------------------- encoder fingerprint
# SHA-256 of every observation (``encode`` and a kept ``Encoder``, personalities revealed at
# random), mask and some ``state()`` vectors over all states of four seeded random games per
# player count, then an ``Encoder`` fed kept states in shuffled order; recorded on the encoder
# before its speed work (commit 86a1ae5), so any changed value, anywhere, fails.
ENCODER_FINGERPRINT = {
    2: ("e042266c792c7ab5cb14040553c8b91cd92f721a9a0bbfefe2a7e95c3f5eb38c", 62),
    3: ("27277e58231835941df95b048cd2d6a662db7b8526da95e97bfe7968ede77e08", 59),
    4: ("cd7ff1f2840bbafccf047f038126f9276e9b9ae9b2a60df6edfd7788fcf1fa23", 55),
}


def _encoder_digest(n: int, games: int = 4, seed: int = 0) -> tuple[str, int]:
    h = hashlib.sha256()
    incremental = Encoder()
    order = random.Random(seed * 7 + n)
    kept = []
    for k in range(games):
        g = Game.new(GameConfig(num_players=n, log=False), seed=seed + 1000 * n + k)
        rng = random.Random(seed + k)
        while True:
            for s in range(n):
                reveal = order.random() < 0.25
                h.update(encode(g, s, reveal_personalities=reveal).tobytes())
                h.update(incremental(g, s, reveal_personalities=reveal).tobytes())
                h.update(action_mask(g, s).tobytes())
            if order.random() < 0.1:
                h.update(encode_state(g).tobytes())
            if order.random() < 0.05:
                kept.append(g.clone())
            if g.is_terminal:
                break
            g.apply(rng.choice(g.legal_actions()))
    order.shuffle(kept)
    for g in kept:
        h.update(incremental(g, order.randrange(n)).tobytes())
    return h.hexdigest(), len(kept)


@pytest.mark.parametrize("n", sorted(ENCODER_FINGERPRINT))
def test_encoder_fingerprint(n: int) -> None:
    assert _encoder_digest(n) == ENCODER_FINGERPRINT[n]
