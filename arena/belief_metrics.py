"""How good a seat's beliefs about the hidden roles are: accuracy, log-loss, Brier score,
calibration and the probability of the true deal, by turn, with intervals.

:class:`BeliefLogger` plays one game between any bots (``bots``: one spec per seat) and keeps,
for each observing seat, an :class:`agents.beliefs.Belief` with the observer's likelihood model
(``prior``, ``fitted`` or ``policy:<bot spec>``) and one with the prior (the chance values), fed
with that seat's views and the public actions. At the start of every turn it logs each
observer's marginals about every other seat and the probability of the true joint assignment.

:func:`belief_report` scores the logs per game turn and over all turns. A *sample* is one
(game, turn, observer, other seat):

* ``accuracy``: top-1 of the marginal (a tie counts as a fraction);
* ``log_loss``: ``-ln p(true role)``;
* ``brier``: ``sum_k (p_k - [k = true])^2``;
* ``ece``: expected calibration error of the top-1 guess, 10 equal-width confidence bins,
  ``sum_b n_b / N * |accuracy_b - confidence_b|`` (with :func:`plot_reliability`'s diagram);
* ``p_true_assignment``: the probability of the true whole deal, one per (game, turn, observer).

Each comes with a 95 % interval from a bootstrap over games (games resampled with
replacement, every metric recomputed) and its chance value, the prior model's score on the same
samples. The cost is the processor time spent in the observer's belief (not wall time, which a
loaded machine inflates).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import bot_rngs, play_game
from agents.beliefs import Belief, PriorModel, is_public, make_model
from agents.registry import make_bot
from agents.rulesets import game_roles, role_count
from arena.role_eval import REPORT_TURNS
from arena.seeded_games import seeded_games
from nanty_env.engine import Game, GameConfig

METRICS = ("accuracy", "log_loss", "brier", "ece", "p_true_assignment")
BINS = 10
EPS = 1e-12


@dataclass(frozen=True)
class BeliefLogger:
    """Plays one game and logs the observers' beliefs (picklable, for worker processes).

    Args:
        bots: one spec per seat (seat ``s`` is played by ``bots[s]``).
        observer: the observer's model (:func:`agents.beliefs.make_model`).
        model_path: a role model JSON for ``fitted`` (None: the shipped one).
        seats: ``all`` (every seat observes) or ``one`` (seat ``game seed % players`` only,
            for costly observers).
    """

    bots: tuple[str, ...]
    observer: str
    model_path: str | None = None
    seats: str = "all"

    def __call__(self, label: str, config: GameConfig, seed: int) -> dict[str, Any]:
        n = config.num_players
        watch = list(range(n)) if self.seats == "all" else [seed % n]
        beliefs = {
            o: Belief(config, o, make_model(self.observer, self.model_path), seed) for o in watch
        }
        priors = {o: Belief(config, o, PriorModel(), seed) for o in watch}
        cost = {"seconds": 0.0, "views": 0, "public_actions": 0}
        rows: list[dict[str, Any]] = []

        def feed(g: Game, action: int | None) -> None:
            for o in watch:
                v = g.view(o)
                a = action if action is not None and is_public(v, action) else None
                t0 = time.process_time()
                beliefs[o].observe(v, a)
                cost["seconds"] += time.process_time() - t0
                cost["views"] += 1
                cost["public_actions"] += a is not None
                priors[o].observe(v, a)

        def on_turn(g: Game) -> None:
            feed(g, None)
            truth = game_roles(g)
            for o in watch:
                t0 = time.process_time()
                marg = np.array(beliefs[o].marginals())
                p_true = beliefs[o].p(truth)
                cost["seconds"] += time.process_time() - t0
                rows.append(
                    {
                        "turn": g.turn,
                        "observer": o,
                        "p": marg,
                        "prior": np.array(priors[o].marginals()),
                        "p_true": p_true,
                        "prior_true": priors[o].p(truth),
                        "truth": truth,
                    }
                )

        bots = [make_bot(s) for s in self.bots]
        _, rec = play_game(
            bots, config, seed, bot_rngs(seed, n, 99), on_turn=on_turn, on_action=feed
        )
        return {"seed": seed, "n": n, "rows": rows, "cost": cost, "winners": list(rec.winners)}


def _top1(p: np.ndarray, truth: np.ndarray) -> np.ndarray:
    best = p.max(axis=1, keepdims=True)
    tied = p >= best - 1e-12
    return tied[np.arange(len(p)), truth] / tied.sum(axis=1)


# Per (game, turn) sums: samples, accuracy, log-loss, brier, joint samples, p_true, then BINS
# counts, BINS confidence sums and BINS accuracy sums.
_D = 6 + 3 * BINS


def _sums(p: np.ndarray, truth: np.ndarray, p_true: np.ndarray) -> np.ndarray:
    out = np.zeros(_D)
    out[0] = len(p)
    acc = _top1(p, truth)
    pt = p[np.arange(len(p)), truth]
    out[1] = acc.sum()
    out[2] = -np.log(np.maximum(pt, EPS)).sum()
    onehot = np.zeros_like(p)
    onehot[np.arange(len(p)), truth] = 1.0
    out[3] = ((p - onehot) ** 2).sum()
    out[4] = len(p_true)
    out[5] = p_true.sum()
    conf = p.max(axis=1)
    b = np.minimum((conf * BINS).astype(int), BINS - 1)
    out[6 : 6 + BINS] = np.bincount(b, minlength=BINS)
    out[6 + BINS : 6 + 2 * BINS] = np.bincount(b, conf, minlength=BINS)
    out[6 + 2 * BINS :] = np.bincount(b, acc, minlength=BINS)
    return out


def _metrics(s: np.ndarray) -> dict[str, np.ndarray]:
    """Metric values from (possibly bootstrapped, ``[..., _D]``) sums."""
    n = np.maximum(s[..., 0], 1e-300)
    cnt = s[..., 6 : 6 + BINS]
    gap = np.abs(s[..., 6 + 2 * BINS :] - s[..., 6 + BINS : 6 + 2 * BINS])
    return {
        "accuracy": s[..., 1] / n,
        "log_loss": s[..., 2] / n,
        "brier": s[..., 3] / n,
        "ece": gap.sum(axis=-1) / np.maximum(cnt.sum(axis=-1), 1e-300),
        "p_true_assignment": s[..., 5] / np.maximum(s[..., 4], 1e-300),
    }


def game_sums(logs: Sequence[dict[str, Any]]) -> tuple[list[int], np.ndarray, np.ndarray]:
    """(turns, observer sums ``[games, turns, _D]``, prior sums) of the logs."""
    turns = sorted({r["turn"] for d in logs for r in d["rows"]})
    col = {t: i for i, t in enumerate(turns)}
    obs = np.zeros((len(logs), len(turns), _D))
    pri = np.zeros_like(obs)
    for gi, d in enumerate(logs):
        by_turn: dict[int, list[dict[str, Any]]] = {}
        for r in d["rows"]:
            by_turn.setdefault(r["turn"], []).append(r)
        for t, rs in by_turn.items():
            for key, true_key, out in (("p", "p_true", obs), ("prior", "prior_true", pri)):
                ps, ys = [], []
                for r in rs:
                    for q in range(d["n"]):
                        if q != r["observer"]:
                            ps.append(r[key][q])
                            ys.append(r["truth"][q])
                out[gi, col[t]] = _sums(
                    np.array(ps), np.array(ys, dtype=int), np.array([r[true_key] for r in rs])
                )
    return turns, obs, pri


def _interval(boot: np.ndarray) -> list[float]:
    return [float(np.quantile(boot, 0.025)), float(np.quantile(boot, 0.975))]


def belief_report(
    logs: Sequence[dict[str, Any]], boot: int = 1000, seed: int = 0
) -> dict[str, Any]:
    """Every metric per turn and overall, with bootstrap intervals and chance (see module
    docstring): ``{metric: {"overall": {...}, "turn": [...], "value": [...], "ci95": [...],
    "chance": [...], "samples": [...]}}`` plus ``reliability`` (the diagram's bins) and
    ``cost``."""
    turns, obs, pri = game_sums(logs)
    games = len(logs)
    rng = np.random.default_rng(seed)
    counts = rng.multinomial(games, np.full(games, 1.0 / games), size=boot).astype(float)
    report: dict[str, Any] = {}
    tot_o, tot_p = obs.sum(axis=1), pri.sum(axis=1)  # [games, _D]
    m_o, m_p = _metrics(tot_o.sum(axis=0)), _metrics(tot_p.sum(axis=0))
    b_o, b_p = _metrics(counts @ tot_o), _metrics(counts @ tot_p)
    per_o = _metrics(obs.sum(axis=0))  # [turns]
    per_p = _metrics(pri.sum(axis=0))
    per_b = _metrics(np.einsum("bg,gtd->btd", counts, obs))  # [boot, turns]
    for k in METRICS:
        report[k] = {
            "overall": {
                "value": float(m_o[k]),
                "ci95": _interval(b_o[k]),
                "chance": float(m_p[k]),
                "chance_ci95": _interval(b_p[k]),
            },
            "turn": turns,
            "value": [float(x) for x in per_o[k]],
            "ci95": [_interval(per_b[k][:, i]) for i in range(len(turns))],
            "chance": [float(x) for x in per_p[k]],
        }
    report["samples"] = {
        "games": games,
        "overall": int(tot_o[:, 0].sum()),
        "turn": [int(x) for x in obs.sum(axis=0)[:, 0]],
    }
    report["reliability"] = {
        "bins": BINS,
        "count": [int(x) for x in tot_o.sum(axis=0)[6 : 6 + BINS]],
        "confidence": _ratio(tot_o.sum(axis=0), 6 + BINS),
        "accuracy": _ratio(tot_o.sum(axis=0), 6 + 2 * BINS),
        "chance_count": [int(x) for x in tot_p.sum(axis=0)[6 : 6 + BINS]],
        "chance_confidence": _ratio(tot_p.sum(axis=0), 6 + BINS),
        "chance_accuracy": _ratio(tot_p.sum(axis=0), 6 + 2 * BINS),
    }
    secs = sum(d["cost"]["seconds"] for d in logs)
    acts = sum(d["cost"]["public_actions"] for d in logs)
    report["cost"] = {
        "seconds": secs,
        "views": sum(d["cost"]["views"] for d in logs),
        "public_actions": acts,
        "ms_per_public_action": 1000.0 * secs / max(acts, 1),
    }
    return report


def _ratio(s: np.ndarray, start: int) -> list[float | None]:
    cnt = s[6 : 6 + BINS]
    return [float(s[start + i] / cnt[i]) if cnt[i] else None for i in range(BINS)]


def evaluate_beliefs(
    bots: Sequence[str],
    observer: str,
    games: int,
    seed: int,
    *,
    model_path: str | None = None,
    seats: str = "all",
    boot: int = 1000,
    workers: int | None = None,
    progress: bool = True,
    expansion: str | None = None,
    content: str | None = None,
    ray_address: str | None = None,
) -> dict[str, Any]:
    """Play ``games`` games (seeds ``seed * 100000 + i``, seat ``s`` played by ``bots[s]``;
    on a Ray cluster with ``ray_address``) and report the observer's belief metrics
    (:func:`belief_report`)."""
    n = len(bots)
    logger = BeliefLogger(tuple(bots), observer, model_path, seats)
    logs = seeded_games(
        logger,
        ",".join(bots),
        n,
        games,
        seed,
        workers=workers,
        progress=progress,
        label=f"beliefs ({observer})",
        expansion=expansion,
        content=content,
        ray_address=ray_address,
    )
    report = belief_report(logs, boot=boot, seed=seed)
    config = GameConfig(num_players=n, expansion=expansion, content=content)
    head = {
        "observer": observer,
        "bots": list(bots),
        "players": n,
        "games": games,
        "seed": seed,
        "observer_seats": seats,
        "model": model_path,
        "roles": role_count(config),
        "expansion": expansion,
    }
    return head | report


_LOWER_IS_BETTER = {"log_loss", "brier", "ece"}


def format_belief_report(report: dict[str, Any]) -> str:
    """The overall table and the per-turn one at :data:`arena.role_eval.REPORT_TURNS`."""
    what = "objective" if report.get("expansion") else "personality"
    lines = [
        f"beliefs about each other seat's {what}: observer {report['observer']}, "
        f"{report['players']} players, bots {','.join(report['bots'])}, "
        f"{report['games']} games (seed {report['seed']}), "
        f"{report['samples']['overall']} samples",
        f"  {'metric':<18} {'value':>7} {'95% interval':>17} {'chance':>7}",
    ]
    for k in METRICS:
        o = report[k]["overall"]
        lo, hi = o["ci95"]
        lines.append(
            f"  {k:<18} {o['value']:>7.3f} {f'[{lo:.3f}, {hi:.3f}]':>17} {o['chance']:>7.3f}"
        )
    c = report["cost"]
    lines.append(
        f"  cost: {c['ms_per_public_action']:.2f} ms per public action "
        f"({c['public_actions']} actions, {c['seconds']:.1f} s)"
    )
    lines.append(
        "  by turn: "
        + "  ".join(f"{k} (chance)" for k in ("accuracy", "log_loss", "ece", "p_true_assignment"))
    )
    acc = report["accuracy"]
    for i, t in enumerate(acc["turn"]):
        if t not in REPORT_TURNS:
            continue
        cells = [
            f"{report[k]['value'][i]:.3f} ({report[k]['chance'][i]:.3f})"
            for k in ("accuracy", "log_loss", "ece", "p_true_assignment")
        ]
        lines.append(f"  {t:>5} {report['samples']['turn'][i]:>6}  " + "  ".join(cells))
    return "\n".join(lines)


def plot_reliability(report: dict[str, Any], path: str | Path) -> Path:
    """Reliability diagram: accuracy of the top-1 guess against its confidence, per bin, for
    the observer and the prior, with the diagonal of perfect calibration."""
    from arena.plots import _pyplot, save_figure

    plt = _pyplot()
    r = report["reliability"]
    fig, ax = plt.subplots(figsize=(4.6, 4.4))
    ax.plot([0, 1], [0, 1], color="grey", ls="--", lw=1, label="calibrated")
    for name, conf, acc, cnt, style in (
        (report["observer"], r["confidence"], r["accuracy"], r["count"], "o-"),
        ("prior", r["chance_confidence"], r["chance_accuracy"], r["chance_count"], "s:"),
    ):
        pts = [(c, a, n) for c, a, n in zip(conf, acc, cnt, strict=True) if n]
        if pts:
            x, y, w = map(np.array, zip(*pts, strict=True))
            ax.plot(x, y, style, label=name)
            ax.scatter(x, y, s=10 + 200 * w / w.sum(), alpha=0.3)
    ece = report["ece"]["overall"]["value"]
    ax.set_xlabel("confidence of the top-1 guess")
    ax.set_ylabel("accuracy")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_title(f"{report['players']} players, {report['games']} games, ECE {ece:.3f}")
    ax.legend(loc="upper left")
    return save_figure(fig, path)
