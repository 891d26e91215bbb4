"""A check shared by the bot tests: two specs choose the same action at every given state."""

from __future__ import annotations

import numpy as np

from agents.distilled import TEACHERS
from agents.registry import make_bot

HINT_BOT = TEACHERS["hint"]  # heuristic:learned=1:robust=1:durable=1


def assert_same_choices(spec: str, games: list, like: str = HINT_BOT) -> None:
    """``spec`` chooses ``like``'s action (default: the hint bot's) at every state of ``games``,
    both seated at the player to move and given the same generator."""
    reference, other = make_bot(like), make_bot(spec)
    for i, g in enumerate(games):
        seat = g.current_player
        actions = []
        for bot in (reference, other):
            bot.reset(seat, g.cfg)
            v = g.view(seat)
            actions.append(bot.act(v, v["legal_actions"], np.random.default_rng(i)))
        assert actions[0] == actions[1], (spec, like, i)
