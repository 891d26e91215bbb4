"""Fast neural copies of the shipped bots: policy networks fitted on a teacher bot's decisions.

``distilled:teacher=heuristic`` plays the policy network distilled from ``heuristic`` for the
game's player count, shipped as a nanty-policy checkpoint in ``agents/data``
(``distilled_<teacher>_<N>p.json`` + ``.safetensors``). The network reads the seat's encoded
view and answers with one matrix product per layer, so it costs a fraction of a millisecond a
decision where its teacher searches its own turn: a cheap stand-in for the teacher as a
training opponent, or in rollouts.

The file is found by the teacher's *name* only (one of :data:`TEACHERS`); a spec never carries a
path, so ``distilled`` is safe in specs read from files and the web
(``agents.spec_limits``). ``python -m training.distill --config
configs/distill_<teacher>_<N>p.yaml --ship`` writes the files again (docs/agents.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from agents.base import BaseBot, View
from agents.checkpoint import CheckpointError, PolicyCheckpoint
from agents.policy import PolicyBot

# teacher name -> the bot spec it was distilled from
TEACHERS: dict[str, str] = {
    "heuristic": "heuristic",
    "hint": "heuristic:learned=1:robust=1:durable=1",
}


def shipped_stem(teacher: str, players: int) -> str:
    """The shipped checkpoint's file stem (in ``agents/data``) for a teacher and player count."""
    return f"distilled_{teacher}_{players}p"


def teacher_name(spec: str) -> str:
    """The name under which the policy distilled from bot ``spec`` is shipped."""
    for name, teacher in TEACHERS.items():
        if teacher == spec.strip():
            return name
    raise ValueError(
        f"no distilled bot is shipped for teacher {spec!r}; the teachers are "
        + ", ".join(f"{k} ({v})" for k, v in TEACHERS.items())
    )


def check_teacher(teacher: Any) -> str:
    """``teacher`` if it is one of :data:`TEACHERS`, else one :class:`BotSpecError`."""
    from agents.registry import BotSpecError

    if not isinstance(teacher, str) or teacher not in TEACHERS:
        raise BotSpecError(
            f"distilled: unknown teacher {str(teacher)[:40]!r}; choose one of "
            f"{', '.join(sorted(TEACHERS))} (e.g. distilled:teacher=heuristic)"
        )
    return teacher


@cache
def shipped_policy(teacher: str, players: int) -> PolicyCheckpoint:
    """The shipped policy distilled from ``teacher`` for ``players``, loaded and checked once
    per process (the checkpoint loader's checks, then the environment's)."""
    from agents.policy import load_for_env

    check_teacher(teacher)
    base = resources.files("agents") / "data"
    stem = shipped_stem(teacher, players)
    if not ((base / f"{stem}.json").is_file() and (base / f"{stem}.safetensors").is_file()):
        shipped = sorted(
            p.name.removesuffix(".json")
            for p in base.iterdir()
            if p.name.startswith("distilled_") and p.name.endswith(".json")
        )
        raise CheckpointError(
            f"no distilled {teacher!r} policy for {players} players is shipped (agents/data/"
            f"{stem}.json); shipped: {', '.join(shipped) or 'none'}. Distil one with python -m "
            f"training.distill --config configs/distill_{teacher}_{players}p.yaml --ship"
        )
    policy = load_for_env(str(base / stem))
    trained = policy.meta.get("env", {}).get("num_players")
    if trained != players:
        raise CheckpointError(f"{stem}: trained for {trained} players, not {players}")
    return policy


class DistilledBot(PolicyBot):
    """The shipped policy network distilled from a teacher bot, for the game's player count.

    Args:
        teacher: which bot's copy to play: ``heuristic`` (HeuristicBot) or ``hint`` (the hint
            bot ``heuristic:learned=1:robust=1:durable=1``).
        deterministic: the most likely action (default); 0: sample from the policy.
    """

    name = "distilled"

    def __init__(self, teacher: str = "heuristic", deterministic: bool | int = True) -> None:
        self.teacher = check_teacher(teacher)
        # the network is chosen at reset, when the player count is known; any shipped one
        # stands in until then (they share the observation and action spaces)
        BaseBot.__init__(self)
        self._base_kwargs = {"deterministic": deterministic}
        self.deterministic = bool(deterministic)
        self.policy = None  # type: ignore[assignment]
        self.hinter = None

    def reset(self, seat: int, config: Any) -> None:
        if config.expansion is not None:
            raise ValueError(
                f"distilled:teacher={self.teacher} plays the base game only, not the "
                f"{config.expansion} expansion"
            )
        policy = shipped_policy(self.teacher, config.num_players)
        if policy is not self.policy:
            PolicyBot.__init__(self, policy=policy, **self._base_kwargs)
        super().reset(seat, config)

    def act(self, view: View, legal_actions: Sequence[int], rng: np.random.Generator) -> int:
        if self.policy is None:
            raise RuntimeError("DistilledBot.act before reset (the player count picks the network)")
        return super().act(view, legal_actions, rng)
