"""The house variant "Sixes" (``tests/rulesets/house.py``) as proof that a ruleset is a plug-in:
registered from outside the engine, it plays through ``Game``, the env faces, the RLlib env and
the bots, and its three changes (hand of six, building bonus, one new card from a pack) hold."""

from __future__ import annotations

import json
import pickle
import random

import numpy as np
import pytest
from pettingzoo.test import api_test

import nanty_env
from nanty_env.data import DataError
from nanty_env.data.overlay import overlay
from nanty_env.encoding.rulesets import config_spec, ruleset_spec
from nanty_env.engine import (
    Game,
    GameConfig,
    IllegalActionError,
    board,
    build_position,
    determinize,
    points,
    tables,
)
from nanty_env.engine import actions as A
from tests.rulesets.house import BUILDING_BONUS, NAME, HouseGame, house_points

HOUSE = {"expansion": NAME}
CAT = 0  # The House Cat's index: Mr Boggis's in the base game


def cfg(n: int = 3, **kw) -> GameConfig:
    return GameConfig(num_players=n, **HOUSE, **kw)


def test_a_house_game_deals_six_cards_and_the_pack_card():
    g = Game.new(cfg(4), 1)
    assert isinstance(g, HouseGame) and g.ruleset.name == NAME
    assert [len(h) for h in g.hands] == [6] * 4
    assert len(g.deck) == len(Game.new(GameConfig(num_players=4), 1).deck) - 4
    card = g.t.data.cards[CAT]
    assert (card.id, card.symbols, card.money) == ("the_house_cat", ("money", "agent"), 4)
    assert tables().data.cards[CAT].id == "mr_boggis"  # the base game's content is untouched


def test_the_hand_is_refilled_to_six():
    g = build_position(3, config=cfg(), hands=[["the_house_cat"], ["mr_bent"], ["groat"]])
    deck = len(g.deck)
    g.apply(A.PLAY_CARD + CAT)  # £4, then an agent
    while g.current_player == 0 and g.decision != "end":
        g.apply(g.legal[-1] if g.decision == "card" else g.legal[0])
    g.apply(A.PASS)
    assert len(g.hands[0]) == 6 and len(g.deck) == deck - 6
    assert g.money[0] == 14


def test_buildings_score_two_more_points_at_the_end():
    g = build_position(3, config=cfg(), buildings={"Chelsea": 0, "City": 0, "Strand": 1})
    for seat in range(3):
        bonus = BUILDING_BONUS * board.own_buildings(g, seat)
        assert house_points(g, seat) == points(g, seat) + bonus
    rng = random.Random(2)
    g = Game.new(cfg(2), 3)
    while not g.is_terminal:
        g.apply(rng.choice(g.legal))
    if g.outcome.points is not None:
        assert g.outcome.points == tuple(house_points(g, s) for s in range(2))


@pytest.mark.parametrize("n", (2, 3, 4))
def test_random_games_end_replay_and_survive_copies(n: int):
    for seed in range(3):
        g, h = Game.new(cfg(n, log=False), seed), Game.new(cfg(n, log=False), seed)
        rng = random.Random(seed)
        k = 0
        while not g.is_terminal:
            a = rng.choice(g.legal)
            if k % 40 == 0:
                assert pickle.loads(pickle.dumps(g)).to_dict() == g.to_dict()
                again = Game.from_dict(g.to_dict())
                assert isinstance(again, HouseGame) and again.legal == g.legal
                d = determinize(g, g.current_player, np.random.default_rng(k))
                assert isinstance(d, HouseGame)
                assert d.view(g.current_player) == g.view(g.current_player)
            g.apply(a)
            h.apply(a)
            k += 1
        assert g.to_dict() == h.to_dict()  # same seed, same game


def test_an_illegal_action_raises_and_changes_nothing():
    g = Game.new(cfg(3), 0)
    before = g.to_dict()
    bad = next(a for a in range(A.NUM_ACTIONS) if a not in g.legal)
    with pytest.raises(IllegalActionError):
        g.apply(bad)
    assert g.to_dict() == before


