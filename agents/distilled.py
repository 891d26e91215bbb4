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

from agents.checkpoint import PolicyCheckpoint
from agents.shipped import ShippedPolicyBot, shipped_policy_file

# teacher name -> the bot spec it was distilled from
TEACHERS: dict[str, str] = {
    "heuristic": "heuristic",
    "hint": "heuristic:learned=1:robust=1:durable=1",
    "learned": "learned",
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


def check_teacher(teacher: object) -> str:
    """``teacher`` if it is one of :data:`TEACHERS`, else one :class:`BotSpecError`."""
    from agents.registry import BotSpecError

    if not isinstance(teacher, str) or teacher not in TEACHERS:
        raise BotSpecError(
            f"distilled: unknown teacher {str(teacher)[:40]!r}; choose one of "
            f"{', '.join(sorted(TEACHERS))} (e.g. distilled:teacher=heuristic)"
        )
    return teacher


def shipped_policy(teacher: str, players: int) -> PolicyCheckpoint:
    """The shipped policy distilled from ``teacher`` for ``players``, loaded and checked once
    per process."""
    check_teacher(teacher)
    return shipped_policy_file(
        shipped_stem(teacher, players),
        players,
        f"distilled {teacher!r}",
        f"Distil one with python -m training.distill --config "
        f"configs/distill_{teacher}_{players}p.yaml --ship",
    )


class DistilledBot(ShippedPolicyBot):
    """The shipped policy network distilled from a teacher bot, for the game's player count.

    Args:
        teacher: which bot's copy to play: ``heuristic`` (HeuristicBot), ``hint`` (the hint
            bot ``heuristic:learned=1:robust=1:durable=1``) or ``learned``.
        deterministic: the most likely action (default); 0: sample from the policy.
    """

    name = "distilled"

    def __init__(self, teacher: str = "heuristic", deterministic: bool | int = True) -> None:
        self.teacher = check_teacher(teacher)
        super().__init__(deterministic)

    def describe(self) -> str:
        return f"distilled:teacher={self.teacher}"

    def policy_for(self, players: int) -> PolicyCheckpoint:
        return shipped_policy(self.teacher, players)
