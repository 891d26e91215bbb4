"""The state as data: clones, JSON round trips, determinism, illegal actions, the action
codec and golden traces.

Golden traces live in ``tests/engine/golden/``; regenerate them on purpose only, with
``.venv/bin/python -m tests.engine.golden_regen`` (see that module).
"""

from __future__ import annotations

import importlib.util
import json
import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from nanty_env.engine import actions as A
from nanty_env.engine.board import set_pawns
from nanty_env.engine.config import GameConfig
from nanty_env.engine.cthulhu.position import build_position as build_cthulhu_position
from nanty_env.engine.errors import IllegalActionError
from nanty_env.engine.game import Game
from nanty_env.engine.knowledge import set_known
from nanty_env.engine.position import build_position as build_base_position
from nanty_env.engine.state import with_appended, with_item


def _load_regen():
    """``golden_regen`` by path (the tests directory is not an importable package)."""
    path = Path(__file__).with_name("golden_regen.py")
    spec = importlib.util.spec_from_file_location("nanty_golden_regen", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


regen = _load_regen()


def as_json(d: dict) -> dict:
    """``d`` after a trip through JSON text (what a file or a socket would give back)."""
    return json.loads(json.dumps(d))


def random_game(n: int, seed: int, *, log: bool = False, **cfg: str) -> Game:
    return Game.new(GameConfig(num_players=n, log=log, **cfg), seed)


def walk(g: Game, seed: int) -> Iterator[int]:
    """Play ``g`` to the end with seeded random legal actions, yielding each action before it
    is applied (the caller sees the state the action is taken in)."""
    rng = random.Random(seed)
    while not g.is_terminal:
        a = rng.choice(g.legal_actions())
        yield a
        g.apply(a)


def play_out(g: Game, seed: int) -> list[int]:
    return list(walk(g, seed))


# ====================================================================== clone
@pytest.mark.parametrize("n", [2, 3, 4])
def test_clone_playing_on_leaves_the_original_alone(n):
    g = random_game(n, 100 + n, log=True)
    for step, _ in enumerate(walk(g, n)):
        if step % 9:
            continue
        before = g.to_dict()
        c = g.clone()
        assert c.to_dict() == before
        assert c.legal_actions() == g.legal_actions()
        assert c.current_player == g.current_player and c.decision == g.decision
        play_out(c, step)  # rolls dice, moves cards and pieces, ends the game
        assert c.is_terminal
        assert g.to_dict() == before


def test_clone_shares_no_mutable_state():
    g = random_game(4, 7, log=True)
    for step, _ in enumerate(walk(g, 7)):
        if step % 13:
            continue
        before = g.to_dict()
        c = g.clone()
        # poke every mutable container of the clone
        set_pawns(c, 0, 0, c.agents[0][0] + 3)  # immutable rows and tuples: replaced
        c.money[1] += 100
        c.hands[0].append(999)
        c.deck.reverse()
        c.discard.append(998)
        c.trouble[5] = 1 - c.trouble[5]
        c.building = with_item(c.building, 2, 3)
        set_known(c, 0, 1, (*c.known[0][1], 997))  # nested tuples: only replaced, never changed
        c.known_unused = with_appended(c.known_unused, 1, 996)  # immutable rows: replaced
        c.loans = with_appended(c.loans, 0, 995)
        c.penalties = with_appended(c.penalties, 1, 994)
        c.played.append(993)
        c.event_deck = ()
        c.persona = c.persona[::-1]
        c.log.append("poked")
        c.stack[-1]["k"] = "poked"
        c.stack.append({"k": "extra"})
        c.rng.integers(12, size=50)
        assert g.to_dict() == before


@pytest.mark.parametrize("loaded", [False, True])
@pytest.mark.parametrize("ruleset", [{}, {"expansion": "cthulhu"}])
def test_a_clone_shares_only_immutable_values(ruleset, loaded):
    """Whatever a clone holds by the same object as its original cannot be changed in place:
    it hashes (ints, strings, tuples of them, frozen dataclasses), so no rule can reach the
    other game through it. The tables, read-only lookups, and the log (shared by design until
    one of the two appends, see test_game_log) are the exceptions."""
    g = random_game(4, 7, log=True, **ruleset)
    if loaded:  # a game read back from its JSON state (Game.from_dict) as well as a new one
        g = Game.from_dict(json.loads(json.dumps(g.to_dict())))
    checked = 0
    for step, _ in enumerate(walk(g, 7)):
        if step % 11:
            continue
        c = g.clone()
        for name in {s for k in type(g).__mro__ for s in getattr(k, "__slots__", ())}:
            if name in ("t", "log") or not hasattr(g, name):
                continue
            mine, theirs = getattr(g, name), getattr(c, name)
            if mine is theirs:
                hash(mine)  # TypeError names a list or dict reachable from both games
                checked += 1
            elif isinstance(mine, list):  # hands, the stack: their items are copies too
                for x, y in zip(mine, theirs, strict=True):
                    if x is y:
                        hash(x)
    assert checked > 0


def test_clone_continues_exactly_like_the_original():
    g = random_game(3, 11)
    for step, _ in enumerate(walk(g, 11)):
        if step % 17:
            continue
        c = g.clone()
        h = g.clone()
        assert play_out(c, step) == play_out(h, step)
        assert c.to_dict() == h.to_dict()


# ====================================================================== to_dict / from_dict
ROUND_TRIP_GAMES = [(2 + i % 3, 500 + i) for i in range(36)]


@pytest.mark.parametrize(("n", "seed"), ROUND_TRIP_GAMES)
def test_json_round_trip_at_every_step(n, seed):
    """At every step: the JSON copy rebuilds an equal state with the same legal actions, and
    the next action takes both to the same state (so by induction the whole continuation is
    the same). Some games keep a log and use the other reaction-window policy."""
    cfg = {"interrupt_windows": "holders"} if seed % 4 == 3 else {}
    g = random_game(n, seed, log=seed % 2 == 0, **cfg)
    for a in walk(g, seed):
        d = g.to_dict()
        text = json.dumps(d)
        r = Game.from_dict(json.loads(text))
        assert json.dumps(r.to_dict()) == text
        assert r.legal_actions() == g.legal_actions()
        assert (r.current_player, r.decision) == (g.current_player, g.decision)
        r.apply(a)
        g_next = g.clone()
        g_next.apply(a)
        assert r.to_dict() == g_next.to_dict()
    end = g.to_dict()
    r = Game.from_dict(as_json(end))
    assert r.is_terminal and r.outcome == g.outcome and r.returns() == g.returns()
    assert r.to_dict() == as_json(end)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_restored_game_plays_on_identically_to_the_end(n):
    g = random_game(n, 900 + n)
    for step, _ in enumerate(walk(g, n)):
        if step % 23:
            continue
        r = Game.from_dict(as_json(g.to_dict()))
        c = g.clone()
        assert play_out(r, step) == play_out(c, step)
        assert r.to_dict() == c.to_dict()


@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_view_is_json_safe_at_every_step(n):
    g = random_game(n, 40 + n)
    for _ in walk(g, n):
        for seat in range(n):
            v = g.view(seat)
            assert as_json(v) == v
    for seat in range(n):
        v = g.view(seat)
        assert v["terminal"] and as_json(v) == v


# ====================================================================== determinism
def trace(n: int, seed: int, *, stir: bool) -> list[tuple[int, int, tuple[int, ...]]]:
    """(player, action, legal actions) of every step; with ``stir`` the global generators
    are used and reseeded between steps, which must make no difference."""
    g = random_game(n, seed)
    out = []
    noise = random.Random(12345)
    for a in walk(g, seed):
        out.append((g.current_player, a, tuple(g.legal_actions())))
        if stir:
            random.seed(noise.random())
            random.random()
            np.random.seed(noise.randrange(2**32))
            np.random.random(7)
            np.random.default_rng().integers(12)
    out.append((-1, -1, (regen.state_hash(g),)))
    return out


@pytest.mark.parametrize(("n", "seed"), [(2, 3), (3, 4), (4, 5), (4, 6)])
def test_same_seed_same_trace_even_with_global_rngs_stirred(n, seed):
    state = random.getstate(), np.random.get_state()
    try:
        assert trace(n, seed, stir=False) == trace(n, seed, stir=True)
    finally:
        random.setstate(state[0])
        np.random.set_state(state[1])


def test_different_seeds_give_different_games():
    dealt = {json.dumps(random_game(4, s).to_dict()["hands"]) for s in range(10)}
    assert len(dealt) == 10


def test_new_game_from_the_same_seed_is_the_same_state():
    for n in (2, 3, 4):
        assert random_game(n, 77).to_dict() == random_game(n, 77).to_dict()


# ====================================================================== illegal actions
ILLEGAL_EXTREMES = [-1, -2, -(10**9), A.NUM_ACTIONS, A.NUM_ACTIONS + 1, 10**12, 2**63]


def illegal_candidates(g: Game, rng: random.Random, k: int) -> list[int]:
    legal = set(g.legal_actions())
    pool = [a for a in range(A.NUM_ACTIONS) if a not in legal]
    picks = rng.sample(pool, min(k, len(pool)))
    picks += [rng.randrange(-(2**31), 0), rng.randrange(A.NUM_ACTIONS, 2**40)]
    return picks + ILLEGAL_EXTREMES


@pytest.mark.parametrize("n", [2, 3, 4])
def test_illegal_actions_raise_and_change_nothing(n):
    g = random_game(n, 300 + n, log=True)
    rng = random.Random(n)
    for step, _ in enumerate(walk(g, n)):
        if step % 3:
            continue
        before = g.to_dict()
        legal = g.legal_actions()
        for bad in illegal_candidates(g, rng, 12):
            with pytest.raises(IllegalActionError):
                g.apply(bad)
        assert g.to_dict() == before
        assert g.legal_actions() == legal
    before = g.to_dict()
    for bad in [A.PASS, A.CONFIRM, 0, -1, A.NUM_ACTIONS]:
        with pytest.raises(IllegalActionError):
            g.apply(bad)
    assert g.to_dict() == before


def test_illegal_action_error_is_a_value_error_with_a_readable_message():
    g = random_game(4, 1)
    bad = next(a for a in range(A.NUM_ACTIONS) if a not in g.legal_actions())
    with pytest.raises(IllegalActionError, match="not legal"):
        g.apply(bad)
    with pytest.raises(IllegalActionError, match="invalid action"):
        g.apply(-5)


# ====================================================================== the action codec
def test_every_action_index_round_trips_through_the_codec():
    families = []
    for a in range(A.NUM_ACTIONS):
        act = A.decode(a)
        assert A.encode(act.family, act.arg) == a
        families.append(act.family)
    # the families tile the space in order, with their declared sizes
    assert [(f, families.count(f)) for f, _ in A.FAMILIES] == list(A.FAMILIES)
    assert families == sorted(families, key=[f for f, _ in A.FAMILIES].index)


@pytest.mark.parametrize("bad", [-1, A.NUM_ACTIONS, 10**6])
def test_decode_rejects_out_of_range(bad):
    with pytest.raises(ValueError):
        A.decode(bad)


@pytest.mark.parametrize(
    ("family", "arg"),
    [("NOPE", 0), ("PASS", 1), ("CONFIRM", 3), ("AREA", 12), ("AREA", -1), ("PAWN", None)],
)
def test_encode_rejects_bad_arguments(family, arg):
    with pytest.raises(ValueError):
        A.encode(family, arg)


def test_pawn_action_and_split_pawn_are_inverse():
    for area in range(A.NUM_AREAS):
        for slot in range(A.PAWN_SLOTS):
            assert A.split_pawn(A.pawn_action(area, slot)) == (area, slot)
            assert A.decode(A.pawn_action(area, slot)) == A.Action(
                "PAWN", area * A.PAWN_SLOTS + slot
            )


@pytest.mark.parametrize("theme", ["nanty", "discworld"])
def test_every_action_has_a_distinct_description(theme):
    """In a four-player game every index reads differently for every seat (relative seats map
    to four different players), and the description names the absolute player."""
    g = random_game(4, 2, theme=theme)
    for seat in range(4):
        texts = [g.action_to_string(a, seat) for a in range(A.NUM_ACTIONS)]
        assert all(isinstance(t, str) and t for t in texts)
        assert len(set(texts)) == A.NUM_ACTIONS
        assert g.action_to_string(A.PLAYER + 1, seat) == f"player {(seat + 1) % 4}"
    assert g.action_to_string(-3).startswith("<invalid")
    assert g.action_to_string(A.NUM_ACTIONS).startswith("<invalid")


def test_action_descriptions_work_at_the_end_of_the_game():
    g = random_game(2, 8)
    play_out(g, 8)
    assert g.current_player == -1
    for a in range(A.NUM_ACTIONS):
        assert g.action_to_string(a)
        assert g.action_to_string(a, 1)


# ====================================================================== golden traces
@pytest.mark.parametrize(("n", "seed"), regen.GAMES)
def test_golden_trace(n, seed):
    """Replaying the stored actions must be legal at every step and end in the stored
    state and outcome; the seeded policy must also choose exactly the stored actions.
    Regenerate on purpose only: ``python -m tests.engine.golden_regen``."""
    stored = json.loads(regen.golden_path(n, seed).read_text())
    assert (stored["num_players"], stored["seed"]) == (n, seed)
    g = regen.new_game(n, seed)
    for i, a in enumerate(stored["actions"]):
        assert a in g.legal_actions(), f"stored action {i} ({a}) is no longer legal"
        g.apply(a)
    assert g.is_terminal
    assert regen.outcome_dict(g) == stored["outcome"]
    assert regen.state_hash(g) == stored["final_hash"]
    assert regen.record(n, seed) == stored


@pytest.mark.parametrize("build_position", [build_base_position, build_cthulhu_position])
def test_hand_built_positions_refuse_unknown_seats_and_hold_immutable_rows(build_position):
    with pytest.raises(ValueError, match=r"seats are 0\.\.3"):
        build_position(agents={4: {"Chelsea": 1}})
    g = build_position(agents={0: {"Chelsea": 2}, 2: {"Lambeth": 1}}, grenadiers={"Chelsea": 1})
    assert type(g.agents) is tuple and all(type(row) is tuple for row in g.agents)
    assert type(g.gren) is tuple and type(g.building) is tuple
    assert g.on_board == [sum(row) for row in g.agents] == [2, 0, 1, 0]
    assert sum(g.gren) == 1
