"""``nanty``: evaluate bots in tournaments and measure hidden-role inference.

Examples::

    nanty eval --bots heuristic,random,random,random --players 4 --games 1000 --seed 0 \\
        --out results.json
    nanty summary results_games.jsonl     # a (partial) run, while it is still going
    nanty compare a_games.jsonl b_games.jsonl   # two runs' first bots, game by game
    nanty compare a0.jsonl,a1.jsonl b0.jsonl,b1.jsonl   # pairs of runs (e.g. two deal seeds) pooled
    nanty roles --players 4 --games 100
    nanty roles-train --games 300
    nanty bots
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path


def _players(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x]


def cmd_eval(args: argparse.Namespace) -> int:
    from arena.tournament import TournamentSpec, format_table, run_tournament, write_outputs

    bots = tuple(_ppo(b.strip(), args.checkpoint) for b in args.bots.split(",") if b.strip())
    spec = TournamentSpec(
        bots=bots,
        num_players=args.players,
        games=args.games,
        seed=args.seed,
        personalities=args.personalities,
        thresholds=args.thresholds,
        interrupt_windows=args.windows,
    )
    journal = None
    if args.out:
        out = Path(args.out)
        journal = out.with_name(out.stem + "_games.jsonl")
    result = run_tournament(
        spec,
        workers=args.workers,
        progress=not args.no_progress,
        chunk=args.chunk,
        journal=journal,
        resume=args.resume,
    )
    print(format_table(result))
    if args.out:
        for path in write_outputs(result, args.out, plots=not args.no_plots):
            print(f"wrote {path}")
    return 0


def _ppo(spec: str, checkpoint: str | None) -> str:
    """``ppo`` in a bot list names the ``--checkpoint`` given to ``nanty eval``."""
    if spec != "ppo":
        return spec
    if not checkpoint:
        raise SystemExit("nanty eval: the bot 'ppo' needs --checkpoint PATH")
    return f"policy:path={checkpoint}"


def cmd_summary(args: argparse.Namespace) -> int:
    from arena.tournament import format_table, load_journal, write_outputs

    result = load_journal(args.journal)
    print(f"{len(result.records)} of {result.spec.games} games finished")
    print(format_table(result))
    if args.out:
        for path in write_outputs(result, args.out, plots=not args.no_plots):
            print(f"wrote {path}")
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    from arena.paired import compare_runs, format_paired, pooled
    from arena.tournament import load_journal

    paths_a, paths_b = args.journal_a.split(","), args.journal_b.split(",")
    if len(paths_a) != len(paths_b):
        raise SystemExit("nanty compare: give as many journals on each side (pairs of runs)")
    results = []
    for path_a, path_b in zip(paths_a, paths_b, strict=True):
        run_a, run_b = load_journal(path_a), load_journal(path_b)
        try:
            results.append(compare_runs(run_a, run_b, args.entry_a, args.entry_b))
        except ValueError as e:
            raise SystemExit(f"nanty compare: {e}") from e
        names = (run_a.spec.bots[args.entry_a], run_b.spec.bots[args.entry_b])
        if len(paths_a) > 1:
            print(f"{path_a} vs {path_b}:\n{format_paired(results[-1], *names)}\n")
    if len(results) > 1:
        print(f"all {len(results)} pairs of runs together:")
    print(format_paired(pooled(results), *names))
    return 0


def cmd_roles(args: argparse.Namespace) -> int:
    from arena.role_eval import evaluate_roles, format_role_report

    report = evaluate_roles(
        players=_players(args.players),
        games=args.games,
        seed=args.seed,
        bot=args.bot,
        model_path=args.model,
        workers=args.workers,
        progress=not args.no_progress,
    )
    print(format_role_report(report))
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=1) + "\n")
        print(f"wrote {args.out}")
    return 0


def cmd_roles_train(args: argparse.Namespace) -> int:
    from arena.role_eval import train_role_model

    model = train_role_model(
        players=_players(args.players),
        games=args.games,
        seed=args.seed,
        bot=args.bot,
        workers=args.workers,
        progress=not args.no_progress,
    )
    model.save(args.out)
    print(f"wrote {args.out}: {json.dumps(model.meta)}")
    return 0


def cmd_bots(args: argparse.Namespace) -> int:
    from agents.registry import BOTS

    print("bots: " + ", ".join(sorted(BOTS)))
    print("spec syntax: name[:key=value...], e.g. ismcts:iters=300 or policy:path=model.zip")
    return 0


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="nanty", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)

    ev = sub.add_parser("eval", help="play a tournament and report win rates and ratings")
    ev.add_argument("--bots", required=True, help="comma-separated bot specs, one per seat")
    ev.add_argument("--checkpoint", help="trained model that the bot name 'ppo' stands for")
    ev.add_argument("--players", type=int, default=4)
    ev.add_argument("--games", type=int, default=100)
    ev.add_argument("--seed", type=int, default=0)
    ev.add_argument(
        "--out",
        help="JSON output (CSV files, plots and a games journal are written beside it)",
    )
    ev.add_argument("--workers", type=int, default=2)
    ev.add_argument("--personalities", default="standard")
    ev.add_argument("--thresholds", default="rulebook")
    ev.add_argument("--windows", default="public", help="interrupt window policy")
    ev.add_argument("--chunk", type=int, help="games per worker task (1 for slow bots)")
    ev.add_argument(
        "--resume",
        action="store_true",
        help="keep the finished games of an interrupted run with the same --out and settings",
    )
    ev.add_argument("--no-plots", action="store_true")
    ev.add_argument("--no-progress", action="store_true")
    ev.set_defaults(func=cmd_eval)

    su = sub.add_parser("summary", help="report on a (partial) games journal of nanty eval")
    su.add_argument("journal", help="the <out>_games.jsonl file of a run")
    su.add_argument("--out", help="also write the JSON, CSV files and plots")
    su.add_argument("--no-plots", action="store_true")
    su.set_defaults(func=cmd_summary)

    co = sub.add_parser(
        "compare", help="compare one bot of each of two runs on the games both played"
    )
    co.add_argument(
        "journal_a",
        help="a <out>_games.jsonl of nanty eval (or several, comma-separated: e.g. one per "
        "deal seed, pooled)",
    )
    co.add_argument("journal_b", help="another (as many), with the same seeds and settings")
    co.add_argument("--entry-a", type=int, default=0, help="which --bots entry of the first run")
    co.add_argument("--entry-b", type=int, default=0, help="which --bots entry of the second")
    co.set_defaults(func=cmd_compare)

    ro = sub.add_parser("roles", help="top-1 accuracy of role inference by turn number")
    ro.add_argument("--players", default="2,3,4")
    ro.add_argument("--games", type=int, default=100, help="games per player count")
    ro.add_argument("--seed", type=int, default=1)
    ro.add_argument("--bot", default="heuristic", help="bot spec playing every seat")
    ro.add_argument("--model", help="role model JSON (default: the shipped one)")
    ro.add_argument("--out", help="JSON report")
    ro.add_argument("--workers", type=int, default=2)
    ro.add_argument("--no-progress", action="store_true")
    ro.set_defaults(func=cmd_roles)

    rt = sub.add_parser("roles-train", help="train the role-inference model on self-play logs")
    rt.add_argument("--players", default="2,3,4")
    rt.add_argument("--games", type=int, default=300, help="games per player count")
    rt.add_argument("--seed", type=int, default=7)
    rt.add_argument("--bot", default="heuristic:roles=none")
    rt.add_argument("--out", default=str(Path(__file__).parent / "data" / "role_model.json"))
    rt.add_argument("--workers", type=int, default=2)
    rt.add_argument("--no-progress", action="store_true")
    rt.set_defaults(func=cmd_roles_train)

    bl = sub.add_parser("bots", help="list the available bots")
    bl.set_defaults(func=cmd_bots)

    from nanty_app.train_command import add_train_parser

    add_train_parser(sub)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
