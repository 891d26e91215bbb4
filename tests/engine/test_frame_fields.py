"""A view names the pending decision's fields (``context``, ``frame_fields``): every short
frame key the engine uses has a readable name, the names never clash with the keys, and the
naming is undone exactly (``frame_from_fields``)."""

from __future__ import annotations

import random

import pytest

from nanty_env.engine import (
    FIELD_NAMES,
    KEPT_FIELDS,
    KIND_FIELD_NAMES,
    Game,
    GameConfig,
    build_position,
    frame_fields,
    frame_from_fields,
)
from nanty_env.engine import actions as A
from nanty_env.engine.frames import frame_kinds
from nanty_env.engine.position import card
from nanty_env.engine.validation import _FRAME_FIELDS as FRAME_FIELDS
from nanty_env.engine.validation import frame_kind


def frames_of_random_games(expansion: str | None, games: int = 6):
    cfg = GameConfig(num_players=4, expansion=expansion, log=False)
    for seed in range(games):
        g = Game.new(cfg, seed)
        choose = random.Random(seed).choice
        while not g.is_terminal:
            yield g
            g.apply(choose(g.legal))


@pytest.mark.parametrize("expansion", [None, "cthulhu"])
def test_every_frame_key_has_a_readable_name_and_names_undo(expansion):
    readable = set(FIELD_NAMES.values()) | set(KIND_FIELD_NAMES.values())
    for g in frames_of_random_games(expansion):
        view = g.view(g.current_player)
        assert view["context"] == {
            k: v for k, v in frame_fields(g.stack[-1]).items() if k != "kind"
        }
        for f in view["stack"]:
            named = frame_fields(f)
            assert named["kind"] == f["k"]
            for key in named:  # every key is named or a word kept as it is
                assert key in readable or key in KEPT_FIELDS, key
            assert frame_from_fields(named) == f
        assert readable.isdisjoint(FIELD_NAMES) and readable.isdisjoint(KEPT_FIELDS)


def test_context_of_a_card_in_play_names_the_card_and_its_next_symbol():
    g = build_position(
        4,
        hands=[["dr_whiteface"], [], [], []],
        personalities=["sherlock_holmes", "moriarty", "lord_bellinger", "lord_holdhurst"],
    )
    c = card("dr_whiteface")
    g.apply(A.PLAY_CARD + c)
    ctx = g.view(0)["context"]
    assert g.decision == "card"
    assert ctx == {"player": 0, "card": c, "symbol_index": 0}
    assert g.view(1)["context"] == {}  # only the deciding seat gets it


@pytest.mark.parametrize("expansion", [None, "cthulhu"])
def test_every_frame_kind_is_declared_for_the_validator(expansion):
    """``Game.from_dict`` checks every frame against its kind's declaration (keys, domains,
    place on the stack, rule): each kind of each ruleset has one, and every frame random play
    builds holds only the keys it declares, the required ones included."""
    g = Game.new(GameConfig(num_players=2, expansion=expansion, log=False), 0)
    for kind in frame_kinds(expansion):
        assert frame_kind(g, kind) is not None, kind
    for g in frames_of_random_games(expansion, games=3):
        for f in g.stack:
            spec = frame_kind(g, f["k"])
            assert set(spec.required) <= set(f) <= {*spec.required, *spec.optional}, f


def test_stay_counts_agents_and_flags_are_flags():
    """``stay`` counts the agents kept in each flooded area (Holborn may be paid more than
    once there); the fields declared 0/1 are the ones the engine writes with ``int(bool)``."""
    assert FRAME_FIELDS[(None, "stay")].what == "count of staying agents"
    flags = {key for (_, key), d in FRAME_FIELDS.items() if getattr(d, "what", "") == "0/1 flag"}
    assert flags == {"text", "must", "nt", "opt", "lifted", "ft", "any", "need_trouble", "half"}
