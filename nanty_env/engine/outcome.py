"""How a game ends: :class:`Outcome` (winners, reason, points) and its :class:`Termination`."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Termination(Enum):
    """How a game ended, for the base game and the expansion alike (``Outcome.termination``)."""

    GOAL = "goal"  # a personality's goal held at the start of its owner's turn (base game)
    SUDDEN_DEATH = "sudden_death"  # an objective announced at the start of a turn (expansion)
    DECK = "deck"  # a player could not refill their hand
    RIOTS = "riots"  # the Riots event with eight or more trouble markers (base game)
    DOOMSDAY = "doomsday"  # the Insanity marker reached level 13 (expansion)


_TERMINATIONS = {
    "personality": Termination.GOAL,
    "objective": Termination.SUDDEN_DEATH,
    "deck_exhausted": Termination.DECK,
    "riots": Termination.RIOTS,
    "doomsday": Termination.DOOMSDAY,
}


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the game ended: the winning seats, why, and the final points when points decided.

    ``termination`` names the kind of ending (a :class:`Termination`) and ``detail`` what
    decided it (the personality or objective id, or how the points were reached): read those
    rather than parsing ``reason``, the saved form (``"personality:fagin"``,
    ``"deck_exhausted:points"``, ``"riots:points"``, ``"doomsday"``, ...).
    """

    winners: tuple[int, ...]
    reason: str
    points: tuple[int, ...] | None = None

    @property
    def termination(self) -> Termination:
        """The kind of ending, read from ``reason`` (so that saved states need no new key)."""
        return _TERMINATIONS[self.reason.split(":", 1)[0]]

    @property
    def detail(self) -> str:
        """What decided the game within its kind: the winning personality's or objective's id
        (``GOAL``, ``SUDDEN_DEATH``), ``"personality"``, ``"objective"`` or ``"points"`` (who
        won when the deck ran out: an end-of-game clause or the points), ``"points"`` after
        Riots, and ``""`` for doomsday."""
        return self.reason.partition(":")[2]

    @property
    def by_points(self) -> bool:
        """Whether the final points decided the winners (``points`` then holds them)."""
        return self.detail == "points"
