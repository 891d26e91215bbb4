"""Winning (rulebook "Ending and winning the game", player aid "Winning conditions" and
"Scoring"): every personality's goal at the start of its owner's turn for 2, 3 and 4 players,
under both threshold sets and the V and C variants; control, occupancy and net worth; Sherlock
Holmes at the end of the draw pile but not on Riots; scoring and the tie-break."""

from __future__ import annotations

import itertools

import pytest

from nanty_env.engine import board, scoring
from nanty_env.engine.config import GameConfig
from tests.engine.conftest import DIE_AREAS, DIE_COST, die, finish_turn, play, quiet_position

NAMES = DIE_AREAS

# ------------------------------------------------------------------ the goal tables
# Written out from the rulebook (001) and the player aid (000), not read from the data files.
# personality -> {players: {metric: threshold}}
RULEBOOK = {
    "moriarty": {2: {"occupied": 11}, 3: {"occupied": 10}, 4: {"occupied": 9}},
    "lord_bellinger": {2: {"controlled": 7}, 3: {"controlled": 5}, 4: {"controlled": 4}},
    "lord_holdhurst": {2: {"controlled": 7}, 3: {"controlled": 5}, 4: {"controlled": 4}},
    "lord_balmoral": {2: {"controlled": 7}, 3: {"controlled": 5}, 4: {"controlled": 4}},
    "fagin": {n: {"trouble": 8} for n in (2, 3, 4)},
    "de_sidonia": {3: {"net_worth": 50}, 4: {"net_worth": 50}},
}
PLAYER_AID = {
    **RULEBOOK,
    "moriarty": {2: {"occupied": 10}, 3: {"occupied": 9}, 4: {"occupied": 8}},
    "de_sidonia": {3: {"net_worth": 50}, 4: {"net_worth": 42}},
}
VARIANT = {
    "v_lord_balmoral": {
        2: {"occupied": 11, "controlled": 6},
        3: {"occupied": 10, "controlled": 5},
        4: {"occupied": 9, "controlled": 4},
    },
    "v_lord_bellinger": {
        2: {"own_buildings": 6, "controlled": 6},
        3: {"own_buildings": 5, "controlled": 5},
        4: {"own_buildings": 4, "controlled": 4},
    },
    "v_lord_holdhurst": {
        2: {"building_value": 54, "controlled": 6},
        3: {"building_value": 42, "controlled": 5},
        4: {"building_value": 36, "controlled": 4},
    },
    "v_ebenezer_scrooge": {2: {"pieces": 14}, 3: {"pieces": 12}, 4: {"pieces": 11}},
    "v_thomas_gradgrind": {
        2: {"net_worth": 70, "occupied": 11},
        3: {"net_worth": 54, "occupied": 10},
        4: {"net_worth": 46, "occupied": 9},
    },
    "v_lenore_lloyd": {2: {"all_buildings": 8}, 3: {"all_buildings": 9}, 4: {"all_buildings": 10}},
    "v_fagin": {n: {"trouble": 8} for n in (2, 3, 4)},
}

CONFIGS = {
    # config -> personality table in force
    ("standard", "rulebook"): RULEBOOK,
    ("standard", "player_aid"): PLAYER_AID,
    ("classic", "rulebook"): RULEBOOK,
    ("classic", "player_aid"): RULEBOOK,  # Variant C restores the rulebook numbers
    ("variant", "rulebook"): VARIANT,
    ("variant", "player_aid"): VARIANT,
}

OTHERS = {
    "standard": ("sherlock_holmes", "lord_bellinger", "lord_holdhurst"),
    "classic": ("sherlock_holmes", "lord_bellinger", "lord_holdhurst"),
    "variant": ("v_sherlock_holmes", "v_lord_bellinger", "v_lord_holdhurst"),
}

CHEAP = [7, 8, 1, 5]  # £6 areas
MID = [3, 6, 9, 10, 12]  # £12
DEAR = [2, 4, 11]  # £18
BLOCKER = 1  # seat whose agent ties seat 0's single bit, so that seat 0 controls nothing


