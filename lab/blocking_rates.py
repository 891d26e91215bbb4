"""How each table plays, with one bot (``--bot``) in seat 0 against three of each table's bots:
the areas of control that the seats not moving lose in a turn (the whole game), and the areas
that a seat other than seat 0 newly occupies in its turn (the opening: the game's first
:data:`OPENING_TURNS` turns). :class:`agents.blocking.BlockingRate`'s constants were set from
this run (:class:`agents.blocking.SpreadRate`'s from an earlier 12-game probe of the same count
on other deals):

    python -m lab.blocking_rates --bot heuristic:learned=1:robust=1:durable=1 --games 16

It reads the whole game (a research probe), but only public board facts that every seat's
turn-start views show as well, counted by the same classes as a seat counts them from its own
views (:class:`agents.blocking.BlockingRate`, :class:`agents.blocking.SpreadRate`).
"""

from __future__ import annotations

import argparse
from types import SimpleNamespace

import numpy as np

from agents.base import bot_rngs, play_game
from agents.blocking import BlockingRate, SpreadRate, TableRate
from agents.distilled import TEACHERS
from agents.evaluation import metrics
from agents.registry import make_bot
from nanty_env.engine import Game, GameConfig

HINT = TEACHERS["hint"]  # the hint bot's spec
TABLES = {"random": "random", "ppo": "ppo", "hint bot": HINT, "heuristic": "heuristic"}
FIRST_SEED = 888_000  # deals of their own, apart from the evaluations' small seeds
OPENING_TURNS = 12


def table_rates(
    bot: str, opponent: str, games: int, opening: int = OPENING_TURNS
) -> list[tuple[float, float]]:
    """Per game: (control lost by the seats not moving per turn, areas newly occupied per turn
    of another seat in the game's first ``opening`` turns), both without the prior."""
    cfg = GameConfig(num_players=4, log=False)
    rates = []
    for i in range(games):
        blocking, spread = BlockingRate(0), SpreadRate(0)

        def on_turn(g: Game, blocking: TableRate = blocking, spread: TableRate = spread) -> None:
            snap = SimpleNamespace(turn=g.turn, active=g.active, metrics=metrics(g))
            blocking.update(snap)
            if g.turn <= opening:  # the last opening turn's change is read at the next start
                spread.update(snap)

        bots = [make_bot(bot), *[make_bot(opponent) for _ in range(3)]]
        seed = FIRST_SEED + i
        play_game(bots, cfg, seed, bot_rngs(seed, 4), on_turn=on_turn)
        rates.append(tuple(r.total / max(1, r.turns) for r in (blocking, spread)))
    return rates


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", default=HINT)
    ap.add_argument("--games", type=int, default=16)
    args = ap.parse_args()
    for name, spec in TABLES.items():
        r = np.array(table_rates(args.bot, spec, args.games))
        print(
            f"3 x {name}: control lost {r[:, 0].mean():.3f} a turn (per-game sd "
            f"{r[:, 0].std():.3f}); others' spread in the opening {r[:, 1].mean():.3f} a turn "
            f"(per-game sd {r[:, 1].std():.3f}); {len(r)} games"
        )


if __name__ == "__main__":
    main()
