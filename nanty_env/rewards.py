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
from typing import TYPE_CHECKING

from nanty_env.engine import scoring, tables

if TYPE_CHECKING:
    from nanty_env.engine import Game

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
    game is over."""
    if g.is_terminal:
        return 0.0
    p = tables().data.personalities[g.persona[seat]]
    goal = p.goal(g.n, g.cfg.threshold_set)
    if not goal:
        return 0.0
    return max(min(1.0, max(0, scoring.metric(g, m, seat)) / need) for m, need in goal.items())
