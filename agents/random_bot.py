"""The uniformly random baseline."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agents.base import BaseBot, View


class RandomBot(BaseBot):
    """Chooses uniformly among the legal actions (the chance-level reference)."""

    name = "random"

    def act(self, view: View, legal_actions: Sequence[int], rng: np.random.Generator) -> int:
        return int(legal_actions[int(rng.integers(len(legal_actions)))])
