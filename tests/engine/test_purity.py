"""The rules engine is pure Python: importing and playing it loads no RL framework."""

from __future__ import annotations

import subprocess
import sys

CODE = """
import sys
from nanty_env.engine import Game, GameConfig
g = Game.new(GameConfig(num_players=3), seed=0)
while not g.is_terminal:
    g.apply(g.legal_actions()[0])
heavy = sorted(m for m in ("gymnasium", "pettingzoo", "torch", "stable_baselines3")
               if m in sys.modules)
print(",".join(heavy))
"""


def test_engine_imports_no_rl_framework() -> None:
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
