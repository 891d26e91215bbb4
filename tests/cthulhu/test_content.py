"""Every assumed item of the shipped pack at work: the six objectives besides Sloth, the four
Great Old Ones, the Elder Ones' abilities, and the cards whose texts the expansion replaces."""

from __future__ import annotations

import pytest

from tests.cthulhu.conftest import (
    A,
    ar,
    area,
    card,
    dice,
    el,
    ela,
    elder,
    goo_spent,
    pc,
    play,
    position,
    pw,
    sc,
)

TROUBLE_AREAS = (
    "Chelsea",
    "City",
    "East End",
    "Westminster",
    "West End",
    "Holborn",
    "Highbury",
    "Bermondsey",
    "Southwark",
    "Strand",
    "Lambeth",
    "Battersea",
)


def start(objective: str, n: int = 3, **kw):
    others = [x for x in ("sloth", "lust", "greed", "pride") if x != objective]
    return position(n, objectives=(objective, *others[: n - 1]), **kw)


# ---------------------------------------------------------------------- objectives
@pytest.mark.parametrize("n, need", [(2, 6), (3, 5), (4, 4)])
def test_pride_controls_areas(n, need):
    mine = {
        x: 1
        for x in ("Westminster", "Strand", "Southwark", "Battersea", "Highbury", "Holborn")[:need]
    }
    others = {s: {"West End": 1} for s in range(1, n)}
    assert start("pride", n, agents={0: mine, **others}).is_terminal
    fewer = dict(list(mine.items())[: need - 1])
    assert not start("pride", n, agents={0: fewer, **others}).is_terminal


@pytest.mark.parametrize("n, need", [(2, 50), (3, 42), (4, 36)])
def test_greed_net_worth_with_loans(n, need):
    assert start(
        "greed", n, money=[need - 12] + [0] * (n - 1), buildings={"Strand": (0, "hotel")}
    ).is_terminal
    g = start("greed", n, money=[need] + [0] * (n - 1), loans={0: ["mr_bent"]})
    assert not g.is_terminal  # a loan counts -£12


def test_wrath_ten_trouble_markers():
    assert start("wrath", trouble=TROUBLE_AREAS[:10]).is_terminal
    assert not start("wrath", trouble=TROUBLE_AREAS[:9]).is_terminal


@pytest.mark.parametrize("n, need", [(2, 8), (3, 7), (4, 6)])
def test_envy_occupied_areas_without_grenadiers_elder_ones_count(n, need):
    areas = TROUBLE_AREAS[3 : 3 + need]
    mine = {x: 1 for x in areas[:-1]}
    others = {s: {"Chelsea": 1} for s in range(1, n)}
    elders = {"yig": (0, areas[-1])}
    assert start("envy", n, agents={0: mine, **others}, elders=elders).is_terminal
    g = start("envy", n, agents={0: mine, **others}, elders=elders, grenadiers={areas[0]: 1})
    assert not g.is_terminal


@pytest.mark.parametrize("n, need", [(2, 16), (3, 14), (4, 12)])
def test_gluttony_pieces_on_board(n, need):
    agents = {0: {"Lambeth": need - 3}, **{s: {"Chelsea": 1} for s in range(1, n)}}
    kw = {
        "agents": agents,
        "buildings": {"Strand": (0, "office")},
        "elders": {"yig": (0, "Lambeth"), "dagon": (0, "Lambeth")},
    }
    assert start("gluttony", n, **kw).is_terminal
    kw["agents"] = {**agents, 0: {"Lambeth": need - 4}}
    assert not start("gluttony", n, **kw).is_terminal


def test_lust_five_hp_of_elder_ones():
    assert start("lust", elders={"yig": (0, "Chelsea"), "ghatanothoa": (0, "City")}).is_terminal
    assert not start("lust", elders={"ghatanothoa": (0, "City")}).is_terminal
    assert not start("lust", elders={"basatan": (0, "City"), "ithaqua": (0, "City")}).is_terminal


# ---------------------------------------------------------------------- Great Old Ones
def boards(money: int = 10, **kw):
    kw.setdefault("agents", {0: {"Lambeth": 1}, 1: {"City": 1}, 2: {"Chelsea": 1}})
    kw.setdefault("hands", [["groat"], [], []])
    return position(3, money=[money, 10, 10], **kw)


def test_cthulhu_pays_five_to_advance_the_insanity_marker():
    g = boards(money=5, great_old_ones=("cthulhu", "hastur", "nyarlathotep"), insanity=4)
    g.apply(A.GOO_ABILITY)  # level 5: an event box (the first event is drawn)
    assert g.insanity == 5 and g.money[0] == 0 and len(g.events_done) == 1
    assert boards(
        money=4, great_old_ones=("cthulhu", "hastur", "nyarlathotep")
    ).legal_actions() == [pc("groat")]


def test_hastur_places_trouble_where_you_have_a_minion():
    g = boards(great_old_ones=("hastur", "cthulhu", "nyarlathotep"), elders={"yig": (0, "Strand")})
    g.apply(A.GOO_ABILITY)
    assert g.decision == "trouble_on"
    assert set(g.legal_actions()) == {ar("Lambeth"), ar("Strand")}
    g.apply(ar("Strand"))
    assert g.trouble[area("Strand")] == 1