def blocked(where: list[int]) -> dict[int, dict[str, int]]:
    return {BLOCKER: {NAMES[k]: 1 for k in where}}


def costs_summing_to(total: int) -> list[int]:
    """Areas (die numbers) whose building costs add up to ``total`` (a multiple of 6)."""
    for r in range(1, 13):
        for combo in itertools.combinations(range(1, 13), r):
            if sum(DIE_COST[k] for k in combo) == total:
                return list(combo)
    raise AssertionError(total)


def position_for(metric: str, value: int) -> dict:
    """build_position keywords giving seat 0 exactly ``value`` of ``metric`` and nothing
    that would meet another goal of the same card (no control unless asked for)."""
    if metric == "occupied":
        where = list(range(1, value + 1))
        return {"agents": {0: {NAMES[k]: 1 for k in where}, **blocked(where)}}
    if metric == "controlled":
        where = list(range(1, value + 1))
        return {"agents": {0: {NAMES[k]: 1 for k in where}}}
    if metric == "trouble":
        return {"agents": {}, "trouble": [NAMES[k] for k in range(1, value + 1)]}
    if metric == "net_worth":
        return {"agents": {}, "money": [value, 0, 0, 0]}
    if metric == "building_value":
        where = costs_summing_to(value)
        return {
            "agents": blocked(where),
            "buildings": {NAMES[k]: 0 for k in where},
            "money": [0, 0, 0, 0],
        }
    if metric == "own_buildings":
        where = list(range(1, value + 1))
        return {
            "agents": blocked(where),
            "buildings": {NAMES[k]: 0 for k in where},
            "money": [0, 0, 0, 0],
        }
    if metric == "pieces":  # Scrooge V: agents plus buildings
        built = min(value, 6)
        where = list(range(1, built + 1))
        return {
            "agents": {0: {NAMES[12]: value - built}},
            "buildings": {NAMES[k]: 0 for k in where},
            "money": [0, 0, 0, 0],
        }
    if metric == "all_buildings":
        where = list(range(1, value + 1))
        return {
            "agents": {},
            "buildings": {NAMES[k]: (i % 3) + 1 for i, k in enumerate(where)},
            "money": [0, 0, 0, 0],
        }
    raise AssertionError(metric)


def below(metric: str, need: int) -> int:
    return need - 6 if metric == "building_value" else need - 1


def goal_cases():
    for (pset, tset), table in CONFIGS.items():
        for pid, by_n in table.items():
            for n, goal in by_n.items():
                for metric, need in goal.items():
                    yield pytest.param(
                        pset,
                        tset,
                        pid,
                        n,
                        metric,
                        need,
                        id=f"{pset}-{tset}-{pid}-{n}p-{metric}{need}",
                    )


def goal_game(pset, tset, pid, n, kw):
    kw = dict(kw)
    if "money" in kw:
        kw["money"] = kw["money"][:n]
    if "buildings" in kw:
        kw["buildings"] = {a: s % n for a, s in kw["buildings"].items()}
    return quiet_position(
        n,
        config=GameConfig(num_players=n, personalities=pset, thresholds=tset),
        personalities=[pid, *OTHERS[pset][: n - 1]],
        **kw,
    )


@pytest.mark.parametrize(("pset", "tset", "pid", "n", "metric", "need"), list(goal_cases()))
def test_goal_wins_at_the_threshold_and_not_below(pset, tset, pid, n, metric, need):
    g = goal_game(pset, tset, pid, n, position_for(metric, need))
    assert g.is_terminal, f"{pid} should win with {metric}={need}"
    assert g.outcome.winners == (0,)
    assert g.outcome.reason == f"personality:{pid}"
    g = goal_game(pset, tset, pid, n, position_for(metric, below(metric, need)))
    assert not g.is_terminal
    assert g.current_player == 0 and g.decision == "main"


