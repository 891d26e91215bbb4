"""How often every card, symbol, event, ability, interrupt, Elder One and ending occurs over
many games, for the base game or the expansion: a rule that never fires, or assumed content that
unbalances the game, shows up as a zero or an outlier.

    >>> from nanty_env.engine import count_coverage
    >>> cov = count_coverage(games=300, expansion="cthulhu")
    >>> print(cov.table())  # Markdown, every item of every category (zeros included)
    >>> cov.plot("coverage.png")  # bar charts (needs matplotlib)

``coverage_report(...)`` does both in one call; it is the function behind
``nanty coverage --games N [--expansion cthulhu]``. Games are played by ``policy`` (uniform
random by default), which sees the whole game: this measures the rules and the content, not a
bot's information. To count games played some other way (bots seated by a harness), call
``Coverage.record(game, action)`` before each action and ``Coverage.end(game)`` at the end.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from nanty_env.data import SYMBOLS
from nanty_env.data.cthulhu import CTHULHU_SYMBOLS
from nanty_env.engine.actions import (
    ABILITY,
    BASE_SPACE,
    CTHULHU_SPACE,
    ELDER,
    ELDER_ABILITY,
    PASS,
    PLAY_CARD,
)
from nanty_env.engine.config import GameConfig
from nanty_env.engine.flow import is_extra_action
from nanty_env.engine.game import Game
from nanty_env.engine.tables import Tables

Policy = Callable[[Game, list[int], random.Random], int]
CATEGORIES = ("card", "symbol", "event", "ability", "interrupt", "elder_one", "decision", "end")
STEP_CAP = 20_000


def random_policy(g: Game, legal: list[int], rng: random.Random) -> int:
    return rng.choice(legal)


@dataclass
class Coverage:
    """Counts by category and item name over ``games`` games (``universe`` lists every item
    that could occur, so that the ones that never did are reported too)."""

    games: int
    expansion: str | None
    counts: dict[str, Counter] = field(default_factory=lambda: {c: Counter() for c in CATEGORIES})
    universe: dict[str, list[str]] = field(default_factory=dict)

    def record(self, g: Game, a: int) -> None:
        """Count what action ``a`` is about to do in ``g`` (call it before applying ``a``)."""
        if not self.universe:
            self.universe = _universe(g.t, g.cfg.expansion)
        _record(self, g, a)

    def end(self, g: Game) -> None:
        """Count a finished game: its events and its ending."""
        if not self.universe:
            self.universe = _universe(g.t, g.cfg.expansion)
        for e in g.events_done:
            self.counts["event"][g.t.data.events[e].name()] += 1
        self.counts["end"][g.outcome.termination.value] += 1

    def never(self) -> dict[str, list[str]]:
        """Items of each category that never occurred."""
        return {
            c: [x for x in self.universe.get(c, []) if not self.counts[c][x]] for c in CATEGORIES
        }

    def rows(self) -> list[tuple[str, str, int]]:
        out = []
        for c in CATEGORIES:
            names = list(self.universe.get(c, []))
            names += sorted(x for x in self.counts[c] if x not in names)
            out += [(c, x, self.counts[c][x]) for x in names]
        return out

    def table(self) -> str:
        """A Markdown table: category, item, count, count per game."""
        ruleset = self.expansion or "base game"
        lines = [
            f"Coverage over {self.games} games ({ruleset})",
            "",
            "| category | item | count | per game |",
            "|---|---|---|---|",
        ]
        for c, x, k in self.rows():
            lines.append(f"| {c} | {x} | {k} | {k / max(self.games, 1):.2f} |")
        missing = {c: xs for c, xs in self.never().items() if xs}
        if missing:
            lines += [
                "",
                "Never occurred: "
                + "; ".join(f"{c}: {', '.join(xs)}" for c, xs in missing.items()),
            ]
        return "\n".join(lines)

    def plot(self, path: str | Path) -> Path:
        """Bar charts of every category, one panel each, written to ``path`` (PNG)."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        cats = [c for c in CATEGORIES if self.universe.get(c) or self.counts[c]]
        sizes = [max(len(self.universe.get(c, [])), len(self.counts[c]), 1) for c in cats]
        fig, axes = plt.subplots(
            len(cats),
            1,
            figsize=(10, 0.16 * sum(sizes) + 1.2 * len(cats)),
            gridspec_kw={"height_ratios": sizes},
        )
        for ax, c in zip(axes, cats, strict=True):
            rows = [(x, k) for cat, x, k in self.rows() if cat == c]
            names = [x for x, _ in rows]
            values = [k / max(self.games, 1) for _, k in rows]
            colours = ["tab:red" if v == 0 else "tab:blue" for v in values]
            ax.barh(range(len(rows)), values, color=colours)
            ax.set_yticks(range(len(rows)), names, fontsize=6)
            ax.invert_yaxis()
            ax.set_title(f"{c} (per game; red: never)", fontsize=8)
            ax.tick_params(axis="x", labelsize=6)
        fig.suptitle(f"Coverage over {self.games} games ({self.expansion or 'base game'})")
        fig.tight_layout()
        out = Path(path)
        tmp = out.with_name(out.name + ".tmp.png")
        fig.savefig(tmp, dpi=110)
        plt.close(fig)
        tmp.replace(out)
        return out


