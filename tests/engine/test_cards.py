"""Every one of the 101 action cards, scenario by scenario.

* ``CARDS`` pins the printed symbols of each card, in order (top to bottom).
* ``test_symbol_walk`` plays each non-interrupt card in a position where every symbol can be
  used, and checks at each step that exactly that symbol's choices are offered (so the order
  is checked) and that using it changes the board as the rulebook says.
* The ``test_scroll_*`` tests play each card's scroll text (cards that share a text share a
  parametrized test) and check the concrete effect, plus the FAQ rulings of the rulebook.
* ``test_every_card_is_covered`` checks that the ids covered here are exactly the 101 cards.

Areas are named by their London names; cards by their data ids.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from nanty_env.engine import actions as A
from nanty_env.engine import board, scoring
from nanty_env.engine.errors import IllegalActionError
from nanty_env.engine.game import Game
from nanty_env.engine.position import area, build_position, card, personality
from nanty_env.engine.tables import tables
from tests.engine.conftest import ar, dc, pc, pl, pw, sc

# ---------------------------------------------------------------------------- the deck
# A agent, B building, K assassinate, T remove trouble, $n money, S scroll, E random event,
# P play another card, I interrupt.
CARDS: dict[str, str] = {
    # grey deck
    "mr_boggis": "S A",
    "mr_bent": "S P",
    "the_beggars_guild": "S A",
    "the_bank_of_ankh_morpork": "S P",
    "the_ankh_morpork_sunshine_dragon_sanctuary": "S P",
    "sergeant_angua": "T P",
    "the_agony_aunts": "K $2 A",
    "the_dysk": "B S",
    "the_duckman": "S",
    "drumknott": "S",
    "cmot_dibbler": "S P",
    "dr_cruces": "K $3",
    "captain_carrot": "A T $1",
    "mrs_cake": "S $2 B",
    "groat": "A",
    "gimlet_s_dwarf_delicatessen": "$3 A",
    "gaspode": "I",
    "fresh_start_club": "I",
    "foul_ole_ron": "S P",
    "the_fools_guild": "S A",
    "the_fire_brigade": "S P",
    "inigo_skimmer": "K $2",
    "history_monks": "S A",
    "hex": "S B",
    "here_n_now": "S P",
    "harry_king": "A S",
    "harga_s_house_of_ribs": "$3 A",
    "mr_gryle": "K $1",
    "the_peeled_nuts": "",
    "the_opera_house": "B S",
    "nobby_nobbs": "S P",
    "modo": "S A",
    "the_mended_drum": "B $2",
    "librarian": "S",
    "leonard_of_quirm": "S",
    "shonky_shop": "S B",
    "sacharissa_cripslock": "S A",
    "rosie_palm": "A S",
    "rincewind": "E S P",
    "the_royal_mint": "B $5",
    "queen_molly": "A S",
    "pink_pussycat_club": "$3 P",
    "zorgo_the_retro_phrenologist": "S B",
    "dr_whiteface": "S A",
    "wallace_sonky": "I",
    "the_seamstresses_guild": "S A",
    "mr_pin_and_mr_tulip": "K $1",
    "the_thieves_guild": "S A",
    # red deck
    "sergeant_cheery_littlebottom": "S T",
    "otto_chriek": "S B",
    "the_clacks": "S $2 P",
    "sergeant_colon": "T A",
    "cosmo_lavish": "S P",
    "the_dean": "E S P",
    "death": "K K B",
    "burleigh_and_stronginthearm": "S B",
    "the_bursar": "E S P",
    "cable_street_particulars": "S A",
    "canting_crew": "S A",
    "carcer": "S P",
    "the_chair_of_indefinite_studies": "E S P",
    "sir_charles_lavatory": "S B",
    "dorfl": "S P",
    "sergeant_detritus": "T T",
    "deep_dwarves": "S P",
    "adora_belle_dearheart": "S A B",
    "the_alchemists_guild": "S B",
    "the_auditors": "S",
    "buggy_swires": "T",
    "susan": "I",
    "sybil_vimes": "$3 S",
    "mr_teatime": "$3 K P",
    "the_watch": "B T",
    "wee_mad_arthur": "S",
    "william_de_worde": "A S",
    "willikins": "S",
    "archchancellor_ridcully": "E S",
    "ruby": "A B",
    "the_senior_wrangler": "E S P",
    "mr_shine": "S",
    "mr_slant": "S B",
    "the_smoking_gnu": "S P",
    "stanley": "S A",
    "moist_von_lipwig": "A $3 S P",
    "doctor_mossy_lawn": "I",
    "patrician_s_palace": "B $4 A",
    "ponder_stibbons": "E S",
    "the_post_office": "S A",
    "reacher_gilt": "S",
    "professor_of_recent_runes": "E S P",
    "doctor_hix": "E S P",
    "hobson_s_livery_stable": "S B",
    "hubert": "S A",
    "igor": "I",
    "the_luggage": "K S",
    "the_mob": "S A P",
    "lord_downey": "K $3 B",
    "dwarves": "A A",
    "edward_d_eath": "K $3 B",
    "errol": "S P",
    "gargoyles": "S B",
}
SYMBOL_CODES = {
    "A": "agent",
    "B": "building",
    "K": "assassinate",
    "T": "remove_trouble",
    "$": "money",
    "S": "scroll",
    "E": "event",
    "P": "play_another",
    "I": "interrupt",
}
INTERRUPTS = [cid for cid, s in CARDS.items() if s == "I"]
PLAYABLE = [cid for cid, s in CARDS.items() if s != "I"]
WITH_SCROLL = {cid for cid, s in CARDS.items() if "S" in s.split()}

# Card ids exercised by the scroll tests below (filled in next to each test).
SCROLL_COVERED: set[str] = set()


def covers(*ids: str) -> list[str]:
    """Register ``ids`` as scroll-tested and return them for ``parametrize``."""
    SCROLL_COVERED.update(ids)
    return list(ids)


def parse(code: str) -> list[tuple[str, int]]:
    out = []
    for tok in code.split():
        out.append((SYMBOL_CODES[tok[0]], int(tok[1:]) if tok[0] == "$" else 0))
    return out


# ---------------------------------------------------------------------------- helpers
N = 4
PERSONAS = ("sherlock_holmes", "moriarty", "fagin", "lord_bellinger")


def ids(cards: Iterable[int]) -> list[str]:
    return sorted(tables().card_id(c) for c in cards)


def legal(g: Game) -> set[int]:
    return set(g.legal_actions())


def position(hand: Sequence[str] = (), others: Sequence[Sequence[str]] = (), **kw: Any) -> Game:
    """Seat 0 to play with ``hand``; the other seats hold ``others`` (empty by default, so
    no reaction windows open); no random events unless ``events`` is given."""
    n = kw.pop("num_players", N)
    hands = [list(hand)] + [list(h) for h in others] + [[] for _ in range(n - 1 - len(others))]
    kw.setdefault("events", [])
    # Seat 0 is Sherlock Holmes, who never wins at the start of a turn.
    kw.setdefault("personalities", PERSONAS[:n])
    return build_position(n, hands=hands, **kw)


def let_it_happen(g: Game, seat: int) -> None:
    """``seat`` is offered a reaction window (public policy: they hold cards) and passes."""
    assert (g.decision, g.current_player) == ("react", seat)
    g.apply(A.PASS)


def top(g: Game) -> dict[str, Any]:
    return g.stack[-1]


def to_scroll(g: Game, cid: str) -> None:
    """Play ``cid`` from seat 0's hand, skip the symbols before its scroll, confirm it."""
    c = card(cid)
    g.apply(A.PLAY_CARD + c)
    while True:
        f = top(g)
        assert f["k"] == "card" and f["c"] == c, f
        if tables().symbols[c][f["i"]] == "scroll":
            assert {A.CONFIRM, A.PASS} <= legal(g)
            g.apply(A.CONFIRM)
            return
        g.apply(A.PASS)


def to_end(g: Game) -> None:
    """Skip whatever the active player still may do with the cards in play."""
    while g.decision != "end":
        assert g.current_player == g.active, (g.decision, g.current_player)
        g.apply(A.PASS)


def assert_back_to_card(g: Game, cid: str) -> None:
    """The scroll is over: the card in play is again the pending decision (or done)."""
    f = top(g)
    if f["k"] == "card":
        assert f["c"] == card(cid) and f["p"] == 0
    else:
        assert f["k"] == "end", f


def snapshot(g: Game) -> dict[str, Any]:
    return {
        "agents": [r[:] for r in g.agents],
        "gren": g.gren[:],
        "cit": g.cit[:],
        "trouble": g.trouble[:],
        "building": g.building[:],
        "money": g.money[:],
        "hands": [sorted(h) for h in g.hands],
        "discard": sorted(g.discard),
        "deck": len(g.deck),
        "persona": g.persona[:],
        "loans": [r[:] for r in g.loans],
        "penalties": [r[:] for r in g.penalties],
    }


