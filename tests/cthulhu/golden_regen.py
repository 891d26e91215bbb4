"""Golden traces of the expansion: three seeded random games (2, 3 and 4 players) kept as compact
JSON, ending by doomsday, by an objective (sudden death) and by the draw pile (won by Sloth).

Each file in ``tests/cthulhu/golden/`` holds the setup (players, game seed, policy seed), every
action, a SHA-256 of the final ``to_dict()`` and the outcome; ``test_golden.py`` replays them.
Regenerate only on purpose (a rules or content change meant to change play), and review:

    .venv/bin/python tests/cthulhu/golden_regen.py       # from the repository root
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
GAMES = ((2, 1002), (3, 1001), (4, 1000))  # (players, game seed); policy seed = game seed + 1
STEP_CAP = 20_000


def golden_path(n: int, seed: int) -> Path:
    return GOLDEN_DIR / f"cthulhu_{n}p_seed{seed}.json"


def state_hash(g: Game) -> str:
    text = json.dumps(g.to_dict(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def new_game(n: int, seed: int) -> Game:
    return Game.new(GameConfig(num_players=n, expansion="cthulhu", log=False), seed)


def outcome_dict(g: Game) -> dict[str, Any]:
    o = g.outcome
    return {
        "winners": list(o.winners),
        "reason": o.reason,
        "points": None if o.points is None else list(o.points),
    }


def record(n: int, seed: int) -> dict[str, Any]:
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
        "expansion": "cthulhu",
        "num_players": n,
        "seed": seed,
        "policy_seed": seed + 1,
        "steps": len(actions),
        "final_hash": state_hash(g),
        "outcome": outcome_dict(g),
        "actions": actions,
    }


def main() -> None:
    GOLDEN_DIR.mkdir(exist_ok=True)
    for n, seed in GAMES:
        trace = record(n, seed)
        path = golden_path(n, seed)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(trace, separators=(",", ":")) + "\n")
        tmp.replace(path)
        print(f"{path}: {trace['steps']} actions, {trace['outcome']}")


if __name__ == "__main__":
    main()
