"""Rule 4, control (agents, Elder Ones and buildings against each other player and all new
citizens; a grenadier blocks; trouble does not matter), and rule 6, minions (agents and your
Elder Ones, at most two): placing next to any of your minions, moving one, the trouble rule."""

from __future__ import annotations

from nanty_env.engine.board import CITIZEN, GRENADIER, set_pawns
from nanty_env.engine.cthulhu.pieces import controls
from tests.cthulhu.conftest import (
    A,
    ar,
    area,
    dice,
    el,
    elder,
    goo_spent,
    pc,
    pieces,
    play,
    position,
    pw,
)


def board(**kw):
    kw.setdefault("agents", {0: {"Lambeth": 1}, 1: {"Battersea": 2}, 2: {"Chelsea": 1}})
    return position(3, **kw)


def test_control_needs_more_pieces_than_each_other_player():
    g = board(elders={"yig": (0, "Battersea")}, buildings={"Battersea": (0, "office")})
    bat = area("Battersea")
    assert pieces.pieces_in(g, 0, bat) == 2 and pieces.pieces_in(g, 1, bat) == 2
    assert not controls(g, 0, bat) and not controls(g, 1, bat)  # a tie controls nothing
    set_pawns(g, 0, bat, 2)
    assert controls(g, 0, bat) and not controls(g, 1, bat)


def test_control_needs_more_pieces_than_all_new_citizens():
    g = board(citizens={"Lambeth": 1})
    lam = area("Lambeth")
    assert not controls(g, 0, lam)
    set_pawns(g, CITIZEN, lam, 0)
    assert controls(g, 0, lam)
    set_pawns(g, CITIZEN, lam, 1)
    pieces.place_elder(g, elder("yig"), 0, lam)
    assert controls(g, 0, lam)  # an agent and an Elder One beat one new citizen


def test_a_grenadier_blocks_control_and_trouble_does_not_matter():
    g = board(trouble=["Lambeth"])
    lam = area("Lambeth")
    assert controls(g, 0, lam)  # trouble marker there: still controlled
    set_pawns(g, GRENADIER, lam, 1)
    assert not controls(g, 0, lam)


def test_pride_counts_elder_ones_and_buildings():
    g = board(
        objectives=("pride", "lust", "greed"),
        agents={0: {"Lambeth": 1}, 1: {"Battersea": 1}, 2: {"Chelsea": 1}},
    )
    assert pieces.controlled_areas(g, 0) == 1
    for a, name in enumerate(("Westminster", "Strand", "Southwark")):
        pieces.place_building(g, 0, area(name), a)
    pieces.place_elder(g, elder("dagon"), 0, area("Highbury"))
    assert pieces.controlled_areas(g, 0) == 5


def test_place_next_to_any_of_your_minions_elder_ones_included():
    g = goo_spent(
        board(
            agents={0: {"Lambeth": 1}, 1: {"Battersea": 1}, 2: {"Chelsea": 1}},
            elders={"yig": (0, "Bermondsey")},
            hands=[["groat"], [], []],
        )
    )
    play(g, pc("groat"))
    places = {a - A.AREA for a in g.legal_actions() if A.AREA <= a < A.PAWN}
    near_lambeth = {area(x) for x in ("Lambeth", "Westminster", "Southwark", "Strand", "Battersea")}
    near_bermondsey = {area(x) for x in ("Bermondsey", "City", "East End", "Southwark")}
    assert places == near_lambeth | near_bermondsey


def test_place_anywhere_without_minions():
    g = goo_spent(
        board(agents={0: {}, 1: {"Battersea": 1}, 2: {"Chelsea": 1}}, hands=[["groat"], [], []])
    )
    play(g, pc("groat"))
    assert {a - A.AREA for a in g.legal_actions() if A.AREA <= a < A.PAWN} == set(range(12))


def test_an_elder_one_is_a_minion_no_agent_needed_for_anywhere_rule():
    g = goo_spent(
        board(
            agents={0: {}, 1: {"Battersea": 1}, 2: {"Chelsea": 1}},
            elders={"yig": (0, "Highbury")},
            hands=[["groat"], [], []],
        )
    )
    play(g, pc("groat"))
    places = {a - A.AREA for a in g.legal_actions() if A.AREA <= a < A.PAWN}
    assert places == {area(x) for x in ("Highbury", "Holborn", "City", "East End")}