# ---------------------------------------------------------------------------- the table
def test_table_is_the_whole_deck() -> None:
    t = tables()
    assert len(CARDS) == 101
    assert set(CARDS) == {c.id for c in t.data.cards}
    for c in t.data.cards:
        want = parse(CARDS[c.id])
        assert tuple(s for s, _ in want) == c.symbols, c.id
        assert c.money == sum(m for _, m in want), c.id
        assert c.interrupt == (CARDS[c.id] == "I"), c.id
    assert len(INTERRUPTS) == 6


# ---------------------------------------------------------------------------- symbol walk
# Seat 0 has agents in Battersea (where it can build for £12) and in a troubled Southwark
# (no building there, and no assassinating itself); seat 1 stands in a troubled East End with
# a new citizen, seat 2 in Southwark with a grenadier, seat 3 in Highbury.
WALK_AGENTS = {
    0: {"Battersea": 1, "Southwark": 1},
    1: {"East End": 1},
    2: {"Southwark": 1},
    3: {"Highbury": 1},
}
WALK_TROUBLE = ("East End", "Southwark")


def walk_position(cid: str, events: Sequence[str] = ("fog",)) -> Game:
    second = "groat" if cid == "the_peeled_nuts" else "the_peeled_nuts"
    return position(
        [cid, second],
        agents=WALK_AGENTS,
        trouble=WALK_TROUBLE,
        citizens={"East End": 1},
        grenadiers={"Southwark": 1},
        money=[20, 10, 10, 10],
        events=list(events),
    )


def expected_targets(g: Game, sym: str) -> set[int]:
    """What the rulebook lets seat 0 do with ``sym`` now (computed independently)."""
    t = tables()
    me = g.agents[0]
    if sym == "agent":
        return {A.AREA + a for a in range(12) if any(me[b] and a in t.near[b] for b in range(12))}
    if sym == "building":
        return {
            A.AREA + a
            for a in range(12)
            if me[a] and g.building[a] < 0 and not g.trouble[a] and g.money[0] >= t.cost[a]
        }
    if sym == "assassinate":
        out = set()
        for a in range(12):
            if not g.trouble[a]:
                continue
            out |= {A.pawn_action(a, q) for q in range(1, g.n) if g.agents[q][a]}
            if g.gren[a]:
                out.add(A.pawn_action(a, A.SLOT_GRENADIER))
            if g.cit[a]:
                out.add(A.pawn_action(a, A.SLOT_CITIZEN))
        return out
    if sym == "remove_trouble":
        return {A.AREA + a for a in range(12) if g.trouble[a]}
    if sym in ("money", "scroll", "event"):
        return {A.CONFIRM}
    if sym == "play_another":
        return {A.PLAY_CARD + c for c in g.hands[0] if not t.is_interrupt[c]}
    raise AssertionError(sym)


@pytest.mark.parametrize("cid", PLAYABLE)
def test_symbol_walk(cid: str) -> None:
    """Each symbol in printed order offers exactly its own choices (plus skipping, except for
    the random event), and does what the rulebook says."""
    g = walk_position(cid)
    c = card(cid)
    t = tables()
    g.apply(A.PLAY_CARD + c)
    assert c not in g.hands[0]
    for i, (sym, amount) in enumerate(parse(CARDS[cid])):
        f = top(g)
        assert (f["k"], f["c"], f["i"]) == ("card", c, i), (cid, i, f)
        want = expected_targets(g, sym)
        if sym == "event":
            assert legal(g) == want  # the only action that must be performed
        else:
            assert legal(g) == want | {A.PASS}
        before = snapshot(g)
        if sym == "agent":
            a = min(x - A.AREA for x in want if board.pawn_count(g, x - A.AREA) == 0)
            g.apply(A.AREA + a)
            assert g.agents[0][a] == before["agents"][0][a] + 1
            assert g.trouble == before["trouble"]  # an empty area: no trouble
        elif sym == "building":
            a = area("Battersea")
            g.apply(A.AREA + a)
            assert g.building[a] == 0
            assert g.money[0] == before["money"][0] - 12
            assert board.city_card_owner(g, a) == 0
        elif sym == "assassinate":
            target = min(want)
            a, slot = A.split_pawn(target)
            g.apply(target)
            assert g.agents[slot][a] == before["agents"][slot][a] - 1
            assert g.trouble[a] == 0  # the marker goes with the pawn
            assert board.pawn_count(g, a) == sum(r[a] for r in before["agents"]) - 1 + (
                before["cit"][a] + before["gren"][a]
            )
        elif sym == "remove_trouble":
            a = min(want) - A.AREA
            g.apply(A.AREA + a)
            assert g.trouble[a] == 0
            assert sum(g.trouble) == sum(before["trouble"]) - 1
        elif sym == "money":
            g.apply(A.CONFIRM)
            assert g.money[0] == before["money"][0] + amount
            assert amount == t.money[c]
        elif sym == "scroll":
            g.apply(A.PASS)  # every action but the event may be skipped
            after = snapshot(g)
            after["discard"] = before["discard"]  # (the card itself may be done now)
            assert after == before
        elif sym == "event":
            g.apply(A.CONFIRM)
            assert g.events_done[-1] == tables().data.event_index["fog"]
            assert len(g.deck) == before["deck"] - 5
            assert len(g.discard) == len(before["discard"]) + 5
        elif sym == "play_another":
            g.apply(pc("the_peeled_nuts"))
            assert card("the_peeled_nuts") in g.discard
        else:
            raise AssertionError(sym)
    assert g.decision == "end"
    assert c in g.discard and c not in g.in_play
    assert g.in_play == []


@pytest.mark.parametrize("cid", PLAYABLE)
def test_faq_play_a_card_and_do_nothing(cid: str) -> None:
    """FAQ: a card may be played for none of its actions (the random event aside, which
    must happen: with an empty event deck there is none to draw)."""
    g = walk_position(cid, events=())
    before = snapshot(g)
    g.apply(pc(cid))
    while g.decision != "end":
        assert A.PASS in legal(g), (cid, g.decision)
        g.apply(A.PASS)
    after = snapshot(g)
    assert after["discard"] == sorted([*before["discard"], card(cid)])
    after["discard"] = before["discard"]
    after["hands"][0] = sorted([*after["hands"][0], card(cid)])
    assert after == before


def test_dwarves_second_agent_beside_your_own_makes_trouble() -> None:
    """FAQ: placing an agent where only your own agents stand still adds a trouble marker."""
    g = position(["dwarves"], agents={0: {"Battersea": 1}})
    g.apply(pc("dwarves"))
    g.apply(ar("Chelsea"))
    assert g.trouble[area("Chelsea")] == 0
    g.apply(ar("Chelsea"))
    assert g.agents[0][area("Chelsea")] == 2 and g.trouble[area("Chelsea")] == 1
    assert g.decision == "end"


@pytest.mark.parametrize("cid", INTERRUPTS)
def test_interrupt_cards_are_not_the_card_of_a_turn(cid: str) -> None:
    """Interrupt cards are never played as a turn's card or by 'play another card'; they may
    be discarded at any point of your turn (FAQ: all times are appropriate)."""
    g = position([cid, "pink_pussycat_club", "the_peeled_nuts"])
    assert legal(g) == {pc("pink_pussycat_club"), pc("the_peeled_nuts"), dc(cid)}
    with pytest.raises(IllegalActionError):
        g.apply(pc(cid))
    g.apply(pc("pink_pussycat_club"))
    g.apply(A.CONFIRM)  # £3
    assert pc(cid) not in legal(g) or cid == "doctor_mossy_lawn"
    assert legal(g) - {pc(cid)} == {A.PASS, pc("the_peeled_nuts"), dc(cid)}
    g.apply(dc(cid))
    assert card(cid) in g.discard and card(cid) not in g.hands[0]
    assert g.decision == "card"


# ---------------------------------------------------------------------------- scroll texts
# ----- money from the board
@pytest.mark.parametrize("cid", covers("the_dysk", "the_opera_house"))
def test_scroll_pound_per_pawn_in_strand(cid: str) -> None:
    """£1 for every pawn in Strand: agents of everyone (own included), grenadiers, citizens."""
    g = position(
        [cid],
        agents={0: {"Strand": 1, "Chelsea": 1}, 1: {"Strand": 2}, 2: {"Lambeth": 3}},
        grenadiers={"Strand": 1},
        citizens={"Strand": 1, "Lambeth": 1},
        money=[1, 0, 0, 0],
    )
    to_scroll(g, cid)
    assert g.money[0] == 1 + 5
    assert g.decision == "end"


