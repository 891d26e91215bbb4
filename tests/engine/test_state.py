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
from nanty_env.engine.errors import IllegalActionError, InvalidStateError
from nanty_env.engine.game import Game
from nanty_env.engine.knowledge import set_known
from nanty_env.engine.position import build_position as build_base_position
from nanty_env.engine.state import BOUND_SLOTS, with_appended, with_item


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
            if name in ("t", "log", *BOUND_SLOTS) or not hasattr(g, name):
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


FAMILY_TABLES = {
    "PLAY_CARD": A.PLAY_CARD_ACTIONS,
    "DISCARD_CARD": A.DISCARD_CARD_ACTIONS,
    "SELECT_CARD": A.SELECT_CARD_ACTIONS,
    "AREA": A.AREA_ACTIONS,
    "PAWN": A.PAWN_ACTIONS,
    "PLAYER": A.PLAYER_ACTIONS,
    "ABILITY": A.ABILITY_ACTIONS,
    "ELDER": A.ELDER_ACTIONS,
    "ELDER_ABILITY": A.ELDER_ABILITY_ACTIONS,
    "BUILDING_TYPE": A.BUILDING_TYPE_ACTIONS,
}


@pytest.mark.parametrize("family", sorted(FAMILY_TABLES))
def test_a_family_table_holds_each_encoded_action_of_the_family(family):
    """The rules build actions by indexing these tuples (``AREA_ACTIONS[a]``): item ``i`` is
    the family's action with argument ``i``, for every argument and no more."""
    space = A.CTHULHU_SPACE
    table = FAMILY_TABLES[family]
    assert table == tuple(space.encode(family, i) for i in range(space.sizes[family]))
    assert all(type(a) is int for a in table)


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


# ====================================================================== from_dict refuses, names
# The actions of the base soak's game (2 players, seed 779286, default configuration) up to
# step 304: player 0 has paid Holborn twice to keep two agents in a flooded area, so the flood
# frame's ``stay`` (agents kept, per flooded area) is 2. It used to be declared a 0/1 flag.
HOLBORN_TWICE = (
    "23 0 1 0 21 1 390 0 0 308 0 40 1 1 341 308 0 0 24 0 312 147 0 44 0 0 27 313 1 117 107 0 0 "
    "9 0 0 29 336 0 1 0 41 1 119 0 10 0 0 28 0 0 0 49 1 0 316 0 30 0 2 0 312 0 34 0 0 47 0 305 "
    "0 20 1 366 0 315 45 1 390 0 0 307 0 33 0 313 0 25 1 307 0 38 0 312 0 7 311 39 312 0 120 "
    "395 0 14 307 312 1 0 35 0 395 0 4 1 390 0 214 210 353 315 0 11 395 1 32 0 0 0 0 5 0 8 318 "
    "0 0 335 313 0 395 36 1 0 3 1 13 0 0 0 26 1 390 0 0 395 0 76 329 313 0 0 42 312 1 390 0 245 "
    "219 395 0 97 0 317 307 12 1 0 0 15 0 1 0 395 0 70 0 86 37 0 311 395 0 80 1 317 0 384 0 0 "
    "0 0 395 399 311 22 0 43 0 17 1 312 0 93 1 390 341 308 0 0 82 395 0 0 70 0 0 31 0 395 1 0 "
    "84 1 390 0 264 310 0 48 0 395 0 0 102 1 308 0 399 310 58 395 1 0 66 1 311 0 0 55 1 1 68 1 "
    "0 0 91 1 399 309 0 64 395 1 359 311 101 1 353 100 346 0 0 0 73 0 330 0 0 0 395 75 399 312 "
    "0 0 172 57 0 0 88 395 1 313 313 396 396"
)


def test_holborn_paid_twice_in_a_flood_round_trips():
    g = Game.new(GameConfig(num_players=2, log=False), 779286)
    for a in map(int, HOLBORN_TWICE.split()):
        g.apply(a)
    flood = g.stack[-1]
    assert flood["k"] == "flood" and flood["stay"] == (2,)
    again = Game.from_dict(json.loads(json.dumps(g.to_dict())))
    assert again.to_dict() == g.to_dict() and again.legal_actions() == g.legal_actions()
    choose = random.Random(5).choice
    while not g.is_terminal:  # the restored game goes on exactly like the original
        a = choose(g.legal_actions())
        g.apply(a)
        again.apply(a)
    assert again.to_dict() == g.to_dict()


def test_a_flood_frame_stay_is_a_count_per_flooded_area():
    g = Game.new(GameConfig(num_players=2, log=False), 779286)
    for a in map(int, HOLBORN_TWICE.split()):
        g.apply(a)
    for stay, message in (
        ([13], r"stack\[2\]\.stay: 13 is not a count of staying agents"),
        ([-1], r"stack\[2\]\.stay: -1 is not a count"),
        ([0, 0], r"stack\[2\]\.stay: must have one count per flooded area"),
    ):
        d = json.loads(json.dumps(g.to_dict()))
        d["stack"][2]["stay"] = stay
        with pytest.raises(InvalidStateError, match=message):
            Game.from_dict(d)


def _mid(expansion: str | None = None, n: int = 3, seed: int = 4, steps: int = 60) -> Game:
    g = Game.new(GameConfig(num_players=n, log=False, expansion=expansion), seed)
    choose = random.Random(seed).choice
    for _ in range(steps):
        g.apply(choose(g.legal_actions()))
    return g