def test_move_an_elder_one_to_an_adjacent_area_under_the_trouble_rule():
    g = goo_spent(
        board(elders={"yig": (0, "Lambeth")}, trouble=["Lambeth"], hands=[["groat"], [], []])
    )
    play(g, pc("groat"))
    assert el("yig") in g.legal_actions()
    g.apply(el("yig"))
    assert g.decision == "move_minion"
    assert {a - A.AREA for a in g.legal_actions()} == {
        area(x) for x in ("Westminster", "Southwark", "Strand", "Battersea")
    }
    g.apply(ar("Battersea"))  # player 1 has agents there
    assert g.elder_area[elder("yig")] == area("Battersea")
    assert g.trouble[area("Battersea")] == 1  # entered an occupied area
    assert g.trouble[area("Lambeth")] == 0  # a pawn left: the marker goes
    assert g.eo[area("Battersea")] == 1 and g.eo[area("Lambeth")] == 0


def test_an_agent_entering_an_area_with_only_an_elder_one_brings_trouble():
    g = goo_spent(
        board(
            agents={0: {"Lambeth": 1}, 1: {"Battersea": 1}, 2: {"Chelsea": 1}},
            elders={"dagon": (1, "Strand")},
            hands=[["groat"], [], []],
        )
    )
    play(g, pc("groat"), ar("Strand"))
    assert g.trouble[area("Strand")] == 1


def test_at_most_two_elder_ones():
    g = goo_spent(
        board(
            elders={"yig": (0, "Lambeth"), "dagon": (0, "Lambeth")},
            hands=[["buggy_swires"], [], []],
            insanity=12,
        )
    )
    play(g, pc("buggy_swires"))
    # the Elder Ones' abilities keep the decision open, but summoning is not among the options
    assert g.decision == "card" and A.CONFIRM not in g.legal_actions()
    g2 = goo_spent(
        board(elders={"yig": (0, "Lambeth")}, hands=[["buggy_swires"], [], []], insanity=12)
    )
    play(g2, pc("buggy_swires"))
    assert A.CONFIRM in g2.legal_actions()


def test_moving_agents_with_all_twelve_out():
    g = goo_spent(
        board(
            agents={0: {"Lambeth": 12}, 1: {"Battersea": 1}, 2: {"Chelsea": 1}},
            hands=[["groat"], [], []],
        )
    )
    play(g, pc("groat"))
    legal = g.legal_actions()
    assert not any(A.AREA <= a < A.PAWN for a in legal)  # nothing left to place
    assert pw("Lambeth", 0) in legal  # but one can move
    dice(g)  # no die is rolled
    play(g, pw("Lambeth", 0), ar("Strand"))
    assert g.agents[0][area("Strand")] == 1


def test_the_metric_loops_are_their_definitions():
    """The expansion's control margins (by ``scoring.seat_lead``), minion areas and Elder One
    checks, written as loops for the compiled build, are what ``control`` and the pieces say,
    along random games."""
    import random

    from nanty_env.engine import Game, GameConfig
    from nanty_env.engine.cthulhu import pieces

    for seed in range(6):
        g = Game.new(GameConfig(num_players=4, expansion="cthulhu", log=False), seed)
        rng = random.Random(seed)
        while not g.is_terminal:
            for s in range(4):
                leads = [pieces.control(g, a) for a in range(12)]
                expected = [c.lead for c in leads if c.controller == s]
                assert pieces.control_margins(g, s) == expected
                elders = [e for e in range(len(g.elder_owner)) if g.elder_owner[e] == s]
                areas = {a for a in range(12) if g.agents[s][a]} | {g.elder_area[e] for e in elders}
                assert pieces.minion_areas(g, s) == sorted(areas)
                assert pieces.owns_elder(g, s) == bool(elders)
                assert pieces.has_minion(g, s) == bool(areas)
            g.apply(rng.choice(g.legal_actions()))


def test_every_ability_kind_has_its_check():
    """``abilities.POSSIBLE`` answers for exactly the kinds a content pack may give."""
    from nanty_env.data.cthulhu.model import ABILITY_KINDS
    from nanty_env.engine.cthulhu.abilities import POSSIBLE

    assert set(POSSIBLE) == set(ABILITY_KINDS)