@pytest.mark.parametrize("cid", covers("sacharissa_cripslock", "otto_chriek", "william_de_worde"))
def test_scroll_pound_per_trouble_marker(cid: str) -> None:
    g = position(
        [cid],
        agents={0: {"Chelsea": 1}, 1: {"Chelsea": 1}},
        trouble=("Chelsea", "Strand", "Lambeth"),
        money=[2, 0, 0, 0],
    )
    to_scroll(g, cid)
    assert g.money[0] == 2 + 3
    assert_back_to_card(g, cid)


@pytest.mark.parametrize("cid", covers("sir_charles_lavatory", "the_post_office"))
def test_scroll_pound_per_building_on_the_board(cid: str) -> None:
    """Every building counts, whoever owns it."""
    g = position(
        [cid],
        buildings={"Chelsea": 0, "Strand": 1, "Lambeth": 1, "City": 3},
        money=[0, 0, 0, 0],
    )
    to_scroll(g, cid)
    assert g.money == [4, 0, 0, 0]


@pytest.mark.parametrize("cid", covers("mr_slant"))
def test_scroll_mr_slant_two_per_pawn_in_a_troubled_area(cid: str) -> None:
    g = position(
        [cid],
        agents={0: {"Chelsea": 1}, 1: {"Chelsea": 2, "Lambeth": 1}, 2: {"Strand": 1}},
        trouble=("Chelsea", "Strand"),
        citizens={"Chelsea": 1},
        money=[0, 0, 0, 0],
    )
    to_scroll(g, cid)
    assert g.decision == "slant"
    assert legal(g) == {ar("Chelsea"), ar("Strand")}  # only areas with a trouble marker
    g.apply(ar("Chelsea"))
    assert g.money[0] == 2 * 4


def test_scroll_mr_slant_without_trouble_does_nothing() -> None:
    g = position(["mr_slant"], money=[0, 0, 0, 0], agents={0: {"Chelsea": 1}})
    to_scroll(g, "mr_slant")
    assert g.money[0] == 0
    assert_back_to_card(g, "mr_slant")


# ----- loans
@pytest.mark.parametrize("cid", covers("mr_bent", "the_bank_of_ankh_morpork"))
def test_scroll_loan(cid: str) -> None:
    """Take £10; the card stays in front of the player (not discarded) and counts -£12 in
    net worth; at the end £12 is repaid, or 15 points are lost."""
    from nanty_env.engine.scoring import points

    g = position([cid], money=[5, 0, 0, 0], agents={0: {"Chelsea": 1}})
    to_scroll(g, cid)
    assert g.money[0] == 15
    assert g.loans[0] == (card(cid),)
    to_end(g)
    assert card(cid) not in g.discard and card(cid) not in g.in_play
    assert scoring.net_worth(g, 0) == 15 - 12
    assert points(g, 0) == 5 + 15 - 12  # one agent, money after repaying
    g.money[0] = 11
    assert points(g, 0) == 5 + 11 - 15  # cannot repay: -15 points


# ----- drawing and discarding
@pytest.mark.parametrize(
    ("cid", "count"),
    [
        ("hex", 3),
        ("librarian", 4),
        ("leonard_of_quirm", 4),
        ("sergeant_cheery_littlebottom", 2),
        ("the_clacks", 2),
        ("moist_von_lipwig", 2),
        ("professor_of_recent_runes", 2),
    ],
)
def test_scroll_draw_cards(cid: str, count: int) -> None:
    covers(cid)
    deck = ["groat", "ruby", "dwarves", "buggy_swires", "the_watch"]
    g = position([cid, "modo"], deck_top=deck)
    to_scroll(g, cid)
    assert ids(g.hands[0]) == sorted(["modo", *deck[:count]])


covers(
    "hex",
    "librarian",
    "leonard_of_quirm",
    "sergeant_cheery_littlebottom",
    "the_clacks",
    "moist_von_lipwig",
    "professor_of_recent_runes",
)


@pytest.mark.parametrize("cid", covers("gargoyles"))
def test_scroll_gargoyles_one_card_per_own_building(cid: str) -> None:
    deck = ["groat", "ruby", "dwarves", "buggy_swires"]
    g = position([cid], deck_top=deck, buildings={"Chelsea": 0, "City": 0, "Strand": 1})
    to_scroll(g, cid)
    assert ids(g.hands[0]) == sorted(deck[:2])  # two own buildings; seat 1's does not count


@pytest.mark.parametrize(("cid", "per_card"), [("harry_king", 2), ("shonky_shop", 1)])
def test_scroll_discard_any_number_for_money(cid: str, per_card: int) -> None:
    covers(cid)
    g = position([cid, "groat", "ruby", "dwarves", "gaspode"], money=[0, 0, 0, 0])
    to_scroll(g, cid)
    assert g.decision == "discard"
    assert legal(g) == {A.PASS} | {dc(x) for x in ("groat", "ruby", "dwarves", "gaspode")}
    g.apply(dc("groat"))
    g.apply(dc("gaspode"))
    g.apply(dc("ruby"))
    assert g.money[0] == 3 * per_card
    g.apply(A.PASS)  # stop whenever you like
    assert ids(g.hands[0]) == ["dwarves"]
    assert g.money[0] == 3 * per_card
    assert {card("groat"), card("ruby"), card("gaspode")} <= set(g.discard)


covers("harry_king", "shonky_shop")


@pytest.mark.parametrize("cid", covers("modo", "the_luggage"))
def test_scroll_discard_one_card_if_you_wish(cid: str) -> None:
    g = position([cid, "groat", "ruby"], money=[0, 0, 0, 0])
    to_scroll(g, cid)
    assert legal(g) == {A.PASS, dc("groat"), dc("ruby")}
    g.apply(dc("ruby"))
    assert ids(g.hands[0]) == ["groat"]
    assert card("ruby") in g.discard
    assert g.money[0] == 0
    assert_back_to_card(g, cid)  # one card at most

    g = position([cid, "groat"])
    to_scroll(g, cid)
    g.apply(A.PASS)
    assert ids(g.hands[0]) == ["groat"]


@pytest.mark.parametrize("cid", covers("the_alchemists_guild"))
def test_scroll_alchemists_discard_up_to_three_then_refill_to_five(cid: str) -> None:
    hand = ["groat", "ruby", "dwarves", "buggy_swires", "the_watch", "modo"]
    deck = ["hex", "librarian", "leonard_of_quirm", "errol"]
    g = position([cid, *hand], deck_top=deck, penalties={0: ["the_fools_guild"]})
    to_scroll(g, cid)
    g.apply(dc("groat"))
    g.apply(dc("ruby"))
    g.apply(dc("dwarves"))
    # three at most: the refill follows at once (the penalty card counts toward five)
    assert len(g.hands[0]) == 4
    assert ids(g.hands[0]) == sorted(["buggy_swires", "the_watch", "modo", "hex"])
    assert_back_to_card(g, cid)


def test_scroll_alchemists_discard_nothing_still_refills() -> None:
    g = position(["the_alchemists_guild", "groat"], deck_top=["hex", "librarian", "errol", "ruby"])
    to_scroll(g, "the_alchemists_guild")
    g.apply(A.PASS)
    assert ids(g.hands[0]) == sorted(["groat", "hex", "librarian", "errol", "ruby"])


@pytest.mark.parametrize("cid", covers("history_monks"))
def test_scroll_history_monks_four_random_cards_from_the_discard(cid: str) -> None:
    pile = ["groat", "ruby", "dwarves", "buggy_swires", "the_watch", "modo"]
    g = position([cid], discard=pile)
    to_scroll(g, cid)
    got = ids(g.hands[0])
    assert len(got) == 4 and set(got) <= set(pile)
    assert len(g.discard) == 2
    assert set(ids(g.discard)) | set(got) == set(pile)
    # random: some seed takes a different set
    seen = set()
    for seed in range(8):
        g = position([cid], discard=pile, seed=seed)
        to_scroll(g, cid)
        seen.add(tuple(ids(g.hands[0])))
    assert len(seen) > 1


def test_scroll_history_monks_short_discard_pile() -> None:
    g = position(["history_monks"], discard=["groat", "ruby"])
    to_scroll(g, "history_monks")
    assert ids(g.hands[0]) == ["groat", "ruby"]
    assert g.discard == []


# ----- money from other players
@pytest.mark.parametrize("cid", covers("mr_boggis", "the_thieves_guild"))
def test_scroll_every_other_player_pays_two_or_all_they_have(cid: str) -> None:
    g = position([cid], money=[0, 5, 1, 0])
    to_scroll(g, cid)
    assert g.money == [3, 3, 0, 0]
    assert_back_to_card(g, cid)


