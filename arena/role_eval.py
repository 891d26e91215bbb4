"""Game logs for role inference, training of the role model, and its accuracy by turn.

A log holds, at the start of every turn of a game, the public feature matrix of the ruleset's
role tracker (:func:`agents.roles.make_tracker`), the true hidden role of every seat (the label:
its personality card, read at that turn since the swap card moves them; in the expansion its
secret objective) and what each seat knows about set-aside cards. Logs are written by ordinary
games between bots (HeuristicBot self-play by default, since it plays towards its goal; random
play reveals nothing by design).

Accuracy is top-1 of the posterior that a seat forms about each other seat, averaged over every
(game, turn, observer, opponent). Two labels are scored: the exact role, and the goal (the three
standard Lords share one goal, so they form one class; in the expansion every objective is its
own goal). Chance is the same score for the prior alone (the observer's own role and seen
set-aside cards excluded; ties in the prior's argmax count as a fraction).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np

from agents.base import bot_rngs, play_game
from agents.registry import make_bot
from agents.roles import (
    RoleModel,
    default_model,
    fit_logistic,
    make_tracker,
    posterior,
)
from agents.rulesets import game_roles, role_count, role_deck, role_ids
from arena.seeded_games import seeded_games
from nanty_env.engine import Game, GameConfig, tables

REPORT_TURNS = (1, 3, 5, 10, 15, 20, 30, 40, 50, 60)


def goal_class(k: int, config: GameConfig | None = None) -> str:
    """Roles with the same goal share a class (the standard Lords; every objective of the
    expansion is its own class)."""
    if config is not None and config.expansion is not None:
        return role_ids(config)[k]
    p = tables().data.personalities[k]
    return "lord" if p.id.startswith("lord_") else p.id


def log_game(bot: str, config: GameConfig, seed: int) -> dict[str, Any]:
    """Play one game with ``bot`` in every seat and log the role-inference data per turn."""
    n = config.num_players
    tracker = make_tracker(config)
    xs, labels, turns, unused, seen = [], [], [], [], []

    def on_turn(g: Game) -> None:
        tracker.update(g.view(0))  # only public fields are used
        xs.append(tracker.features())
        seen.append(tracker.turns.copy())
        labels.append(game_roles(g))
        turns.append(g.turn)
        unused.append([list(g.known_unused[s]) for s in range(n)])

    bots = [make_bot(bot) for _ in range(n)]
    _, rec = play_game(bots, config, seed, bot_rngs(seed, n, 99), on_turn=on_turn)
    return {
        "n": n,
        "seed": seed,
        "expansion": config.expansion,
        "x": np.array(xs),
        "seen_turns": np.array(seen),
        "y": np.array(labels),
        "turn": np.array(turns),
        "unused": unused,
        "winners": list(rec.winners),
    }


def generate_logs(
    bot: str,
    players: int,
    games: int,
    seed: int,
    *,
    workers: int | None = None,
    progress: bool = True,
    expansion: str | None = None,
    content: str | None = None,
    ray_address: str | None = None,
) -> list[dict[str, Any]]:
    """Logs of ``games`` games at ``players`` players (seeds ``seed*100000 + i``; on a Ray
    cluster with ``ray_address``)."""
    return seeded_games(
        log_game,
        bot,
        players,
        games,
        seed,
        workers=workers,
        progress=progress,
        label="logs",
        expansion=expansion,
        content=content,
        ray_address=ray_address,
    )


def train_role_model(
    players: Sequence[int] = (2, 3, 4),
    games: int = 300,
    seed: int = 7,
    bot: str = "heuristic:roles=none",
    *,
    workers: int | None = None,
    progress: bool = True,
    expansion: str | None = None,
    content: str | None = None,
) -> RoleModel:
    """Fit one logistic regression per player count on freshly generated self-play logs."""
    weights, meta = {}, {"bot": bot, "games": games, "seed": seed, "samples": {}}
    classes = 0
    for n in players:
        config = GameConfig(num_players=n, log=False, expansion=expansion, content=content)
        logs = generate_logs(
            bot,
            n,
            games,
            seed,
            workers=workers,
            progress=progress,
            expansion=expansion,
            content=content,
        )
        x = np.concatenate([d["x"].reshape(-1, d["x"].shape[-1]) for d in logs])
        y = np.concatenate([d["y"].reshape(-1) for d in logs])
        classes = role_count(config)
        weights[n] = fit_logistic(x, y, sorted(role_deck(config)), num_classes=classes)
        meta["samples"][str(n)] = len(y)
    if expansion is None:
        return RoleModel(weights, meta)
    meta["roles"] = role_ids(GameConfig(expansion=expansion, content=content))
    return RoleModel(weights, meta, expansion, num_classes=classes)


def accuracy_by_turn(
    logs: Sequence[dict[str, Any]], model: RoleModel | None, content: str | None = None
) -> dict[str, Any]:
    """Top-1 accuracy (exact role and goal class) and chance, per game turn (the logs say
    which ruleset they come from; ``content``: the expansion's content pack, if not the
    shipped one)."""
    sums: dict[int, np.ndarray] = defaultdict(lambda: np.zeros(5))  # count, exact, cls, ch, chc
    for d in logs:
        n = d["n"]
        expansion = d.get("expansion")
        config = GameConfig(num_players=n, expansion=expansion, content=content)
        for t in range(len(d["turn"])):
            truth = d["y"][t]
            lik = None
            if model is not None:
                lik = np.maximum(model.probabilities(d["x"][t], n), 1e-9)
                lik[d["seen_turns"][t] == 0] = 1.0  # as RoleBelief: no turn seen, no evidence
            for s in range(n):
                view: dict[str, Any] = {"num_players": n, "seat": s}
                if expansion is None:
                    view["personality"] = int(truth[s])
                    view["known_unused_personalities"] = d["unused"][t][s]
                else:
                    view["expansion"] = expansion
                    view["objective"] = int(truth[s])
                post = posterior(view, config, lik)
                prior = posterior(view, config, None)
                for q in range(n):
                    if q == s:
                        continue
                    k = int(truth[q])
                    row = sums[int(d["turn"][t])]
                    row[0] += 1
                    row[1] += _top1(post[q], k)
                    row[2] += _top1_class(post[q], k, config)
                    row[3] += _top1(prior[q], k)
                    row[4] += _top1_class(prior[q], k, config)
    turns = sorted(sums)
    table = {
        "turn": turns,
        "samples": [int(sums[t][0]) for t in turns],
        "top1": [sums[t][1] / sums[t][0] for t in turns],
        "top1_goal": [sums[t][2] / sums[t][0] for t in turns],
        "chance": [sums[t][3] / sums[t][0] for t in turns],
        "chance_goal": [sums[t][4] / sums[t][0] for t in turns],
    }
    total = sum((sums[t] for t in turns), np.zeros(5))
    table["overall"] = {
        "samples": int(total[0]),
        "top1": total[1] / total[0],
        "top1_goal": total[2] / total[0],
        "chance": total[3] / total[0],
        "chance_goal": total[4] / total[0],
    }
    return table


def _top1(p: np.ndarray, k: int) -> float:
    best = p.max()
    tied = np.flatnonzero(p >= best - 1e-12)
    return 1.0 / len(tied) if k in tied else 0.0


def _top1_class(p: np.ndarray, k: int, config: GameConfig | None = None) -> float:
    by: dict[str, float] = defaultdict(float)
    for i in np.flatnonzero(p > 0):
        by[goal_class(int(i), config)] += float(p[i])
    best = max(by.values())
    tied = [c for c, v in by.items() if v >= best - 1e-12]
    return 1.0 / len(tied) if goal_class(k, config) in tied else 0.0


def evaluate_roles(
    players: Sequence[int] = (2, 3, 4),
    games: int = 100,
    seed: int = 1,
    bot: str = "heuristic",
    model_path: str | None = None,
    *,
    workers: int | None = None,
    progress: bool = True,
    expansion: str | None = None,
    content: str | None = None,
    ray_address: str | None = None,
) -> dict[str, Any]:
    """Play fresh games and report role-inference accuracy by turn for each player count
    (``expansion``: the expansion's games, whose hidden roles are the objectives)."""
    model = RoleModel.load(model_path) if model_path else default_model(expansion)
    if model is not None and model.expansion != expansion:
        raise ValueError(
            f"{model_path}: a role model for {model.expansion or 'the base game'}, not for "
            f"{expansion or 'the base game'}"
        )
    report: dict[str, Any] = {"bot": bot, "games": games, "seed": seed, "model": model_path}
    if expansion is not None:
        report["expansion"] = expansion
    for n in players:
        logs = generate_logs(
            bot,
            n,
            games,
            seed,
            workers=workers,
            progress=progress,
            expansion=expansion,
            content=content,
            ray_address=ray_address,
        )
        report[str(n)] = accuracy_by_turn(logs, model, content)
    return report


def format_role_report(report: dict[str, Any]) -> str:
    what = "objective" if report.get("expansion") else "card"
    width = len(what) + 3
    ruleset = f" ({report['expansion']} expansion)" if report.get("expansion") else ""
    lines = [
        f"role inference{ruleset}, {report['games']} games of {report['bot']} per player count"
    ]
    for key, tab in report.items():
        if not key.isdigit():
            continue
        lines.append(
            f"{key} players: top-1 {what} {tab['overall']['top1']:.1%} "
            f"(chance {tab['overall']['chance']:.1%}), goal {tab['overall']['top1_goal']:.1%} "
            f"(chance {tab['overall']['chance_goal']:.1%}) over all turns"
        )
        lines.append(
            f"  {'turn':>5} {'samples':>8} {what:>{width}} {'chance':>7} {'goal':>7} {'chance':>7}"
        )
        for i, t in enumerate(tab["turn"]):
            if t in REPORT_TURNS:
                lines.append(
                    f"  {t:>5} {tab['samples'][i]:>8} {tab['top1'][i]:>{width}.1%} "
                    f"{tab['chance'][i]:>7.1%} {tab['top1_goal'][i]:>7.1%} "
                    f"{tab['chance_goal'][i]:>7.1%}"
                )
    return "\n".join(lines)
