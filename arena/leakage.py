"""How much a bot gives away about its hidden role, beside how often it wins.

One *leakage run* seats the bot under test in one seat of every game (seat ``game seed %
players``) and a reference bot (``opponent``, HeuristicBot by default) in the others. The seat
after it observes the bot with the best observer there is against that bot: an
:class:`agents.beliefs.Belief` whose :class:`~agents.beliefs.PolicyModel` *is* the bot under
test (``targets``: only the bot's seat is filtered, so the cost is that of one seat), fed
with the observer's views and the public actions only. At the start of each of the bot's own
turns the observer's marginal about the bot's seat is scored against its true role; the
x-axis is the number of the bot's own turns already played (0 at its first turn), which
compares 2- and 4-player tables better than the game turn.

Per run (:func:`leakage_report`): the top-1 accuracy by own turn (a tie counts as a
fraction) with the prior's chance curve; **turn 50 %**, the first own turn at which the
accuracy reaches 0.5 (None: not within the turns that at least half the games reach); **AUC**, the mean accuracy over own
turns 1..``horizon`` (the area under the curve, normalised to [0, 1]); the log-loss over those
turns; the bot's win rate with its Wilson interval; the observer's processor time per public
action. Intervals are 95 % bootstraps over games. Every run plays the same game seeds, so the
same deals with the bot in the same seat: :func:`paired_rows` compares each run's wins with
the first run's game by game (:mod:`arena.paired`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import bot_rngs, play_game
from agents.beliefs import Belief, FittedModel, LikelihoodModel, PolicyModel, PriorModel, is_public
from agents.registry import make_bot
from agents.rulesets import game_roles
from arena.paired import paired
from arena.seeded_games import seeded_games
from arena.stats import wilson_interval
from nanty_env.engine import Game, GameConfig
from nanty_env.storage.files import atomic_path, atomic_write_text

HORIZON = 6  # own turns in the AUC
EPS = 1e-12


@dataclass(frozen=True)
class LeakageLogger:
    """Plays one game of a leakage run (picklable, for worker processes).

    Args:
        bot: the bot under test (seat ``seed % players``).
        opponent: the bot in every other seat.
        observer_bot: the bot the observer's policy model assumes (None: ``bot`` itself).
        samples, epsilon, kinds: the policy model's options (:class:`PolicyModel`).
        observer: ``policy`` (the policy model above: the best observer) or ``fitted`` (the
            shipped role model, which HeuristicBot opponents read: what the bot's table
            actually sees).
    """

    bot: str
    opponent: str = "heuristic"
    observer_bot: str | None = None
    samples: int = 1
    epsilon: float = 0.2
    kinds: tuple[str, ...] | None = None
    observer: str = "policy"

    def model(self, seat: int) -> LikelihoodModel:
        """The observer's likelihood model, watching ``seat``."""
        if self.observer == "fitted":
            return FittedModel()
        return PolicyModel(
            self.observer_bot or self.bot, self.samples, self.epsilon, self.kinds, targets=[seat]
        )

    def __call__(self, label: str, config: GameConfig, seed: int) -> dict[str, Any]:
        n = config.num_players
        me = seed % n
        watcher = (me + 1) % n
        belief = Belief(config, watcher, self.model(me), seed)
        prior = Belief(config, watcher, PriorModel(), seed)
        cost = {"seconds": 0.0, "public_actions": 0}
        rows: list[dict[str, Any]] = []
        own_turns = [0]

        def feed(g: Game, action: int | None) -> None:
            v = g.view(watcher)
            a = action if action is not None and is_public(v, action) else None
            t0 = time.process_time()
            belief.observe(v, a)
            cost["seconds"] += time.process_time() - t0
            cost["public_actions"] += a is not None and v["current_player"] == me
            prior.observe(v, a)

        def on_turn(g: Game) -> None:
            feed(g, None)
            if g.active != me:
                return
            truth = int(game_roles(g)[me])
            rows.append(
                {
                    "own_turn": own_turns[0],
                    "p": belief.marginals()[me].tolist(),
                    "prior": prior.marginals()[me].tolist(),
                    "truth": truth,
                }
            )
            own_turns[0] += 1

        specs = [self.opponent] * n
        specs[me] = self.bot
        bots = [make_bot(s) for s in specs]
        _, rec = play_game(
            bots, config, seed, bot_rngs(seed, n, 99), on_turn=on_turn, on_action=feed
        )
        return {
            "seed": seed,
            "n": n,
            "seat": me,
            "observer": watcher,
            "rows": rows,
            "won": me in rec.winners,
            "turns": rec.turns,
            "cost": cost,
        }