def test_the_pack_replaces_by_id_and_refuses_an_unknown_one():
    shipped = {"card": [{"id": "a", "x": 1}, {"id": "b", "x": 2}]}
    out = overlay(shipped, {"card": [{"replaces": "b", "id": "c", "x": 3}]}, "cards.toml")
    assert out["card"] == [{"id": "a", "x": 1}, {"id": "c", "x": 3}]
    assert shipped["card"][1] == {"id": "b", "x": 2}
    with pytest.raises(DataError, match="no shipped card 'z'"):
        overlay(shipped, {"card": [{"replaces": "z", "id": "c"}]}, "cards.toml")


def test_the_env_faces_play_it_with_the_base_games_spaces():
    spec = config_spec(cfg())
    base = ruleset_spec()
    assert spec.expansion == NAME and spec.layout_digest == base.layout_digest
    assert (spec.obs_size, spec.num_actions) == (base.obs_size, base.num_actions)
    api_test(nanty_env.env(num_players=3, **HOUSE), num_cycles=200)
    env = nanty_env.raw_env(num_players=2, **HOUSE)
    env.reset(seed=4)
    assert isinstance(env.game, HouseGame)


def test_the_bots_play_it():
    from agents.base import play_game
    from agents.registry import make_bot

    bots = [make_bot("heuristic"), make_bot("random")]
    game, _ = play_game(bots, cfg(2, log=False), seed=6)
    assert isinstance(game, HouseGame) and game.outcome is not None


def test_the_rllib_env_plays_it():
    pytest.importorskip("ray.rllib")
    from training.rllib.env import NantyMultiAgentEnv

    env = NantyMultiAgentEnv({"num_players": 2, **HOUSE})
    obs, _ = env.reset(seed=1)
    assert isinstance(env.game, HouseGame)
    for _ in range(10_000):
        ((agent, o),) = obs.items()
        legal = np.flatnonzero(o["action_mask"])
        obs, _, term, _, _ = env.step({agent: int(legal[0])})
        if term["__all__"]:
            break
    assert env.game.outcome is not None


def test_the_action_space_and_coverage_are_the_parents():
    from nanty_env.engine import space_for
    from nanty_env.engine.coverage import count_coverage

    assert space_for(NAME) is space_for(None)
    cov = count_coverage(2, expansion=NAME, players=(3,))
    assert cov.games == 2 and "The House Cat" in cov.universe["card"]


def test_ismcts_plays_it():
    from agents.base import play_game
    from agents.registry import make_bot

    bots = [make_bot("ismcts:iters=4"), make_bot("random")]
    game, _ = play_game(bots, cfg(2, log=False), seed=2)
    assert isinstance(game, HouseGame) and game.outcome is not None


def test_nanty_eval_plays_it_over_worker_processes(tmp_path, capsys):
    """Worker processes import the module that registered the ruleset in the parent."""
    from nanty_app.cli import main

    out = tmp_path / "eval"
    args = ["eval", "--expansion", NAME, "--bots", "heuristic,random", "--players", "2"]
    code = main([*args, "--games", "4", "--workers", "2", "--out", str(out), "--no-progress"])
    assert code == 0, capsys.readouterr().err
    head = json.loads((out / "results_games.jsonl").read_text().splitlines()[0])
    assert head["spec"]["expansion"] == NAME
    results = json.loads((out / "results.json").read_text())
    assert len(results["games"]) == 4 and {b["games"] for b in results["bots"]} == {4}


def test_the_vector_env_plays_it_over_worker_processes():
    from nanty_env.vector import make_vec_env

    venv = make_vec_env(num_envs=2, num_workers=2, seed=3, num_players=2, **HOUSE)
    try:
        obs = venv.reset()
        for _ in range(50):
            masks = np.stack(venv.env_method("action_masks"))
            obs, *_ = venv.step(np.array([int(np.flatnonzero(m)[0]) for m in masks]))
        assert obs.shape[0] == 2
    finally:
        venv.close()


def test_an_unknown_ruleset_is_a_one_line_usage_error(capsys):
    from nanty_app.cli import main

    with pytest.raises(SystemExit) as e:
        main(["eval", "--expansion", "nonesuch", "--bots", "random,random"])
    assert e.value.code == 2
    assert "unknown ruleset 'nonesuch'" in capsys.readouterr().err