@pytest.mark.parametrize("cid", covers("nobby_nobbs"))
def test_scroll_nobby_nobbs_takes_three_from_one_player(cid: str) -> None:
    g = position([cid], money=[0, 5, 2, 9])
    to_scroll(g, cid)
    assert g.decision == "targeted"
    assert legal(g) == {pl(1), pl(2), pl(3)}  # any other player, never yourself
    g.apply(pl(1))
    assert g.money == [3, 2, 2, 9]

    g = position([cid], money=[0, 5, 2, 9])
    to_scroll(g, cid)
    g.apply(pl(2))
    assert g.money == [2, 5, 0, 9]  # all they have


@pytest.mark.parametrize("cid", covers("hubert"))
def test_scroll_karl_marx_one_player_gives_another_three(cid: str) -> None:
    g = position([cid], money=[4, 5, 2, 9])
    to_scroll(g, cid)
    assert legal(g) == {pl(1), pl(2), pl(3)}  # the payer: not yourself
    g.apply(pl(3))
    assert legal(g) == {pl(1), pl(2)}  # the receiver: neither you nor the payer
    g.apply(pl(1))
    assert g.money == [4, 8, 2, 6]
    assert_back_to_card(g, cid)


@pytest.mark.parametrize("cid", covers("the_ankh_morpork_sunshine_dragon_sanctuary"))
def test_scroll_each_other_player_gives_one_pound_or_a_card(cid: str) -> None:
    g = position([cid], others=[["groat"], ["ruby"], []], money=[0, 3, 0, 0])
    to_scroll(g, cid)
    let_it_happen(g, 1)  # Mr. Goodyear could stop it
    # seat 1 (money and a card) chooses
    assert (g.decision, g.current_player) == ("money_or_card", 1)
    assert legal(g) == {A.CONFIRM, sc("groat")}
    g.apply(A.CONFIRM)
    let_it_happen(g, 2)
    # seat 2 has no money: a card
    assert (g.decision, g.current_player) == ("money_or_card", 2)
    assert legal(g) == {sc("ruby")}
    g.apply(sc("ruby"))
    # seat 3 has neither: nothing
    assert g.current_player == 0
    assert g.money == [1, 2, 0, 0]
    assert ids(g.hands[0]) == ["ruby"]
    assert g.hands[2] == []


@pytest.mark.parametrize("cid", covers("the_beggars_guild", "queen_molly"))
def test_scroll_one_player_hands_you_two_cards_of_their_choice(cid: str) -> None:
    g = position([cid], others=[["groat", "ruby", "dwarves"], [], ["modo"]])
    to_scroll(g, cid)
    assert legal(g) == {pl(1), pl(3)}  # players with cards
    g.apply(pl(1))
    let_it_happen(g, 1)
    assert (g.decision, g.current_player) == ("give_cards", 1)
    assert legal(g) == {sc("groat"), sc("ruby"), sc("dwarves")}
    g.apply(sc("dwarves"))
    assert legal(g) == {sc("groat"), sc("ruby")}
    g.apply(sc("groat"))
    assert ids(g.hands[0]) == ["dwarves", "groat"]
    assert ids(g.hands[1]) == ["ruby"]
    assert g.current_player == 0

    g = position([cid], others=[["groat", "ruby", "dwarves"], [], ["modo"]])
    to_scroll(g, cid)
    g.apply(pl(3))
    let_it_happen(g, 3)
    g.apply(sc("modo"))  # one card is all that player has
    assert ids(g.hands[0]) == ["modo"] and g.hands[3] == []
    assert g.current_player == 0


@pytest.mark.parametrize("cid", covers("rosie_palm", "the_seamstresses_guild"))
def test_scroll_give_a_card_and_be_paid_two(cid: str) -> None:
    g = position([cid, "groat", "ruby"], money=[0, 5, 1, 0])
    to_scroll(g, cid)
    assert legal(g) == {pl(1), pl(2), pl(3)}
    g.apply(pl(1))
    assert (g.decision, g.current_player) == ("sell", 0)
    assert legal(g) == {sc("groat"), sc("ruby")}  # you choose the card
    g.apply(sc("ruby"))
    assert ids(g.hands[1]) == ["ruby"] and ids(g.hands[0]) == ["groat"]
    assert g.money == [2, 3, 1, 0]


def test_scroll_rosetta_davis_buyer_short_of_money_pays_what_they_have() -> None:
    """Rules silent (README 8): a buyer with less than £2 pays what they have."""
    g = position(["rosie_palm", "groat"], money=[0, 5, 1, 0])
    to_scroll(g, "rosie_palm")
    g.apply(pl(2))
    g.apply(sc("groat"))
    assert g.money == [1, 5, 0, 0]
    assert ids(g.hands[2]) == ["groat"]


@pytest.mark.parametrize("cid", ["rosie_palm", "the_seamstresses_guild"])
def test_faq_rosetta_davis_no_card_no_payment(cid: str) -> None:
    """FAQ: with no card left to give, the other player does not pay."""
    g = position([cid], money=[0, 5, 5, 5], others=[["groat"], [], []])
    to_scroll(g, cid)
    assert g.money == [0, 5, 5, 5]
    assert ids(g.hands[1]) == ["groat"]
    assert_back_to_card(g, cid)


# ----- penalty cards and the Fire Brigade
@pytest.mark.parametrize("cid", covers("the_fools_guild", "dr_whiteface"))
def test_scroll_pay_five_or_keep_the_card(cid: str) -> None:
    g = position([cid], money=[0, 7, 3, 0], agents={0: {"Chelsea": 1}})
    to_scroll(g, cid)
    g.apply(pl(1))
    assert (g.decision, g.current_player) == ("pay_or", 1)
    assert legal(g) == {A.PASS, A.CONFIRM}
    g.apply(A.CONFIRM)
    assert g.money == [5, 2, 3, 0]
    assert g.penalties[1] == ()
    to_end(g)
    assert card(cid) in g.discard

    g = position([cid], money=[0, 7, 3, 0], agents={0: {"Chelsea": 1}})
    to_scroll(g, cid)
    g.apply(pl(2))
    assert legal(g) == {A.PASS}  # £3 cannot pay £5: the card is taken
    g.apply(A.PASS)
    assert g.penalties[2] == (card(cid),)
    assert g.money == [0, 7, 3, 0]
    to_end(g)
    assert card(cid) not in g.discard and card(cid) not in g.in_play


def test_faq_irene_adler_is_stuck_and_counts_toward_hand_size() -> None:
    """FAQ: the penalty card stays for the rest of the game, counts toward the hand of five
    (the refill stops one short), and cannot be discarded with the City or Westminster."""
    g = position(
        ["the_fools_guild", "dr_whiteface", "groat"],
        others=[["ruby"], [], []],
        money=[0, 0, 0, 0],
        agents={0: {"Chelsea": 1}},
        deck_top=["hex", "librarian", "errol", "modo", "dwarves", "the_watch", "buggy_swires"],
    )
    to_scroll(g, "the_fools_guild")
    g.apply(pl(1))
    let_it_happen(g, 1)
    assert legal(g) == {A.PASS}
    g.apply(A.PASS)  # seat 1 cannot pay: keeps Irene Adler
    to_end(g)
    g.apply(A.PASS)  # seat 0 ends the turn and refills
    assert g.active == 1
    assert g.penalties[1] == (card("the_fools_guild"),)
    assert card("the_fools_guild") not in g.hands[1]
    assert legal(g) == {pc("ruby")}  # neither playable nor discardable
    g.apply(pc("ruby"))
    to_end(g)
    g.apply(A.PASS)  # seat 1 refills: four cards plus the penalty card make five
    assert len(g.hands[1]) == 4
    assert ids(g.hands[1]) == sorted(["modo", "dwarves", "the_watch", "buggy_swires"])
    assert g.penalties[1] == (card("the_fools_guild"),)


def test_faq_penalty_cards_refill_and_abilities() -> None:
    g = position(
        ["groat"],
        penalties={0: ["the_fools_guild", "dr_whiteface"]},
        buildings={"City": 0, "Westminster": 0},
        agents={0: {"Chelsea": 1}},
        deck_top=["hex", "librarian", "errol", "modo", "dwarves", "the_watch", "buggy_swires"],
    )
    # City and Westminster only ever offer the cards in the hand
    assert A.ABILITY + area("City") in legal(g)
    g.apply(A.ABILITY + area("City"))
    assert legal(g) == {dc("groat")}
    g.apply(dc("groat"))
    assert g.hands[0] == []
    g.apply(A.ABILITY + area("Westminster"))
    assert legal(g) == {dc("hex")}  # the card just drawn; never a penalty card
    g.apply(dc("hex"))
    assert g.penalties[0] == (
        card("the_fools_guild"),
        card("dr_whiteface"),
    )
    g.apply(A.PASS)  # no card to play
    g.apply(A.PASS)  # end of turn: refill to five counting the two penalty cards
    assert len(g.hands[0]) == 3
    assert g.penalties[0] == (
        card("the_fools_guild"),
        card("dr_whiteface"),
    )