def test_goal_table_covers_every_personality():
    from nanty_env.engine.tables import tables

    ids = {p.id for p in tables().data.personalities}
    holmes = {"sherlock_holmes", "v_sherlock_holmes"}
    assert ids - holmes == set(RULEBOOK) | set(VARIANT)


def test_lenore_lloyd_counts_buildings_of_every_colour():
    """Her threshold rises with the number of players; other players' buildings count."""
    g = goal_game("variant", "rulebook", "v_lenore_lloyd", 4, position_for("all_buildings", 10))
    assert g.is_terminal
    assert board.own_buildings(g, 0) < 10


# ------------------------------------------------------------------ control
# (seat 0 agents, seat 0 building, seat 1 agents, seat 1 building, seat 2 agents, citizens,
#  grenadiers, trouble) -> does seat 0 control the area?
CONTROL = [
    ((1, 0, 0, 0, 0, 0, 0, 0), True),
    ((1, 0, 0, 0, 0, 0, 0, 1), True),  # trouble does not matter
    ((0, 1, 0, 0, 0, 0, 0, 0), True),  # a building alone is a bit
    ((0, 0, 0, 0, 0, 0, 0, 0), False),
    ((1, 0, 1, 0, 0, 0, 0, 0), False),  # a tie is no control
    ((2, 0, 1, 0, 0, 0, 0, 0), True),
    ((1, 1, 1, 0, 0, 0, 0, 0), True),  # building + agent beat one agent
    ((1, 0, 0, 1, 0, 0, 0, 0), False),  # another's building is a bit too
    ((2, 0, 1, 0, 1, 0, 0, 0), True),  # more than each other player, not than all together
    ((2, 0, 2, 0, 1, 0, 0, 0), False),
    ((1, 0, 0, 0, 0, 1, 0, 0), False),  # citizens count as another player
    ((2, 0, 0, 0, 0, 1, 0, 0), True),
    ((2, 0, 0, 0, 0, 2, 0, 0), False),
    ((1, 1, 0, 0, 0, 2, 0, 0), False),
    ((3, 0, 1, 0, 1, 2, 0, 0), True),  # citizens are not added to a player's bits
    ((5, 1, 0, 0, 0, 0, 1, 0), False),  # grenadiers: martial law, no control
    ((1, 0, 0, 0, 0, 0, 1, 1), False),
]


@pytest.mark.parametrize(("pieces", "controls"), CONTROL)
def test_control(pieces, controls):
    a0, b0, a1, b1, a2, cit, gren, trouble = pieces
    x = NAMES[6]
    bld = {x: 0} if b0 else ({x: 1} if b1 else {})
    g = quiet_position(
        agents={0: {x: a0}, 1: {x: a1}, 2: {x: a2}},
        buildings=bld,
        citizens={x: cit},
        grenadiers={x: gren},
        trouble=[x] if trouble else [],
    )
    assert scoring.controls(g, 0, die(6)) == controls
    assert scoring.controlled_areas(g, 0) == int(controls)


def test_rulebook_control_example():
    """Green controls Lambeth; yellow controls Battersea despite its marker; purple does not
    control Chelsea (grenadier); blue does not control Westminster (one immigrant) but would
    with one more piece; nobody controls the West End (tie)."""
    green, yellow, purple, blue = 0, 1, 2, 3
    g = quiet_position(
        agents={
            green: {NAMES[11]: 2, NAMES[3]: 1},
            yellow: {NAMES[12]: 2, NAMES[11]: 1, NAMES[3]: 1},
            purple: {NAMES[1]: 2},
            blue: {NAMES[2]: 1},
        },
        trouble=[NAMES[12]],
        grenadiers={NAMES[1]: 1},
        citizens={NAMES[2]: 1},
    )
    assert scoring.controls(g, green, die(11))
    assert scoring.controls(g, yellow, die(12))
    assert not scoring.controls(g, purple, die(1))
    assert not scoring.controls(g, blue, die(2))
    assert not scoring.controls(g, green, die(3)) and not scoring.controls(g, yellow, die(3))
    board.place_building(g, blue, die(2))
    assert scoring.controls(g, blue, die(2))


