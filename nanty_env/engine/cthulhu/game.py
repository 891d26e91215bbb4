"""``CthulhuGame``: a :class:`~nanty_env.engine.game.Game` playing *The Rise of Cthulhu*.

``Game.new(GameConfig(expansion="cthulhu"))`` and ``Game.from_dict`` of such a state return one.
It adds the expansion's state (the Insanity level, Elder Ones, Great Old One boards, objectives,
face-up cards, building types) to the base game's fields and plays by the expansion's frame
handlers (``frames.CTHULHU`` over the base ones). Everything else (``apply``,
``legal_actions``, ``returns``, ...) is the base class's.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

# Importing these modules registers the expansion's frame handlers.
from nanty_env.data.cthulhu.model import MAX_ELDER_ONES
from nanty_env.engine import actions as A
from nanty_env.engine.cthulhu import effects, flow, setup, symbols, validation  # noqa: F401
from nanty_env.engine.cthulhu.abilities import ELDER_BIT
from nanty_env.engine.frames import ruleset_handlers
from nanty_env.engine.game import Game

_X_SCALARS = ("insanity",)
_X_LISTS = (
    "elder_area",
    "elder_owner",
    "elder_arrived",
    "elder_hits",
    "goo",
    "objective",
    "objective_pool",
    "faceup",
    "btype",
)


class CthulhuGame(Game):
    """A game of the expansion. Extra state (all public but ``objective``):

    ``insanity`` the track level (1-13); per Elder One (roster index) ``elder_area`` (-1 in the
    pool), ``elder_owner`` (-1 in the pool), ``elder_arrived`` (turn summoned) and
    ``elder_hits`` (hits taken this turn); per seat ``goo`` (Great Old One board) and
    ``objective`` (secret); ``objective_pool`` the objectives set aside unseen; ``faceup`` the
    three face-up cards; per area ``btype`` (building type, -1 none). ``eo`` (Elder Ones per
    area) is derived.
    """

    __slots__ = (*_X_SCALARS, *_X_LISTS, "eo")

    has_elders: ClassVar[bool] = True
    num_actions: ClassVar[int] = A.NUM_ACTIONS_CTHULHU
    ability_bits: ClassVar[int] = ELDER_BIT + MAX_ELDER_ONES  # buildings, GOO, Elder Ones

    # ------------------------------------------------------------------ construction
    def deal(self, cfg: Any, rng: np.random.Generator) -> None:
        setup.deal(self, cfg, rng)

    def clone(self) -> CthulhuGame:
        g = super().clone()
        g.insanity = self.insanity
        g.elder_area = self.elder_area[:]
        g.elder_owner = self.elder_owner[:]
        g.elder_arrived = self.elder_arrived[:]
        g.elder_hits = self.elder_hits[:]
        g.goo = self.goo[:]
        g.objective = self.objective[:]
        g.objective_pool = self.objective_pool[:]
        g.faceup = self.faceup[:]
        g.btype = self.btype[:]
        g.eo = self.eo[:]
        return g  # type: ignore[return-value]

    def to_dict(self) -> dict[str, Any]:
        d = super().to_dict()
        d["insanity"] = self.insanity
        for name in _X_LISTS:
            d[name] = list(getattr(self, name))
        return d

    @classmethod
    def _check_schema_extra(cls, d: dict[str, Any]) -> None:
        from nanty_env.engine.cthulhu.validation import check_schema

        check_schema(d, _X_SCALARS, _X_LISTS)

    def _load(self, d: dict[str, Any], validate: bool = False) -> None:
        super()._load(d, validate)
        self.insanity = int(d["insanity"])
        for name in _X_LISTS:
            setattr(self, name, [int(x) for x in d[name]])
        eo = [0] * 12
        for a in self.elder_area:
            if a >= 0:
                eo[a] += 1
        self.eo = eo

    # ------------------------------------------------------------------ queries
    def elder_areas_of(self, seat: int) -> list[int]:
        """Areas of the Elder Ones ``seat`` controls (for the minion adjacency rule)."""
        return [a for a, o in zip(self.elder_area, self.elder_owner, strict=True) if o == seat]

    def view(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` knows: the base game's view plus the expansion's (see
        ``nanty_env.engine.cthulhu.view``)."""
        from nanty_env.engine.cthulhu.view import player_view

        return player_view(self, seat)


CthulhuGame._options, CthulhuGame._act, _ = ruleset_handlers("cthulhu")