@pytest.mark.parametrize("cid", covers("the_fire_brigade"))
def test_scroll_fire_brigade_pay_five_or_lose_a_building(cid: str) -> None:
    g = position(
        [cid],
        money=[0, 9, 9, 3],
        buildings={"Chelsea": 1, "Strand": 1, "Lambeth": 3},
    )
    to_scroll(g, cid)
    assert legal(g) == {pl(1), pl(3)}  # only players with a building
    g.apply(pl(1))
    assert (g.decision, g.current_player) == ("pay_or", 1)
    g.apply(A.PASS)  # refuse to pay
    assert (g.decision, g.current_player) == ("burn_building", 0)
    assert legal(g) == {A.PASS, ar("Chelsea"), ar("Strand")}
    g.apply(ar("Strand"))
    assert g.building[area("Strand")] == -1 and g.building[area("Chelsea")] == 1
    assert g.money == [0, 9, 9, 3]

    g = position([cid], money=[0, 9, 9, 3], buildings={"Chelsea": 1})
    to_scroll(g, cid)
    g.apply(pl(1))
    g.apply(A.CONFIRM)
    assert g.money == [5, 4, 9, 3]
    assert g.building[area("Chelsea")] == 1

    g = position([cid], money=[0, 9, 9, 3], buildings={"Lambeth": 3})
    to_scroll(g, cid)
    g.apply(pl(3))
    assert legal(g) == {A.PASS}  # £3: cannot pay
    g.apply(A.PASS)
    g.apply(ar("Lambeth"))
    assert g.building[area("Lambeth")] == -1


# ----- placing agents and trouble markers
@pytest.mark.parametrize("cid", covers("deep_dwarves", "mr_shine"))
def test_scroll_place_an_agent_anywhere_without_trouble(cid: str) -> None:
    """Any area (not only next to your agents), and no trouble marker even where pawns are."""
    g = position([cid], agents={0: {"Chelsea": 1}, 1: {"East End": 2}})
    to_scroll(g, cid)
    assert g.decision == "place_agent"
    assert legal(g) == {A.AREA + a for a in range(12)}  # no skipping once confirmed
    g.apply(ar("East End"))
    assert g.agents[0][area("East End")] == 1
    assert g.trouble[area("East End")] == 0
    assert_back_to_card(g, cid)


@pytest.mark.parametrize("cid", covers("willikins"))
def test_scroll_willikins_agent_where_you_have_a_building(cid: str) -> None:
    g = position(
        [cid],
        agents={0: {"Chelsea": 1}, 1: {"Lambeth": 1}},
        buildings={"Lambeth": 0, "Highbury": 0, "Strand": 1},
    )
    to_scroll(g, cid)
    assert legal(g) == {ar("Lambeth"), ar("Highbury")}
    g.apply(ar("Lambeth"))
    assert g.agents[0][area("Lambeth")] == 1
    assert g.trouble[area("Lambeth")] == 1  # normal trouble rule

    g = position([cid], agents={0: {"Chelsea": 1}}, buildings={"Strand": 1})
    to_scroll(g, cid)
    assert g.decision == "end"  # no building of yours: nothing to do


@pytest.mark.parametrize("cid", covers("the_smoking_gnu"))
def test_scroll_smoking_gnu_agent_in_a_troubled_area(cid: str) -> None:
    g = position([cid], agents={0: {"Chelsea": 1}, 1: {"Highbury": 2}}, trouble=["Highbury"])
    to_scroll(g, cid)
    assert legal(g) == {ar("Highbury")}  # far from your agents, but troubled
    g.apply(ar("Highbury"))
    assert g.agents[0][area("Highbury")] == 1 and g.trouble[area("Highbury")] == 1


@pytest.mark.parametrize("cid", covers("the_senior_wrangler"))
def test_scroll_senior_wrangler_one_agent_in_or_next_to_westminster(cid: str) -> None:
    g = position([cid], agents={0: {"East End": 1}})
    to_scroll(g, cid)
    near = {"Westminster", "Chelsea", "West End", "Holborn", "Strand", "Lambeth", "Battersea"}
    assert legal(g) == {ar(x) for x in near}
    g.apply(ar("Lambeth"))
    assert g.agents[0][area("Lambeth")] == 1
    assert_back_to_card(g, cid)  # one agent only


@pytest.mark.parametrize("cid", covers("archchancellor_ridcully"))
def test_scroll_william_gladstone_two_agents_one_at_a_time(cid: str) -> None:
    """FAQ: the agents are placed one at a time, so the second one placed where the first
    went makes trouble."""
    g = position([cid], agents={0: {"East End": 1}})
    to_scroll(g, cid)
    near = {"Westminster", "Chelsea", "West End", "Holborn", "Strand", "Lambeth", "Battersea"}
    assert legal(g) == {ar(x) for x in near}
    g.apply(ar("Holborn"))
    assert g.agents[0][area("Holborn")] == 1 and g.trouble[area("Holborn")] == 0
    assert legal(g) == {A.PASS} | {ar(x) for x in near}  # the second is optional
    g.apply(ar("Holborn"))
    assert g.agents[0][area("Holborn")] == 2 and g.trouble[area("Holborn")] == 1
    assert g.decision == "end"

    g = position([cid], agents={0: {"East End": 1}})
    to_scroll(g, cid)
    g.apply(ar("Chelsea"))
    g.apply(A.PASS)
    assert sum(g.agents[0]) == 2
    assert g.decision == "end"


@pytest.mark.parametrize("cid", covers("doctor_hix"))
def test_scroll_doctor_hix_trouble_marker_anywhere(cid: str) -> None:
    g = position([cid], agents={0: {"Chelsea": 1}}, trouble=["East End", "City"])
    to_scroll(g, cid)
    assert legal(g) == {A.AREA + a for a in range(12)} - {ar("East End"), ar("City")}
    g.apply(ar("Highbury"))  # even an empty area
    assert g.trouble[area("Highbury")] == 1


@pytest.mark.parametrize("cid", covers("the_mob"))
def test_scroll_the_mob_trouble_next_to_trouble(cid: str) -> None:
    g = position([cid], agents={0: {"Chelsea": 1}}, trouble=["Highbury"])
    to_scroll(g, cid)
    assert legal(g) == {ar("Holborn"), ar("City"), ar("East End")}  # neighbours of Highbury
    g.apply(ar("City"))
    assert g.trouble[area("City")] == 1 and g.trouble[area("Highbury")] == 1
    assert_back_to_card(g, cid)


# ----- building
@pytest.mark.parametrize("cid", covers("wee_mad_arthur"))
def test_scroll_wee_mad_arthur_half_price_building(cid: str) -> None:
    g = position(
        [cid],
        agents={0: {"Lambeth": 1, "Chelsea": 1, "Strand": 1, "West End": 1}},
        trouble=["Strand"],
        buildings={"West End": 2},
        money=[9, 0, 0, 0],
    )
    to_scroll(g, cid)
    # Lambeth costs 18 (half: 9), Chelsea 6 (3); Strand has trouble; West End is built on
    assert legal(g) == {A.PASS, ar("Lambeth"), ar("Chelsea")}
    g.apply(ar("Lambeth"))
    assert g.building[area("Lambeth")] == 0 and g.money[0] == 0
    assert board.city_card_owner(g, area("Lambeth")) == 0


def test_scroll_wee_mad_arthur_needs_half_the_cost() -> None:
    g = position(["wee_mad_arthur"], agents={0: {"Lambeth": 1}}, money=[8, 0, 0, 0])
    to_scroll(g, "wee_mad_arthur")
    assert g.decision == "end"  # 18 / 2 = 9 > 8
    g = position(["wee_mad_arthur"], agents={0: {"Strand": 1}}, money=[6, 0, 0, 0])
    to_scroll(g, "wee_mad_arthur")
    g.apply(ar("Strand"))
    assert g.money[0] == 0