def top1(p: Sequence[float], truth: int) -> float:
    """1 if ``truth`` is the argmax of ``p`` (a tie of t roles: 1/t), else 0."""
    p = np.asarray(p)
    tied = np.flatnonzero(p >= p.max() - 1e-12)
    return 1.0 / len(tied) if truth in tied else 0.0


def _per_game(logs: Sequence[dict[str, Any]], turns: int, key: str) -> tuple[np.ndarray, ...]:
    """``[games, turns]`` accuracy, log-loss and presence (1 where the game had that turn)."""
    acc = np.zeros((len(logs), turns))
    loss = np.zeros_like(acc)
    has = np.zeros_like(acc)
    for g, d in enumerate(logs):
        for r in d["rows"]:
            k = r["own_turn"]
            if k < turns:
                acc[g, k] = top1(r[key], r["truth"])
                loss[g, k] = -np.log(max(r[key][r["truth"]], EPS))
                has[g, k] = 1.0
    return acc, loss, has


def first_pass(curve: np.ndarray, valid: np.ndarray, level: float = 0.5) -> int | None:
    """The first own turn whose accuracy reaches ``level`` among the ``valid`` ones (None:
    never)."""
    hit = np.flatnonzero((curve >= level - 1e-12) & valid)
    return int(hit[0]) if len(hit) else None


def _curve(weights: np.ndarray, x: np.ndarray, has: np.ndarray) -> np.ndarray:
    """Mean of ``x`` over the games present at each turn, games weighted (``[..., turns]``)."""
    num = weights @ (x * has)
    den = weights @ has
    return np.where(den > 0, num / np.maximum(den, 1e-300), np.nan)


def leakage_report(
    logs: Sequence[dict[str, Any]], horizon: int = HORIZON, boot: int = 1000, seed: int = 0
) -> dict[str, Any]:
    """The run's accuracy curve, turn 50 %, AUC, log-loss and win rate (module docstring)."""
    turns = max((r["own_turn"] for d in logs for r in d["rows"]), default=0) + 1
    turns = max(turns, horizon + 1)
    acc, loss, has = _per_game(logs, turns, "p")
    acc0, loss0, _ = _per_game(logs, turns, "prior")
    games = len(logs)
    ones = np.ones(games)
    counts = np.random.default_rng(seed).multinomial(games, ones / games, size=boot).astype(float)
    curve, chance = _curve(ones, acc, has), _curve(ones, acc0, has)
    boot_curve = _curve(counts, acc, has)  # [boot, turns]
    window = slice(1, horizon + 1)

    def auc(c: np.ndarray) -> np.ndarray:
        return np.nanmean(c[..., window], axis=-1)

    def ll(x: np.ndarray, w: np.ndarray) -> np.ndarray:
        return (w @ (x * has)[:, window].sum(axis=1)) / np.maximum(
            w @ has[:, window].sum(axis=1), 1e-300
        )

    valid = has.sum(axis=0) >= max(1.0, games / 2)  # turns that half the games reach
    passes = np.array([first_pass(c, valid) for c in boot_curve], dtype=float)  # None: nan
    passes[np.isnan(passes)] = np.inf  # never within the turns played
    t50_lo, t50_hi = (float(np.quantile(passes, q, method="inverted_cdf")) for q in (0.025, 0.975))
    wins = int(sum(d["won"] for d in logs))
    secs = sum(d["cost"]["seconds"] for d in logs)
    acts = sum(d["cost"]["public_actions"] for d in logs)
    return {
        "games": games,
        "horizon": horizon,
        "own_turn": list(range(turns)),
        "accuracy": [_num(x) for x in curve],
        "accuracy_ci95": [_ci(boot_curve[:, k]) for k in range(turns)],
        "chance": [_num(x) for x in chance],
        "samples": [int(x) for x in has.sum(axis=0)],
        "turn50": first_pass(curve, valid),
        "turn50_ci95": [None if np.isinf(x) else int(x) for x in (t50_lo, t50_hi)],
        "turn50_never_share": float(np.mean(np.isinf(passes))),
        "auc": float(auc(curve)),
        "auc_ci95": _ci(auc(boot_curve)),
        "auc_chance": float(auc(chance)),
        "log_loss": float(ll(loss, ones)),
        "log_loss_ci95": _ci(ll(loss, counts)),
        "log_loss_chance": float(ll(loss0, ones)),
        "wins": wins,
        "win_rate": wins / games if games else 0.0,
        "win_ci95": list(wilson_interval(wins, games)),
        "turns_per_game": float(np.mean([d["turns"] for d in logs])) if logs else 0.0,
        "cost": {
            "seconds": secs,
            "public_actions": acts,
            "ms_per_public_action": 1000.0 * secs / max(acts, 1),
        },
        "won": {str(d["seed"]): bool(d["won"]) for d in logs},
    }


