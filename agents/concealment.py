"""Concealment for the look-ahead bots: a penalty on how much a turn tells the others about
the bot's own role.

The observer the bot hides from is the one its opponents use: the ruleset's fitted role model
(:class:`agents.roles.RoleModel` on the public feature tracker, which HeuristicBot's
:class:`~agents.roles.RoleBelief` reads). At the bot's own turn, each candidate's look-ahead
ends at the start of the next turn; the public tracker is advanced to that position (a copy of
the bot's own tracker, fed the bot's view of the look-ahead) and the model's probability of the
bot's *true* role is read. The penalty is

    ``weight * (ln p(true role | after the turn) - ln p(true role | now))``

nats of evidence handed to the observer (negative when the turn points away from the truth,
which the penalty then rewards). ``weight`` is in the evaluation's units per nat
(``heuristic:conceal=λ``; 0: off). Out of turn (interrupts, answers) and at the end of the
game nothing is penalised: the tracker only reads turn starts.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from agents.roles import RoleModel, default_model
from nanty_env.engine import Game, GameConfig

FLOOR = 1e-9


class Concealment:
    """The penalty of one decision (built per decision from the bot's tracker).

    Args:
        weight: the penalty per nat (λ).
        model: the fitted role model of the game's ruleset.
        config: the game's configuration.
        seat: the bot's seat.
        role: the bot's true role (personality index, or objective in the expansion).
        tracker: the bot's public feature tracker at the current turn start (not modified).
    """

    def __init__(
        self,
        weight: float,
        model: RoleModel,
        config: GameConfig,
        seat: int,
        role: int,
        tracker: Any,
    ) -> None:
        self.weight = float(weight)
        self.model = model
        self.n = config.num_players
        self.seat = seat
        self.role = role
        self.tracker = tracker
        self.start = None if tracker.prev is None else tracker.prev.turn
        self.now = self._log_p(tracker)

    def _log_p(self, tracker: Any) -> float:
        p = self.model.probabilities(tracker.features(), self.n)[self.seat]
        return float(np.log(max(p[self.role], FLOOR)))

    def evidence(self, g: Game) -> float:
        """Nats towards the truth that the position ``g`` (after a candidate) gives away."""
        if self.start is None or g.is_terminal or g.turn != self.start + 1:
            return 0.0
        t = copy.copy(self.tracker)
        t.sums = self.tracker.sums.copy()
        t.turns = self.tracker.turns.copy()
        t.update(g.view(self.seat))
        return self._log_p(t) - self.now

    def __call__(self, g: Game) -> float:
        """The penalty of the position ``g``."""
        return self.weight * self.evidence(g)


def concealment_model(config: GameConfig) -> RoleModel:
    """The fitted role model that a concealing bot hides from (ValueError if none fits)."""
    model = default_model(config.expansion)
    if model is None or not model.fits(config):
        raise ValueError(
            "conceal needs the shipped role model of the game's ruleset (none fits these roles)"
        )
    return model