def _universe(t: Tables, expansion: str | None) -> dict[str, list[str]]:
    d = t.data
    cards = [c.name() for c in d.cards]
    interrupts = [c.name() for c in d.cards if c.interrupt]
    out = {
        "card": [x for x, c in zip(cards, d.cards, strict=True) if not c.interrupt],
        "event": [e.name() for e in d.events],
        "interrupt": interrupts,
    }
    if not hasattr(d, "elder_ones"):  # the base game's content (a house variant's too)
        out["symbol"] = [s for s in SYMBOLS if s != "interrupt"]
        out["ability"] = [a.name() for a in d.areas]
        out["end"] = ["goal", "deck", "riots"]
    else:
        out["symbol"] = [s for s in CTHULHU_SYMBOLS if s != "interrupt"]
        out["ability"] = (
            [b.name() for b in d.buildings]
            + [x.name() for x in d.great_old_ones]
            + [e.name() for e in d.elder_ones]
        )
        out["elder_one"] = [e.name() for e in d.elder_ones]
        out["end"] = ["sudden_death", "deck", "doomsday"]
    out["interrupt"] = interrupts
    return out


def _record(cov: Coverage, g: Game, a: int) -> None:
    """Count what action ``a`` is about to do in ``g``."""
    d, counts = g.t.data, cov.counts
    kind = g.decision
    counts["decision"][kind] += 1
    f = g.stack[-1]
    space = CTHULHU_SPACE if g.has_elders else BASE_SPACE
    fam = space.decode(a).family
    if fam == "PLAY_CARD":
        c = d.cards[a - PLAY_CARD]
        counts["interrupt" if c.interrupt else "card"][c.name()] += 1
    elif fam == "ABILITY":
        if g.has_elders:
            counts["ability"][d.buildings[g.btype[a - ABILITY]].name()] += 1
        else:
            counts["ability"][d.areas[a - ABILITY].name()] += 1
    elif fam == "GOO_ABILITY":
        counts["ability"][d.great_old_ones[g.goo[f["p"]]].name()] += 1
    elif fam == "ELDER_ABILITY":
        counts["ability"][d.elder_ones[a - ELDER_ABILITY].name()] += 1
    elif fam == "ELDER" and kind == "summon":
        counts["elder_one"][d.elder_ones[a - ELDER].name()] += 1
    if kind == "card" and a != PASS and not is_extra_action(g, a):
        counts["symbol"][g.t.symbols[f["c"]][f["i"]]] += 1


def count_coverage(
    games: int,
    *,
    expansion: str | None = None,
    players: Sequence[int] = (2, 3, 4),
    seed: int = 0,
    policy: Policy = random_policy,
    content: str | None = None,
) -> Coverage:
    """Play ``games`` seeded games (player counts in turn) and count what happened."""
    cov = Coverage(games, expansion)
    for i in range(games):
        n = players[i % len(players)]
        cfg = GameConfig(num_players=n, log=False, expansion=expansion, content=content)
        g = Game.new(cfg, seed + i)
        rng = random.Random((seed + i) * 7919 + n)
        for _ in range(STEP_CAP):
            if g.is_terminal:
                break
            a = policy(g, g.legal_actions(), rng)
            cov.record(g, a)
            g.apply(a)
        else:
            raise RuntimeError(f"game {i} ({n} players, seed {seed + i}) did not end")
        cov.end(g)
    return cov


def coverage_report(
    games: int,
    *,
    expansion: str | None = None,
    players: Sequence[int] = (2, 3, 4),
    seed: int = 0,
    plot_path: str | Path | None = None,
    policy: Policy = random_policy,
) -> str:
    """Count over ``games`` games and return the table (writing the plot when asked)."""
    cov = count_coverage(games, expansion=expansion, players=players, seed=seed, policy=policy)
    text = cov.table()
    if plot_path is not None:
        text += f"\n\nplot: {cov.plot(plot_path)}"
    return text
