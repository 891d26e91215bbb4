"""Soak test of the Rise of Cthulhu expansion: thousands of seeded games at 2, 3 and 4 players
with every invariant checked after every step, and the mix of endings they reach.

Two policies play: ``random`` (uniform over the legal actions) and ``eager`` (a scripted player
that never passes when anything else is legal, and otherwise picks uniformly). Every game is
reproducible from (policy, players, seed); the first broken invariant stops the run and names
it. Unless ``--no-restore``, every decision is also restored as the base game's soak
(``benchmarks/soak.py``, whose ``--ruleset cthulhu`` runs this ruleset for a given time)
restores it: a validated JSON round trip (``from_dict(to_dict())``) that must rebuild the same
state and decision, illegal-action probes that must raise ``IllegalActionError`` and change
nothing, and at 2 % of decisions a fork (clone, pickled clone and JSON copy play on alike). The report gives, per policy and player count, the games, how they ended (objective =
sudden death, draw pile, doomsday), who won the draw-pile and doomsday endings (Sloth or
points), the objectives that won, mean decisions and final Insanity level.

    .venv/bin/python benchmarks/cthulhu_soak.py                    # 800 random + 200 eager games per count
    .venv/bin/python benchmarks/cthulhu_soak.py --games 100 --policies random
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from nanty_env.engine import Game, GameConfig, Termination
from nanty_env.engine import actions as A
from nanty_env.engine.cthulhu.invariants import violations

sys.path.insert(0, str(Path(__file__).parent))  # the base soak's checks, beside this file
import soak

STEP_CAP = 20_000
Policy = Callable[[Game, list[int], random.Random], int]


def random_policy(g: Game, legal: list[int], rng: random.Random) -> int:
    return rng.choice(legal)


def eager_policy(g: Game, legal: list[int], rng: random.Random) -> int:
    """Never pass when anything else is legal."""
    acting = [a for a in legal if a != A.PASS]
    return rng.choice(acting or legal)


POLICIES: dict[str, Policy] = {"random": random_policy, "eager": eager_policy}


RESTORE = soak.Soak()  # round trips, probes and forks of every game played here


def soak_game(
    n: int, seed: int, policy: Policy, check: bool = True, restore: bool = False
) -> tuple[Game, int]:
    """Play one game, checking every invariant after every step (and with ``restore`` the
    round trip, probes and forks of ``benchmarks/soak.py`` at every decision); returns it and
    its length. The policy's choices are the same either way (the checks draw from their own
    generator)."""
    g = Game.new(GameConfig(num_players=n, expansion="cthulhu", log=False), seed)
    rng = random.Random(seed * 7919 + n)
    checks = random.Random(seed * 104_729 + n)
    for step in range(STEP_CAP):
        if restore:
            try:
                restore_checks(g, checks)
            except soak.Violation as e:
                raise AssertionError(f"players={n} seed={seed} step={step}: {e}") from e
        if g.is_terminal:
            return g, step
        level = g.insanity
        g.apply(policy(g, g.legal_actions(), rng))
        if check:
            bad = violations(g, level)
            if bad:
                raise AssertionError(f"players={n} seed={seed} step={step}: {bad}")
    raise AssertionError(f"players={n} seed={seed}: no end after {STEP_CAP} decisions")


def restore_checks(g: Game, rng: random.Random) -> None:
    """The base soak's checks of one decision: a validated JSON round trip, illegal-action
    probes and, now and then, a fork."""
    soak.check_game(g)
    soak.same(g, soak.json_copy(g), "JSON round trip")
    RESTORE.round_trips += 1
    if g.is_terminal:
        return
    try:
        RESTORE.probes += soak.probe(g, rng, 3)
    except soak.ProbeViolation as e:  # the state is unchanged: recorded, and play goes on
        RESTORE.probes += e.tried
        RESTORE.violations.append({"error": str(e)})
    if rng.random() < 0.02:
        soak.fork(g, rng, 40, RESTORE)


ENDINGS = {
    Termination.SUDDEN_DEATH: "objective",
    Termination.DECK: "draw pile",
    Termination.DOOMSDAY: "doomsday",
}


def ending(g: Game) -> str:
    return ENDINGS[g.outcome.termination]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=800, help="random games per player count")
    parser.add_argument("--eager-games", type=int, default=200, help="eager games per count")
    parser.add_argument("--policies", nargs="+", default=list(POLICIES), choices=list(POLICIES))
    parser.add_argument("--seed", type=int, default=0, help="first game seed")
    parser.add_argument(
        "--no-restore", action="store_true", help="skip the round trips, probes and forks"
    )
    args = parser.parse_args(argv)

    start, cpu = time.perf_counter(), time.process_time()
    total_games = total_steps = 0
    print(
        "| policy | players | games | objective | draw pile | doomsday | Sloth won | "
        "mean decisions | mean final Insanity |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    objectives: Counter = Counter()
    for name in args.policies:
        count = args.games if name == "random" else args.eager_games
        for n in (2, 3, 4):
            ends: Counter = Counter()
            sloth = steps = insanity = 0
            for seed in range(args.seed, args.seed + count):
                g, k = soak_game(n, seed, POLICIES[name], restore=not args.no_restore)
                ends[ending(g)] += 1
                o = g.outcome
                sloth += (o.termination is Termination.DECK and o.detail == "objective") or (
                    o.termination is Termination.DOOMSDAY
                    and o.points is not None
                    and any(
                        g.t.data.objectives[g.objective[s]].rule == "sloth"
                        for s in g.outcome.winners
                    )
                )
                if o.termination is Termination.SUDDEN_DEATH:
                    objectives[name, o.detail] += 1
                steps += k
                insanity += g.insanity
            total_games += count
            total_steps += steps
            pct = {k: f"{100 * v / count:.0f} %" for k, v in ends.items()}
            print(
                f"| {name} | {n} | {count} | {pct.get('objective', '0 %')} | "
                f"{pct.get('draw pile', '0 %')} | {pct.get('doomsday', '0 %')} | "
                f"{100 * sloth / count:.0f} % | {steps / count:.0f} | {insanity / count:.1f} |"
            )
            sys.stdout.flush()
    print()
    for name in args.policies:
        won = {k[1]: v for k, v in objectives.items() if k[0] == name}
        print(
            f"objectives that won ({name}): "
            + ", ".join(f"{k} {v}" for k, v in sorted(won.items()))
        )
    print(
        f"\n{total_games} games, {total_steps} decisions, every invariant checked after every "
        f"step: no violation ({time.perf_counter() - start:.0f} s wall, "
        f"{time.process_time() - cpu:.0f} s CPU)"
    )
    if not args.no_restore:
        print(
            f"{RESTORE.round_trips} JSON round trips, {RESTORE.probes} illegal-action probes, "
            f"{RESTORE.forks} forks ({RESTORE.fork_decisions} fork decisions): all agreed"
        )
        if RESTORE.violations:
            kinds = Counter(v["error"][:100] for v in RESTORE.violations)
            print(f"{len(RESTORE.violations)} probes raised another error than IllegalActionError:")
            for text, count in kinds.most_common(10):
                print(f"  {count} x {text}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
