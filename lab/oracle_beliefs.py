"""What perfect role inference would be worth to the look-ahead bot.

Plays ``heuristic:learned=1`` (the training hint) in one seat against three default
HeuristicBots on the tournament's deals and rotations (``arena.tournament.schedule``, the same
bot generators), once per mode, so the modes are compared game by game:

* ``base``: the bot as it is (its belief from the role-inference model);
* ``holmes``: told which opponent, if any, holds Sherlock Holmes (that seat's belief becomes
  certain; the others lose their Holmes share, renormalised);
* ``all``: told every opponent's personality.

The truth is read from the game at each turn start (an oracle, so this is an experiment, not a
bot). Prints the wins per mode, the discordant pairs against ``base`` and the wins by whether
the bot, an opponent or nobody held Holmes at the end; writes one JSON line per game.

    python -m lab.oracle_beliefs --games 400 --seed 0 --out runs/oracle.jsonl
"""

from __future__ import annotations

import argparse
import collections
import json
import multiprocessing as mp
from collections.abc import Sequence
from typing import Any

import numpy as np

from agents.base import bot_rngs, play_game
from agents.heuristic import HeuristicBot
from arena.paired import paired
from arena.tournament import Task, TournamentSpec, schedule, seats_for
from nanty_env.engine import tables

MODES = ("base", "holmes", "all")
HOLMES = next(k for k, p in enumerate(tables().data.personalities) if p.id == "sherlock_holmes")


class OracleBeliefBot(HeuristicBot):
    """``HeuristicBot`` whose belief about the opponents is corrected from ``truth``."""

    def __init__(self, mode: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.mode = mode
        self.truth: list[int] = []

    def corrected(self, marginals: Sequence[np.ndarray], seat: int) -> list[np.ndarray]:
        out = [np.array(m, dtype=float) for m in marginals]
        for q, m in enumerate(out):
            if q == seat or self.mode == "base":
                continue
            true = self.truth[q]
            if self.mode == "all" or true == HOLMES:
                m[:] = 0.0
                m[true] = 1.0
            elif m.sum() > m[HOLMES]:
                m[HOLMES] = 0.0
                m /= m.sum()
        return out

    def evaluator(self, view):
        belief = self._belief(view)
        inferred = belief.marginals
        belief.marginals = lambda v: self.corrected(inferred(v), v["seat"])
        try:
            return super().evaluator(view)
        finally:
            del belief.marginals  # back to the class's method


def play(args: tuple[str, Task]) -> dict[str, Any]:
    mode, task = args
    spec = TournamentSpec(bots=("oracle", "heuristic", "heuristic", "heuristic"))
    bot = OracleBeliefBot(mode, learned=1.0)
    entries = [bot, HeuristicBot(), HeuristicBot(), HeuristicBot()]
    seats = seats_for(task.rotation, 4)

    def learn_truth(g) -> None:
        bot.truth = list(g.persona)

    _, rec = play_game(
        [entries[e] for e in seats],
        spec.game_config(),
        task.deal_seed,
        bot_rngs(task.deal_seed, 4, salt=task.rotation + 1),
        on_turn=learn_truth,
    )
    seat = seats.index(0)
    personas = [int(k) for k in rec.personalities]
    holmes = "own" if personas[seat] == HOLMES else "opponent" if HOLMES in personas else "none"
    return {
        "mode": mode,
        "deal_seed": task.deal_seed,
        "rotation": task.rotation,
        "won": seat in rec.winners,
        "holmes": holmes,
        "reason": rec.reason,
    }


def summarize(rows: Sequence[dict[str, Any]]) -> None:
    games = collections.defaultdict(dict)
    for r in rows:
        games[(r["deal_seed"], r["rotation"])][r["mode"]] = r
    modes = sorted({r["mode"] for r in rows}, key=MODES.index)
    for mode in modes:
        mine = [g[mode] for g in games.values()]
        wins = sum(r["won"] for r in mine)
        by = collections.Counter(r["holmes"] for r in mine)
        won_by = collections.Counter(r["holmes"] for r in mine if r["won"])
        line = f"{mode:<7} {wins}/{len(mine)} = {wins / len(mine):.1%}"
        if mode != "base" and "base" in modes:
            vs = paired(
                {k: g[mode]["won"] for k, g in games.items()},
                {k: g["base"]["won"] for k, g in games.items()},
            )
            line += f"  only this: {vs.only_a}, only base: {vs.only_b} (p = {vs.p_value:.2g})"
        holmes = ", ".join(f"{k} {won_by[k]}/{by[k]}" for k in ("own", "opponent", "none"))
        print(f"{line}  | Holmes held by: {holmes}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default="runs/oracle_beliefs.jsonl")
    args = ap.parse_args()
    modes = args.modes.split(",")
    unknown = set(modes) - set(MODES)
    if unknown:
        raise SystemExit(f"unknown modes {sorted(unknown)}; choose from {MODES}")
    tasks = schedule(
        TournamentSpec(bots=("oracle",) + ("heuristic",) * 3, games=args.games, seed=args.seed)
    )
    jobs = [(mode, t) for t in tasks for mode in modes]  # a game's modes side by side
    rows = []
    with mp.get_context("spawn").Pool(args.workers) as pool, open(args.out, "w") as f:
        for row in pool.imap_unordered(play, jobs):
            rows.append(row)
            f.write(json.dumps(row) + "\n")
    summarize(rows)


if __name__ == "__main__":
    main()