def _with_lower_frame(expansion: str | None = None) -> dict:
    """A state with a card frame below the pending decision (random play until there is)."""
    for seed in range(50):
        g = Game.new(GameConfig(num_players=3, log=False, expansion=expansion), seed)
        choose = random.Random(seed).choice
        while not g.is_terminal:
            if len(g.stack) >= 3 and g.stack[1]["k"] == "card":
                return json.loads(json.dumps(g.to_dict()))
            g.apply(choose(g.legal_actions()))
    raise AssertionError("no state with a card below the decision")


def _finished(expansion: str | None = None) -> dict:
    g = _mid(expansion, steps=0)
    choose = random.Random(1).choice
    while not g.is_terminal:
        g.apply(choose(g.legal_actions()))
    return json.loads(json.dumps(g.to_dict()))


# Mutations of real states that once got through (or crashed inside) ``from_dict``: each is now
# one InvalidStateError whose message starts with the field.
REFUSED = {
    "a frame kind that is a mapping": (
        lambda d: d["stack"][0].__setitem__("k", {}),
        "stack[0].k: ",
    ),
    "num_players 2.0": (
        lambda d: d["config"].__setitem__("num_players", float(d["n"])),
        "config.num_players: must be int",
    ),
    "log 'yes' in the config": (lambda d: d["config"].__setitem__("log", "yes"), "config.log: "),
    "log 'yes'": (lambda d: d.__setitem__("log", "yes"), "log: must be a list of strings"),
    "an unknown config field": (lambda d: d["config"].__setitem__("x", 1), "config.x: "),
    "expansion of the wrong type": (
        lambda d: d["config"].__setitem__("expansion", 3),
        "config.expansion: must be str or null",
    ),
    "a lower frame's stage deleted": (lambda d: d["stack"][0].pop("s"), "stack[0].s: missing"),
    "a lower frame's card deleted": (lambda d: d["stack"][1].pop("c"), "stack[1].c: missing"),
    "a lower frame's stage out of range": (
        lambda d: d["stack"][0].__setitem__("s", 7),
        "stack[0].s: 7 is not a stage",
    ),
    "a lower frame of another seat": (
        lambda d: d["stack"][1].__setitem__("p", (d["active"] + 1) % d["n"]),
        "stack[1].p: ",
    ),
    "a lower card not in play": (
        lambda d: d["stack"][1].__setitem__("c", d["deck"][0]),
        "stack[1].c: ",
    ),
    "the turn frame deleted": (lambda d: d["stack"].pop(0), "stack[0].k: "),
    "a key no frame of that kind has": (
        lambda d: d["stack"][1].__setitem__("amount", 3),
        "stack[1].amount: a card frame has no such key",
    ),
    "a decision below another": (
        lambda d: d["stack"].insert(1, {"k": "keep_one", "p": 0, "t": 1, "cards": [1]}),
        "stack[1].k: a keep_one frame waits for no other",
    ),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
@pytest.mark.parametrize("expansion", [None, "cthulhu"])
def test_a_broken_state_is_refused_naming_the_field(name, expansion):
    edit, message = REFUSED[name]
    d = _with_lower_frame(expansion)
    edit(d)
    with pytest.raises(InvalidStateError) as err:
        Game.from_dict(d)
    assert str(err.value).startswith(message), str(err.value)


ENDS_REFUSED = {
    "no winner": (lambda d: d["outcome"].__setitem__("winners", []), "outcome.winners: empty"),
    "an unknown reason": (
        lambda d: d["outcome"].__setitem__("reason", "boredom"),
        "outcome.reason: 'boredom' is not how",
    ),
    "a reason of the other ruleset": (
        lambda d: d["outcome"].__setitem__(
            "reason", "doomsday" if "insanity" not in d else "riots:points"
        ),
        "outcome.reason: ",
    ),
    "points decided but none": (
        lambda d: d["outcome"].update(reason="deck_exhausted:points", points=None),
        "outcome.points: missing",
    ),
}


@pytest.mark.parametrize("name", sorted(ENDS_REFUSED))
@pytest.mark.parametrize("expansion", [None, "cthulhu"])
def test_a_broken_end_is_refused_naming_the_field(name, expansion):
    edit, message = ENDS_REFUSED[name]
    d = _finished(expansion)
    edit(d)
    with pytest.raises(InvalidStateError) as err:
        Game.from_dict(d)
    assert str(err.value).startswith(message), str(err.value)


@pytest.mark.parametrize("expansion", [None, "cthulhu"])
def test_a_card_text_frame_above_its_card_replayed_from_the_start_is_refused(expansion):
    """A text of card c being carried out (here ``targeted``) while c's own frame is back
    before its scroll would carry the text out twice (a penalty card taken from play twice)."""
    for seed in range(60):
        g = Game.new(GameConfig(num_players=3, log=False, expansion=expansion), seed)
        choose = random.Random(seed).choice
        while not g.is_terminal and g.stack[-1]["k"] != "targeted":
            g.apply(choose(g.legal_actions()))
        if not g.is_terminal:
            break
    d = json.loads(json.dumps(g.to_dict()))
    Game.from_dict(d)  # as it is
    c = d["stack"][-1]["c"]
    card_frame = next(i for i, f in enumerate(d["stack"]) if f["k"] == "card" and f["c"] == c)
    d["stack"][card_frame]["i"] = 0
    top = len(d["stack"]) - 1
    with pytest.raises(InvalidStateError, match=rf"^stack\[{top}\]\.c: no frame of card"):
        Game.from_dict(d)
