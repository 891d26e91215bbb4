"""``CthulhuGame``: a :class:`~nanty_env.engine.game.Game` playing *The Rise of Cthulhu*.

``Game.new(GameConfig(expansion="cthulhu"))`` and ``Game.from_dict`` of such a state return one
(this module registers the class with the expansion's ruleset, ``cthulhu.ruleset``). It adds
the expansion's state (``cthulhu.state``: the Insanity level, Elder Ones, Great Old One boards,
objectives, face-up cards, building types) to the base game's fields; the rules are the
ruleset's. Everything else (``apply``, ``legal_actions``, ``returns``, ...) is the base
class's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

# Importing these modules registers the expansion's frame handlers.
from nanty_env.engine.config import GameConfig
from nanty_env.engine.cthulhu import effects, flow, pieces, setup, symbols, validation  # noqa: F401
from nanty_env.engine.cthulhu.describe import CTHULHU_VOCABULARY
from nanty_env.engine.cthulhu.ruleset import CTHULHU_RULESET
from nanty_env.engine.cthulhu.state import (
    X_COPIED_LISTS,
    X_LISTS,
    X_SCALARS,
    CthulhuState,
    elders_per_area,
)
from nanty_env.engine.cthulhu.view import player_view
from nanty_env.engine.game import Game
from nanty_env.engine.ruleset import register_ruleset


class CthulhuGame(CthulhuState, Game):
    """A game of the expansion (its extra fields: :class:`CthulhuState`)."""

    __slots__ = ()
    extra_scalars = X_SCALARS
    extra_lists = X_LISTS
    extra_copied = X_COPIED_LISTS
    vocabulary = CTHULHU_VOCABULARY

    # ------------------------------------------------------------------ construction
    def deal(self, cfg: GameConfig, rng: np.random.Generator) -> None:
        setup.deal(self, cfg, rng)

    @classmethod
    def _check_schema_extra(cls, d: dict[str, Any]) -> None:
        validation.check_schema(d)

    def _load(self, d: dict[str, Any], validate: bool = False) -> None:
        super()._load(d, validate)  # the fields of X_SCALARS and X_LISTS too
        self.eo = elders_per_area(self.elder_area)

    # ------------------------------------------------------------------ queries
    def view(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` knows: the base game's view plus the expansion's (see
        ``nanty_env.engine.cthulhu.view``)."""
        return player_view(self, seat)

    def building_reserve(self, seat: int) -> list[int]:
        """The building types whose Building card ``seat`` still has in its reserve (public:
        every type not on the board under ``seat``'s buildings; from a view,
        ``cthulhu.view.building_reserve_of_view``)."""
        return pieces.reserve(self, seat)


register_ruleset(CTHULHU_RULESET, CthulhuGame)