@pytest.mark.parametrize(
    ("cid", "troubled"),
    list(zip(covers("sybil_vimes", "reacher_gilt"), (False, True), strict=True)),
)
def test_scroll_buy_another_players_building(cid: str, troubled: bool) -> None:
    """Pay the owner the printed cost; the building and its City Area card change hands (the
    ability cannot be used in the turn it is gained). Sybil Vimes: an area without trouble;
    Reacher Gilt: an area with trouble. No agent of yours is needed there."""
    covers(cid)
    buildings = {"Lambeth": 1, "City": 2, "Strand": 1, "West End": 0, "Chelsea": 3}
    trouble = ["Lambeth", "City", "West End"] if troubled else ["Strand"]
    g = position(
        [cid],
        agents={0: {"Battersea": 1}},
        buildings=buildings,
        trouble=trouble,
        money=[15, 0, 0, 0],
    )
    to_scroll(g, cid)
    # Lambeth (18) is too dear, West End is your own, the trouble condition excludes the rest
    assert legal(g) == {A.PASS, ar("City")} | (set() if troubled else {ar("Chelsea")})
    g.apply(ar("City"))
    assert g.building[area("City")] == 0
    assert g.money[0] == 15 - 6 and g.money[2] == 6
    assert board.city_card_owner(g, area("City")) == 0
    to_end(g)
    assert A.ABILITY + area("City") not in legal(g)  # gained this turn
    assert A.ABILITY + area("West End") in legal(g)


def test_scroll_sybil_vimes_money_first_then_buy() -> None:
    g = position(
        ["sybil_vimes"], buildings={"Lambeth": 1}, agents={0: {"Chelsea": 1}}, money=[15, 0, 0, 0]
    )
    g.apply(pc("sybil_vimes"))
    g.apply(A.CONFIRM)  # £3 first: now Lambeth (18) is affordable
    g.apply(A.CONFIRM)
    assert legal(g) == {A.PASS, ar("Lambeth")}
    g.apply(ar("Lambeth"))
    assert g.money[:2] == [0, 18] and g.building[area("Lambeth")] == 0


def test_scroll_reacher_gilt_with_six_buildings_moves_one() -> None:
    mine = {x: 0 for x in ("Chelsea", "Westminster", "West End", "Holborn", "City", "Highbury")}
    g = position(
        ["reacher_gilt"],
        buildings={**mine, "Lambeth": 1},
        trouble=["Lambeth"],
        agents={0: {"Chelsea": 1}},
        money=[20, 0, 0, 0],
    )
    to_scroll(g, "reacher_gilt")
    g.apply(ar("Lambeth"))
    assert g.decision == "relocate_building"
    assert legal(g) == {ar(x) for x in mine}
    g.apply(ar("Highbury"))
    assert g.building[area("Lambeth")] == 0 and g.building[area("Highbury")] == -1
    assert board.own_buildings(g, 0) == 6
    assert g.money[:2] == [2, 18]


# ----- moving agents
@pytest.mark.parametrize("cid", covers("the_duckman", "foul_ole_ron", "canting_crew"))
def test_scroll_move_another_players_agent_next_door(cid: str) -> None:
    """Any other player's agent (not your own, not neutral pawns) to a neighbouring area; it
    leaves its marker behind and makes trouble where it arrives among other pawns."""
    g = position(
        [cid],
        agents={0: {"Chelsea": 1}, 1: {"Highbury": 1}, 2: {"Highbury": 1, "East End": 1}},
        trouble=["Highbury"],
        citizens={"Lambeth": 1},
    )
    to_scroll(g, cid)
    assert g.decision == "pick_foreign"
    assert legal(g) == {pw("Highbury", 1), pw("Highbury", 2), pw("East End", 2)}
    g.apply(pw("Highbury", 1))
    assert g.decision == "mv"
    assert legal(g) == {ar("Holborn"), ar("City"), ar("East End")}
    g.apply(ar("East End"))
    assert g.agents[1][area("Highbury")] == 0 and g.agents[1][area("East End")] == 1
    assert g.trouble[area("Highbury")] == 0  # the marker goes when a pawn leaves
    assert g.trouble[area("East End")] == 1  # seat 2 was there
    assert_back_to_card(g, cid)


@pytest.mark.parametrize("cid", covers("dorfl", "adora_belle_dearheart"))
def test_scroll_move_one_of_your_agents_anywhere(cid: str) -> None:
    g = position(
        [cid], agents={0: {"Chelsea": 1, "City": 1}, 1: {"Lambeth": 1, "City": 1}}, trouble=["City"]
    )
    to_scroll(g, cid)
    assert g.decision == "move_own"
    assert legal(g) == {pw("Chelsea", 0), pw("City", 0)}
    g.apply(pw("City", 0))
    assert legal(g) == {A.AREA + a for a in range(12)} - {ar("City")}
    g.apply(ar("Lambeth"))  # far away
    assert g.agents[0][area("City")] == 0 and g.agents[0][area("Lambeth")] == 1
    assert g.trouble[area("City")] == 0 and g.trouble[area("Lambeth")] == 1
    assert_back_to_card(g, cid)


@pytest.mark.parametrize("cid", covers("rincewind"))
def test_scroll_samuel_pickwick_own_agent_out_of_trouble(cid: str) -> None:
    g = position(
        [cid],
        agents={0: {"Chelsea": 1, "City": 1, "Lambeth": 1}, 1: {"City": 1}},
        trouble=["City", "Battersea"],
    )
    to_scroll(g, cid)
    assert legal(g) == {pw("City", 0)}  # only from an area with trouble
    g.apply(pw("City", 0))
    assert legal(g) == {ar(x) for x in ("Holborn", "Highbury", "East End", "Bermondsey", "Strand")}
    g.apply(ar("Highbury"))
    assert g.agents[0][area("Highbury")] == 1 and g.trouble[area("City")] == 0
    assert g.trouble[area("Highbury")] == 0  # an empty area

    g = position([cid], agents={0: {"Chelsea": 1}}, trouble=["City"])
    to_scroll(g, cid)
    assert_back_to_card(g, cid)  # no agent in trouble: nothing happens


@pytest.mark.parametrize("cid", covers("hobson_s_livery_stable"))
def test_scroll_hobsons_pay_a_player_two_then_move_own_agent_anywhere(cid: str) -> None:
    g = position([cid], agents={0: {"Chelsea": 1}}, money=[5, 0, 0, 0])
    to_scroll(g, cid)
    assert legal(g) == {pl(1), pl(2), pl(3)}
    g.apply(pl(2))
    assert g.money == [3, 0, 2, 0]
    assert legal(g) == {pw("Chelsea", 0)}
    g.apply(pw("Chelsea", 0))
    g.apply(ar("East End"))
    assert g.agents[0][area("East End")] == 1 and g.agents[0][area("Chelsea")] == 0

    g = position([cid], agents={0: {"Chelsea": 1}}, money=[1, 0, 0, 0])
    to_scroll(g, cid)
    assert g.money == [1, 0, 0, 0]  # cannot pay: nothing happens
    assert_back_to_card(g, cid)


@pytest.mark.parametrize("cid", covers("the_bursar"))
def test_faq_tracy_tupman_swap_removes_both_then_places(cid: str) -> None:
    """FAQ: both agents come off (their markers go), then each is placed where the other
    was and makes trouble if other pawns are there."""
    g = position(
        [cid],
        agents={0: {"Southwark": 1}, 1: {"Highbury": 1}, 2: {"Southwark": 1}},
        trouble=["Southwark"],
    )
    to_scroll(g, cid)
    assert g.decision == "swap"
    assert legal(g) == {pw("Southwark", 0), pw("Highbury", 1), pw("Southwark", 2)}
    g.apply(pw("Highbury", 1))
    assert legal(g) == {pw("Southwark", 0), pw("Southwark", 2)}  # another area
    g.apply(pw("Southwark", 2))
    assert g.agents[1][area("Southwark")] == 1 and g.agents[2][area("Highbury")] == 1
    assert g.agents[1][area("Highbury")] == 0 and g.agents[2][area("Southwark")] == 0
    # seat 1 arrives where seat 0 still stands: trouble; Highbury was emptied first: none
    assert g.trouble[area("Southwark")] == 1
    assert g.trouble[area("Highbury")] == 0
    assert_back_to_card(g, cid)


def test_faq_tracy_tupman_swap_of_two_lone_agents_makes_no_trouble() -> None:
    """Moving one after the other would have left a marker; removing both first does not."""
    g = position(["the_bursar"], agents={1: {"Highbury": 1}, 2: {"Lambeth": 1}, 0: {"City": 1}})
    to_scroll(g, "the_bursar")
    g.apply(pw("Highbury", 1))
    g.apply(pw("Lambeth", 2))
    assert g.agents[1][area("Lambeth")] == 1 and g.agents[2][area("Highbury")] == 1
    assert g.trouble[area("Lambeth")] == 0 and g.trouble[area("Highbury")] == 0


def test_scroll_tracy_tupman_needs_two_areas() -> None:
    g = position(["the_bursar"], agents={0: {"City": 1}, 1: {"City": 2}})
    to_scroll(g, "the_bursar")
    assert_back_to_card(g, "the_bursar")
    assert g.agents[1][area("City")] == 2


