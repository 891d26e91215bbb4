"""``nanty``: evaluate bots in tournaments and measure hidden-role inference.

Examples::

    nanty eval --bots heuristic,random,random,random --players 4 --games 1000 --seed 0 \\
        --out results.json
    nanty summary results_games.jsonl     # a (partial) run, while it is still going
    nanty compare a_games.jsonl b_games.jsonl   # two runs' first bots, game by game
    nanty roles --players 4 --games 100
    nanty roles-train --games 300
    nanty bots
    nanty play --bots heuristic,random,random --seed 1   # you against three bots
    nanty replay records/play_....json [--check]
    nanty serve --port 8000                              # the browser UI
    nanty coverage --games 300 --expansion cthulhu --plot coverage.png
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

# the shipped role model, which `nanty roles-train` rewrites by default
ROLE_MODEL_FILE = Path(__file__).resolve().parents[1] / "agents" / "data" / "role_model.json"


def _players(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x]


def cmd_eval(args: argparse.Namespace) -> int:
    from agents.checkpoint import CheckpointError
    from arena.tournament import (
        TournamentError,
        TournamentInterrupted,
        TournamentSpec,
        format_table,
        output_paths,
        run_tournament,
        write_outputs,
    )
    from arena.workers import WorkerError

    bots = tuple(
        _ppo(b.strip(), args.checkpoint, args.trust_checkpoint)
        for b in args.bots.split(",")
        if b.strip()
    )
    out = journal = None
    if args.out:
        out, journal = output_paths(args.out)  # --out DIR writes inside DIR
    try:
        spec = TournamentSpec(
            bots=bots,
            num_players=args.players,
            games=args.games,
            seed=args.seed,
            personalities=args.personalities,
            thresholds=args.thresholds,
            interrupt_windows=args.windows,
        )
        result = run_tournament(
            spec,
            workers=args.workers,
            progress=not args.no_progress,
            chunk=args.chunk,
            journal=journal,
            resume=args.resume,
            record_dir=args.records,
        )
    except (CheckpointError, TournamentError, WorkerError) as e:
        raise SystemExit(f"nanty eval: {e}") from None
    except TournamentInterrupted as e:
        print(f"nanty eval: {e}", file=sys.stderr)
        return 128 + e.signum
    print(format_table(result))
    if out is not None:
        for path in write_outputs(result, out, plots=not args.no_plots):
            print(f"wrote {path}")
    return 0


def _ppo(spec: str, checkpoint: str | None, trust: bool = False) -> str:
    """``ppo`` in a bot list names the ``--checkpoint`` given to ``nanty eval`` (an SB3
    ``.zip`` only with ``--trust-checkpoint``, which then applies to every policy bot)."""
    if spec.startswith("policy:") and trust and ":trust=" not in spec:
        return spec + ":trust=1"
    if spec != "ppo":
        return spec
    if not checkpoint:
        raise SystemExit("nanty eval: the bot 'ppo' needs --checkpoint PATH")
    return f"policy:path={checkpoint}" + (":trust=1" if trust else "")


def cmd_summary(args: argparse.Namespace) -> int:
    from arena.tournament import (
        JournalError,
        format_table,
        load_journal,
        output_paths,
        write_outputs,
    )

    try:
        result = load_journal(args.journal)
    except JournalError as e:
        raise SystemExit(f"nanty summary: {e}") from None
    print(f"{len(result.records)} of {result.spec.games} games finished")
    print(format_table(result))
    if args.out:
        for path in write_outputs(result, output_paths(args.out)[0], plots=not args.no_plots):
            print(f"wrote {path}")
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    from arena.paired import compare_runs, format_paired
    from arena.tournament import load_journal

    try:
        run_a, run_b = load_journal(args.journal_a), load_journal(args.journal_b)
        result = compare_runs(run_a, run_b, args.entry_a, args.entry_b)
    except ValueError as e:
        raise SystemExit(f"nanty compare: {e}") from e
    names = (run_a.spec.bots[args.entry_a], run_b.spec.bots[args.entry_b])
    print(format_paired(result, *names))
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
    print("spec syntax: name[:key=value...], e.g. ismcts:iters=300 or policy:path=runs/quick")
    return 0


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="nanty", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)

    ev = sub.add_parser("eval", help="play a tournament and report win rates and ratings")
    ev.add_argument("--bots", required=True, help="comma-separated bot specs, one per seat")
    ev.add_argument(
        "--checkpoint",
        help="trained policy that the bot name 'ppo' stands for (a run folder or NAME.json)",
    )
    ev.add_argument(
        "--trust-checkpoint",
        action="store_true",
        help="allow SB3 .zip checkpoints (unpickled: they can run any code; only your own)",
    )
    ev.add_argument("--players", type=int, default=4)
    ev.add_argument("--games", type=int, default=100)
    ev.add_argument("--seed", type=int, default=0)
    ev.add_argument(
        "--out",
        help="output folder (results.json, CSV files, plots, games journal inside it) or a "
        "FILE.json (the other files beside it)",
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
    ev.add_argument(
        "--records",
        metavar="DIR",
        help="write one game record per game into DIR (see nanty replay); the journal names them",
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
    co.add_argument("journal_a", help="a <out>_games.jsonl of nanty eval")
    co.add_argument("journal_b", help="another, with the same seed and game settings")
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
    rt.add_argument("--out", default=str(ROLE_MODEL_FILE), help="default: the shipped model")
    rt.add_argument("--workers", type=int, default=2)
    rt.add_argument("--no-progress", action="store_true")
    rt.set_defaults(func=cmd_roles_train)

    bl = sub.add_parser("bots", help="list the available bots")
    bl.set_defaults(func=cmd_bots)

    from nanty_app.train_command import add_train_parser

    add_train_parser(sub)

    from nanty_app.coverage_command import add_coverage_parser
    from nanty_app.replay import add_replay_parser
    from nanty_app.server import add_serve_parser
    from nanty_app.terminal import add_play_parser

    add_play_parser(sub)
    add_replay_parser(sub)
    add_serve_parser(sub)
    add_coverage_parser(sub)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
