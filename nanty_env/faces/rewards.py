"""Terminal rewards and optional potential-based shaping.

Default (``"win_loss"``): +1 to every winner, -1 to everyone else. A shared win (tie on points
and on the best City Area card, or two V personalities at the deck's end) gives +1 to each
sharer. Sherlock Holmes winning at the deck's end is an ordinary win; on Riots the points winner
wins and Sherlock Holmes simply scores (a V Sherlock Holmes loses). ``"zero_sum"`` splits +1
among the winners and -1 among the others, so rewards always sum to zero.

Shaping is off by default. ``shaping=phi`` with ``phi(game, seat) -> float`` adds
``phi(s') - phi(s)`` to each seat's reward after every step (potential-based); the envs take a
finished game's potential as 0 whatever ``phi`` says, so an episode's shaping adds up to
``-phi(start)`` however it ends and the terminal reward alone says who won (a potential that is
not 0 at the end would pay for where the game stopped, e.g. a goal met just before losing).
``goal_progress`` is a ready-made potential (0 once the game is over, too).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

from nanty_env.data.cthulhu.model import DOOMSDAY_LEVEL
from nanty_env.engine import Game, scoring, tables
from nanty_env.engine.cthulhu import pieces
from nanty_env.engine.cthulhu.victory import SLOTH

if TYPE_CHECKING:
    from nanty_env.engine import GameConfig

REWARD_MODES = ("win_loss", "zero_sum")
Potential = Callable[["Game", int], float]


def terminal_rewards(g: Game, mode: str = "win_loss", win: float = 1.0, loss: float = -1.0):
    """Per-seat rewards of a finished game."""
    if mode not in REWARD_MODES:
        raise ValueError(f"reward mode must be one of {REWARD_MODES}, got {mode!r}")
    winners = set(g.outcome.winners)
    if mode == "win_loss" or not winners or len(winners) == g.n:
        return [win if s in winners else loss for s in range(g.n)]
    k = len(winners)
    return [win / k if s in winners else loss / (g.n - k) for s in range(g.n)]


def goal_progress(g: Game, seat: int) -> float:
    """A potential in [0, 1]: how close ``seat`` is to its personality goal (the best of its
    alternatives, each metric divided by its threshold). 0 for Sherlock Holmes and once the
    game is over. In the expansion: its objective's (:func:`objective_progress`)."""
    if g.is_terminal:
        return 0.0
    if g.cfg.expansion is not None:
        return objective_progress(g, seat)
    p = tables().data.personalities[g.persona[seat]]
    goal = p.goal(g.n, g.cfg.threshold_set)
    if not goal:
        return 0.0
    return max(min(1.0, max(0, scoring.metric(g, m, seat)) / need) for m, need in goal.items())


def objective_progress(g: Game, seat: int) -> float:
    """A potential in [0, 1] for the expansion: how close ``seat`` is to its secret objective
    (the best of its thresholds, each metric over its threshold). For Sloth, which wins the
    draw-pile and doomsday endings, how near the nearer of the two is (the share of the draw
    pile gone, or of the Insanity track climbed); 0 once the game is over."""
    if g.is_terminal:
        return 0.0
    obj = g.t.data.objectives[g.objective[seat]]  # type: ignore[attr-defined]
    if obj.rule == SLOTH:
        climbed = (g.insanity - 1) / (DOOMSDAY_LEVEL - 1)  # type: ignore[attr-defined]
        gone = 1.0 - len(g.deck) / _start_deck(g.cfg)
        return max(0.0, min(1.0, max(gone, climbed)))
    goal = obj.goal(g.n)
    if not goal:
        return 0.0
    return max(
        min(1.0, max(0, pieces.METRICS[m](g, seat)) / need)  # type: ignore[arg-type]
        for m, need in goal.items()
    )


@cache
def _start_deck(cfg: GameConfig) -> int:
    """The draw pile's size at the start of a game under ``cfg``."""
    return max(1, len(Game.new(cfg, 0).deck))
