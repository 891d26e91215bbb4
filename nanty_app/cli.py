"""``nanty``: evaluate bots in tournaments and measure hidden-role inference.

Examples::

    nanty eval --bots heuristic,random,random,random --games 1000 --seed 0 --out results.json
    nanty eval --bots ppo,heuristic,heuristic,heuristic   # the shipped PPO policy
    nanty eval --bots ppo,heuristic --checkpoint runs/quick             # your own, 2 players
    nanty eval --bots mypkg.bots:Greedy:depth=2,random                  # your own bot
    nanty summary results_games.jsonl     # a (partial) run, while it is still going
    nanty compare a_games.jsonl b_games.jsonl   # two runs' first bots, game by game
    nanty compare a0.jsonl,a1.jsonl b0.jsonl,b1.jsonl   # pairs of runs (e.g. two deal seeds) pooled
    nanty roles --players 4 --games 100
    nanty roles-train --games 300
    nanty eval --expansion cthulhu --bots heuristic,random,random,random --games 400
    nanty roles --expansion cthulhu --games 100          # guessing the secret objectives
    nanty bots
    nanty play --bots heuristic,random,random --seed 1   # you against three bots
    nanty replay records/play_....json [--check]
    nanty serve --port 8000                              # the browser UI
    nanty coverage --games 300 --expansion cthulhu --plot coverage.png

A mistake on the command line or in an input file ends in one line naming it and the fix
(exit code 2); exit code 1 is left for a record that does not replay (``nanty replay --check``)
and a tournament worker that died. Output piped into a reader that stops early (``| head``)
ends quietly.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from nanty_app.arguments import (
    EXPANSION_HELP,
    RAY_HELP,
    DefaultsFormatter,
    OneLineParser,
    QuietPipe,
    UsageError,
    bot_list,
    check_content,
    fail,
    make_folder,
    non_negative_int,
    player_count,
    player_counts,
    positive_int,
    ruleset_name,
)
from nanty_env.engine.config import PERSONALITY_SETS, THRESHOLD_SETS, WINDOW_POLICIES

# the shipped role models, which `nanty roles-train` rewrites by default
MODEL_DIR = Path(__file__).resolve().parents[1] / "agents" / "data"
ROLE_MODEL_FILE = MODEL_DIR / "role_model.json"
CTHULHU_ROLE_MODEL_FILE = MODEL_DIR / "cthulhu_role_model.json"


def _add_ruleset_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--expansion", type=ruleset_name, metavar="RULESET", help=EXPANSION_HELP)
    p.add_argument(
        "--content", help="the expansion's content pack (a TOML file or a folder; with --expansion)"
    )


SPEC_HELP = (
    "a bot spec is NAME[:key=value...] with NAME from `nanty bots`, or "
    "package.module:Class[:key=value...] for your own bot class"
)


def seat_count(players: int | None, bots: Sequence[str]) -> int:
    """``--players``, or the number of ``--bots`` when it is not given; they must agree."""
    if players is None:
        if len(bots) not in (2, 3, 4):
            raise UsageError(
                f"--bots names {len(bots)} bots but the game takes 2, 3 or 4 players; "
                "give one spec per seat"
            )
        return len(bots)
    if players != len(bots):
        raise UsageError(
            f"--players {players} but --bots names {len(bots)} bots; give one spec per seat "
            "(or leave out --players)"
        )
    return players


def cmd_eval(args: argparse.Namespace) -> int:
    from agents.checkpoint import CheckpointError
    from agents.shipped import check_shipped
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

    bots = bot_list(args.bots, args.checkpoint, args.trust_checkpoint)
    check_content(args)
    if args.resume and not args.out:
        raise UsageError("--resume needs the --out of the interrupted run (its journal is there)")
    out = journal = None
    if args.out:
        out, journal = output_paths(args.out)  # --out DIR writes inside DIR
        make_folder(out.parent, "--out")
    if args.records:
        make_folder(args.records, "--records")
    try:
        check_shipped(bots, seat_count(args.players, bots))
        spec = TournamentSpec(
            bots=bots,
            num_players=seat_count(args.players, bots),
            games=args.games,
            seed=args.seed,
            personalities=args.personalities,
            thresholds=args.thresholds,
            interrupt_windows=args.windows,
            expansion=args.expansion,
            content=args.content,
        )
        result = run_tournament(
            spec,
            workers=args.workers,
            progress=not args.no_progress,
            chunk=args.chunk,
            journal=journal,
            resume=args.resume,
            record_dir=args.records,
            ray_address=args.ray_address,
        )
    except (CheckpointError, TournamentError) as e:
        raise UsageError(str(e)) from e
    except WorkerError as e:
        return _worker_failed(e)
    except TournamentInterrupted as e:
        print(f"nanty eval: {e}", file=sys.stderr)
        return 128 + e.signum
    print(format_table(result))
    if out is not None:
        for path in write_outputs(result, out, plots=not args.no_plots):
            print(f"wrote {path}")
    return 0


def _worker_failed(e: Exception) -> int:
    """A worker's failure in one line: exit 2 when the game code raised (in practice a bot's
    bug, e.g. an illegal action), 1 when the worker died or stalled."""
    first = str(e).strip().splitlines()[0]
    if " failed on " in first:
        return fail("nanty eval", f"{first}; fix the bot (--workers 1 shows the traceback)")
    return fail("nanty eval", first) - 1


def _journal(path: str):
    from arena.tournament import load_journal

    if not Path(path).is_file():
        raise UsageError(f"no journal at {path}; give the *_games.jsonl that nanty eval wrote")
    try:
        return load_journal(path)
    except (ValueError, KeyError, TypeError) as e:  # JournalError is a ValueError
        raise UsageError(str(e)) from e


def cmd_summary(args: argparse.Namespace) -> int:
    from arena.tournament import format_table, output_paths, write_outputs

    result = _journal(args.journal)
    print(f"{len(result.records)} of {result.spec.games} games finished")
    print(format_table(result))
    if args.out:
        for path in write_outputs(result, output_paths(args.out)[0], plots=not args.no_plots):
            print(f"wrote {path}")
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    from arena.paired import compare_runs, format_paired, pooled

    paths_a, paths_b = args.journal_a.split(","), args.journal_b.split(",")
    if len(paths_a) != len(paths_b):
        raise UsageError("give as many journals on each side (pairs of runs, comma-separated)")
    results = []
    for path_a, path_b in zip(paths_a, paths_b, strict=True):
        run_a, run_b = _journal(path_a), _journal(path_b)
        try:
            results.append(compare_runs(run_a, run_b, args.entry_a, args.entry_b))
        except ValueError as e:
            raise UsageError(str(e)) from e
        names = (run_a.spec.bots[args.entry_a], run_b.spec.bots[args.entry_b])
        if len(paths_a) > 1:
            print(f"{path_a} vs {path_b}:\n{format_paired(results[-1], *names)}\n")
    if len(results) > 1:
        print(f"all {len(results)} pairs of runs together:")
    print(format_paired(pooled(results), *names))
    return 0


def cmd_roles(args: argparse.Namespace) -> int:
    from agents.registry import check_spec
    from arena.role_eval import evaluate_roles, format_role_report

    if args.observer is not None or args.bots is not None:
        return cmd_role_beliefs(args)
    check_spec(args.bot)
    check_content(args)
    if args.out:
        make_folder(Path(args.out).parent, "--out")
    if args.model and not Path(args.model).is_file():
        raise UsageError(
            f"role model {args.model} not found; leave out --model for the shipped one"
        )
    try:
        report = evaluate_roles(
            players=args.players or (2, 3, 4),
            games=args.games,
            seed=args.seed,
            bot=args.bot,
            model_path=args.model,
            workers=args.workers,
            progress=not args.no_progress,
            expansion=args.expansion,
            content=args.content,
            ray_address=args.ray_address,
        )
    except ValueError as e:  # a model of the other ruleset
        raise UsageError(str(e)) from e
    print(format_role_report(report))
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=1) + "\n")
        print(f"wrote {args.out}")
    return 0


def cmd_role_beliefs(args: argparse.Namespace) -> int:
    """``nanty roles --observer MODEL [--bots SPEC,...]``: belief metrics of one observer
    model on any table of bots (arena.belief_metrics)."""
    import numpy as np

    from agents.beliefs import make_model
    from agents.registry import check_spec
    from arena.belief_metrics import evaluate_beliefs, format_belief_report, plot_reliability
    from nanty_env.engine import GameConfig

    check_content(args)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()] if args.bots else [args.bot]
    players = args.players or ((len(bots),) if len(bots) > 1 else (4,))
    if len(players) != 1:
        raise UsageError("--observer/--bots measure one player count at a time: --players N")
    n = players[0]
    if len(bots) == 1:
        bots = bots * n
    if len(bots) != n:
        raise UsageError(f"--players {n} but {len(bots)} --bots specs; give one or {n}")
    for spec in dict.fromkeys(bots):
        check_spec(spec)
    observer = args.observer or "fitted"
    if args.model and not Path(args.model).is_file():
        raise UsageError(f"role model {args.model} not found")
    try:
        if observer.startswith("policy:"):
            check_spec(observer[len("policy:") :].split(";")[0])
        config = GameConfig(
            num_players=n, log=False, expansion=args.expansion, content=args.content
        )
        make_model(observer, args.model).reset(config, 0, np.random.default_rng(0))
    except ValueError as e:  # a bad name, or no role model for these roles
        raise UsageError(str(e)) from e
    if args.out:
        make_folder(Path(args.out).parent, "--out")
    try:
        report = evaluate_beliefs(
            bots,
            observer,
            args.games,
            args.seed,
            model_path=args.model,
            seats=args.observer_seats,
            boot=args.boot,
            workers=args.workers,
            progress=not args.no_progress,
            expansion=args.expansion,
            content=args.content,
            ray_address=args.ray_address,
        )
    except ValueError as e:  # e.g. no role model for these roles
        raise UsageError(str(e)) from e
    print(format_belief_report(report))
    if args.out:
        out = Path(args.out)
        out.write_text(json.dumps(report, indent=1) + "\n")
        print(f"wrote {out}")
        if not args.no_plots:
            png = plot_reliability(report, out.with_name(out.stem + "_reliability.png"))
            print(f"wrote {png}")
    return 0


def role_model_out(args: argparse.Namespace) -> Path:
    """Where ``nanty roles-train`` writes: ``--out``, else the ruleset's shipped model."""
    if args.out:
        return Path(args.out)
    return CTHULHU_ROLE_MODEL_FILE if args.expansion else ROLE_MODEL_FILE