def test_lord_cannot_win_through_grenadier_areas():
    where = [1, 2, 3, 4]
    g = quiet_position(
        personalities=["lord_balmoral", "sherlock_holmes", "moriarty", "fagin"],
        agents={0: {NAMES[k]: 1 for k in where}},
        grenadiers={NAMES[4]: 1},
    )
    assert not g.is_terminal
    assert scoring.controlled_areas(g, 0) == 3


# ------------------------------------------------------------------ occupancy
def test_moriarty_occupancy_ignores_grenadier_areas():
    where = list(range(1, 10))
    g = quiet_position(
        personalities=["moriarty", "sherlock_holmes", "lord_bellinger", "fagin"],
        agents={0: {NAMES[k]: 1 for k in where}, **blocked(where)},
        grenadiers={NAMES[9]: 1},
    )
    assert not g.is_terminal
    assert scoring.occupied_areas(g, 0) == 8


def test_occupancy_counts_areas_not_agents():
    g = quiet_position(agents={0: {NAMES[1]: 5, NAMES[2]: 1}}, citizens={NAMES[3]: 1})
    assert scoring.occupied_areas(g, 0) == 2


# ------------------------------------------------------------------ net worth
@pytest.mark.parametrize(
    ("money", "buildings", "loans", "grenadiers", "worth"),
    [
        (10, [], 0, [], 10),
        (10, [2, 7], 0, [], 10 + 18 + 6),
        (10, [2, 7], 1, [], 10 + 18 + 6 - 12),
        (30, [], 2, [], 30 - 24),
        (10, [2, 7], 0, [2], 10 + 6),  # buildings in a grenadier area are worth 0
        (0, [11, 4, 9], 1, [9], 18 + 18 - 12),
    ],
)
def test_net_worth(money, buildings, loans, grenadiers, worth):
    g = quiet_position(
        agents={},
        money=[money, 0, 0, 0],
        buildings={NAMES[k]: 0 for k in buildings},
        loans={0: ["mr_bent", "the_bank_of_ankh_morpork"][:loans]},
        grenadiers={NAMES[k]: 1 for k in grenadiers},
    )
    assert scoring.net_worth(g, 0) == worth


def test_de_sidonia_loan_counts_against_the_goal():
    kw = dict(
        config=GameConfig(num_players=4),
        personalities=["de_sidonia", "sherlock_holmes", "moriarty", "fagin"],
        agents={},
    )
    assert quiet_position(money=[50, 0, 0, 0], **kw).is_terminal
    assert not quiet_position(money=[61, 0, 0, 0], loans={0: ["mr_bent"]}, **kw).is_terminal
    assert quiet_position(money=[62, 0, 0, 0], loans={0: ["mr_bent"]}, **kw).is_terminal
    # building value counts, but not in a grenadier area
    assert quiet_position(money=[32, 0, 0, 0], buildings={NAMES[2]: 0}, **kw).is_terminal
    assert not quiet_position(
        money=[32, 0, 0, 0], buildings={NAMES[2]: 0}, grenadiers={NAMES[2]: 1}, **kw
    ).is_terminal


def test_holdhurst_v_building_value_counts_loans():
    """Rule decision (player aid): loans count -£12 in Lord Holdhurst V's building value."""
    cfg = GameConfig(num_players=4, personalities="variant")
    where = costs_summing_to(48)
    kw = dict(
        config=cfg,
        personalities=["v_lord_holdhurst", "v_sherlock_holmes", "v_fagin", "v_lord_bellinger"],
        agents=blocked(where),
        buildings={NAMES[k]: 0 for k in where},
        money=[100, 0, 0, 0],
    )
    assert quiet_position(**kw).is_terminal  # 48
    assert quiet_position(loans={0: ["mr_bent"]}, **kw).is_terminal  # 48 - 12 = 36
    two = {0: ["mr_bent", "the_bank_of_ankh_morpork"]}
    assert not quiet_position(loans=two, **kw).is_terminal  # 24 (money does not count)


