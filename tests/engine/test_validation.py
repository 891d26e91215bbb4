"""Game.from_dict checks every state it is handed: one InvalidStateError naming the field for each
broken rule, nothing rejected that play can reach; clones pickle, deep-copy and cross processes."""

from __future__ import annotations

import copy
import json
import multiprocessing as mp
import pickle
import random
from collections.abc import Callable

import numpy as np
import pytest

from nanty_env.engine import EngineError, Game, GameConfig, InvalidStateError
from nanty_env.engine import validation as V
from nanty_env.engine.determinize import determinize


def mid_game(n: int = 3, seed: int = 7, steps: int = 80) -> Game:
    g = Game.new(GameConfig(num_players=n, log=False), seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_terminal:
            break
        g.apply(rng.choice(g.legal_actions()))
    return g


def state(g: Game | None = None) -> dict:
    return json.loads(json.dumps((g or mid_game()).to_dict()))


def finished() -> dict:
    g = mid_game(steps=10_000)
    assert g.is_terminal
    return state(g)


def card_in_two_places(d: dict) -> None:
    d["deck"].append(d["hands"][0][0])


def thirteen_agents(d: dict) -> None:
    d["agents"][1][4] += 13 - d["on_board"][1]
    d["on_board"][1] = 13


CORRUPTIONS: dict[str, tuple[Callable[[dict], object], str]] = {
    "a card in two places": (card_in_two_places, ") is also in deck"),
    "a card nowhere": (lambda d: d["deck"].pop(), "cards: 1 cards are nowhere"),
    "unknown card 999": (lambda d: d["discard"].append(999), ": 999 is not a card (0..100)"),
    "13 agents": (thirteen_agents, "agents[1]: 13 agents on the board"),
    "agents miscounted": (lambda d: d["on_board"].__setitem__(0, 11), "on_board[0]: 11 but"),
    "money -50": (lambda d: d["money"].__setitem__(2, -50), "money[2]: -50 is negative"),
    "trouble 2": (lambda d: d["trouble"].__setitem__(3, 2), "trouble[3]: 2 is outside [0, 2)"),
    "building of seat 9": (lambda d: d["building"].__setitem__(5, 9), "building[5]: 9 is outside"),
    "five grenadiers": (lambda d: d["gren"].__setitem__(0, 5), "gren[0]: 5 is outside [0, 5)"),
    "active 7": (lambda d: d.__setitem__("active", 7), "active: 7 is not a seat"),
    "turn -1": (lambda d: d.__setitem__("turn", -1), "turn: -1 is negative"),
    # it loaded once, then overflowed the compiled build's counter 27 turns later
    "turn 2**63 - 27": (
        lambda d: d.__setitem__("turn", 2**63 - 27),
        "turn: 9223372036854775781 is beyond",
    ),
    "n disagrees": (lambda d: d.__setitem__("n", 4), "n: 4 but config.num_players is 3"),
    "bad config": (lambda d: d["config"].__setitem__("num_players", 9), "config: num_players"),
    "two same personalities": (
        lambda d: d["persona"].__setitem__(1, d["persona"][0]),
        "persona: ",
    ),
    "an event twice": (lambda d: d["event_deck"].append(d["event_deck"][0]), "event_deck: "),
    "false knowledge": (
        lambda d: d["known"][0].__setitem__(1, [d["hands"][2][0]]),
        "known[0][1]: cards",
    ),
    "a float": (lambda d: d["money"].__setitem__(0, 3.5), "money[0]: must be an integer"),
    "a bool": (lambda d: d.__setitem__("active", True), "active: must be an integer"),
    "a short row": (lambda d: d["trouble"].pop(), "trouble: must have 12 entries"),
    "missing money": (lambda d: d.pop("money"), "money: missing"),
    "missing stack": (lambda d: d.pop("stack"), "stack: missing"),
    "unknown frame kind": (
        lambda d: d["stack"][-1].__setitem__("k", "party"),
        "stack[",
    ),
    "frame seat 9": (lambda d: d["stack"][-1].__setitem__("p", 9), ".p: 9 is not a seat"),
    "frame parent above": (lambda d: d["stack"][0].__setitem__("up", 5), "stack[0].up: 5 must be"),
    "frame card 500": (
        lambda d: d["stack"].append({"k": "card", "p": 0, "c": 500, "i": 0}),
        ".c: 500 is not a card",
    ),
    "frame value a dict": (
        lambda d: d["stack"][-1].__setitem__("x", {"a": 1}),
        "is not an integer, string or tuple",
    ),
    "empty stack mid-game": (
        lambda d: d["stack"].clear(),
        "stack: empty, but the game is not over",
    ),
    "rng garbage": (lambda d: d.__setitem__("rng", {"state": 3}), "rng: not a PCG64"),
    "log of numbers": (lambda d: d.__setitem__("log", [1, 2]), "log: must be a list of strings"),
}


@pytest.mark.parametrize("name", sorted(CORRUPTIONS))
def test_each_broken_rule_is_one_error_naming_the_field(name: str) -> None:
    corrupt, message = CORRUPTIONS[name]
    d = state()
    corrupt(d)
    with pytest.raises(InvalidStateError) as err:
        Game.from_dict(d)
    assert message in str(err.value), str(err.value)
    assert isinstance(err.value, EngineError) and isinstance(err.value, ValueError)


END_CORRUPTIONS = {
    "winner that does not exist": (
        lambda d: d["outcome"].__setitem__("winners", [7]),
        "outcome.winners: 7 is not a seat",
    ),
    "winner twice": (lambda d: d["outcome"].__setitem__("winners", [0, 0]), "names a seat twice"),
    "winners missing": (lambda d: d["outcome"].pop("winners"), "outcome.winners: missing"),
    "a frame after the end": (
        lambda d: d["stack"].append({"k": "main", "p": 0}),
        "stack: must be empty once the game is over",
    ),
}


@pytest.mark.parametrize("name", sorted(END_CORRUPTIONS))
def test_broken_outcomes(name: str) -> None:
    corrupt, message = END_CORRUPTIONS[name]
    d = finished()
    corrupt(d)
    with pytest.raises(InvalidStateError, match=message):
        Game.from_dict(d)


def test_a_frame_its_handler_cannot_resume_is_an_invalid_stack() -> None:
    d = state()
    d["stack"].append({"k": "keep_one", "p": 0, "t": 1, "cards": [], "up": 0})
    with pytest.raises(InvalidStateError, match="stack"):
        Game.from_dict(d)


def test_not_a_mapping() -> None:
    with pytest.raises(InvalidStateError, match="state: must be a mapping"):
        Game.from_dict([1, 2, 3])  # type: ignore[arg-type]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_reachable_state_passes(n: int) -> None:
    """Random play, every step: the validator accepts the live state, its JSON copy and each
    seat's determinisation (which search bots build without re-validating)."""
    for seed in range(3):
        g = Game.new(GameConfig(num_players=n, log=seed == 0), 300 + seed)
        rng = random.Random(seed)
        np_rng = np.random.default_rng(seed)
        step = 0
        while True:
            V.check_game(g)
            Game.from_dict(state(g))
            if step % 10 == 0 and not g.is_terminal:
                V.check_game(determinize(g, g.current_player, np_rng))
            if g.is_terminal:
                break
            g.apply(rng.choice(g.legal_actions()))
            step += 1


def test_extensions_register_their_own_checks(monkeypatch) -> None:
    monkeypatch.setattr(V, "_CHECKS", [])
    monkeypatch.setattr(V, "_FRAME_FIELDS", dict(V._FRAME_FIELDS))

    @V.register_check("no money above 100")
    def cap(g: Game) -> None:
        for s, m in enumerate(g.money):
            if m > 100:
                V.fail(f"money[{s}]", f"{m} is more than there is")

    d = state()
    d["money"][1] = 101
    with pytest.raises(InvalidStateError, match="money\\[1\\]: 101 is more than there is"):
        Game.from_dict(d)
    with pytest.raises(ValueError, match="registered twice"):
        V.register_check("no money above 100")(cap)
    V.register_frame_field("i", V.Domain(0, lambda n: 2, what="symbol slot"), kind="card")
    d = state()
    d["stack"].append({"k": "card", "p": 0, "c": 3, "i": 4})
    with pytest.raises(InvalidStateError, match=r"\.i: 4 is not a symbol slot"):
        Game.from_dict(d)


def _legal_of(g: Game) -> list[int]:
    return g.legal_actions()


def test_clones_pickle_deep_copy_and_cross_processes() -> None:
    g = mid_game(4, 11)
    c = g.clone()  # its generator is lazy until first used
    for copied in (copy.deepcopy(c), pickle.loads(pickle.dumps(c)), copy.copy(c.rng)):
        assert copied is not None
    again = pickle.loads(pickle.dumps(c))
    assert again.to_dict() == c.to_dict()
    rolls = [c.roll() for _ in range(5)]  # the copies continue the same random stream
    assert [again.roll() for _ in range(5)] == rolls
    assert [copy.deepcopy(g.clone()).roll() for _ in range(1)] == [g.clone().roll()]
    ctx = mp.get_context("forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn")
    with ctx.Pool(1) as pool:
        assert pool.apply_async(_legal_of, (g.clone(),)).get(timeout=60) == g.legal_actions()


def test_every_copy_of_a_game_binds_its_class_ruleset_and_handlers() -> None:
    """The ruleset and frame handlers a game's rules read from its own fields (``rules``,
    ``bind_rules``) are its class's, in a new, loaded, cloned, pickled or copied game alike,
    and are never saved with it."""
    for expansion in (None, "cthulhu"):
        g = Game.new(GameConfig(expansion=expansion), 3)
        cls = type(g)
        loaded = Game.from_dict(g.to_dict())
        for copied in (g, loaded, g.clone(), pickle.loads(pickle.dumps(g)), copy.deepcopy(g)):
            assert type(copied) is cls
            assert copied.rules is cls.ruleset
            assert copied._frame_options is cls._options
            assert copied._frame_act is cls._act
        assert not {"rules", "_frame_options", "_frame_act"} & set(g.__getstate__()[1])


def test_a_pickled_game_refers_to_the_base_tables_instead_of_copying_them() -> None:
    g = mid_game(4, 11)
    assert pickle.loads(pickle.dumps(g)).t is g.t  # the process's one copy
    assert copy.deepcopy(g).t is g.t
    assert len(pickle.dumps(g)) < 4 * 1024  # the tables alone pickled to 23 KB
