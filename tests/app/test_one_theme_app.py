"""One theme at a time in what the commands print: ``nanty replay``'s text of a whole record
and the web replay's steps carry no word of the other theme (see tests/env/test_one_theme.py)."""

from __future__ import annotations

import io

import pytest

from nanty_app.replay import print_replay
from nanty_app.table import Table
from nanty_app.web.uploads import _themed
from nanty_env.engine import GameConfig
from tests.env.test_one_theme import problems


@pytest.mark.parametrize("theme", ["nanty", "discworld"])
@pytest.mark.parametrize("expansion", [None, "cthulhu"])
def test_a_replayed_record_is_told_in_its_theme(theme, expansion) -> None:
    table = Table(GameConfig(num_players=3, theme=theme, expansion=expansion), 6, ["random"] * 3)
    table.advance()
    out = io.StringIO()
    assert print_replay(table.record(), out) == 0
    text = out.getvalue()
    assert problems(text, theme) == []
    other = "£3 and an agent" if theme == "discworld" else "$3 and a minion"
    assert problems(_themed({"text": other}, theme)["text"], theme) == []  # an old record's