# ------------------------------------------------------------------ end of the draw pile
def deck_end(personalities, n=4, **kw):
    """Seat 0 plays its last card with an empty draw pile: the game ends at its refill."""
    kw.setdefault("hands", [["groat"]] + [[] for _ in range(n - 1)])
    g = quiet_position(n, personalities=personalities, deck_size=0, **kw)
    assert not g.is_terminal
    play(g, ("PLAY_CARD", "groat"))
    finish_turn(g)
    assert g.is_terminal
    return g.outcome


@pytest.mark.parametrize("seat", [0, 1, 3])
def test_sherlock_holmes_wins_when_the_draw_pile_runs_out(seat):
    pers = ["moriarty", "fagin", "lord_bellinger", "lord_holdhurst"]
    pers[seat] = "sherlock_holmes"
    out = deck_end(pers, money=[50, 0, 0, 0] if seat else [0, 50, 50, 50])
    assert out.winners == (seat,)
    assert out.reason == "deck_exhausted:personality"


def test_without_holmes_the_draw_pile_end_goes_to_points():
    out = deck_end(
        ["moriarty", "fagin", "lord_bellinger", "lord_holdhurst"],
        agents={0: {NAMES[1]: 1}, 2: {NAMES[5]: 2}},
        money=[3, 3, 3, 3],
    )
    assert out.reason == "deck_exhausted:points"
    assert out.points == (5 + 3, 3, 10 + 3, 3)
    assert out.winners == (2,)


RIOT = [NAMES[k] for k in range(1, 9)]


def riots(personalities, n=4, **kw):
    """Seat 0 draws Riots with 8 markers on the board."""
    kw.setdefault("trouble", RIOT)
    g = quiet_position(
        n,
        personalities=personalities,
        hands=[["the_dean"]] + [[] for _ in range(n - 1)],
        events=["riots"],
        **kw,
    )
    play(g, ("PLAY_CARD", "the_dean"), "CONFIRM")
    assert g.is_terminal
    return g.outcome


def test_riots_end_the_game_on_points_and_holmes_just_scores():
    out = riots(
        ["moriarty", "sherlock_holmes", "fagin", "lord_bellinger"],
        agents={0: {NAMES[12]: 1}, 1: {NAMES[12]: 3}},
        money=[0, 0, 0, 0],
    )
    assert out.reason == "riots:points"
    assert out.points == (5, 15, 0, 0)
    assert out.winners == (1,)  # Holmes wins here on points, not by his card
    out = riots(
        ["moriarty", "sherlock_holmes", "fagin", "lord_bellinger"],
        agents={0: {NAMES[12]: 3}, 1: {NAMES[12]: 1}},
        money=[0, 0, 0, 0],
    )
    assert out.winners == (0,)


def test_riots_need_eight_markers():
    g = quiet_position(
        personalities=["moriarty", "sherlock_holmes", "fagin", "lord_bellinger"],
        trouble=RIOT[:7],
        agents={},
        hands=[["the_dean"], [], [], []],
        events=["riots"],
    )
    play(g, ("PLAY_CARD", "the_dean"), "CONFIRM")
    assert not g.is_terminal


def test_fagin_does_not_win_on_riots():
    """Fagin's goal is checked at the start of his turn only; Riots end the game first."""
    out = riots(
        ["moriarty", "fagin", "sherlock_holmes", "lord_bellinger"],
        agents={0: {NAMES[12]: 1}},
        money=[0, 0, 0, 0],
    )
    assert out.winners == (0,) and out.reason == "riots:points"


