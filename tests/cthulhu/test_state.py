"""The expansion's state as data: seeded determinism, clones, JSON round trips mid-decision,
views and hidden information, determinisation, the action space (base families first, the
expansion's appended), actions in words, the Outcome's termination, and the base game left as
it was (config dict, action space, frame kinds)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from nanty_env.engine import actions as A
from nanty_env.engine.config import GameConfig
from nanty_env.engine.cthulhu.pieces import set_elder
from nanty_env.engine.determinize import determinize, sample_from_view
from nanty_env.engine.errors import IllegalActionError
from nanty_env.engine.frames import frame_kinds
from nanty_env.engine.game import Game, Outcome, Termination
from nanty_env.engine.state import with_item
from tests.cthulhu.conftest import cfg


def walk(g: Game, seed: int, limit: int = 10_000):
    rng = random.Random(seed)
    for _ in range(limit):
        if g.is_terminal:
            return
        a = rng.choice(g.legal_actions())
        yield a
        g.apply(a)


def play_out(g: Game, seed: int) -> list[int]:
    return list(walk(g, seed))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_same_seed_same_game(n):
    a, b = Game.new(cfg(n), 42), Game.new(cfg(n), 42)
    assert play_out(a, 1) == play_out(b, 1)
    assert a.to_dict() == b.to_dict() and a.outcome == b.outcome
    c = Game.new(cfg(n), 43)
    assert c.to_dict() != Game.new(cfg(n), 42).to_dict()


def test_clone_is_independent_and_continues_like_the_original():
    g = Game.new(cfg(4, log=True), 7)
    for step, _ in enumerate(walk(g, 7)):
        if step % 11:
            continue
        before = g.to_dict()
        c = g.clone()
        assert c.to_dict() == before and type(c) is type(g)
        set_elder(c, 0, 5, 1, c.turn)  # the immutable fields are replaced, never changed
        c.faceup.append(999)
        c.btype = with_item(c.btype, 0, 3)
        c.objective = c.objective[::-1]
        c.insanity += 1
        assert g.to_dict() == before
        d, e = g.clone(), g.clone()
        assert play_out(d, step) == play_out(e, step)
        assert d.to_dict() == e.to_dict()


@pytest.mark.parametrize("n", [2, 3, 4])
def test_json_round_trip_mid_decision(n):
    g = Game.new(cfg(n), 100 + n)
    kinds = set()
    for step, _ in enumerate(walk(g, n)):
        if g.is_terminal:
            break
        kinds.add(g.decision)
        d = json.loads(json.dumps(g.to_dict()))
        h = Game.from_dict(d)
        assert type(h) is type(g) and h.to_dict() == g.to_dict()
        assert h.legal_actions() == g.legal_actions() and h.decision == g.decision
        if step % 25 == 0:
            assert play_out(h, step) == play_out(g.clone(), step)
    assert {"main", "card", "refill", "end"} <= kinds


def test_state_schema_of_the_expansion():
    d = Game.new(cfg(3), 5).to_dict()
    assert d["config"]["expansion"] == "cthulhu" and "content" not in d["config"]
    assert d["insanity"] == 1
    for key in (
        "elder_area",
        "elder_owner",
        "elder_arrived",
        "elder_hits",
        "goo",
        "objective",
        "objective_pool",
        "faceup",
        "btype",
    ):
        assert isinstance(d[key], list), key
    assert len(d["faceup"]) == 3 and len(d["btype"]) == 12 and len(d["goo"]) == 3


def test_base_game_state_is_unchanged():
    d = Game.new(GameConfig(num_players=3), 5).to_dict()
    assert set(d["config"]) == {
        "num_players",
        "personalities",
        "thresholds",
        "theme",
        "interrupt_windows",
        "log",
    }
    assert "insanity" not in d and "faceup" not in d
    assert Game.new(GameConfig(num_players=3), 5).num_actions == A.NUM_ACTIONS == 405


def test_view_shows_own_objective_only_and_the_public_expansion_state():
    g = Game.new(cfg(4), 9)
    for _ in walk(g, 9, 150):
        pass
    for seat in range(4):
        v = g.view(seat)
        assert v["objective"] == g.objective[seat] and "objectives" not in v
        assert v["insanity"] == g.insanity and v["face_up"] == g.faceup
        assert v["great_old_ones"] == list(g.goo) and v["building_types"] == list(g.btype)
        assert v["elder_area"] == list(g.elder_area)
        assert v["elder_owner"] == list(g.elder_owner)
        assert json.loads(json.dumps(v)) == v


def test_views_differ_only_in_private_fields():
    g = Game.new(cfg(3), 21)
    for _ in walk(g, 21, 80):
        pass
    private = {"seat", "hand", "known_cards", "objective", "decision", "context", "legal_actions"}
    v0, v1 = g.view(0), g.view(1)
    assert {k for k in v0 if v0[k] != v1[k]} <= private


def test_objectives_revealed_at_the_end():
    g = Game.new(cfg(3), 4)
    play_out(g, 4)
    assert g.view(0)["objectives"] == list(g.objective)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_determinisation_agrees_with_the_view_and_resamples_the_hidden(n):
    g = Game.new(cfg(n), 30 + n)
    objectives_seen = set()
    for step, _ in enumerate(walk(g, 30 + n)):
        if g.is_terminal or step % 9:
            continue
        seat = g.current_player
        d = determinize(g, seat, np.random.default_rng(step))
        assert d.view(seat) == g.view(seat)
        assert d.legal_actions() == g.legal_actions()
        assert d.objective[seat] == g.objective[seat]
        objectives_seen.add(tuple(d.objective))
        assert sorted(d.objective + d.objective_pool) == list(range(7))
        assert sorted(d.event_deck) == list(range(9))
        assert (
            list(d.event_deck[: len(g.view(seat)["event_deck_bottom"])])
            == g.view(seat)["event_deck_bottom"]
        )
        # the resampled game plays on
        play_out(d, step)
    assert len(objectives_seen) > 1  # the others' objectives are really resampled


def test_sample_from_view_needs_only_the_view():
    g = Game.new(cfg(3), 12)
    for _ in walk(g, 12, 60):
        pass
    view = json.loads(json.dumps(g.view(1)))
    d = sample_from_view(view, np.random.default_rng(0), g.cfg)
    assert d.view(1) == g.view(1)


def test_event_deck_bottom_is_known_after_draws():
    from nanty_env.engine.cthulhu.view import known_event_bottom

    assert known_event_bottom([3, 1, 4, 1, 5]) == [5, 1, 4, 3]


# ---------------------------------------------------------------------- actions
def test_action_space_appends_the_expansion_families():
    base, x = A.space_for(None), A.space_for("cthulhu")
    assert base.n == A.NUM_ACTIONS == 405
    assert x.n == A.NUM_ACTIONS_CTHULHU == 405 + 8 + 8 + 1 + 6
    for name, _ in A.FAMILIES:
        assert x.offsets[name] == base.offsets[name] == A.OFFSETS[name]
    assert (A.ELDER, A.ELDER_ABILITY, A.GOO_ABILITY, A.BUILDING_TYPE) == (405, 413, 421, 422)
    assert Game.new(cfg(2), 0).num_actions == x.n
    with pytest.raises(ValueError):
        A.space_for("nope")


def test_encode_decode_round_trip_over_the_whole_expansion_space():
    x = A.CTHULHU_SPACE
    for a in range(x.n):
        act = x.decode(a)
        assert x.encode(act.family, act.arg) == a
    for bad in (-1, x.n, 10**6):
        with pytest.raises(ValueError):
            x.decode(bad)
    with pytest.raises(ValueError):
        x.encode("ELDER", 8)
    with pytest.raises(ValueError):
        A.decode(A.ELDER)  # the base space stops at 405


def test_every_legal_action_has_distinct_words():
    g = Game.new(cfg(3), 14)
    for _ in walk(g, 14, 400):
        if g.is_terminal:
            break
        legal = g.legal_actions()
        words = [g.action_to_string(a) for a in legal]
        assert all(w and not w.startswith("<") for w in words)
        assert len(set(words)) == len(words), (g.decision, words)
    assert g.action_to_string(10**6).startswith("<invalid")


def test_illegal_actions_leave_the_state_unchanged():
    g = Game.new(cfg(3), 15)
    for step, _ in enumerate(walk(g, 15, 200)):
        if step % 10 or g.is_terminal:
            continue
        before = g.to_dict()
        bad = next(a for a in range(A.NUM_ACTIONS_CTHULHU) if a not in g.legal_actions())
        with pytest.raises(IllegalActionError):
            g.apply(bad)
        assert g.to_dict() == before


def test_termination_names_every_ending():
    cases = {
        "personality:fagin": Termination.GOAL,
        "objective:wrath": Termination.SUDDEN_DEATH,
        "deck_exhausted:points": Termination.DECK,
        "deck_exhausted:personality": Termination.DECK,
        "deck_exhausted:objective": Termination.DECK,
        "riots:points": Termination.RIOTS,
        "doomsday": Termination.DOOMSDAY,
    }
    for reason, kind in cases.items():
        assert Outcome((0,), reason).termination is kind


def test_frame_kinds_base_unchanged_expansion_adds_its_own():
    base = frame_kinds()
    x = frame_kinds("cthulhu")
    assert set(base) < set(x)
    assert {
        "summon",
        "summon_place",
        "sacrifice",
        "elder_rm",
        "refill",
        "build_type",
        "move_minion",
        "pick_minion",
        "take_faceup",
    } <= set(x) - set(base)
    assert "summon" not in base


def test_config_validation():
    with pytest.raises(ValueError):
        GameConfig(expansion="dunwich")
    with pytest.raises(ValueError):
        GameConfig(content="pack.toml")  # a pack needs an expansion
    c = GameConfig(num_players=2, expansion="cthulhu")
    assert GameConfig.from_dict(c.to_dict()) == c


# ---------------------------------------------------------------------- validation
def _midgame(seed: int = 19) -> Game:
    g = Game.new(cfg(3), seed)
    for _ in walk(g, seed, 120):
        pass
    return g


@pytest.mark.parametrize(
    "edit, field",
    [
        (lambda d: d.update(insanity=14), "insanity"),
        (lambda d: d["faceup"].append(d["deck"][0]), "faceup"),
        (lambda d: d["elder_owner"].__setitem__(0, 1), "elder_owner[0]"),
        (lambda d: d["btype"].__setitem__(d["building"].index(-1), 2), "btype"),
        (lambda d: d["objective"].__setitem__(1, d["objective"][0]), "objective"),
        (lambda d: d.pop("goo"), "goo"),
        (lambda d: d["stack"].append({"k": "summon", "p": 0, "roll": 13}), "stack["),
        (lambda d: d["elder_area"].__setitem__(0, 99), "elder_area[0]: 99 is outside"),
        (lambda d: d["elder_area"].__setitem__(0, 10**30), "elder_area[0]: "),
        (lambda d: d["elder_owner"].__setitem__(0, -5), "elder_owner[0]: -5 is outside"),
        (
            lambda d: d["stack"].append({"k": "summon_place", "p": 0, "e": 29}),
            "stack[",
        ),
        (lambda d: d["stack"][0].__setitem__("s", 4), "stack[0].s: 4 is not a stage"),
        (lambda d: d["stack"][0].pop("s"), "stack[0].s: missing"),
    ],
)
def test_a_broken_expansion_state_is_refused_naming_the_field(edit, field):
    from nanty_env.engine.errors import InvalidStateError

    d = json.loads(json.dumps(_midgame().to_dict()))
    edit(d)
    with pytest.raises(InvalidStateError) as err:
        Game.from_dict(d)
    assert str(err.value).startswith(field)


def test_determinised_states_pass_the_validator():
    g = _midgame(23)
    for seat in range(3):
        d = determinize(g, seat, np.random.default_rng(seat)).to_dict()
        assert Game.from_dict(d).to_dict() == d  # validated


@pytest.mark.parametrize(
    "frame, field",
    [
        ({"k": "summon_place", "p": 0, "e": 5}, ".e: 5 is not an Elder One of the pack"),
        ({"k": "move_minion", "p": 0, "a": 3, "e": 0}, ".e: Elder One 0 is not seat 0's"),
        ({"k": "sacrifice", "p": 0, "e": 0}, ".e: Elder One 0 is in the pool"),
        ({"k": "refill", "p": 0, "left": 99}, ".left: 99 cards, but"),
        ({"k": "build_type", "p": 0, "a": 12, "half": 0}, ".a: 12 is not a area"),
    ],
)
def test_an_expansion_frame_that_cannot_be_resumed_is_refused(frame, field):
    from nanty_env.engine.errors import InvalidStateError

    g = Game.new(cfg(3), 5)  # the first turn: every Elder One is in the pool
    d = json.loads(json.dumps(g.to_dict()))
    d["stack"].append(frame)
    n_elders = len(d["elder_area"])
    if "Elder One of the pack" in field:
        frame["e"] = n_elders
        field = f".e: {n_elders} is not an Elder One of the pack"
    with pytest.raises(InvalidStateError) as err:
        Game.from_dict(d)
    assert field in str(err.value), str(err.value)
