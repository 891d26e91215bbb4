"""``make run``: quick self-play training, then a tournament of the trained bot against
RandomBot and HeuristicBot (the shipped ``ppo`` bot on the same deals beside it), one table of the trained bot next to the shipped learned agent
(``learned``: the scripted look-ahead valued by the shipped value network), HeuristicBot and
RandomBot at one table, a results table and the learning curve.

    python -m training.run [--config quick] [--total-timesteps N] [--games 40] [--out DIR]
    python -m training.run --config cthulhu_quick     # the same on The Rise of Cthulhu
"""

from __future__ import annotations

import argparse
from pathlib import Path

from agents.registry import spec_value
from training.config import load_config
from training.train import train


def tournament(
    bot: str,
    opponent: str,
    players: int,
    games: int,
    seed: int,
    out: Path,
    expansion: str | None = None,
    content: str | None = None,
):
    """``bot`` (a spec) in one seat against ``players - 1`` copies of ``opponent`` (in the
    ruleset it was trained on)."""
    from arena.tournament import TournamentSpec, format_table, run_tournament, write_outputs

    spec = TournamentSpec(
        bots=(bot, *([opponent] * (players - 1))),
        num_players=players,
        games=games,
        seed=seed,
        expansion=expansion,
        content=content,
    )
    result = run_tournament(spec, workers=2, progress=True)
    name = "" if bot.startswith("policy:") else f"{bot}_"
    write_outputs(result, out / f"tournament_{name}vs_{opponent}.json")
    return result, format_table(result)


def shipped_ppo_ships(players: int, expansion: str | None) -> bool:
    """Whether a ``ppo`` policy ships for this game (base game, ``players``)."""
    from agents.checkpoint import CheckpointError
    from agents.ppo_bot import shipped_ppo

    if expansion is not None:
        return False
    try:
        shipped_ppo(players)
    except CheckpointError:
        return False
    return True


def ladder_table(model: Path, players: int, games: int, seed: int, out: Path) -> str:
    """The trained bot, ``learned``, ``heuristic`` and ``random`` at one table (the first
    ``players`` of them, seats rotated); ``learned`` only if a network ships for ``players``."""
    from agents.value_net import shipped
    from arena.tournament import TournamentSpec, format_table, run_tournament, write_outputs

    try:
        shipped(players)
        others = ["learned", "heuristic", "random"]
    except FileNotFoundError:
        others = ["heuristic", "random", "random"]
    spec = TournamentSpec(
        bots=(f"policy:path={spec_value(str(model))}", *others[: players - 1]),
        num_players=players,
        games=games,
        seed=seed,
    )
    result = run_tournament(spec, workers=2, progress=True)
    write_outputs(result, out / "tournament_table.json")
    return format_table(result).split("by personality")[0].rstrip()


def free_folder(path: str | Path) -> Path:
    """``path`` if it is missing or empty, else the first of ``path_2``, ``path_3``, ... that is."""
    base = Path(path)
    candidate, k = base, 1
    while candidate.exists() and any(candidate.iterdir()):
        k += 1
        candidate = base.with_name(f"{base.name}_{k}")
    return candidate


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--config", default="quick")
    ap.add_argument("--total-timesteps", type=int)
    ap.add_argument("--games", type=int, default=40, help="games per tournament")
    ap.add_argument("--heuristic-games", type=int, default=20)
    ap.add_argument("--table-games", type=int, default=24, help="games of the mixed table")
    ap.add_argument("--out")
    args = ap.parse_args(argv)

    cfg = load_config(args.config)
    # an explicit --out must be empty (train refuses to overwrite a run); the default one moves
    # on to the next free name, so that `make run` twice keeps both runs
    out = train(cfg, total_timesteps=args.total_timesteps, out=args.out or free_folder(cfg.out))
    model = out / "model"
    n = cfg.env.num_players
    print(f"\ntrained model: {model}")
    bots = {"trained bot": f"policy:path={spec_value(str(model))}"}
    if shipped_ppo_ships(n, cfg.env.expansion):  # the same deals, for comparison
        bots["shipped ppo"] = "ppo"
    rows = []
    for opponent, games in (("random", args.games), ("heuristic", args.heuristic_games)):
        for who, spec in bots.items():
            result, table = tournament(
                spec, opponent, n, games, cfg.seed + 1, out, cfg.env.expansion, cfg.env.content
            )
            if who == "trained bot":
                print(f"\n=== trained bot vs {n - 1} x {opponent} ===\n{table}")
            rows.append((who, opponent, result.summary["bots"][0]))
    print("\nsummary (one seat, rotated, against the others; the same deals for both bots):")
    print(
        f"{'bot':<12} {'opponents':<12} {'games':>6} {'wins':>5} {'win rate':>9} "
        f"{'95% CI':>17}  chance"
    )
    for who, opponent, me in rows:
        lo, hi = me["ci95"]
        print(
            f"{who:<12} {opponent:<12} {me['games']:>6} {me['wins']:>5} "
            f"{me['win_rate']:>9.1%} {f'[{lo:.1%}, {hi:.1%}]':>17}  {1 / n:.0%}"
        )
    table = ladder_table(model, n, args.table_games, cfg.seed + 2, out)
    print(f"\n=== the trained bot and the shipped agents at one table ===\n{table}")
    print(f"\nlearning curve: {out / 'learning_curve.png'}")


if __name__ == "__main__":
    main()