def _num(x: float) -> float | None:
    return None if np.isnan(x) else float(x)


def _ci(x: np.ndarray) -> list[float | None]:
    x = x[~np.isnan(x)]
    if not len(x):
        return [None, None]
    return [float(np.quantile(x, 0.025)), float(np.quantile(x, 0.975))]


def run_leakage(
    bot: str,
    players: int,
    games: int,
    seed: int,
    *,
    opponent: str = "heuristic",
    observer_bot: str | None = None,
    samples: int = 1,
    kinds: Sequence[str] | None = None,
    horizon: int = HORIZON,
    boot: int = 1000,
    workers: int | None = None,
    progress: bool = True,
    ray_address: str | None = None,
    observer: str = "policy",
) -> dict[str, Any]:
    """One leakage run: ``games`` games (seeds ``seed * 100000 + i``) of ``bot`` against
    ``opponent``, reported by :func:`leakage_report` (``observer``: ``policy`` or
    ``fitted``, see :class:`LeakageLogger`)."""
    if observer not in ("policy", "fitted"):
        raise ValueError(f"observer must be policy or fitted, got {observer!r}")
    logger = LeakageLogger(
        bot,
        opponent,
        observer_bot,
        samples,
        kinds=None if kinds is None else tuple(kinds),
        observer=observer,
    )
    logs = seeded_games(
        logger,
        bot,
        players,
        games,
        seed,
        workers=workers,
        progress=progress,
        label="leakage",
        ray_address=ray_address,
    )
    head = {
        "bot": bot,
        "observer": "fitted" if observer == "fitted" else f"policy:{observer_bot or bot}",
        "opponent": opponent,
        "players": players,
        "seed": seed,
    }
    return head | leakage_report(logs, horizon, boot, seed)


def paired_rows(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any] | None]:
    """Each run's wins against the first run's on the same games (None for the first)."""
    out: list[dict[str, Any] | None] = [None]
    for r in rows[1:]:
        p = paired(r["won"], rows[0]["won"])
        out.append(
            {
                "games": p.games,
                "difference": p.difference,
                "ci95": list(p.ci95),
                "only_this": p.only_a,
                "only_first": p.only_b,
                "p_value": p.p_value,
            }
        )
    return out


def leakage_table(
    bots: Sequence[str], players: int, games: int, seed: int, **kw: Any
) -> dict[str, Any]:
    """:func:`run_leakage` for each bot on the same games, and the paired comparisons."""
    rows = [run_leakage(b, players, games, seed, **kw) for b in bots]
    for r, p in zip(rows, paired_rows(rows), strict=True):
        r["paired_with_first"] = p
    return {"players": players, "games": games, "seed": seed, "rows": rows}


def _interval(lo: float | None, hi: float | None, pct: bool = False) -> str:
    def f(x: float | None) -> str:
        return "?" if x is None else (f"{x:.0%}" if pct else f"{x:.2f}")

    return f"[{f(lo)}, {f(hi)}]"


