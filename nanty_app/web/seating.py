"""Tables for the web: the bots, config and seed a request asks for, and the bots' turns."""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from agents.registry import WEB_LIMITS, BotSpecError, make_bot, untrusted_spec
from nanty_app.table import HUMAN, Table
from nanty_app.web.guard import MAX_SEED, ApiError, first_line, is_int
from nanty_env.engine import GameConfig
from nanty_env.engine.ruleset import find_ruleset, known_rulesets

log = logging.getLogger(__name__)

MAX_ADVANCE = 2000
ADVANCE_SECONDS = 1.0  # an advance stops taking decisions once this long has passed
QUICK_BOTS = ("random", "heuristic")  # specs (as they are) whose decisions take under 0.2 s
PLAYABLE_BOTS = ("random", "heuristic", "ismcts")  # no 'policy': the page loads no model files
SHIPPED_RULESETS = ("cthulhu",)  # what the page offers beside the base game by default
GAME_FIELDS = ("bots", "seed", "expansion", "theme", "personalities")
BUSY = "the bots are still moving in this game; ask again shortly"


def web_spec(bot: str) -> str:
    """A bot the page may ask for, in its canonical form (400 if it may not)."""
    name = bot.split(":")[0].strip()
    if name not in PLAYABLE_BOTS:
        shown = name[:40]
        raise ApiError(400, f"unknown bot {shown!r}; choose from {', '.join(PLAYABLE_BOTS)}")
    try:
        return untrusted_spec(bot, WEB_LIMITS)
    except BotSpecError as e:
        raise ApiError(400, first_line(e)) from e


def offered_rulesets(names: Sequence[str]) -> tuple[str, ...]:
    """``names`` checked to be registered rulesets (a ``ValueError`` names one that is not),
    without repeats. Nothing is imported here: a plug-in is loaded by the command line that
    named it (``nanty serve --expansion``)."""
    known = known_rulesets()
    for name in names:
        if name not in known:
            raise ValueError(f"unknown ruleset {name!r}; the registered ones are {list(known)}")
    return tuple(dict.fromkeys(names))


def ruleset_menu(offered: Sequence[str]) -> list[dict[str, str]]:
    """The page's game menu: the base game, then each offered ruleset, with its title."""
    return [
        {"expansion": name or "", "title": find_ruleset(name).title} for name in (None, *offered)
    ]


def game_config(
    body: Mapping[str, Any], players: int, offered: Sequence[str] = SHIPPED_RULESETS
) -> tuple[GameConfig, int]:
    """The game config and seed a request asks for (400 for a bad field); ``offered``: the
    rulesets beside the base game that a request may name."""
    seed = body.get("seed")
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    if not is_int(seed) or not 0 <= seed <= MAX_SEED:
        raise ApiError(400, f"'seed' must be a non-negative integer up to {MAX_SEED}")
    expansion = body.get("expansion") or None
    if expansion is not None and (not isinstance(expansion, str) or expansion not in offered):
        raise ApiError(400, f"unknown expansion; choose from {list(offered)}")
    theme = body.get("theme", "nanty")
    personalities = body.get("personalities", "standard")
    if not isinstance(theme, str) or not isinstance(personalities, str):
        raise ApiError(400, "'theme' and 'personalities' must be text")
    try:
        config = GameConfig(
            num_players=players,
            personalities=personalities[:40],
            theme=theme[:40],
            expansion=expansion,
        )
    except ValueError as e:
        raise ApiError(400, first_line(e)) from e
    return config, seed


def seat_bots(config: GameConfig, seed: int, seats: list[str], **table: Any) -> Table:
    """A table of ``seats`` (bot specs, or ``HUMAN``) whose bots can all play this game: 400
    for one that cannot (a missing model, a policy of another ruleset). ``table``: the
    :class:`Table`'s other arguments."""
    specs = [s for s in seats if s != HUMAN]
    try:
        made = Table(config, seed, seats, **table)
    except (ValueError, BotSpecError) as e:  # CheckpointError, a policy of another ruleset
        raise ApiError(400, first_line(e)) from e
    except Exception as e:  # an allowed bot that cannot play this game (a missing model)
        log.warning("bots %s cannot play this game", specs, exc_info=True)
        raise ApiError(400, f"these bots cannot play this game ({type(e).__name__})") from e
    _try_bots(made, specs)
    return made


def _try_bots(table: Table, specs: list[str]) -> None:
    """Have a fresh copy of each bot that loads a model at its first decision (heuristic with
    options) make one, from the deal, so that a bot that cannot play this game is a 400 now
    rather than a failure at its first move."""
    game = table.game
    seat = game.current_player
    view = game.view(seat)
    for spec in sorted({s for s in specs if s.startswith("heuristic:")}):
        try:
            bot = make_bot(spec)
            bot.reset(seat, table.config)
            bot.act(view, view["legal_actions"], np.random.default_rng(0))
        except Exception as e:
            log.warning("bot %s cannot play %s", spec, table.config, exc_info=True)
            raise ApiError(400, f"bot {spec!r} cannot play this game ({type(e).__name__})") from e


def slow_bots(specs: list[str]) -> bool:
    """Whether a bot may think for seconds a decision (ismcts, heuristic:depth=3...)."""
    return any(spec not in QUICK_BOTS for spec in specs)


def advance_max(body: Mapping[str, Any]) -> int:
    """How many decisions an advance asks for (400 unless 1 to ``MAX_ADVANCE``)."""
    most = body.get("max", 1)
    if not is_int(most) or not 1 <= most <= MAX_ADVANCE:
        raise ApiError(400, f"'max' must be an integer from 1 to {MAX_ADVANCE}")
    return most


def run_bots(table: Table, most: int, seconds: float) -> int:
    """Let the bots take up to ``most`` decisions, stopping once ``seconds`` have passed (the
    page asks again: other requests of this game get a turn); saves the record when the game
    ends. How many were taken."""
    start = time.monotonic()
    moved = 0
    while moved < most and table.step() is not None:
        moved += 1
        if time.monotonic() - start >= seconds:
            break
    if table.over and moved:
        table.save()
    return moved