# ----- removing pawns
@pytest.mark.parametrize("cid", covers("the_dean"))
def test_scroll_the_dean_removes_a_pawn_in_westminster(cid: str) -> None:
    """Any pawn in Westminster, your own agents included, with or without trouble."""
    g = position(
        [cid],
        agents={0: {"Westminster": 1}, 1: {"Westminster": 1, "Chelsea": 1}},
        citizens={"Westminster": 1},
    )
    to_scroll(g, cid)
    assert legal(g) == {pw("Westminster", 0), pw("Westminster", 1), pw("Westminster", 5)}
    g.apply(pw("Westminster", 1))
    assert g.agents[1][area("Westminster")] == 0 and g.agents[1][area("Chelsea")] == 1
    assert_back_to_card(g, cid)

    g = position([cid], agents={0: {"Westminster": 1}})
    to_scroll(g, cid)
    assert legal(g) == {pw("Westminster", 0)}
    g.apply(pw("Westminster", 0))
    assert g.agents[0][area("Westminster")] == 0


@pytest.mark.parametrize("cid", covers("burleigh_and_stronginthearm"))
def test_scroll_burleigh_pay_two_then_assassinate(cid: str) -> None:
    g = position(
        [cid],
        agents={0: {"City": 1}, 1: {"City": 1}, 2: {"Chelsea": 1}},
        trouble=["City"],
        grenadiers={"Lambeth": 1},
        money=[3, 0, 0, 0],
    )
    to_scroll(g, cid)
    assert legal(g) == {pl(1), pl(2), pl(3)}
    g.apply(pl(3))  # pay anyone
    assert g.money == [1, 0, 0, 2]
    # a normal assassination: any pawn but your own, in an area with trouble; optional
    assert legal(g) == {A.PASS, pw("City", 1)}
    g.apply(pw("City", 1))
    assert g.agents[1][area("City")] == 0 and g.trouble[area("City")] == 0


@pytest.mark.parametrize("cid", covers("cosmo_lavish"))
def test_scroll_henry_holy_peter_paid_player_removes_a_pawn(cid: str) -> None:
    """The paid player removes any pawn but the card player's, in an area with trouble (their
    own agents included)."""
    g = position(
        [cid],
        agents={0: {"City": 1}, 1: {"City": 1}, 2: {"City": 1, "Chelsea": 1}},
        trouble=["City", "Lambeth"],
        citizens={"Lambeth": 1},
        money=[2, 0, 0, 0],
    )
    to_scroll(g, cid)
    g.apply(pl(2))
    assert g.money == [0, 0, 2, 0]
    assert (g.decision, g.current_player) == ("kill", 2)
    # relative to seat 2: slot 3 is seat 1, slot 0 is seat 2; seat 0's agent (slot 2) is safe
    assert legal(g) == {pw("City", 3), pw("City", 0), pw("Lambeth", 5)}
    g.apply(pw("City", 3))
    assert g.agents[1][area("City")] == 0 and g.agents[0][area("City")] == 1

    g = position([cid], agents={0: {"City": 1}}, money=[1, 0, 0, 0])
    to_scroll(g, cid)
    assert g.money[0] == 1  # cannot pay: nothing happens
    assert_back_to_card(g, cid)


@pytest.mark.parametrize("cid", covers("the_auditors"))
def test_scroll_auditors_every_other_player_removes_an_agent(cid: str) -> None:
    g = position([cid], agents={0: {"City": 1}, 1: {"City": 1, "Chelsea": 1}, 3: {"Lambeth": 2}})
    to_scroll(g, cid)
    assert (g.decision, g.current_player) == ("remove_own", 1)
    assert legal(g) == {pw("City", 0), pw("Chelsea", 0)}  # relative: their own agents
    g.apply(pw("Chelsea", 0))
    # seat 2 has no agent on the board
    assert (g.decision, g.current_player) == ("remove_own", 3)
    g.apply(pw("Lambeth", 0))
    assert g.agents[1][area("Chelsea")] == 0 and g.agents[3][area("Lambeth")] == 1
    assert g.agents[0][area("City")] == 1
    assert g.decision == "end"


@pytest.mark.parametrize("cid", covers("carcer"))
def test_faq_jack_the_ripper(cid: str) -> None:
    """Two rolls, one pawn from each rolled area (neutral pawns too); once activated it must
    go on; if only your own agents are there you remove one of yours."""
    g = position(
        [cid],
        agents={0: {"Chelsea": 1, "Lambeth": 1, "City": 1}, 1: {"City": 1}},
        grenadiers={"City": 1},
    )
    g.fix_rolls([area("City"), area("Lambeth")])
    to_scroll(g, cid)
    assert (g.decision, g.current_player) == ("kill", 0)
    # no skipping, and not your own agent while there is another pawn (no trouble needed)
    assert legal(g) == {pw("City", 1), pw("City", 4)}
    g.apply(pw("City", 4))
    assert g.gren[area("City")] == 0 and g.agents[1][area("City")] == 1
    assert legal(g) == {pw("Lambeth", 0)}  # only your own there: must remove it
    g.apply(pw("Lambeth", 0))
    assert g.agents[0][area("Lambeth")] == 0
    assert_back_to_card(g, cid)


def test_faq_jack_the_ripper_empty_area_kills_nobody() -> None:
    g = position(["carcer"], agents={0: {"Chelsea": 1}, 1: {"City": 2}})
    g.fix_rolls([area("Strand"), area("City")])
    to_scroll(g, "carcer")
    assert legal(g) == {pw("City", 1)}
    g.apply(pw("City", 1))
    assert g.agents[1][area("City")] == 1
    assert_back_to_card(g, "carcer")
    assert g.fixed_rolls == ()


# ----- die rolls
@pytest.mark.parametrize("cid", covers("cmot_dibbler"))
@pytest.mark.parametrize(
    ("roll", "gain"),
    [("Westminster", 0), ("Highbury", 0), ("East End", 4), ("Bermondsey", 4), ("Battersea", 4)],
)
def test_scroll_cmot_dibbler_rolls(cid: str, roll: str, gain: int) -> None:
    """7-12: take £4; 2-6: nothing (1 is tested below)."""
    g = position([cid], agents={0: {"City": 1}}, money=[3, 0, 0, 0])
    g.fix_rolls([area(roll)])
    to_scroll(g, cid)
    assert g.money[0] == 3 + gain
    assert_back_to_card(g, cid)


def test_scroll_cmot_dibbler_one_pay_two_or_lose_an_agent() -> None:
    g = position(["cmot_dibbler"], agents={0: {"City": 1, "Lambeth": 1}}, money=[3, 0, 0, 0])
    g.fix_rolls([area("Chelsea")])  # a 1
    to_scroll(g, "cmot_dibbler")
    assert legal(g) == {A.CONFIRM, pw("City", 0), pw("Lambeth", 0)}
    g.apply(A.CONFIRM)
    assert g.money[0] == 1 and sum(g.agents[0]) == 2

    g = position(["cmot_dibbler"], agents={0: {"City": 1, "Lambeth": 1}}, money=[1, 0, 0, 0])
    g.fix_rolls([area("Chelsea")])
    to_scroll(g, "cmot_dibbler")
    assert legal(g) == {pw("City", 0), pw("Lambeth", 0)}  # cannot pay
    g.apply(pw("Lambeth", 0))
    assert g.agents[0][area("Lambeth")] == 0 and g.money[0] == 1


@pytest.mark.parametrize("cid", covers("here_n_now"))
def test_scroll_here_n_now_rolls(cid: str) -> None:
    """7-12: take £3 from a player (what they have); 1: lose one of your agents; else
    nothing."""
    g = position([cid], agents={0: {"City": 1, "Lambeth": 1}}, money=[0, 2, 5, 5])
    g.fix_rolls([area("Strand")])  # 10
    to_scroll(g, cid)
    assert legal(g) == {pl(1), pl(2), pl(3)}
    g.apply(pl(1))
    assert g.money == [2, 0, 5, 5]

    g = position([cid], agents={0: {"City": 1, "Lambeth": 1}}, money=[0, 2, 5, 5])
    g.fix_rolls([area("Chelsea")])  # 1
    to_scroll(g, cid)
    assert (g.decision, g.current_player) == ("remove_own", 0)
    assert legal(g) == {pw("City", 0), pw("Lambeth", 0)}
    g.apply(pw("City", 0))
    assert g.agents[0][area("City")] == 0 and g.money[0] == 0

    g = position([cid], agents={0: {"City": 1, "Lambeth": 1}}, money=[0, 2, 5, 5])
    g.fix_rolls([area("Highbury")])  # 6
    before = snapshot(g)
    to_scroll(g, cid)
    assert_back_to_card(g, cid)
    after = snapshot(g)
    assert after["money"] == before["money"] and after["agents"] == before["agents"]


