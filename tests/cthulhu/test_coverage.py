"""The coverage counter (``nanty coverage``): every category counted over a few games, the base
game and the expansion, and the plot written."""

from __future__ import annotations

import pytest

from nanty_env.engine.coverage import CATEGORIES, count_coverage, coverage_report


def test_expansion_coverage_counts_every_category():
    cov = count_coverage(6, expansion="cthulhu", seed=3)
    assert sum(cov.counts["end"].values()) == 6
    for c in ("card", "symbol", "event", "ability", "decision", "end"):
        assert cov.counts[c], c
    assert len(cov.universe["card"]) == 95 and len(cov.universe["interrupt"]) == 6
    assert set(cov.universe["end"]) == {"sudden_death", "deck", "doomsday"}
    assert cov.counts["symbol"]["insanity"] > 0
    table = cov.table()
    assert "| card | Samuel Pickwick |" in table and "| end | doomsday |" in table
    assert set(cov.never()) == set(CATEGORIES)


def test_base_coverage_and_the_report():
    text = coverage_report(3, seed=1)
    assert "Coverage over 3 games (base game)" in text and "| symbol | event |" in text


@pytest.mark.slow
def test_plot(tmp_path):
    pytest.importorskip("matplotlib")
    out = count_coverage(1, expansion="cthulhu").plot(tmp_path / "cov.png")
    assert out.exists() and out.stat().st_size > 1000