def test_nyarlathotep_moves_one_of_your_minions():
    g = boards(great_old_ones=("nyarlathotep", "cthulhu", "hastur"), elders={"yig": (0, "Strand")})
    g.apply(A.GOO_ABILITY)
    assert set(g.legal_actions()) == {pw("Lambeth", 0), el("yig")}
    play(g, el("yig"), ar("Holborn"))
    assert g.elder_area[elder("yig")] == area("Holborn")


def test_shub_niggurath_pays_one_plus_one_per_elder_one():
    g = boards(
        money=0,
        great_old_ones=("shub_niggurath", "cthulhu", "hastur"),
        elders={"yig": (0, "Strand"), "dagon": (0, "Strand")},
    )
    g.apply(A.GOO_ABILITY)
    assert g.money[0] == 3


# ---------------------------------------------------------------------- Elder Ones
def elders(**kw):
    kw.setdefault("agents", {0: {"Lambeth": 1}, 1: {"Lambeth": 1, "City": 1}, 2: {"Chelsea": 1}})
    return goo_spent(boards(**kw))


def test_basatan_removes_a_minion_or_a_grenadier_from_its_area():
    g = elders(
        elders={"basatan": (0, "Lambeth"), "ithaqua": (1, "Lambeth")}, grenadiers={"Lambeth": 1}
    )
    g.apply(ela("basatan"))
    assert g.decision == "kill"
    assert set(g.legal_actions()) == {pw("Lambeth", 1), pw("Lambeth", 4)}  # never an Elder One
    g.apply(pw("Lambeth", 4))
    assert g.gren[area("Lambeth")] == 0


def test_bokrug_places_trouble_in_its_area():
    g = elders(elders={"bokrug": (0, "Strand")})
    g.apply(ela("bokrug"))
    assert g.trouble[area("Strand")] == 1 and ela("bokrug") not in g.legal_actions()


def test_yig_places_an_agent_in_its_area():
    g = elders(elders={"yig": (0, "Highbury")})
    play(g, ela("yig"), ar("Highbury"))
    assert g.agents[0][area("Highbury")] == 1


def test_ithaqua_places_trouble_here_or_next_door():
    g = elders(elders={"ithaqua": (0, "Highbury")})
    g.apply(ela("ithaqua"))
    assert set(g.legal_actions()) == {ar(x) for x in ("Highbury", "Holborn", "City", "East End")}


def test_ghatanothoa_collects_a_pound_per_minion_of_the_others_there():
    g = elders(elders={"ghatanothoa": (0, "Lambeth"), "yig": (1, "Lambeth")}, money=0)
    g.apply(ela("ghatanothoa"))
    assert g.money[0] == 2 and g.money[1] == 8


# ---------------------------------------------------------------------- replaced texts
def test_samuel_pickwick_moves_a_minion_out_of_trouble_elder_ones_included():
    g = goo_spent(
        position(
            3,
            agents={0: {"Lambeth": 1, "City": 1}, 1: {"Chelsea": 1}, 2: {"Strand": 1}},
            elders={"yig": (0, "Highbury")},
            trouble=["Lambeth", "Highbury"],
            hands=[["rincewind"], [], []],
            insanity=1,
        )
    )
    dice(g, 1)
    play(g, pc("rincewind"), A.CONFIRM, A.CONFIRM)  # insanity, then the scroll
    assert g.decision == "pick_minion"
    assert set(g.legal_actions()) == {pw("Lambeth", 0), el("yig")}  # not the City: no trouble
    play(g, el("yig"), ar("East End"))
    assert g.elder_area[elder("yig")] == area("East End")


def test_mrs_cake_takes_a_face_up_card():
    g = goo_spent(position(3, hands=[["mrs_cake"], [], []], face_up=["hex", "modo", "errol"]))
    play(g, pc("mrs_cake"), A.CONFIRM)
    assert set(g.legal_actions()) == {sc("hex"), sc("modo"), sc("errol")}
    g.apply(sc("modo"))
    assert card("modo") in g.hands[0] and len(g.faceup) == 3 and card("modo") not in g.faceup


def test_zorgo_may_advance_the_insanity_marker():
    g = goo_spent(
        position(3, hands=[["zorgo_the_retro_phrenologist"], [], []], insanity=6, money=[0, 0, 0])
    )
    play(g, pc("zorgo_the_retro_phrenologist"), A.CONFIRM)
    assert g.insanity == 7
    g = goo_spent(position(3, hands=[["zorgo_the_retro_phrenologist"], [], []], insanity=6))
    play(g, pc("zorgo_the_retro_phrenologist"), A.PASS)
    assert g.insanity == 6  # the scroll is optional


def test_sybil_vimes_pays_two_per_elder_one():
    g = goo_spent(
        position(
            3,
            hands=[["sybil_vimes"], [], []],
            money=[0, 0, 0],
            elders={"yig": (0, "City"), "dagon": (0, "City")},
        )
    )
    play(g, pc("sybil_vimes"), A.CONFIRM, A.CONFIRM)
    assert g.money[0] == 3 + 4


def test_reacher_gilt_takes_three_from_a_player():
    g = goo_spent(position(3, hands=[["reacher_gilt"], [], []], money=[0, 10, 10]))
    play(g, pc("reacher_gilt"), A.CONFIRM, A.PLAYER + 2)
    while g.decision == "react":
        g.apply(A.PASS)
    assert g.money == [3, 10, 7]
