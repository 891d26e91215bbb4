"""``nanty coverage``: the table (and plot) for the base game, the expansion, and seated bots."""

from __future__ import annotations

import pytest

from nanty_app.cli import main


def test_coverage_of_the_expansion(capsys):
    assert main(["coverage", "--games", "2", "--expansion", "cthulhu", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "Coverage over 2 games (cthulhu)" in out
    assert "| card | Samuel Pickwick |" in out and "| end | doomsday |" in out


@pytest.mark.slow
def test_coverage_with_bots_and_a_plot(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    plot = tmp_path / "cov.png"
    assert main(["coverage", "--games", "1", "--bots", "random,random", "--plot", str(plot)]) == 0
    out = capsys.readouterr().out
    assert "Coverage over 1 games (base game)" in out and plot.exists()
