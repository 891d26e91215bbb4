"""How hard each table blocks: the areas of control that the seats not moving lose during a
turn, per turn, with one bot (``--bot``) in seat 0 against three of each table's bots. The
constants of :mod:`agents.blocking` were set from this run:

    python -m lab.blocking_rates --bot heuristic:learned=1:robust=1:durable=1 --games 16

It reads the whole game (a research probe), but only public board facts that every seat's
turn-start views show as well; :class:`agents.blocking.BlockingRate` counts the same from a
seat's own views.
"""

from __future__ import annotations

import argparse

import numpy as np

from agents.base import bot_rngs, play_game
from agents.distilled import TEACHERS
from agents.evaluation import metrics
from agents.registry import make_bot
from nanty_env.engine import Game, GameConfig

HINT = TEACHERS["hint"]  # the hint bot's spec
TABLES = {"random": "random", "ppo": "ppo", "hint bot": HINT, "heuristic": "heuristic"}
FIRST_SEED = 888_000  # deals of their own, apart from the evaluations' small seeds


def control_lost(bot: str, opponent: str, games: int) -> list[float]:
    """Per game: control lost by the seats not moving, per turn."""
    cfg = GameConfig(num_players=4, log=False)
    rates = []
    for i in range(games):
        prev: dict = {}
        counts = [0, 0]

        def on_turn(g: Game, prev: dict = prev, counts: list = counts) -> None:
            controlled = list(metrics(g).controlled)
            if prev:
                a = prev["active"]
                counts[0] += sum(
                    max(0, prev["controlled"][r] - controlled[r]) for r in range(4) if r != a
                )
                counts[1] += 1
            prev.update(controlled=controlled, active=g.active)

        bots = [make_bot(bot), *[make_bot(opponent) for _ in range(3)]]
        seed = FIRST_SEED + i
        play_game(bots, cfg, seed, bot_rngs(seed, 4), on_turn=on_turn)
        rates.append(counts[0] / max(1, counts[1]))
    return rates


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", default=HINT)
    ap.add_argument("--games", type=int, default=16)
    args = ap.parse_args()
    for name, spec in TABLES.items():
        r = control_lost(args.bot, spec, args.games)
        print(f"3 x {name}: {np.mean(r):.3f} a turn (per-game sd {np.std(r):.3f}, {len(r)} games)")


if __name__ == "__main__":
    main()
