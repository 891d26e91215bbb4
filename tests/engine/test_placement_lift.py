"""Placing an agent when all twelve are out: lift one first, never into nowhere, and an
optional placement (William Gladstone's second agent) can still be declined."""

from __future__ import annotations

from nanty_env.engine import actions as A
from nanty_env.engine.position import area, build_position, card


def _start(hand: str, agents: dict[str, int], **kw):
    g = build_position(4, agents={0: agents}, hands=[[hand], [], [], []], **kw)
    g.apply(A.PLAY_CARD + card(hand))
    return g


def test_lift_is_only_offered_where_a_legal_spot_remains() -> None:
    # Willikins: place in an area with your building; the only building is in Lambeth, so
    # lifting the Lambeth agent would leave nowhere to go.
    g = _start(
        "willikins",
        {"seven_sleepers": 1, "dolly_sisters": 11},
        buildings={"seven_sleepers": 0},
    )
    g.apply(A.CONFIRM)
    assert g.decision == "place_agent"
    assert g.legal_actions() == [A.pawn_action(area("dolly_sisters"), 0)]
    g.apply(A.pawn_action(area("dolly_sisters"), 0))
    assert g.legal_actions() == [A.AREA + area("seven_sleepers")]
    g.apply(A.AREA + area("seven_sleepers"))
    assert g.on_board[0] == 12
    assert g.agents[0][area("seven_sleepers")] == 2


def test_no_lift_at_all_when_no_placement_is_possible() -> None:
    # The Smoking Gnu: only troubled area is where all twelve agents stand -> nothing happens.
    g = _start("the_smoking_gnu", {"dolly_sisters": 12}, trouble=["dolly_sisters"])
    g.apply(A.CONFIRM)
    assert g.decision != "place_agent"
    assert g.on_board[0] == 12


def test_optional_second_agent_can_be_declined_with_all_twelve_out() -> None:
    g = _start("archchancellor_ridcully", {"dolly_sisters": 12}, events=["fog"] * 1)
    g.apply(A.CONFIRM)  # the random event (Fog)
    g.apply(A.CONFIRM)  # the scroll
    assert g.decision == "place_agent"
    assert A.PASS not in g.legal_actions()  # the first agent is not optional
    g.apply(A.pawn_action(area("dolly_sisters"), 0))
    g.apply(A.AREA + area("unreal_estate"))
    assert g.decision == "place_agent"
    assert A.PASS in g.legal_actions()  # the second one is
    g.apply(A.pawn_action(area("dolly_sisters"), 0))
    assert A.PASS not in g.legal_actions()  # once lifted, the agent must be placed
    assert g.on_board[0] == 11
