"""The same bot games on this checkout and on another one, timed in interleaved rounds: what a
change to the bots or the engine buys, like for like.

    git worktree add ../base f9ce463                                # a baseline ...
    (cd ../base && PYTHONPATH=. python -m nanty_env._build)         # ... built in place
    python benchmarks/versus.py --baseline ../base --bots ismcts --players 4 --rounds 5

Every run is a fresh interpreter started in the checkout's directory with the checkout first on
the path (its own ``nanty_env`` and ``agents``, compiled if it was built there, else pure). It
plays ``--games`` seeded games (of ``--expansion``'s ruleset if given) with the bot in seat 0
against ``--opponent`` (HeuristicBot by default) and reports the CPU seconds and wall seconds of the play (imports excluded) and a
fingerprint of the games; ``--bots engine`` times the engine alone (uniform random play from
the seed, as ``benchmarks/engine.py`` plays). Each round runs every case on both checkouts,
which goes first alternating. Prints milliseconds per game on each side, the baseline's time over
this checkout's within each round (above 1: this checkout is faster), and whether both played
the same games, which a change meant as pure speed must.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from harness import Measured, add_arguments, footer, header, interleave, table, write_json

ROOT = Path(__file__).resolve().parents[1]

# What a run does, in the checkout under test: its own imports, then the timed games.
CHILD = r"""
import hashlib, json, random, sys, time
args = json.loads(sys.argv[1])
from nanty_env import _compiled
from nanty_env.engine import Game, GameConfig
n, h = args["players"], hashlib.sha256()
cpu = wall = 0.0
for i in range(args["games"]):
    seed = args["seed"] + i
    cfg = GameConfig(num_players=n, log=False, expansion=args["expansion"])
    actions = []
    if args["bot"] == "engine":  # the engine alone: uniform random play, as benchmarks/engine.py
        choose = random.Random(seed).choice
        t0, c0 = time.perf_counter(), time.process_time()
        g = Game.new(cfg, seed)
        while not g.is_terminal:
            a = choose(g.legal_actions())
            actions.append(a)
            g.apply(a)
    else:
        from agents.base import bot_rngs, play_game
        from agents.registry import make_bot
        bots = [make_bot(args["bot"])] + [make_bot(args["opponent"]) for _ in range(n - 1)]
        t0, c0 = time.perf_counter(), time.process_time()
        g, _ = play_game(bots, cfg, seed, bot_rngs(seed, n),
                         on_action=lambda game, a: actions.append(a))
    cpu += time.process_time() - c0
    wall += time.perf_counter() - t0
    h.update(repr((actions, g.outcome.winners)).encode())
print(json.dumps({"cpu": cpu, "wall": wall, "games": h.hexdigest()[:16],
                  "compiled": bool(_compiled.COMPILED)}))
"""


def run_games(
    checkout: Path, spec: dict[str, object], seen: set[str], builds: set[str]
) -> Callable[[], Measured]:
    """A case: the games of ``spec`` in a fresh interpreter on ``checkout``; milliseconds per
    game (wall, CPU). The fingerprint of the games goes to ``seen``, the build to ``builds``."""
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(checkout), os.environ.get("PYTHONPATH", "")])
    )

    def run() -> Measured:
        out = subprocess.run(
            [sys.executable, "-c", CHILD, json.dumps(spec)],
            cwd=checkout,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        r = json.loads(out.stdout.strip().splitlines()[-1])
        seen.add(r["games"])
        builds.add("compiled" if r["compiled"] else "pure")
        ms = 1000 / int(spec["games"])  # type: ignore[call-overload]
        return Measured(r["wall"] * ms, r["cpu"] * ms)

    return run


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--baseline", type=Path, required=True, help="the other checkout (built)")
    ap.add_argument(
        "--bots",
        default="heuristic,ismcts",
        help='bots in seat 0, comma-separated; "engine": the engine alone, uniform random play',
    )
    ap.add_argument("--players", default="4")
    ap.add_argument("--opponent", default="heuristic", help="the bot in the other seats")
    ap.add_argument("--games", type=int, default=1, help="games per case and round")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--expansion", default=None, help='the ruleset played (e.g. "cthulhu")')
    add_arguments(ap)
    args = ap.parse_args(argv)
    baseline = args.baseline.resolve()
    if not (baseline / "agents").is_dir() or not (baseline / "nanty_env").is_dir():
        ap.error(f"{baseline} is not a checkout of this project")
    info = header("versus: the same games on this checkout and a baseline", args.rounds)
    print(f"baseline: {baseline}")
    cases: dict[str, Callable[[], Measured]] = {}
    seen: dict[str, tuple[set[str], set[str]]] = {}
    builds: tuple[set[str], set[str]] = (set(), set())
    for bot in args.bots.split(","):
        for n in (int(x) for x in args.players.split(",")):
            name = f"random play {n}p" if bot == "engine" else f"{bot} {n}p vs {args.opponent}"
            name += f" ({args.expansion})" if args.expansion else ""
            spec = {"bot": bot, "players": n, "opponent": args.opponent}
            spec |= {"expansion": args.expansion}
            spec |= {"games": args.games, "seed": args.seed}
            seen[name] = (set(), set())
            cases[name] = run_games(ROOT, spec, seen[name][0], builds[0])
            cases[name + " (baseline)"] = run_games(baseline, spec, seen[name][1], builds[1])
    result = interleave(cases, args.rounds, warmup=False)
    rows = []
    for name, (ours, theirs) in seen.items():
        base = name + " (baseline)"
        same = (
            "yes" if ours == theirs and len(ours) == 1 else f"no: {sorted(ours)} / {sorted(theirs)}"
        )
        rows.append(
            [
                name,
                result.summary(base, cpu=True).format(1),
                result.summary(name, cpu=True).format(1),
                result.ratio(base, name, cpu=True).format(2),
                result.ratio(base, name).format(2),
                same,
            ]
        )
    headers = ["case", "baseline ms/game (CPU)", "this ms/game (CPU)", "baseline / this (CPU)"]
    print(table([*headers, "(wall)", "same games"], rows))
    print(
        f"builds: this checkout {'/'.join(sorted(builds[0]))}, the baseline {'/'.join(sorted(builds[1]))}"
    )
    footer(result)
    write_json(args.json, info, versus=result)


if __name__ == "__main__":
    main()