# ------------------------------------------------------------------ variant end rules
VSET = ["v_lord_balmoral", "v_lord_bellinger", "v_lord_holdhurst", "v_ebenezer_scrooge"]


def with_(seat: int, pid: str) -> list[str]:
    out = VSET[:]
    out[seat] = pid
    return out


@pytest.mark.parametrize(
    ("agents", "trouble", "wins"),
    [
        (3, 2, True),
        (3, 3, False),  # more agents than markers, strictly
        (1, 0, True),
    ],
)
def test_sherlock_holmes_v_at_the_end_of_the_draw_pile(agents, trouble, wins):
    out = deck_end(
        with_(1, "v_sherlock_holmes"),
        config=GameConfig(num_players=4, personalities="variant"),
        agents={1: {NAMES[12]: agents}, 0: {NAMES[11]: 1}},
        trouble=[NAMES[k] for k in range(1, trouble + 1)],
        money=[20, 0, 0, 0],
    )
    if wins:
        assert out.winners == (1,) and out.reason == "deck_exhausted:personality"
    else:
        assert out.reason == "deck_exhausted:points" and out.winners == (0,)


def test_sherlock_holmes_v_loses_on_riots_even_with_the_most_points():
    out = riots(
        with_(1, "v_sherlock_holmes"),
        config=GameConfig(num_players=4, personalities="variant"),
        agents={1: {NAMES[12]: 5}, 0: {NAMES[11]: 1}},
        money=[0, 0, 0, 0],
    )
    assert out.points == (5, 25, 0, 0)
    assert out.winners == (0,)


@pytest.mark.parametrize(
    ("trouble", "most_agents", "wins"),
    [(3, 2, True), (3, 3, False), (1, 0, True)],
)
def test_fagin_v_at_the_end_of_the_draw_pile(trouble, most_agents, wins):
    """V Fagin wins if there are more markers than any other single player has agents."""
    out = deck_end(
        with_(2, "v_fagin"),
        config=GameConfig(num_players=4, personalities="variant"),
        agents={
            0: {NAMES[12]: most_agents},
            1: {NAMES[11]: min(most_agents, 1)},
            2: {NAMES[10]: 9},
        },
        trouble=[NAMES[k] for k in range(1, trouble + 1)],
        money=[0, 0, 0, 0],
    )
    if wins:
        assert out.winners == (2,) and out.reason == "deck_exhausted:personality"
    else:
        assert out.reason == "deck_exhausted:points"


def test_fagin_v_and_holmes_v_clauses_are_both_checked():
    """Holmes V (seat 0) and Fagin V (seat 1) in one game: the markers decide which clause
    holds (both cannot: Holmes needs more agents than markers, Fagin more markers than
    Holmes's agents)."""
    pers = ["v_sherlock_holmes", "v_fagin", "v_lord_bellinger", "v_lord_holdhurst"]
    cfg = GameConfig(num_players=4, personalities="variant")
    for trouble, winner in ((1, 0), (2, None), (3, 1)):
        out = deck_end(
            pers,
            config=cfg,
            agents={0: {NAMES[12]: 2}},
            trouble=[NAMES[k] for k in range(1, trouble + 1)],
            money=[0, 0, 0, 0],
        )
        if winner is None:
            assert out.reason == "deck_exhausted:points" and out.winners == (0,)
        else:
            assert out.winners == (winner,) and out.reason == "deck_exhausted:personality"


