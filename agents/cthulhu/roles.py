"""Public features for guessing the other players' secret objectives in the expansion.

The counterpart of :class:`agents.roles.RoleTracker`: a :class:`CthulhuRoleTracker` follows one
seat's views (at the start of every turn) and attributes each turn's public changes to the
player whose turn it was: control, areas with minions, minions, buildings, money, net worth,
trouble markers added, steps up the Insanity track, Elder One HP gained, other players' minions
removed, cards discarded. These running totals and the current board make a feature vector per
player, which a :class:`~agents.roles.RoleModel` fitted on expansion self-play turns into
likelihoods over objectives. Every objective is one of the metrics below, so the features are
the objectives' own quantities: Pride control, Greed net worth, Wrath trouble, Envy areas,
Gluttony pieces, Lust Elder One HP, and Sloth the Insanity steps (its holder hastens the end).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents.cthulhu.evaluation import CthulhuMetrics, view_metrics
from agents.turn_tracker import TurnTracker
from nanty_env.engine.cthulhu.tables import CthulhuTables

CTHULHU_FEATURES: tuple[str, ...] = (
    "bias",
    "turns",
    "d_controlled",
    "d_occupied",
    "d_minions",
    "d_buildings",
    "d_money",
    "d_net_worth",
    "trouble_added",
    "insanity_steps",
    "d_elder_hp",
    "others_minions_removed",
    "cards_discarded",
    "controlled",
    "occupied",
    "net_worth",
    "pieces",
    "elder_hp",
    "money",
    "trouble",
    "insanity",
    "game_turn",
)
NUM_CTHULHU_FEATURES = len(CTHULHU_FEATURES)
_DELTAS = 11  # running totals: d_controlled ... cards_discarded
# Rough scales that bring every feature near [0, 1].
_SCALE = np.array(
    [1, 15, 6, 6, 6, 3, 15, 15, 6, 6, 4, 4, 15, 6, 8, 50, 16, 5, 30, 12, 13, 80],
    dtype=np.float64,
)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The public facts of one turn start that the tracker compares."""

    turn: int
    active: int
    metrics: CthulhuMetrics
    trouble: tuple[int, ...]
    discard: int


def snapshot(view: Mapping[str, Any], t: CthulhuTables) -> Snapshot:
    return Snapshot(
        turn=view["turn"],
        active=view["active"],
        metrics=view_metrics(view, t),
        trouble=tuple(view["trouble"]),
        discard=len(view["discard"]),
    )


class CthulhuRoleTracker(TurnTracker):
    """Running public statistics of every player in an expansion game, fed with one seat's
    successive views (the expansion's :class:`~agents.turn_tracker.TurnTracker`)."""

    num_features = NUM_CTHULHU_FEATURES
    scale = _SCALE

    def __init__(self, num_players: int, t: CthulhuTables) -> None:
        super().__init__(num_players, _DELTAS)
        self.t = t

    def snapshot(self, view: Mapping[str, Any]) -> Snapshot:
        return snapshot(view, self.t)

    def deltas(self, a: Snapshot, b: Snapshot, q: int) -> Sequence[float]:
        ma, mb = a.metrics, b.metrics
        added = sum(1 for x, y in zip(a.trouble, b.trouble, strict=True) if y > x)
        lost = sum(max(0, ma.minions[r] - mb.minions[r]) for r in range(self.n) if r != q)
        return (
            mb.controlled[q] - ma.controlled[q],
            mb.occupied[q] - ma.occupied[q],
            mb.minions[q] - ma.minions[q],
            mb.own_buildings[q] - ma.own_buildings[q],
            mb.money[q] - ma.money[q],
            mb.net_worth[q] - ma.net_worth[q],
            added,
            mb.insanity - ma.insanity,
            mb.elder_hp[q] - ma.elder_hp[q],
            lost,
            max(0, b.discard - a.discard),
        )

    def row(self, q: int) -> Sequence[float]:
        m = self.prev.metrics
        return (
            1.0,
            self.turns[q],
            *self.sums[q],
            m.controlled[q],
            m.occupied[q],
            m.net_worth[q],
            m.pieces[q],
            m.elder_hp[q],
            m.money[q],
            m.trouble,
            m.insanity,
            self.prev.turn,
        )
