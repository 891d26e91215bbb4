"""The bot targets, measured (long: run in the background).

    python benchmarks/tournament.py                      # everything, into runs/bench/
    python benchmarks/tournament.py --only heuristic     # HeuristicBot vs 3 RandomBots, 4p
    python benchmarks/tournament.py --only ismcts        # ISMCTSBot vs HeuristicBot, 2p
    python benchmarks/tournament.py --only roles         # role inference accuracy by turn

Every finished game is appended to ``<out>/<name>_games.jsonl``; running the same command again
after an interruption plays only the missing games (delete the file to start afresh).

Targets (from the issue):
* HeuristicBot wins >= 70 % of >= 1,000 four-player games against three RandomBots;
* ISMCTSBot, with a budget that keeps a 2-player game under a minute on one core, wins
  >= 60 % of >= 200 two-player games against HeuristicBot;
* role inference top-1 accuracy clearly above chance by turn 10.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

from arena.role_eval import evaluate_roles, format_role_report
from arena.tournament import TournamentSpec, format_table, run_tournament, write_outputs

# 25 CPU-s of thinking per game at most; the round-robin root searches only the choice of a
# card and of each symbol's target, every other decision is the scripted bot's look-ahead; the
# root prior and the leaves use the learned 2-player win probability (agents/value_model.py).
ISMCTS_SPEC = (
    "ismcts:budget=25:root=rr:prior_depth=1:margin=0.05:only=main+card:learned=1:prior_learned=1"
)


def _tournament(
    name: str, spec: TournamentSpec, out: Path, workers: int, target: float, chunk: int | None
) -> dict:
    # Every finished game goes to <name>_games.jsonl at once; re-running resumes from it.
    result = run_tournament(
        spec, workers=workers, chunk=chunk, journal=out / f"{name}_games.jsonl", resume=True
    )
    print(format_table(result))
    write_outputs(result, out / f"{name}.json")
    row = next(b for b in result.summary["bots"] if b["name"] == spec.bots[0])
    lo, hi = row["ci95"]
    verdict = "PASS" if row["win_rate"] >= target else "FAIL"
    print(
        f"[{verdict}] {spec.bots[0]} win rate {row['win_rate']:.1%} [{lo:.1%}, {hi:.1%}] "
        f"over {row['games']} games (target >= {target:.0%}); "
        f"{row['seconds_per_game']:.1f}s thinking per game"
    )
    cpu = sorted(r["cpu_seconds"] for r in result.records)
    median = statistics.median(cpu)
    over = sum(1 for x in cpu if x > 60.0)
    print(
        f"CPU seconds per game (one core, all bots): mean {sum(cpu) / len(cpu):.1f}, "
        f"median {median:.1f}, max {max(cpu):.1f}; {over} of {len(cpu)} games over 60 s"
    )
    return {
        "name": name,
        "win_rate": row["win_rate"],
        "ci95": row["ci95"],
        "games": row["games"],
        "target": target,
        "pass": verdict == "PASS",
        "seconds_per_game": row["seconds_per_game"],
        "wall_seconds_per_game": sum(r["wall_seconds"] for r in result.records)
        / len(result.records),
        "cpu_seconds_per_game": sum(r["cpu_seconds"] for r in result.records) / len(result.records),
        "cpu_seconds_median": median,
        "cpu_seconds_max": max(cpu),
        "games_over_60_cpu_seconds": over,
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", choices=["heuristic", "ismcts", "roles"], action="append")
    ap.add_argument("--out", default="runs/bench")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--heuristic-games", type=int, default=1000)
    ap.add_argument("--ismcts-games", type=int, default=200)
    ap.add_argument("--ismcts", default=ISMCTS_SPEC, help="ISMCTS bot spec")
    ap.add_argument("--role-games", type=int, default=100, help="per player count")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    todo = args.only or ["heuristic", "ismcts", "roles"]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    summary = {}
    if "heuristic" in todo:
        spec = TournamentSpec(
            ("heuristic", "random", "random", "random"), 4, args.heuristic_games, args.seed
        )
        summary["heuristic"] = _tournament(
            "heuristic_vs_random_4p", spec, out, args.workers, 0.70, None
        )
    if "ismcts" in todo:
        spec = TournamentSpec((args.ismcts, "heuristic"), 2, args.ismcts_games, args.seed)
        summary["ismcts"] = _tournament("ismcts_vs_heuristic_2p", spec, out, args.workers, 0.60, 1)
    if "roles" in todo:
        report = evaluate_roles(
            (2, 3, 4), args.role_games, seed=args.seed + 1, workers=args.workers
        )
        (out / "roles.json").write_text(json.dumps(report, indent=1) + "\n")
        print(format_role_report(report))
        summary["roles"] = {
            n: {
                "turn10_top1": tab["top1"][tab["turn"].index(10)],
                "turn10_chance": tab["chance"][tab["turn"].index(10)],
                "turn10_top1_goal": tab["top1_goal"][tab["turn"].index(10)],
                "turn10_chance_goal": tab["chance_goal"][tab["turn"].index(10)],
            }
            for n, tab in report.items()
            if n.isdigit() and 10 in tab["turn"]
        }
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