@pytest.mark.parametrize("cid", covers("errol"))
def test_scroll_errol_rolls(cid: str) -> None:
    """7-12: remove a pawn (not your own) from an area with trouble; 1: lose an agent."""
    g = position(
        [cid],
        agents={0: {"City": 1, "Lambeth": 1}, 1: {"City": 1, "Chelsea": 1}},
        trouble=["City"],
    )
    g.fix_rolls([area("Southwark")])  # 9
    to_scroll(g, cid)
    assert (g.decision, g.current_player) == ("kill", 0)
    assert legal(g) == {pw("City", 1)}
    g.apply(pw("City", 1))
    assert g.agents[1][area("City")] == 0 and g.trouble[area("City")] == 0

    g = position([cid], agents={0: {"City": 1, "Lambeth": 1}, 1: {"City": 1}}, trouble=["City"])
    g.fix_rolls([area("Chelsea")])  # 1
    to_scroll(g, cid)
    assert legal(g) == {pw("City", 0), pw("Lambeth", 0)}
    g.apply(pw("Lambeth", 0))
    assert g.agents[0][area("Lambeth")] == 0

    g = position([cid], agents={0: {"City": 1}, 1: {"City": 1}}, trouble=["City"])
    g.fix_rolls([area("City")])  # 5
    to_scroll(g, cid)
    assert_back_to_card(g, cid)
    assert g.agents[1][area("City")] == 1


# ----- personality cards
@pytest.mark.parametrize("cid", covers("mrs_cake"))
def test_scroll_mrs_cake_sees_all_unused_personalities_but_one(cid: str) -> None:
    g = position([cid])
    unused = set(g.persona_pool)
    assert len(unused) == 3
    to_scroll(g, cid)
    seen = set(g.known_unused[0])
    assert len(seen) == 2 and seen < unused
    assert g.known_unused[1:] == ((), (), ())
    assert g.persona_pool == tuple(sorted(unused))  # nothing moves


@pytest.mark.parametrize("cid", covers("zorgo_the_retro_phrenologist"))
def test_scroll_zorgo_swaps_your_personality_for_a_random_unused_one(cid: str) -> None:
    g = position([cid])
    old = g.persona[0]
    unused = set(g.persona_pool)
    to_scroll(g, cid)
    assert g.persona[0] in unused
    assert set(g.persona_pool) == unused - {g.persona[0]} | {old}
    assert g.persona[1:] == tuple(personality(x) for x in PERSONAS[1:])
    results = set()
    for seed in range(10):
        g = position([cid], seed=seed)
        to_scroll(g, cid)
        results.add(g.persona[0])
    assert results == unused  # random among the unused cards


# ----- other players' hands
@pytest.mark.parametrize("cid", covers("cable_street_particulars"))
def test_scroll_cable_street_look_at_a_hand_and_discard_a_card(cid: str) -> None:
    g = position([cid], others=[["groat", "ruby"], [], ["modo"]])
    to_scroll(g, cid)
    assert legal(g) == {pl(1), pl(3)}
    g.apply(pl(1))
    let_it_happen(g, 1)
    assert (g.decision, g.current_player) == ("discard_theirs", 0)
    assert legal(g) == {sc("groat"), sc("ruby")}
    g.apply(sc("ruby"))
    assert ids(g.hands[1]) == ["groat"] and card("ruby") in g.discard
    assert_back_to_card(g, cid)


@pytest.mark.parametrize("cid", covers("stanley"))
def test_scroll_stanley_take_two_random_cards_keep_one(cid: str) -> None:
    hand = ["groat", "ruby", "modo", "dwarves"]
    g = position([cid], others=[hand, [], []])
    to_scroll(g, cid)
    g.apply(pl(1))
    let_it_happen(g, 1)
    assert (g.decision, g.current_player) == ("keep_one", 0)
    offered = {a - A.SELECT_CARD for a in legal(g)}
    assert len(offered) == 2 and set(ids(offered)) <= set(hand)
    keep = min(offered)
    g.apply(A.SELECT_CARD + keep)
    assert g.hands[0] == [keep]
    assert sorted(g.hands[1]) == sorted(set(map(card, hand)) - {keep})
    draws = set()
    for seed in range(10):
        g = position([cid], others=[hand, [], []], seed=seed)
        to_scroll(g, cid)
        g.apply(pl(1))
        let_it_happen(g, 1)
        draws.add(frozenset(legal(g)))
    assert len(draws) > 1  # random


def test_scroll_stanley_from_a_one_card_hand() -> None:
    g = position(["stanley"], others=[["groat"], [], []])
    to_scroll(g, "stanley")
    g.apply(pl(1))
    let_it_happen(g, 1)
    assert legal(g) == {sc("groat")}
    g.apply(sc("groat"))
    assert ids(g.hands[0]) == ["groat"] and g.hands[1] == []


@pytest.mark.parametrize("cid", covers("the_chair_of_indefinite_studies"))
def test_scroll_nathaniel_winkle_exchange_hands(cid: str) -> None:
    g = position([cid, "groat"], others=[["ruby", "modo", "dwarves"], [], []])
    to_scroll(g, cid)
    assert legal(g) == {pl(1), pl(2), pl(3)}  # even an empty hand
    g.apply(pl(1))
    let_it_happen(g, 1)
    assert ids(g.hands[0]) == ["dwarves", "modo", "ruby"]
    assert ids(g.hands[1]) == ["groat"]
    assert_back_to_card(g, cid)

    g = position([cid, "groat"], others=[["ruby"], [], []])
    to_scroll(g, cid)
    g.apply(pl(3))
    assert g.hands[0] == [] and ids(g.hands[3]) == ["groat"]


# ----- two more cards
@pytest.mark.parametrize("cid", covers("drumknott", "ponder_stibbons"))
def test_faq_babbage_maycroft_two_cards_each_with_its_own_chain(cid: str) -> None:
    """FAQ: any two cards from the hand, each resolved completely (its play-another chain
    included) before the second one starts."""
    g = position(
        [cid, "pink_pussycat_club", "groat", "gimlet_s_dwarf_delicatessen", "gaspode"],
        agents={0: {"City": 1}},
        money=[0, 0, 0, 0],
    )
    to_scroll(g, cid)
    assert g.decision == "two"
    assert legal(g) == {
        A.PASS,
        pc("pink_pussycat_club"),
        pc("groat"),
        pc("gimlet_s_dwarf_delicatessen"),
        dc("gaspode"),
    }
    g.apply(pc("pink_pussycat_club"))  # first card: £3, play another
    g.apply(A.CONFIRM)
    assert g.money[0] == 3
    assert legal(g) == {A.PASS, pc("groat"), pc("gimlet_s_dwarf_delicatessen"), dc("gaspode")}
    g.apply(pc("groat"))  # ... its chain goes on first
    g.apply(ar("Highbury"))
    assert g.decision == "two"  # the chain is over: now the second card
    assert legal(g) == {A.PASS, pc("gimlet_s_dwarf_delicatessen"), dc("gaspode")}
    g.apply(pc("gimlet_s_dwarf_delicatessen"))
    g.apply(A.CONFIRM)
    g.apply(ar("Holborn"))
    assert g.money[0] == 6 and g.agents[0][area("Holborn")] == 1
    assert g.decision == "end"  # two cards played
    assert g.played == [
        card(x) for x in (cid, "pink_pussycat_club", "groat", "gimlet_s_dwarf_delicatessen")
    ]


@pytest.mark.parametrize("cid", ["drumknott", "ponder_stibbons"])
def test_babbage_maycroft_fewer_than_two(cid: str) -> None:
    """Rules silent (README 10): playing fewer than two is allowed."""
    g = position([cid, "groat", "ruby"], agents={0: {"City": 1}})
    to_scroll(g, cid)
    g.apply(pc("groat"))
    g.apply(A.PASS)
    assert g.decision == "two"
    g.apply(A.PASS)
    assert g.decision == "end"
    assert ids(g.hands[0]) == ["ruby"]


# ---------------------------------------------------------------------------- coverage
def test_every_card_is_covered() -> None:
    """Each of the 101 card ids has its symbols walked (or, for the six interrupts, its
    play rules checked here and its effect in test_interrupts.py), and every card with a
    scroll has a scenario for its text."""
    all_ids = {c.id for c in tables().data.cards}
    assert len(all_ids) == 101
    assert SCROLL_COVERED == WITH_SCROLL
    assert set(PLAYABLE) | set(INTERRUPTS) | SCROLL_COVERED == all_ids
    assert not set(PLAYABLE) & set(INTERRUPTS)
