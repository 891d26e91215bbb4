"""Expansion games pickle (environments and worker processes copy them): the tables travel as
the pack they come from, a user's pack is read again, and a pack changed on disk meanwhile is
refused rather than silently swapped."""

from __future__ import annotations

import copy
import pickle
import time
from importlib import resources

import numpy as np
import pytest

from nanty_env.engine import Game, GameConfig


def shipped_text(name: str) -> str:
    return resources.files("nanty_env.data.cthulhu").joinpath(name).read_text(encoding="utf-8")


def played(cfg: GameConfig, steps: int = 80) -> Game:
    g = Game.new(cfg, 5)
    rng = np.random.default_rng(1)
    for _ in range(steps):
        legal = g.legal_actions()
        g.apply(legal[int(rng.integers(len(legal)))])
    return g


def test_a_game_of_the_shipped_pack_pickles_mid_game():
    g = played(GameConfig(num_players=3, expansion="cthulhu"))
    h = pickle.loads(pickle.dumps(g))
    assert h.t is g.t and h.to_dict() == g.to_dict()
    assert copy.deepcopy(g).to_dict() == g.to_dict()
    for _ in range(50):
        if g.is_terminal:
            break
        a = g.legal_actions()[0]
        g.apply(a)
        h.apply(a)
    assert h.to_dict() == g.to_dict()


def test_a_users_pack_travels_by_its_path_and_a_changed_pack_is_refused(tmp_path):
    text = shipped_text("cards.toml").replace('name = "Groat"', 'name = "My Groat"', 1)
    (tmp_path / "cards.toml").write_text(text, encoding="utf-8")
    g = played(GameConfig(num_players=2, expansion="cthulhu", content=str(tmp_path)))
    blob = pickle.dumps(g)
    h = pickle.loads(blob)
    assert h.t is g.t and h.to_dict() == g.to_dict()
    time.sleep(0.01)
    (tmp_path / "cards.toml").write_text(text.replace("My Groat", "Their Groat"), "utf-8")
    with pytest.raises(ValueError, match="has changed"):
        pickle.loads(blob)
