"""Game logs for role inference, training of the role model, and its accuracy by turn.

A log holds, at the start of every turn of a game, the public feature matrix of
:class:`~agents.roles.RoleTracker`, the true personality of every seat (the label; a seat's card
can change hands through the swap card, so it is read at that turn) and what each seat knows
about set-aside cards. Logs are written by ordinary games between bots (HeuristicBot self-play by
default, since it plays towards its goal; random play reveals nothing by design).

Accuracy is top-1 of the posterior that a seat forms about each other seat, averaged over every
(game, turn, observer, opponent). Two labels are scored: the exact personality card, and the
goal (the three standard Lords share one goal, so they form one class). Chance is the same
score for the prior alone (the observer's own card and seen set-aside cards excluded; ties in
the prior's argmax count as a fraction).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np

from agents.base import bot_rngs, play_game
from agents.registry import make_bot
from agents.roles import RoleModel, RoleTracker, default_model, fit_logistic, posterior
from arena.seeded_games import seeded_games
from nanty_env.engine import Game, GameConfig, personality_deck, tables

REPORT_TURNS = (1, 3, 5, 10, 15, 20, 30, 40, 50, 60)


def goal_class(k: int) -> str:
    """Personalities with the same goal share a class (the standard Lords)."""
    p = tables().data.personalities[k]
    return "lord" if p.id.startswith("lord_") else p.id


def log_game(bot: str, config: GameConfig, seed: int) -> dict[str, Any]:
    """Play one game with ``bot`` in every seat and log the role-inference data per turn."""
    n = config.num_players
    tracker = RoleTracker(n)
    xs, labels, turns, unused, seen = [], [], [], [], []

    def on_turn(g: Game) -> None:
        tracker.update(g.view(0))  # only public fields are used
        xs.append(tracker.features())
        seen.append(tracker.turns.copy())
        labels.append(list(g.persona))
        turns.append(g.turn)
        unused.append([list(g.known_unused[s]) for s in range(n)])

    bots = [make_bot(bot) for _ in range(n)]
    _, rec = play_game(bots, config, seed, bot_rngs(seed, n, 99), on_turn=on_turn)
    return {
        "n": n,
        "seed": seed,
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
) -> list[dict[str, Any]]:
    """Logs of ``games`` games at ``players`` players (seeds ``seed*100000 + i``)."""
    return seeded_games(
        log_game, bot, players, games, seed, workers=workers, progress=progress, label="logs"
    )


def train_role_model(
    players: Sequence[int] = (2, 3, 4),
    games: int = 300,
    seed: int = 7,
    bot: str = "heuristic:roles=none",
    *,
    workers: int | None = None,
    progress: bool = True,
) -> RoleModel:
    """Fit one logistic regression per player count on freshly generated self-play logs."""
    weights, meta = {}, {"bot": bot, "games": games, "seed": seed, "samples": {}}
    for n in players:
        logs = generate_logs(bot, n, games, seed, workers=workers, progress=progress)
        x = np.concatenate([d["x"].reshape(-1, d["x"].shape[-1]) for d in logs])
        y = np.concatenate([d["y"].reshape(-1) for d in logs])
        classes = personality_deck(GameConfig(num_players=n))
        weights[n] = fit_logistic(x, y, sorted(classes))
        meta["samples"][str(n)] = len(y)
    return RoleModel(weights, meta)


def accuracy_by_turn(logs: Sequence[dict[str, Any]], model: RoleModel | None) -> dict[str, Any]:
    """Top-1 accuracy (exact card and goal class) and chance, per game turn."""
    sums: dict[int, np.ndarray] = defaultdict(lambda: np.zeros(5))  # count, exact, cls, ch, chc
    for d in logs:
        n = d["n"]
        config = GameConfig(num_players=n)
        for t in range(len(d["turn"])):
            truth = d["y"][t]
            lik = None
            if model is not None:
                lik = np.maximum(model.probabilities(d["x"][t], n), 1e-9)
                lik[d["seen_turns"][t] == 0] = 1.0  # as RoleBelief: no turn seen, no evidence
            for s in range(n):
                view = {
                    "num_players": n,
                    "seat": s,
                    "personality": int(truth[s]),
                    "known_unused_personalities": d["unused"][t][s],
                }
                post = posterior(view, config, lik)
                prior = posterior(view, config, None)
                for q in range(n):
                    if q == s:
                        continue
                    k = int(truth[q])
                    row = sums[int(d["turn"][t])]
                    row[0] += 1
                    row[1] += _top1(post[q], k)
                    row[2] += _top1_class(post[q], k)
                    row[3] += _top1(prior[q], k)
                    row[4] += _top1_class(prior[q], k)
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


def _top1_class(p: np.ndarray, k: int) -> float:
    by: dict[str, float] = defaultdict(float)
    for i in np.flatnonzero(p > 0):
        by[goal_class(int(i))] += float(p[i])
    best = max(by.values())
    tied = [c for c, v in by.items() if v >= best - 1e-12]
    return 1.0 / len(tied) if goal_class(k) in tied else 0.0


def evaluate_roles(
    players: Sequence[int] = (2, 3, 4),
    games: int = 100,
    seed: int = 1,
    bot: str = "heuristic",
    model_path: str | None = None,
    *,
    workers: int | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Play fresh games and report role-inference accuracy by turn for each player count."""
    model = RoleModel.load(model_path) if model_path else default_model()
    report: dict[str, Any] = {"bot": bot, "games": games, "seed": seed, "model": model_path}
    for n in players:
        logs = generate_logs(bot, n, games, seed, workers=workers, progress=progress)
        report[str(n)] = accuracy_by_turn(logs, model)
    return report


def format_role_report(report: dict[str, Any]) -> str:
    lines = [f"role inference, {report['games']} games of {report['bot']} per player count"]
    for key, tab in report.items():
        if not key.isdigit():
            continue
        lines.append(
            f"{key} players: top-1 card {tab['overall']['top1']:.1%} "
            f"(chance {tab['overall']['chance']:.1%}), goal {tab['overall']['top1_goal']:.1%} "
            f"(chance {tab['overall']['chance_goal']:.1%}) over all turns"
        )
        lines.append(
            f"  {'turn':>5} {'samples':>8} {'card':>7} {'chance':>7} {'goal':>7} {'chance':>7}"
        )
        for i, t in enumerate(tab["turn"]):
            if t in REPORT_TURNS:
                lines.append(
                    f"  {t:>5} {tab['samples'][i]:>8} {tab['top1'][i]:>7.1%} "
                    f"{tab['chance'][i]:>7.1%} {tab['top1_goal'][i]:>7.1%} "
                    f"{tab['chance_goal'][i]:>7.1%}"
                )
    return "\n".join(lines)
