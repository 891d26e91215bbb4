"""The expansion's state: :class:`CthulhuState`, the base game's fields plus the Insanity
track, Elder Ones, Great Old One boards, objectives, face-up cards and building types.

The expansion's rules take a ``CthulhuState``; ``cthulhu.game.CthulhuGame`` adds the public
surface on top, as ``Game`` does over ``GameState``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Self

from nanty_env.data.cthulhu.model import MAX_ELDER_ONES
from nanty_env.engine.actions import NUM_ACTIONS_CTHULHU, NUM_AREAS
from nanty_env.engine.state import GameState

GOO_BIT = 12  # ``ability_used`` bit of the Great Old One (bits 0-11: the building by area)
ELDER_BIT = 13  # ... and of Elder One ``e``: ``ELDER_BIT + e``

X_SCALARS = ("insanity",)
X_LISTS = (
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
# the one list that changes often, copied by clones; the others are tuples that clones share
X_COPIED_LISTS = frozenset(("faceup",))


class CthulhuState(GameState):
    """A game of the expansion. Extra state (all public but ``objective``):

    ``insanity`` the track level (1-13); per Elder One (roster index) ``elder_area`` (-1 in the
    pool), ``elder_owner`` (-1 in the pool), ``elder_arrived`` (turn summoned) and
    ``elder_hits`` (hits taken this turn); per seat ``goo`` (Great Old One board) and
    ``objective`` (secret); ``objective_pool`` the objectives set aside unseen; ``faceup`` the
    three face-up cards; per area ``btype`` (building type, -1 none). ``eo`` (Elder Ones per
    area) is derived.
    """

    __slots__ = (*X_SCALARS, *X_LISTS, "eo")

    insanity: int
    # all but ``faceup`` change rarely: immutable tuples that clones share (as the base
    # game's, ``state.GameState``), replaced when they change (``state.with_item``)
    elder_area: tuple[int, ...]
    elder_owner: tuple[int, ...]
    elder_arrived: tuple[int, ...]
    elder_hits: tuple[int, ...]
    goo: tuple[int, ...]
    objective: tuple[int, ...]
    objective_pool: tuple[int, ...]
    faceup: list[int]
    btype: tuple[int, ...]
    eo: tuple[int, ...]

    has_elders: ClassVar[bool] = True
    num_actions: ClassVar[int] = NUM_ACTIONS_CTHULHU
    ability_bits: ClassVar[int] = ELDER_BIT + MAX_ELDER_ONES  # buildings, GOO, Elder Ones

    def clone(self) -> Self:
        """:meth:`GameState.clone` and the expansion's fields: ``faceup`` copied
        (``X_COPIED_LISTS``), the others immutable tuples, shared and replaced when they
        change. Here rather than on the game class, so that the compiled build sets them as C
        struct members (named one by one: a setattr loop measured 0.47 us more, a quarter of
        a clone)."""
        g = GameState.clone(self)
        g.insanity = self.insanity
        g.faceup = self.faceup[:]
        g.elder_area = self.elder_area
        g.elder_owner = self.elder_owner
        g.elder_arrived = self.elder_arrived
        g.elder_hits = self.elder_hits
        g.goo = self.goo
        g.objective = self.objective
        g.objective_pool = self.objective_pool
        g.btype = self.btype
        g.eo = self.eo
        return g

    def elder_areas_of(self, seat: int) -> list[int]:
        """Areas of the Elder Ones ``seat`` controls (for the minion adjacency rule)."""
        elder_area = self.elder_area
        return [elder_area[e] for e, o in enumerate(self.elder_owner) if o == seat]


def elders_per_area(elder_area: Sequence[int]) -> tuple[int, ...]:
    """``eo`` as ``elder_area`` places the Elder Ones: how many stand in each area."""
    eo = [0] * NUM_AREAS
    for a in elder_area:
        if a >= 0:
            eo[a] += 1
    return tuple(eo)
