"""The Table that seats people and bots: turn order, refusals, records, and what the people at
it may read about the others' moves."""

from __future__ import annotations

import pytest

from nanty_app.table import HUMAN, Table
from nanty_env.engine import GameConfig, IllegalActionError
from nanty_env.engine.tables import tables
from nanty_env.storage.records import check_record


def test_bots_move_until_a_person_must_decide_and_refusals_change_nothing(tmp_path) -> None:
    t = Table(GameConfig(num_players=3), 2, [HUMAN, "random", "heuristic"], records=tmp_path)
    t.advance()
    assert t.human_to_move() and t.to_move == 0
    assert len(t.choices(0)) > 1 and t.choices(1) == []
    before = t.game.to_dict()
    with pytest.raises(IllegalActionError):
        t.play(0, 404)
    with pytest.raises(IllegalActionError, match="not player 1's"):
        t.play(1, t.choices(0)[0][0])
    assert t.game.to_dict() == before
    while not t.over:
        if t.human_to_move():
            t.play(0, t.choices(0)[-1][0])
        t.advance()
    rec = check_record(t.record())
    assert rec.ok and rec.actions == len(t.moves)
    assert t.save().exists()


def test_cards_passed_face_down_are_not_named_to_others() -> None:
    names = [c.name("nanty") for c in tables().data.cards]
    found = 0
    for seed in range(30):
        t = Table(GameConfig(num_players=4), seed, [HUMAN, "random", "random", "random"])
        while not t.over:
            if t.human_to_move():
                t.play(0, t.choices(0)[0][0])
            t.advance()
        for m in t.moves:
            if m.knowers is not None and 0 not in m.knowers:
                shown = m.text_for([0])
                assert "a card" in shown and not any(n in shown for n in names), shown
                assert m.text != shown  # the record keeps the card
                found += 1
            elif m.knowers is not None:
                assert m.text_for([0]) == m.text
        if found >= 3:
            break
    assert found >= 3
