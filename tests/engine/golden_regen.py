"""Golden traces: three seeded random games (2, 3 and 4 players) kept as compact JSON.

The three games end in different ways: Sherlock Holmes when the deck runs out, a Lord's
goal, and points with a tie broken by the City Area cards. Each file in
``tests/engine/golden/`` holds the game's setup (players, game seed, policy seed), every
action taken, a SHA-256 of the final ``to_dict()`` and the outcome. ``test_state.py`` replays
the actions and compares. Regenerate the files only on purpose, when a rules change is meant
to change play, and review the diff:

    .venv/bin/python -m tests.engine.golden_regen       # from the repository root
    .venv/bin/python tests/engine/golden_regen.py       # the same
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from nanty_env.engine.config import GameConfig
from nanty_env.engine.game import Game

GOLDEN_DIR = Path(__file__).with_name("golden")
GAMES = ((2, 20250), (3, 31337), (4, 125))  # (players, game seed); policy seed = game seed + 1
STEP_CAP = 5_000


def golden_path(n: int, seed: int) -> Path:
    return GOLDEN_DIR / f"game_{n}p_seed{seed}.json"


def state_hash(g: Game) -> str:
    """SHA-256 of the canonical JSON of ``g.to_dict()``."""
    text = json.dumps(g.to_dict(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def outcome_dict(g: Game) -> dict[str, Any]:
    o = g.outcome
    return {
        "winners": list(o.winners),
        "reason": o.reason,
        "points": None if o.points is None else list(o.points),
    }


def new_game(n: int, seed: int) -> Game:
    # log off: the trace pins the rules, not the wording of the log
    return Game.new(GameConfig(num_players=n, log=False), seed)


def record(n: int, seed: int) -> dict[str, Any]:
    """Play the golden game with the seeded random policy and describe it."""
    g = new_game(n, seed)
    policy = random.Random(seed + 1)
    actions = []
    while not g.is_terminal:
        if len(actions) >= STEP_CAP:
            raise RuntimeError(f"golden game {n}p seed {seed} did not end")
        a = policy.choice(g.legal_actions())
        actions.append(a)
        g.apply(a)
    return {
        "num_players": n,
        "seed": seed,
        "policy_seed": seed + 1,
        "steps": len(actions),
        "final_hash": state_hash(g),
        "outcome": outcome_dict(g),
        "actions": actions,
    }


def write(trace: dict[str, Any]) -> Path:
    path = golden_path(trace["num_players"], trace["seed"])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(trace, separators=(",", ":")) + "\n")
    return path


def main() -> None:
    for n, seed in GAMES:
        trace = record(n, seed)
        path = write(trace)
        print(f"{path}: {trace['steps']} actions, {trace['outcome']}")


if __name__ == "__main__":
    main()