def test_an_installed_plug_in_is_loaded_only_when_named_on_the_command_line(monkeypatch):
    """A ruleset offered through the entry points is imported by ``load_ruleset`` (the
    command line's ``--expansion``), never by ``find_ruleset`` (a config read from a file)."""
    from importlib.metadata import EntryPoint

    from nanty_env.engine import ruleset

    imported = []
    ep = EntryPoint("nines", "tests.rulesets.nines_plugin", ruleset.PLUGIN_GROUP)
    monkeypatch.setattr(
        "importlib.metadata.entry_points",
        lambda group=None: [ep] if group == ruleset.PLUGIN_GROUP else [],
    )
    monkeypatch.setattr(EntryPoint, "load", lambda self: imported.append(self.value))
    assert ruleset.installed_rulesets() == ("nines",)
    with pytest.raises(ValueError, match="unknown expansion 'nines'"):
        ruleset.find_ruleset("nines")
    assert imported == []
    with pytest.raises(ValueError, match="did not register the ruleset 'nines'"):
        ruleset.load_ruleset("nines")
    assert imported == ["tests.rulesets.nines_plugin"]
    assert ruleset.load_ruleset(NAME).expansion == NAME  # registered: nothing imported
    assert imported == ["tests.rulesets.nines_plugin"]
    assert ruleset.plugin_modules() == ("tests.rulesets.house",)


def test_the_web_page_offers_it_when_the_server_is_told_to(tmp_path):
    """``nanty serve --expansion sixes`` (here ``create_app(rulesets=...)``): the game menu lists
    it with its title, a whole game is played and recorded in it through the API, and a server
    not told of it refuses it."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from nanty_app.server import create_app
    from nanty_env.storage.records import check_record, load_record

    client = TestClient(
        create_app(tmp_path, rulesets=("cthulhu", NAME)), base_url="http://127.0.0.1:8000"
    )
    menu = client.get("/api/bots").json()["games"]
    assert [g["expansion"] for g in menu] == ["", "cthulhu", NAME]
    assert menu[2]["title"] == "Sixes (a house variant)"
    r = client.post("/api/games", json={"bots": ["heuristic"], "seed": 3, **HOUSE})
    assert r.status_code == 201, r.text
    state = r.json()
    assert state["expansion"] == NAME
    while not state["over"]:
        if not state["your_turn"]:
            state = client.post(f"/api/games/{state['id']}/advance", json={"max": 50}).json()
            continue
        pick = state["choices"][-1]["action"]
        state = client.post(f"/api/games/{state['id']}/act", json={"action": pick}).json()
    rec = load_record(tmp_path / state["record"])
    assert rec["config"]["expansion"] == NAME and check_record(rec).ok
    watch = client.post("/api/watch", json={"bots": ["random", "random"], "seed": 1, **HOUSE})
    assert watch.status_code == 201, watch.text

    default = TestClient(create_app(tmp_path / "other"), base_url="http://127.0.0.1:8000")
    assert NAME not in [g["expansion"] for g in default.get("/api/bots").json()["games"]]
    refused = default.post("/api/games", json={"bots": ["random"], **HOUSE})
    assert refused.status_code == 400 and "expansion" in refused.json()["error"]
    with pytest.raises(ValueError, match="martians"):
        create_app(tmp_path, rulesets=("martians",))


def test_its_words_and_pictures_are_the_base_games_over_its_own_cards():
    """A variant of the base game is told and drawn as the base game (no Insanity track, no
    Elder Ones), with its own card's name, and titled by the ruleset."""
    from nanty_env.presentation.board_svg import board_svg
    from nanty_env.presentation.theme_text import game_title
    from nanty_env.presentation.words import decision_words, words_for

    g = build_position(3, config=cfg(), hands=[["the_house_cat"], ["mr_bent"], ["groat"]])
    assert words_for("nanty", 3, g.cfg).card(CAT) == "The House Cat"
    _, choices = decision_words(g.view(0), "nanty", g.cfg)
    assert any("The House Cat" in text for a, text in choices if a == A.PLAY_CARD + CAT)
    assert words_for("nanty", 3, GameConfig(num_players=3)).card(CAT) != "The House Cat"
    svg = board_svg(g.view(0), g.cfg, ["a", "b", "c"])
    assert "<svg" in svg and "nsanity" not in svg
    assert game_title("nanty", NAME).endswith(": Sixes (a house variant)")
