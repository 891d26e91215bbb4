"""Rule 7, summoning (d12 against the Insanity level, HP x excess in £, placed by one of your
minions with a trouble marker, its ability not in the turn it arrived), and rule 8,
assassination (as before, no grenadiers; Elder Ones take hits, sacrifices add hits, hits equal
to HP send it back to the pool; interrupts answer as in the base game)."""

from __future__ import annotations

from tests.cthulhu.conftest import (
    A,
    ar,
    area,
    card,
    dice,
    el,
    ela,
    elder,
    finish_turn,
    goo_spent,
    pc,
    play,
    position,
    pw,
)


def summoner(insanity: int, money: int, **kw):
    kw.setdefault("agents", {0: {"Lambeth": 1, "Chelsea": 1}, 1: {"City": 1}, 2: {"Strand": 1}})
    kw.setdefault("hands", [["buggy_swires", "groat"], ["gaspode"], ["susan"]])
    return goo_spent(position(3, insanity=insanity, money=[money, 10, 10], **kw))


def test_a_roll_at_most_the_level_summons_for_free():
    g = summoner(insanity=6, money=0)
    play(g, pc("buggy_swires"))
    dice(g, 6)
    g.apply(A.CONFIRM)  # roll 6 against level 6
    assert g.decision == "summon"
    pool = {el(x) for x in ("basatan", "bokrug", "dagon", "yig", "ithaqua", "ghatanothoa")}
    assert set(g.legal_actions()) == {A.PASS} | pool  # all free, even with £0
    g.apply(el("basatan"))
    assert g.decision == "summon_place"
    assert {a - A.AREA for a in g.legal_actions()} == {area("Lambeth"), area("Chelsea")}
    g.apply(ar("Lambeth"))
    b = elder("basatan")
    assert g.elder_area[b] == area("Lambeth") and g.elder_owner[b] == 0 and g.money[0] == 0
    assert g.trouble[area("Lambeth")] == 1  # placed with a trouble marker
    assert g.elder_arrived[b] == g.turn


def test_rulebook_example_basatan_costs_six_for_a_seven_at_level_four():
    g = summoner(insanity=4, money=6)
    play(g, pc("buggy_swires"))
    dice(g, 7)
    g.apply(A.CONFIRM)
    legal = set(g.legal_actions())
    assert el("basatan") in legal and el("yig") in legal  # HP 2: £6; HP 1: £3
    assert el("dagon") not in legal and el("ghatanothoa") not in legal  # HP 3: £9, HP 4: £12
    play(g, el("basatan"), ar("Chelsea"))
    assert g.money[0] == 0 and g.elder_owner[elder("basatan")] == 0


def test_summoning_with_no_money_and_a_high_roll_does_nothing():
    g = summoner(insanity=2, money=0)
    play(g, pc("buggy_swires"))
    dice(g, 12)
    g.apply(A.CONFIRM)
    assert g.decision == "end"  # nothing affordable: no decision, nothing summoned
    assert all(o < 0 for o in g.elder_owner)


def test_summon_is_optional_after_the_roll():
    g = summoner(insanity=8, money=5)
    play(g, pc("buggy_swires"))
    dice(g, 1)
    play(g, A.CONFIRM, A.PASS)
    assert all(o < 0 for o in g.elder_owner) and g.money[0] == 5


def test_an_elder_ones_ability_waits_a_turn():
    g = summoner(insanity=12, money=0, elders={"yig": (1, "City")})
    play(g, pc("buggy_swires"))
    dice(g, 3)
    play(g, A.CONFIRM, el("dagon"), ar("Lambeth"))
    assert ela("dagon") not in g.legal_actions()  # arrived this turn
    finish_turn(g)
    assert g.active == 1 and ela("yig") in g.legal_actions()  # an old one of player 1
    finish_turn(g)
    finish_turn(g)
    assert g.active == 0 and ela("dagon") in g.legal_actions()
    money = g.money[0]
    g.apply(ela("dagon"))  # take £2, once per turn, not an action
    assert g.money[0] == money + 2 and ela("dagon") not in g.legal_actions()
    assert g.decision == "main"


def test_a_summoned_elder_one_can_be_summoned_again_after_its_removal():
    g = summoner(
        insanity=12,
        money=0,
        elders={"yig": (1, "Lambeth")},
        trouble=["Lambeth"],
        hands=[["dr_cruces", "buggy_swires"], [], []],
    )
    play(g, pc("dr_cruces"), el("yig"))  # HP 1: one skull removes it
    assert g.elder_area[elder("yig")] == -1 and g.elder_owner[elder("yig")] == -1
    play(g, A.PASS)  # no money taken
    finish_turn(g)
    finish_turn(g)
    finish_turn(g)
    g.apply(pc("buggy_swires"))
    dice(g, 1)
    g.apply(A.CONFIRM)
    assert el("yig") in g.legal_actions()