def cmd_roles_train(args: argparse.Namespace) -> int:
    from agents.registry import check_spec
    from arena.role_eval import train_role_model

    check_spec(args.bot)
    check_content(args)
    out = role_model_out(args)
    make_folder(out.parent, "--out")
    model = train_role_model(
        players=args.players,
        games=args.games,
        seed=args.seed,
        bot=args.bot,
        workers=args.workers,
        progress=not args.no_progress,
        expansion=args.expansion,
        content=args.content,
    )
    model.save(out)
    print(f"wrote {out}: {json.dumps(model.meta)}")
    return 0


def cmd_bots(args: argparse.Namespace) -> int:
    from agents.registry import BOTS, BotSpecError, bot_options, plugin_bots

    def options(name: str) -> str:
        opts = bot_options(name)
        return "any" if opts is None else ", ".join(opts) or "none"

    plugins = plugin_bots()
    print("built-in bots:")
    for name in sorted(BOTS):
        print(f"  {name:<12} options: {options(name)}")
    print("installed plug-ins (entry-point group nanty.bots):" if plugins else "no plug-ins")
    for name, ep in sorted(plugins.items()):
        try:
            opts = options(name)
        except BotSpecError as e:
            opts = f"(cannot load: {e})"
        dist = f" from {ep.dist.name}" if getattr(ep, "dist", None) else ""
        print(f"  {name:<12} {ep.value}{dist}; options: {opts}")
    print(SPEC_HELP + ", e.g. ismcts:iters=300 or policy:path=runs/quick")
    return 0