# ------------------------------------------------------------------ scoring
@pytest.mark.parametrize(
    ("kw", "expected"),
    [
        ({"agents": {0: {NAMES[1]: 3}}, "money": [0]}, 15),
        ({"agents": {0: {NAMES[1]: 3}}, "money": [7]}, 22),
        ({"buildings": {NAMES[2]: 0, NAMES[7]: 0}, "money": [0]}, 24),
        ({"agents": {0: {NAMES[1]: 2, NAMES[2]: 1}}, "grenadiers": {NAMES[1]: 1}, "money": [0]}, 5),
        ({"buildings": {NAMES[2]: 0, NAMES[7]: 0}, "grenadiers": {NAMES[2]: 1}, "money": [1]}, 7),
        ({"loans": {0: ["mr_bent"]}, "money": [12]}, 0),  # repaid
        ({"loans": {0: ["mr_bent"]}, "money": [11]}, 11 - 15),  # cannot repay
        ({"loans": {0: ["mr_bent", "the_bank_of_ankh_morpork"]}, "money": [30]}, 6),
        ({"loans": {0: ["mr_bent", "the_bank_of_ankh_morpork"]}, "money": [20]}, 8 - 15),
        ({"loans": {0: ["mr_bent", "the_bank_of_ankh_morpork"]}, "money": [5]}, 5 - 30),
        (
            {
                "agents": {0: {NAMES[1]: 1, NAMES[5]: 2}},
                "buildings": {NAMES[11]: 0},
                "loans": {0: ["mr_bent"]},
                "money": [13],
            },
            15 + 18 + 1,
        ),
    ],
)
def test_points(kw, expected):
    kw = dict(kw)
    kw["money"] = kw["money"] + [0, 0, 0]
    kw.setdefault("agents", {})
    g = quiet_position(**kw)
    assert scoring.points(g, 0) == expected


def test_trouble_markers_and_cards_do_not_score():
    g = quiet_position(
        agents={}, trouble=RIOT, money=[0, 0, 0, 0], hands=[["groat", "ruby"], [], [], []]
    )
    assert scoring.points(g, 0) == 0


@pytest.mark.parametrize(
    ("buildings", "winners"),
    [
        ({0: [7], 1: [2]}, (1,)),  # tied on points: Westminster (18) beats East End (6)
        ({0: [11], 1: [2]}, (0, 1)),  # 18 against 18: shared
        ({0: [3, 1], 1: [9, 5]}, (0, 1)),  # 12 against 12
        ({0: [10], 1: []}, (0,)),  # a card against none
        ({}, (0, 1)),
        ({0: [2], 1: [11], 2: [7]}, (0, 1)),  # three tied: the two 18s share
        ({0: [1, 5, 7], 1: [9], 2: [8]}, (1,)),  # the highest card, not the most cards
    ],
)
def test_tie_break_by_the_highest_city_area_card_then_shared(buildings, winners):
    tied = sorted({0, 1, *buildings})
    pts = {s: sum(DIE_COST[k] for k in buildings.get(s, [])) for s in tied}
    money = [40 - pts[s] if s in pts else 0 for s in range(4)]
    out = deck_end(
        ["moriarty", "fagin", "lord_bellinger", "lord_holdhurst"],
        agents={},
        buildings={NAMES[k]: s for s, where in buildings.items() for k in where},
        money=money,
    )
    assert all(out.points[s] == 40 for s in tied)
    assert max(out.points) == 40
    assert out.winners == winners


def test_retired_city_area_card_does_not_break_a_tie():
    """Rule decision: a card set aside by Inigo Jones is no longer held."""
    out = deck_end(
        ["moriarty", "fagin", "lord_bellinger", "lord_holdhurst"],
        agents={},
        buildings={NAMES[2]: 0, NAMES[7]: 1},
        retired=[NAMES[2]],
        money=[22, 34, 0, 0],
    )
    assert out.points[:2] == (40, 40)
    assert out.winners == (1,)


def test_tie_break_uses_the_printed_card_value_even_under_martial_law():
    """Rule decision: a grenadier zeroes the building's points, not its City Area card's value
    for the tie-break."""
    out = deck_end(
        ["moriarty", "fagin", "lord_bellinger", "lord_holdhurst"],
        agents={},
        buildings={NAMES[2]: 0, NAMES[6]: 1},
        grenadiers={NAMES[2]: 1},
        money=[40, 28, 0, 0],
    )
    assert out.points[:2] == (40, 40)
    assert out.winners == (0,)
