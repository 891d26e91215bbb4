"""Plain words for people, in the game's ruleset: the entry points that pick the base game's
words (:mod:`nanty_env.presentation.base_words`) or the expansion's
(:mod:`nanty_env.presentation.cthulhu_words`).

Everything here reads a seat's view (``Game.view``: its public ``stack`` of pending frames and
its ``legal_actions``), a game's log or a saved outcome, so the words can never reveal what that
seat does not know.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from nanty_env.engine import GameConfig, Outcome, Termination, frame_fields
from nanty_env.engine.ruleset import derives_from
from nanty_env.presentation.base_words import Words, base_outcome_words
from nanty_env.presentation.cthulhu_words import CthulhuWords, cthulhu_outcome_words
from nanty_env.presentation.theme_text import themed


def has_expansion_pieces(config: GameConfig | None) -> bool:
    """Whether games under ``config`` have the expansion's pieces to tell and show (its ruleset
    is the expansion or derives from it): its words, track, Elder Ones and building types. A
    variant of the base game has none of them."""
    return config is not None and derives_from(config.expansion, "cthulhu")


def words_for(theme: str, num_players: int, config: GameConfig | None = None) -> Words:
    """The :class:`Words` of ``config``'s ruleset (the expansion's vocabulary for a game with the
    expansion's pieces; the base game's, over the ruleset's own tables, otherwise)."""
    if has_expansion_pieces(config):
        return CthulhuWords(theme, num_players, config)
    return Words(theme, num_players, config)


def view_config(view: Mapping[str, Any], config: GameConfig | None) -> GameConfig | None:
    """``config``, or for an expansion view without one the shipped pack's."""
    if config is None and view.get("expansion"):
        return GameConfig(num_players=view["num_players"], expansion=view["expansion"])
    return config


def decision_words(
    view: Mapping[str, Any], theme: str, config: GameConfig | None = None
) -> tuple[str, list[tuple[int, str]]]:
    """The pending question in words (addressed to whoever decides) and, when ``view``'s seat is
    the one deciding, its legal actions with their words; ``("", [])`` once the game is over."""
    if view.get("terminal") or not view["stack"]:
        return "", []
    w = words_for(theme, view["num_players"], view_config(view, config))
    frame = frame_fields(view["stack"][-1])
    legal = view.get("legal_actions") or []
    return w.question(frame), [(a, w.choice(frame, a)) for a in legal]


def outcome_words(
    winners: Sequence[int],
    reason: str,
    theme: str,
    config: GameConfig | None = None,
    personalities: Sequence[int] | None = None,
) -> str:
    """How the game ended, in a sentence, from an outcome's saved ``reason`` (records keep it
    so): who won and by which goal or ending, read through
    :class:`~nanty_env.engine.Outcome`'s termination and detail (an expansion game's ending in
    the expansion's words). ``config`` adds the goal met; ``personalities`` (every seat's,
    shown once the game is over) name the personality that won when the draw pile ran out."""
    if has_expansion_pieces(config) or _expansion_reason(reason):
        said = cthulhu_outcome_words(winners, reason, config)
    else:
        said = base_outcome_words(winners, reason, theme, config, personalities)
    return themed(said, theme)


def _expansion_reason(reason: str) -> bool:
    """Whether a saved ``reason`` can only end an expansion game (its objectives, doomsday)."""
    try:
        o = Outcome((), reason)
        kind = o.termination
    except KeyError:
        return False
    return kind in (Termination.SUDDEN_DEATH, Termination.DOOMSDAY) or (
        kind is Termination.DECK and o.detail == "objective"
    )


_LOG_PREFIX = re.compile(r"^\[t\d+ p\d+\] ")
_GAME_OVER = "game over:"


def log_lines(game: Any, start: int = 0) -> list[str]:
    """The game log from line ``start`` as a person reads it: without the ``[t3 p1]`` prefix,
    and the end of the game in words (:func:`outcome_words`), not the outcome's raw reason."""
    out = []
    for line in game.log[start:]:
        line = _LOG_PREFIX.sub("", line)
        if line.startswith(_GAME_OVER) and game.outcome is not None:
            o, cfg = game.outcome, game.cfg
            said = outcome_words(o.winners, o.reason, cfg.theme, cfg, list(game.persona))
            line = f"Game over. {said}."
        out.append(themed(line, game.cfg.theme))
    return out


def card_words(c: int, theme: str, config: GameConfig | None = None) -> str:
    """What a card does, symbol by symbol (``"place an agent · take £3"``); ``config``: an
    expansion game's (its own cards)."""
    players = config.num_players if config else 4  # a card's words do not depend on it
    return words_for(theme, players, config).card_words(c)