def _add(sub: argparse._SubParsersAction, name: str, help: str, func) -> argparse.ArgumentParser:
    p = sub.add_parser(name, help=help, description=help, formatter_class=DefaultsFormatter)
    p.set_defaults(func=func)
    return p


def build_parser() -> argparse.ArgumentParser:
    ap = OneLineParser(
        prog="nanty", description=__doc__.split("\n")[0], formatter_class=DefaultsFormatter
    )
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")

    ev = _add(sub, "eval", "play a tournament and report win rates and ratings", cmd_eval)
    ev.add_argument(
        "--bots", required=True, help=f"comma-separated bot specs, one per seat; {SPEC_HELP}"
    )
    ev.add_argument(
        "--checkpoint",
        help="trained policy that the bot name 'ppo' stands for (a run folder or NAME.json; "
        "default: the shipped PPO policy)",
    )
    ev.add_argument(
        "--trust-checkpoint",
        action="store_true",
        help="allow SB3 .zip checkpoints (unpickled: they can run any code; only your own)",
    )
    ev.add_argument(
        "--players", type=player_count, help="number of players (default: one per --bots entry)"
    )
    ev.add_argument("--games", type=positive_int, default=100, help="games to play")
    ev.add_argument(
        "--seed", type=int, default=0, help="base seed of the deals (same seed => same games)"
    )
    ev.add_argument(
        "--out",
        help="output folder (results.json, CSV files, plots, games journal inside it) or a "
        "FILE.json (the other files beside it)",
    )
    ev.add_argument(
        "--workers", type=positive_int, default=2, help="worker processes (1: play here)"
    )
    _add_ruleset_options(ev)
    ev.add_argument(
        "--personalities", default="standard", choices=PERSONALITY_SETS, help="personality cards"
    )
    ev.add_argument(
        "--thresholds",
        default="rulebook",
        choices=THRESHOLD_SETS,
        help="which printed goal thresholds the cards use",
    )
    ev.add_argument(
        "--windows", default="public", choices=WINDOW_POLICIES, help="interrupt window policy"
    )
    ev.add_argument(
        "--chunk",
        type=positive_int,
        help="games per worker task (default: small batches; 1 for slow bots)",
    )
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
    ev.add_argument("--no-plots", action="store_true", help="write no PNG plots")
    ev.add_argument("--no-progress", action="store_true", help="show no progress bar")
    ev.add_argument("--ray-address", help=RAY_HELP)

    su = _add(sub, "summary", "report on a (partial) games journal of nanty eval", cmd_summary)
    su.add_argument("journal", help="the <out>_games.jsonl file of a run")
    su.add_argument("--out", help="also write the JSON, CSV files and plots")
    su.add_argument("--no-plots", action="store_true", help="write no PNG plots")

    co = _add(
        sub,
        "compare",
        "compare one bot of each of two runs on the games both played (same other bots)",
        cmd_compare,
    )
    co.add_argument(
        "journal_a",
        help="a <out>_games.jsonl of nanty eval (or several, comma-separated, e.g. one per "
        "deal seed: the pairs are pooled)",
    )
    co.add_argument(
        "journal_b", help="another (as many), with the same seeds, game settings and other bots"
    )
    co.add_argument("--entry-a", type=int, default=0, help="which --bots entry of the first run")
    co.add_argument("--entry-b", type=int, default=0, help="which --bots entry of the second")

    ro = _add(
        sub,
        "roles",
        "role inference by turn: top-1 accuracy (self-play), or with --observer/--bots the "
        "belief metrics of an observer model on any table of bots",
        cmd_roles,
    )
    ro.add_argument(
        "--players", type=player_counts, help="player counts (default 2,3,4; with --bots: one)"
    )
    ro.add_argument("--games", type=positive_int, default=100, help="games per player count")
    ro.add_argument("--seed", type=non_negative_int, default=1, help="base seed of the games")
    ro.add_argument("--bot", default="heuristic", help="bot spec playing every seat")
    ro.add_argument(
        "--bots", help="comma-separated specs, one per seat (or one for all): the actors"
    )
    ro.add_argument(
        "--observer",
        help="belief model measured: prior, fitted or policy:<bot spec> (options after ';': "
        "samples=N, epsilon=X, kinds=a+b); reports accuracy, log-loss, Brier, ECE, "
        "p(true assignment)",
    )
    ro.add_argument(
        "--observer-seats",
        choices=("all", "one"),
        default="all",
        help="with --observer: every seat observes, or one per game (seed %% players)",
    )
    ro.add_argument(
        "--boot", type=positive_int, default=1000, help="bootstrap resamples of the games"
    )
    ro.add_argument("--no-plots", action="store_true", help="no reliability diagram PNG")
    _add_ruleset_options(ro)
    ro.add_argument("--model", help="role model JSON (default: the shipped one)")
    ro.add_argument("--out", help="JSON report (with --observer: and OUT_reliability.png)")
    ro.add_argument("--workers", type=positive_int, default=2, help="worker processes")
    ro.add_argument("--no-progress", action="store_true", help="show no progress bar")
    ro.add_argument("--ray-address", help=RAY_HELP)

    rt = _add(
        sub, "roles-train", "train the role-inference model on self-play logs", cmd_roles_train
    )
    rt.add_argument("--players", type=player_counts, default="2,3,4", help="player counts")
    rt.add_argument("--games", type=positive_int, default=300, help="games per player count")
    rt.add_argument("--seed", type=non_negative_int, default=7, help="base seed of the games")
    rt.add_argument("--bot", default="heuristic:roles=none", help="bot spec playing every seat")
    _add_ruleset_options(rt)
    rt.add_argument("--out", help="where to write the model (default: the ruleset's shipped one)")
    rt.add_argument("--workers", type=positive_int, default=2, help="worker processes")
    rt.add_argument("--no-progress", action="store_true", help="show no progress bar")

    _add(sub, "bots", "list the available bots, plug-ins included, and their options", cmd_bots)

    from nanty_app.train_command import add_train_parser

    add_train_parser(sub)

    from nanty_app.coverage_command import add_coverage_parser
    from nanty_app.exploit_command import add_exploit_parser
    from nanty_app.leakage_command import add_leakage_parser
    from nanty_app.metagame_command import add_metagame_parser
    from nanty_app.replay import add_replay_parser
    from nanty_app.server import add_serve_parser
    from nanty_app.terminal import add_play_parser

    add_play_parser(sub)
    add_replay_parser(sub)
    add_serve_parser(sub)
    add_coverage_parser(sub)
    add_exploit_parser(sub)
    add_leakage_parser(sub)
    add_metagame_parser(sub)
    for parser in sub.choices.values():  # every subcommand's help shows its defaults
        parser.formatter_class = DefaultsFormatter
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    from agents.registry import BotSpecError
    from nanty_env.engine import IllegalActionError

    parser = build_parser()
    args = parser.parse_args(argv)
    prog = f"nanty {args.command}"
    stdout = sys.stdout
    if args.command != "serve":
        sys.stdout = QuietPipe(stdout)
    try:
        return int(args.func(args) or 0)
    except (UsageError, BotSpecError) as e:
        return fail(prog, str(e))
    except IllegalActionError as e:  # a bot's bug, raised in a worker or here
        return fail(prog, f"{e}; fix the bot, or leave it out of --bots")
    except OSError as e:  # a file or folder named on the command line that cannot be used
        where = f"{e.filename}: " if e.filename else ""
        return fail(prog, f"{where}{e.strerror or e}")
    except RecursionError:  # a parser of some input file that nests too deeply
        return fail(prog, "an input file is nested too deeply to read")
    finally:
        sys.stdout = stdout


if __name__ == "__main__":
    sys.exit(main())
