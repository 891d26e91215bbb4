"""How often a goal that holds at the end of its owner's turn is still there when the owner's
next turn starts (when it wins), by how many hits it could take.

Plays one bot (``--bot``) in one seat against three default HeuristicBots on the tournament's
deals and rotations. After every turn at whose end the mover's goal holds, it notes the goal's
class and :func:`agents.robustness.break_cost` (the fewest hits that undo it) for that seat,
and whether the goal survived the other seats' turns: the seat won at the start of its next
turn. Rounds cut short by the end of the deck or riots are left out. Prints the survival rate
by who held the goal (the bot or a HeuristicBot), goal class and break cost, and the bot's wins.

    python -m lab.goal_survival --bot heuristic:learned=1 --games 400 --seed 21
    python -m lab.goal_survival --bot heuristic:learned=1:robust=1 --games 400 --seed 21
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing as mp
from typing import Any

from tqdm import tqdm

from agents.base import bot_rngs, play_game
from agents.evaluation import game_config, goals
from agents.registry import make_bot
from agents.robustness import break_cost
from agents.value_model import goal_class
from arena.tournament import Task, TournamentSpec, schedule, seats_for
from nanty_env.engine import Game, Outcome, Termination, goal_met

HEURISTIC = "heuristic"


def play(args: tuple[str, Task]) -> dict[str, Any]:
    """One game; the met goals at the end of each turn and what became of them."""
    bot, task = args
    spec = TournamentSpec(bots=(bot, HEURISTIC, HEURISTIC, HEURISTIC))
    seats = seats_for(task.rotation, 4)
    bots = [make_bot(spec.bots[e]) for e in seats]
    pending: dict[int, tuple[str, str, int]] = {}  # seat -> (who, class, break cost)
    events: list[tuple[str, str, int, bool]] = []
    last = [-1]

    def on_turn(g: Game) -> None:
        mover = last[0]
        if g.active in pending:  # its goal did not survive the round
            events.append((*pending.pop(g.active), False))
        if mover >= 0 and mover != g.active and goal_met(g, mover):
            goal = goals(game_config(g.cfg))[g.persona[mover]]
            who = "bot" if seats[mover] == 0 else HEURISTIC
            pending[mover] = (who, goal_class(goal.id), break_cost(g, mover, goal.compiled))
        last[0] = g.active

    _, rec = play_game(
        bots,
        spec.game_config(),
        task.deal_seed,
        bot_rngs(task.deal_seed, 4, task.rotation + 1),
        on_turn=on_turn,
    )
    if Outcome(rec.winners, rec.reason).termination is Termination.GOAL:
        for s in rec.winners:
            if s in pending:
                events.append((*pending.pop(s), True))
    return {"won": seats.index(0) in rec.winners, "events": events}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--bot", default="heuristic:learned=1")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    tasks = schedule(
        TournamentSpec(bots=(args.bot,) + (HEURISTIC,) * 3, games=args.games, seed=args.seed)
    )
    table: dict[tuple, list[int]] = collections.defaultdict(lambda: [0, 0])
    wins = 0
    with mp.get_context("spawn").Pool(args.workers) as pool:
        jobs = [(args.bot, t) for t in tasks]
        for row in tqdm(pool.imap_unordered(play, jobs), total=len(jobs), desc="games"):
            wins += row["won"]
            for who, cls, cost, survived in row["events"]:
                key = (who, cls, min(cost, 2))
                table[key][0] += 1
                table[key][1] += survived
    print(f"{args.bot}: {wins}/{len(tasks)} games won against three HeuristicBots")
    print(f"{'held by':<10} {'goal':<11} {'hits':>5} {'met':>6} {'survived':>9} {'rate':>6}")
    for (who, cls, cost), (met, survived) in sorted(table.items()):
        hits = f"{cost}+" if cost == 2 else str(cost)
        print(f"{who:<10} {cls:<11} {hits:>5} {met:>6} {survived:>9} {survived / met:>6.0%}")


if __name__ == "__main__":
    main()
