"""Paired comparison of two bots on the same games (duplicate play).

Two tournaments run with the same seed and game settings play the same deals in the same seat
rotations (:mod:`arena.tournament`; game ``i`` is the same whatever the number of games), so one
bot entry of each can be compared game by game on the games both played. What decides between them is the *discordant* games, won by one and not the
other; the games both won or both lost say nothing about which is stronger. The test is
McNemar's exact (sign) test on the discordant games, and the difference in win rate gets a
normal-approximation 95 % interval that uses the pairing (much narrower than two independent
intervals when most games are concordant).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scipy.stats import binomtest

from arena.stats import Z95

if TYPE_CHECKING:
    from arena.tournament import TournamentResult


@dataclass(frozen=True)
class PairedResult:
    """Game-by-game comparison of entry ``a`` against entry ``b``."""

    games: int
    wins_a: int
    wins_b: int
    only_a: int
    only_b: int

    @property
    def difference(self) -> float:
        """Win rate of ``a`` minus that of ``b``."""
        return (self.only_a - self.only_b) / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """95 % interval of :attr:`difference` (normal approximation for paired proportions)."""
        n = self.games
        if n == 0:
            return (-1.0, 1.0)
        d = self.difference
        var = (self.only_a + self.only_b) / n - d * d
        half = Z95 * math.sqrt(max(var, 0.0) / n)
        return (max(-1.0, d - half), min(1.0, d + half))

    @property
    def p_value(self) -> float:
        """Two-sided exact McNemar test: is one of the two wins more of the discordant games
        than a fair coin would give?"""
        return sign_test(self.only_a, self.only_b)


def sign_test(k: int, m: int) -> float:
    """Two-sided exact binomial test of ``k`` successes against ``m`` failures at p = 1/2."""
    if k + m == 0:
        return 1.0
    return float(binomtest(k, k + m, 0.5).pvalue)


def won_games(records: Sequence[Mapping[str, Any]], entry: int) -> dict[tuple[int, int], bool]:
    """``(deal_seed, rotation) -> whether entry `entry` won``, for every record."""
    out = {}
    for r in records:
        seat = list(r["seats"]).index(entry)
        out[(int(r["deal_seed"]), int(r["rotation"]))] = seat in r["winners"]
    return out


def compare(
    records_a: Sequence[Mapping[str, Any]],
    records_b: Sequence[Mapping[str, Any]],
    entry_a: int = 0,
    entry_b: int = 0,
) -> PairedResult:
    """Compare entry ``entry_a`` of one run with entry ``entry_b`` of another on the games
    both runs played (same deal and rotation). Raises ``ValueError`` if they share none."""
    return paired(won_games(records_a, entry_a), won_games(records_b, entry_b))


def paired(won_a: Mapping[Hashable, bool], won_b: Mapping[Hashable, bool]) -> PairedResult:
    """The comparison of two ``game -> won`` maps on the games in both."""
    common = won_a.keys() & won_b.keys()
    if not common:
        raise ValueError("the two runs share no game (same deal seed and rotation)")
    return PairedResult(
        games=len(common),
        wins_a=sum(won_a[g] for g in common),
        wins_b=sum(won_b[g] for g in common),
        only_a=sum(won_a[g] and not won_b[g] for g in common),
        only_b=sum(won_b[g] and not won_a[g] for g in common),
    )


def pooled(results: Sequence[PairedResult]) -> PairedResult:
    """Several comparisons on disjoint games (e.g. one per set of deals) as one."""
    return PairedResult(
        games=sum(r.games for r in results),
        wins_a=sum(r.wins_a for r in results),
        wins_b=sum(r.wins_b for r in results),
        only_a=sum(r.only_a for r in results),
        only_b=sum(r.only_b for r in results),
    )


GAME_OPTIONS = (
    "expansion",
    "content",
    "num_players",
    "personalities",
    "thresholds",
    "interrupt_windows",
)
"""The tournament settings two runs must share for their games to be the same games."""


def compare_runs(
    run_a: TournamentResult, run_b: TournamentResult, entry_a: int = 0, entry_b: int = 0
) -> PairedResult:
    """:func:`compare` on two :class:`~arena.tournament.TournamentResult` (e.g. journals read
    by :func:`~arena.tournament.load_journal`), after checking that they play the same game
    (a ``ValueError`` names the first setting that differs), that the entries exist and that
    the other seats are played by the same bots in the same places (the compared entries may
    differ, nothing else: otherwise the "same game" has other opponents, or the compared bots
    sit in different seats)."""
    for key in GAME_OPTIONS:
        va, vb = getattr(run_a.spec, key), getattr(run_b.spec, key)
        if va != vb and key == "expansion":
            names = [f"the {x} expansion" if x else "the base game" for x in (va, vb)]
            raise ValueError(f"the runs play different rulesets: {names[0]} and {names[1]}")
        if va != vb:
            raise ValueError(f"the runs differ in {key}: {va!r} and {vb!r}")
    for run, entry in ((run_a, entry_a), (run_b, entry_b)):
        if not 0 <= entry < len(run.spec.bots):
            raise ValueError(
                f"no entry {entry}: the run has {len(run.spec.bots)} ({run.spec.bots})"
            )
    lineup_a, lineup_b = lineup(run_a.spec.bots, entry_a), lineup(run_b.spec.bots, entry_b)
    if lineup_a != lineup_b:
        raise ValueError(
            f"the runs' line-ups differ: {', '.join(lineup_a)} and {', '.join(lineup_b)} "
            "(* = the compared bot); compare runs whose other --bots entries are the same, "
            "in the same order"
        )
    return compare(run_a.records, run_b.records, entry_a, entry_b)


def lineup(bots: Sequence[str], entry: int) -> list[str]:
    """The bot list with the compared entry shown as ``*``."""
    return ["*" if i == entry else b for i, b in enumerate(bots)]


def format_paired(result: PairedResult, name_a: str, name_b: str) -> str:
    """A short report of :func:`compare`."""
    n = result.games
    lo, hi = result.ci95
    return "\n".join(
        [
            f"{n} games played by both",
            f"  {name_a}: {result.wins_a} wins ({result.wins_a / n:.1%})",
            f"  {name_b}: {result.wins_b} wins ({result.wins_b / n:.1%})",
            f"won only by the first: {result.only_a}, only by the second: {result.only_b}",
            f"difference {result.difference:+.1%}, 95% CI [{lo:+.1%}, {hi:+.1%}], "
            f"McNemar exact p = {result.p_value:.3g}",
        ]
    )
