"""Invariants after every step of thousands of random games (2, 3 and 4 players).

Random legal actions come from a seeded ``random.Random``; the game's own generator comes from
the game seed, so every failure is reproducible from its (players, seed) pair, which the
assertion messages name. The games are split over several test functions so that
``pytest -n 2`` can spread them; a separate test checks that random play exercises every one
of the 101 cards, every random event and every decision kind.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise

import pytest

from nanty_env.engine import actions as A
from nanty_env.engine.config import GameConfig
from nanty_env.engine.errors import IllegalActionError
from nanty_env.engine.frames import ACT, OPTIONS, _no_act
from nanty_env.engine.game import Game
from nanty_env.engine.position import area, build_position, card
from nanty_env.engine.tables import (
    AGENTS_PER_PLAYER,
    BUILDINGS_PER_PLAYER,
    CITIZENS,
    GRENADIERS,
    TROUBLE_MARKERS,
    tables,
)

NUM_CARDS = 101
NUM_EVENTS = 12
STEP_CAP = 5_000  # random games take about 300 decisions; none may run away
GAMES_PER_CHUNK = 56
CHUNKS = 12  # per player count: 3 * 12 * 56 = 2016 games in all

# A spread of configurations: the rules are the same, but personalities, thresholds and the
# reaction-window policy change which paths the engine takes.
CONFIGS = (
    {},
    {"interrupt_windows": "holders"},
    {"personalities": "variant"},
    {"personalities": "classic", "theme": "discworld"},
    {"thresholds": "player_aid"},
)
END_REASONS = {
    "riots:points",
    "deck_exhausted:points",
    "deck_exhausted:personality",
}

ALL_CARDS = list(range(NUM_CARDS))


def config(n: int, seed: int) -> GameConfig:
    return GameConfig(num_players=n, log=False, **CONFIGS[seed % len(CONFIGS)])


LOAN_CARDS = frozenset(c for c in ALL_CARDS if tables().effect[c] == "take_loan")
PENALTY_CARDS = frozenset(c for c in ALL_CARDS if tables().effect[c] == "pay_or_take_penalty_card")
ZERO_ONE = frozenset((0, 1))
ALL_EVENTS = list(range(NUM_EVENTS))


def check_state(g: Game, where: str) -> None:
    """Every conservation law and bound of the state, plus the shape of the pending decision.

    Written for speed (it runs after each of about 600,000 steps): cheap whole-state checks
    first; ``where`` names the game and step in every failure message."""
    n = g.n
    building, on_board = g.building, g.on_board
    for s in range(n):
        row = g.agents[s]
        assert min(row) >= 0 and sum(row) == on_board[s] <= AGENTS_PER_PLAYER, where
        assert building.count(s) <= BUILDINGS_PER_PLAYER and g.money[s] >= 0, where
    assert min(building) >= -1 and max(building) < n, where
    assert min(g.gren) >= 0 and sum(g.gren) <= GRENADIERS, where
    assert min(g.cit) >= 0 and sum(g.cit) <= CITIZENS, where
    assert ZERO_ONE.issuperset(g.trouble) and sum(g.trouble) <= TROUBLE_MARKERS, where
    assert ZERO_ONE.issuperset(g.city_retired), where
    gained = g.city_gained
    assert all(gained[a] == -1 for a in range(12) if building[a] < 0), where

    cards = [*g.deck, *g.discard, *g.in_play, *g.removed]
    for s in range(n):
        cards += g.hands[s]
        if g.loans[s]:
            assert LOAN_CARDS.issuperset(g.loans[s]), where
            cards += g.loans[s]
        if g.penalties[s]:
            assert PENALTY_CARDS.issuperset(g.penalties[s]), where
            cards += g.penalties[s]
        for q, known in enumerate(g.known[s]):  # what a seat knows of another hand is true
            if known:
                assert set(known).issubset(g.hands[q]), f"{where}: {s} knows {q}"
        if g.known_unused[s]:
            assert set(g.known_unused[s]).issubset(g.persona_pool), where
    cards.sort()
    assert cards == ALL_CARDS, where
    assert sorted(g.event_deck + g.events_done) == ALL_EVENTS, where
    persona = set(g.persona)
    assert len(persona) == n and persona.isdisjoint(g.persona_pool), where

    legal = g.legal_actions()
    if g.is_terminal:
        assert legal == [] and g.current_player == -1, where
        return
    assert legal, f"{where}: no legal action before the end"
    assert all(x < y for x, y in pairwise(legal)), f"{where}: {legal}"
    assert legal[0] >= 0 and legal[-1] < A.NUM_ACTIONS, where
    assert 0 <= g.current_player < n, where
    if not g.played and g.decision == "main":
        assert g.in_play == [], f"{where}: cards left in play at the start of a turn"


def check_removed(g: Game, where: str) -> None:
    """The two cards a two-player game leaves out, and nothing else, are set aside."""
    t = tables()
    assert g.removed == tuple(sorted(t.removed_with_two if g.n == 2 else ())), where


def play_random_game(n: int, seed: int, seen: Counter | None = None) -> Game:
    """Play one random game from the start, checking the invariants after every step."""
    g = Game.new(config(n, seed), seed)
    return play_on(g, random.Random(seed * 7919 + n), f"n={n} seed={seed}", seen)


def play_on(g: Game, rng: random.Random, where: str, seen: Counter | None = None) -> Game:
    """Play ``g`` to its end with random legal actions, checking the invariants after every
    step; ``seen`` (optional) counts cards played, events drawn, decision kinds met and end
    reasons."""
    n = g.n
    check_state(g, where)
    check_removed(g, where)
    events = len(g.events_done)
    for step in range(STEP_CAP):
        if g.is_terminal:
            break
        legal = g.legal_actions()
        a = rng.choice(legal)
        if seen is not None:
            seen["decision:" + g.decision] += 1
            if A.PLAY_CARD <= a < A.DISCARD_CARD:
                seen[f"card:{a - A.PLAY_CARD}"] += 1
        g.apply(a)
        check_state(g, f"{where} step={step}")
        if len(g.events_done) != events:
            if seen is not None:
                for e in g.events_done[events:]:
                    seen[f"event:{e}"] += 1
            events = len(g.events_done)
    else:
        pytest.fail(f"{where}: no end after {STEP_CAP} decisions")
    check_removed(g, where)
    assert g.outcome.reason in END_REASONS or g.outcome.reason.startswith("personality:")
    ret = g.returns()
    assert set(ret) <= {-1.0, 1.0} and ret.count(1.0) == len(g.outcome.winners)
    assert all(0 <= s < n for s in g.outcome.winners)
    if g.cfg.personality_set == "standard":
        assert g.outcome.winners, where
    with pytest.raises(IllegalActionError):
        g.apply(A.PASS)
    if seen is not None:
        seen["end:" + g.outcome.reason.split(":")[0]] += 1
    return g


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("n", [2, 3, 4])
def test_invariants_hold_after_every_step(n: int, chunk: int) -> None:
    first = 1_000 + chunk * GAMES_PER_CHUNK
    for seed in range(first, first + GAMES_PER_CHUNK):
        play_random_game(n, seed)


def decision_kinds() -> set[str]:
    """Frame kinds that can wait for a decision (those with an ``act``)."""
    return {k for k in OPTIONS if ACT[k] is not _no_act}


def six_buildings_out() -> Game:
    """Player 0 has all six buildings out and is about to build a seventh with Ruby, which
    makes them move one (a decision random play almost never reaches)."""
    g = build_position(
        3,
        agents={0: {"Lambeth": 1, "Chelsea": 1}, 1: {"City": 1}, 2: {"Strand": 1}},
        buildings={a: 0 for a in ("Chelsea", "City", "East End", "Bermondsey", "Southwark")}
        | {"Battersea": 0},
        hands=[["ruby", "groat"], ["dwarves"], ["the_mob"]],
        money=[40, 10, 10],
        personalities=["sherlock_holmes", "fagin", "moriarty"],
        seed=5,
    )
    g.apply(A.PLAY_CARD + card("ruby"))
    g.apply(A.PASS)  # no agent
    g.apply(A.AREA + area("Lambeth"))
    assert g.decision == "relocate_building"
    return g


def twelve_agents_out() -> Game:
    """Player 0 has all twelve agents on the board: placing one means lifting one first."""
    g = build_position(
        2,
        agents={0: {"Chelsea": 4, "Westminster": 4, "Lambeth": 4}, 1: {"City": 2}},
        hands=[["groat", "dwarves"], ["the_mob"]],
        personalities=["sherlock_holmes", "fagin"],
        seed=6,
    )
    assert g.on_board[0] == 12
    return g


TARGETED_STARTS = (six_buildings_out, twelve_agents_out)


def test_random_play_exercises_every_card_event_and_decision() -> None:
    """Across a fixed set of random games (and two hand-built starts for rare decisions) every
    card is played at least once, every event drawn at least once and every decision kind
    met; the games end in every way there is."""
    seen: Counter = Counter()
    for seed in range(120):
        play_random_game(4 - seed % 2, seed, seen)
    for start in TARGETED_STARTS:
        for seed in range(5):
            play_on(start(), random.Random(seed), f"{start.__name__} seed={seed}", seen)
    never_played = [tables().card_id(c) for c in range(NUM_CARDS) if not seen[f"card:{c}"]]
    assert never_played == []
    assert [e for e in range(NUM_EVENTS) if not seen[f"event:{e}"]] == []
    assert sorted(k for k in decision_kinds() if not seen[f"decision:{k}"]) == []
    ends = {k for k in seen if k.startswith("end:")}
    assert ends == {"end:personality", "end:deck_exhausted", "end:riots"}
