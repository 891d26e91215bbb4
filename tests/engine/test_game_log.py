"""The game log shared between a game and its clones until one of them writes."""

from __future__ import annotations

import pickle
import random

import pytest

from nanty_env.data.model import DEFAULT_THEME, _Themed, _Titled
from nanty_env.engine import Game, GameConfig
from nanty_env.engine.game_log import GameLog


def test_a_copy_and_its_original_append_apart() -> None:
    log = GameLog(["a", "b"])
    copy = log.copy()
    assert copy._lines is log._lines  # shared, not copied
    copy.append("from the copy")
    log.append("from the original")  # finds the shared list longer: copies its own prefix
    log.append("again")
    copy.append("again, copy")
    assert log == ["a", "b", "from the original", "again"]
    assert copy == ["a", "b", "from the copy", "again, copy"]
    assert len(log) == 4 and log[-1] == "again" and log[1:3] == ["b", "from the original"]
    assert list(copy) == copy[:] and copy != log and log == GameLog(log)
    with pytest.raises(IndexError):
        log[4]


def test_a_pickled_log_holds_only_its_own_lines() -> None:
    log = GameLog(["a"])
    copy = log.copy()
    copy.append("not the original's")
    back = pickle.loads(pickle.dumps(log))
    assert back == ["a"] and back._lines == ["a"]


def test_a_clone_of_a_logging_game_logs_on_its_own() -> None:
    g = Game.new(GameConfig(num_players=3, log=True), 5)
    for _ in range(40):
        g.apply(g.legal_actions()[0])
    lines = list(g.log)
    c = g.clone()
    assert c.log == lines
    for game, pick in ((c, 0), (g, -1)):  # the clone writes first, then the original
        for _ in range(20):
            if not game.is_terminal:
                game.apply(game.legal_actions()[pick])
    assert g.log[: len(lines)] == lines and c.log[: len(lines)] == lines
    assert len(g.log) > len(lines) and len(c.log) > len(lines)
    again = Game.new(GameConfig(num_players=3, log=True), 5)  # the same moves, no clone
    for _ in range(40):
        again.apply(again.legal_actions()[0])
    for _ in range(20):
        if not again.is_terminal:
            again.apply(again.legal_actions()[-1])
    assert again.log == g.log and c.log != g.log


@pytest.mark.parametrize("expansion", [None, "cthulhu"])
def test_a_game_that_does_not_log_shares_its_empty_log_with_its_clones(
    expansion: str | None,
) -> None:
    g = Game.new(GameConfig(num_players=4, expansion=expansion, log=False), 6)
    c = g.clone()
    assert c.log is g.log  # nothing appends when logging is off: no copy needed
    for game in (g, c):
        while not game.is_terminal:
            game.apply(game.legal_actions()[-1])
    assert len(g.log) == 0 and len(c.log) == 0
    on = Game.new(GameConfig(num_players=4, expansion=expansion, log=True), 6)
    assert on.clone().log is not on.log


def _play_random_games(expansion: str | None, log: bool, games: int) -> None:
    """``games`` seeded 4-player games of uniform random play, logging or not."""
    for seed in range(games):
        g = Game.new(GameConfig(num_players=4, expansion=expansion, log=log), seed)
        choose = random.Random(seed).choice
        while not g.is_terminal:
            g.apply(choose(g.legal_actions()))


@pytest.mark.parametrize("expansion", [None, "cthulhu"])
def test_a_game_that_does_not_log_never_looks_up_a_display_name(
    expansion: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A line nobody keeps is never built: with logging off no rule asks for the display name
    of a card, area, building or event (a Python call each, on the hot path of the compiled
    engine); with logging on they do, so the patch below is seen."""
    asked: list[object] = []
    for cls in (_Themed, _Titled):
        name = cls.name
        monkeypatch.setattr(
            cls,
            "name",
            lambda self, theme=DEFAULT_THEME, _name=name: asked.append(self) or _name(self, theme),
        )
    for log in (False, True):
        _play_random_games(expansion, log, 10 if not log else 1)
        assert bool(asked) is log, asked[:3]


@pytest.mark.parametrize("expansion", [None, "cthulhu"])
def test_a_game_that_does_not_log_never_asks_for_a_line(
    expansion: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every rule tests ``g.cfg.log`` before it builds a log line and calls ``say`` (a string
    format and a Python call, otherwise paid on every decision nobody logs); with logging on
    the same games do call it, so the patch is seen."""
    said: list[str] = []
    cls = type(Game.new(GameConfig(num_players=4, expansion=expansion, log=False), 0))
    monkeypatch.setattr(cls, "say", lambda self, text: said.append(text))
    for log in (False, True):
        _play_random_games(expansion, log, 12 if not log else 1)
        assert bool(said) is log, said[:3]