def format_markdown(table: dict[str, Any]) -> str:
    """The table as markdown: one row per bot."""
    lines = [
        "| bot | observer | players | games | turn 50 % [95 %] | AUC [95 %] (chance) | log-loss (chance) "
        "| win rate [95 %] | paired vs first: difference [95 %], p | observer ms/action |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in table["rows"]:
        t50 = "never" if r["turn50"] is None else str(r["turn50"])
        lo, hi = r["turn50_ci95"]
        t50 += f" [{'never' if lo is None else lo}, {'never' if hi is None else hi}]"
        p = r.get("paired_with_first")
        pair = "—"
        if p is not None:
            pair = (
                f"{p['difference']:+.1%} {_interval(*p['ci95'], pct=True)}, p = {p['p_value']:.2g}"
            )
        lines.append(
            f"| `{r['bot']}` | `{r['observer']}` | {r['players']} | {r['games']} | {t50} | "
            f"{r['auc']:.2f} {_interval(*r['auc_ci95'])} ({r['auc_chance']:.2f}) | "
            f"{r['log_loss']:.2f} ({r['log_loss_chance']:.2f}) | "
            f"{r['win_rate']:.0%} {_interval(*r['win_ci95'], pct=True)} | {pair} | "
            f"{r['cost']['ms_per_public_action']:.0f} |"
        )
    return "\n".join(lines)


def plot_accuracy(table: dict[str, Any], path: str | Path) -> Path:
    """Accuracy by own turn, one line per bot with its 95 % band, and the chance curve."""
    from arena.plots import _pyplot, save_figure

    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for r in table["rows"]:
        x = np.array(r["own_turn"])
        y = np.array([np.nan if v is None else v for v in r["accuracy"]], dtype=float)
        ci = np.array([[np.nan if v is None else v for v in c] for c in r["accuracy_ci95"]])
        keep = np.array(r["samples"]) >= max(3, r["games"] // 4)
        (line,) = ax.plot(x[keep], y[keep], "o-", ms=3, label=f"{r['bot']} ({r['players']}p)")
        ax.fill_between(x[keep], ci[keep, 0], ci[keep, 1], color=line.get_color(), alpha=0.15)
    r0 = table["rows"][0]
    keep = np.array(r0["samples"]) >= max(3, r0["games"] // 4)
    chance = np.array([np.nan if v is None else v for v in r0["chance"]], dtype=float)
    ax.plot(np.array(r0["own_turn"])[keep], chance[keep], "k:", label="chance (prior)")
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("the bot's own turns played")
    fitted = table["rows"][0]["observer"] == "fitted"
    ax.set_ylabel(f"top-1 accuracy ({'fitted role model' if fitted else 'its own policy model'})")
    ax.set_ylim(0, 1)
    ax.set_title(f"leakage, {table['games']} games per bot (seed {table['seed']})")
    ax.legend(fontsize=7, loc="upper left")
    return save_figure(fig, path)


def plot_tradeoff(table: dict[str, Any], path: str | Path) -> Path:
    """Win rate against leakage (AUC), one point per bot, with both intervals."""
    from arena.plots import _pyplot, save_figure

    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(5.4, 4.2))
    for r in table["rows"]:
        x, y = r["auc"], r["win_rate"]
        xe = [[x - (r["auc_ci95"][0] or x)], [(r["auc_ci95"][1] or x) - x]]
        ye = [[y - r["win_ci95"][0]], [r["win_ci95"][1] - y]]
        ax.errorbar(x, y, xerr=xe, yerr=ye, fmt="o", capsize=3, label=r["bot"])
    ax.axhline(1 / table["players"], color="grey", lw=0.8, ls="--", label="fair share")
    ax.set_xlabel(f"leakage: accuracy AUC over own turns 1-{table['rows'][0]['horizon']}")
    ax.set_ylabel("win rate")
    ax.set_title(f"against {table['rows'][0]['opponent']}, {table['games']} games each")
    ax.legend(fontsize=7)
    return save_figure(fig, path)


def write_leakage(table: dict[str, Any], out: str | Path, plots: bool = True) -> list[Path]:
    """``out`` (JSON), ``<stem>.md`` and, with ``plots``, ``<stem>_accuracy.png`` and
    ``<stem>_tradeoff.png``; each written atomically."""
    out = Path(out)
    stem = out.with_suffix("")
    written = [atomic_write_text(out, json.dumps(table, indent=1) + "\n")]
    md = stem.with_name(stem.name + ".md")
    written.append(atomic_write_text(md, format_markdown(table) + "\n"))
    if plots:
        for plot, suffix in ((plot_accuracy, "_accuracy"), (plot_tradeoff, "_tradeoff")):
            path = stem.with_name(stem.name + suffix + ".png")
            with atomic_path(path, suffix=".png") as tmp:
                plot(table, tmp)
            written.append(path)
    return written