# ---------------------------------------------------------------------- assassination
def attacker(**kw):
    kw.setdefault("agents", {0: {"Lambeth": 2}, 1: {"Lambeth": 1, "City": 1}, 2: {"Strand": 1}})
    kw.setdefault("trouble", ["Lambeth"])
    kw.setdefault("hands", [["death", "dr_cruces"], [], []])
    return goo_spent(position(3, **kw))


def test_assassinate_an_agent_as_in_the_base_game_but_never_a_grenadier():
    g = attacker(grenadiers={"Lambeth": 1}, citizens={"Lambeth": 1})
    play(g, pc("dr_cruces"))
    legal = set(g.legal_actions())
    assert pw("Lambeth", 1) in legal and pw("Lambeth", 5) in legal  # agent and new citizen
    assert pw("Lambeth", 4) not in legal  # no grenadier in the expansion
    assert pw("Lambeth", 0) not in legal  # never your own
    g.apply(pw("Lambeth", 1))
    assert g.agents[1][area("Lambeth")] == 0 and g.trouble[area("Lambeth")] == 0


def test_one_skull_is_one_hit_and_hits_equal_to_hp_remove_it():
    g = attacker(
        elders={"ghatanothoa": (1, "Lambeth")},
        hands=[["death"], [], []],
        agents={0: {"Lambeth": 1}, 1: {"City": 1}, 2: {"Strand": 1}},
    )
    gh = elder("ghatanothoa")
    play(g, pc("death"), el("ghatanothoa"))
    assert g.elder_hits[gh] == 1 and g.decision == "sacrifice"
    g.apply(A.PASS)  # keep the agent
    assert g.elder_area[gh] == area("Lambeth")  # HP 4: still there
    assert g.trouble[area("Lambeth")] == 1  # a hit removes no pawn
    play(g, el("ghatanothoa"), A.PASS)  # the second skull of Col. Sebastian Moran
    assert g.elder_hits[gh] == 2
    finish_turn(g)
    assert g.elder_hits[gh] == 0  # hits last until the end of the turn


def test_sacrifices_add_hits_agent_one_elder_one_its_hp():
    g = attacker(elders={"ghatanothoa": (1, "Lambeth"), "basatan": (0, "Lambeth")})
    gh, ba = elder("ghatanothoa"), elder("basatan")
    play(g, pc("death"), el("ghatanothoa"))
    legal = set(g.legal_actions())
    assert legal == {A.PASS, pw("Lambeth", 0), el("basatan")}
    g.apply(pw("Lambeth", 0))  # an agent: +1
    assert g.elder_hits[gh] == 2 and g.agents[0][area("Lambeth")] == 1
    g.apply(el("basatan"))  # Basatan HP 2: 4 hits = Ghatanothoa's HP
    assert g.elder_area[ba] == -1 and g.elder_owner[ba] == -1  # sacrificed to the pool
    assert g.elder_area[gh] == -1 and g.elder_owner[gh] == -1  # removed: back to the pool
    assert g.trouble[area("Lambeth")] == 0
    assert g.eo[area("Lambeth")] == 0


def test_only_other_players_elder_ones_in_areas_with_trouble():
    g = attacker(elders={"dagon": (1, "City"), "yig": (0, "Lambeth"), "bokrug": (2, "Lambeth")})
    play(g, pc("dr_cruces"))
    legal = set(g.legal_actions())
    assert el("bokrug") in legal  # another player's, in an area with trouble
    assert el("dagon") not in legal  # no trouble in the City
    assert el("yig") not in legal  # your own


def test_toby_saves_an_elder_one():
    g = attacker(elders={"yig": (1, "Lambeth")}, hands=[["dr_cruces"], ["gaspode"], []])
    play(g, pc("dr_cruces"), el("yig"))
    assert g.decision == "react" and g.current_player == 1
    assert A.PLAY_CARD + card("gaspode") in g.legal_actions()
    g.apply(A.PLAY_CARD + card("gaspode"))
    y = elder("yig")
    assert g.elder_owner[y] == 1 and g.elder_area[y] == area("Lambeth")
    assert g.elder_hits[y] == 0
    assert card("gaspode") in g.discard


def test_little_dorrit_saves_an_elder_one_too():
    g = attacker(elders={"yig": (1, "Lambeth")}, hands=[["dr_cruces"], ["susan"], []])
    play(g, pc("dr_cruces"), el("yig"), A.PLAY_CARD + card("susan"))
    assert g.elder_owner[elder("yig")] == 1
