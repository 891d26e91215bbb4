"""Speed of the rules engine (the base game and the Rise of Cthulhu expansion) beside OpenSpiel's
C++ card games, in the same run.

Random play: whole games, every decision a uniform choice among the legal actions by the same
code for every game (``random.Random.choice`` on the list of legal actions); decisions per
second of wall time and of CPU time, one process, game log off (as in training). The expansion
is timed beside the base game (its ratio to the base game is a target). The peers are OpenSpiel's
4-player card games through ``pyspiel`` (hearts, spades, euchre, and bridge played to the last
trick instead of scored by double dummy); their chance nodes (the deals, all uniform) are
sampled with the same choice and not counted as decisions, as our shuffles are not. Then the
cost of copying a game state (``Game.clone()``; the same after the copy draws one random
number, which builds its generator; OpenSpiel's ``State.clone()``) on states taken from random
games. Every case runs once per round, rounds interleaved (``benchmarks/harness.py``).

OpenSpiel is only needed here: ``pip install -e ".[bench]"`` (without it the peers are skipped).

    python benchmarks/engine.py                      # 5 rounds of 3 s per case
    python benchmarks/engine.py --rounds 7 --seconds 5 --players 4 --rulesets base
    python benchmarks/engine.py --strict             # exit 1 below a target
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from typing import Any

from harness import (
    PURE,
    Measured,
    PureBuild,
    Rounds,
    add_arguments,
    engine_build,
    footer,
    header,
    interleave,
    per_call_seconds,
    rate,
    rate_columns,
    write_json,
)
from harness import table as text_table

from nanty_env.engine import Game, GameConfig

TARGET_PLAYERS = 4
TARGET_DECISIONS_PER_SECOND = 50_000
TARGET_EXPANSION_RATIO = 0.7  # expansion decisions/s over the base game's, 4 players
RULESETS = {"base": None, "cthulhu": "cthulhu"}  # name: GameConfig.expansion
PEERS = {  # label: OpenSpiel game string
    "OpenSpiel hearts": "hearts",
    "OpenSpiel spades": "spades",
    "OpenSpiel euchre": "euchre",
    "OpenSpiel bridge": "bridge(use_double_dummy_result=false)",
}
CLONE_STATES = 200  # states per game copied in the clone timing
TARGET_COMPILED_RATIO = 3.0  # compiled over pure, decisions per CPU-second at 4 players


def nanty_player(n: int, log: bool, seed: int, expansion: str | None = None) -> Callable[[], int]:
    """One random game per call (the next seed each time); returns its decisions."""
    seeds = iter(range(seed, 1 << 62))
    config = GameConfig(num_players=n, log=log, expansion=expansion)

    def play() -> int:
        s = next(seeds)
        g = Game.new(config, s)
        choose = random.Random(s).choice
        decisions = 0
        while not g.is_terminal:
            g.apply(choose(g.legal_actions()))
            decisions += 1
        return decisions

    return play


def spiel_player(game: Any, seed: int) -> Callable[[], int]:
    """The same loop on an OpenSpiel game; chance outcomes drawn by the same choice."""
    choose = random.Random(seed).choice

    def play() -> int:
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if not state.is_chance_node():
                decisions += 1
            state.apply_action(choose(state.legal_actions()))
        return decisions

    return play


def nanty_states(n: int, count: int, seed: int, expansion: str | None = None) -> list[Game]:
    """``count`` states from random games (of ``expansion``), every 7th decision."""
    states: list[Game] = []
    s = seed
    while len(states) < count:
        g = Game.new(GameConfig(num_players=n, expansion=expansion), s)
        choose = random.Random(s).choice
        k = 0
        while not g.is_terminal and len(states) < count:
            if k % 7 == 3:
                states.append(g.clone())
            g.apply(choose(g.legal_actions()))
            k += 1
        s += 1
    return states


def spiel_states(game: Any, count: int, seed: int) -> list[Any]:
    """``count`` decision states (the deal done) from random games, every 7th decision."""
    choose = random.Random(seed).choice
    states: list[Any] = []
    while len(states) < count:
        state = game.new_initial_state()
        k = 0
        while not state.is_terminal() and len(states) < count:
            if not state.is_chance_node():
                if k % 7 == 3:
                    states.append(state.clone())
                k += 1
            state.apply_action(choose(state.legal_actions()))
    return states


def micros_per_clone(
    states: list[Any], draw: bool = False, repeat: int = 20
) -> Callable[[], float]:
    """Microseconds per copy over ``states`` (``draw``: the copy then draws a number)."""

    def one_pass() -> None:
        for s in states:
            s.clone()

    def one_pass_drawing() -> None:
        for s in states:
            s.clone().rng.random()

    call = one_pass_drawing if draw else one_pass

    def measure() -> Measured:
        wall, cpu = per_call_seconds(call, repeat)
        return Measured(1e6 * wall / len(states), 1e6 * cpu / len(states))

    return measure


def pure_cases(
    n: int, rulesets: list[str], log: bool, seed: int, seconds: float, clone: bool
) -> dict[str, Callable[[], Measured]]:
    """The cases that the pure-Python build runs beside the compiled one (in a child process,
    ``harness.PureBuild``): random play at ``n`` players in each ruleset, and the clone."""
    cases: dict[str, Callable[[], Measured]] = {}
    for ruleset in rulesets:
        player = nanty_player(n, log, seed, RULESETS[ruleset])
        name = f"nanty {n}p" if ruleset == "base" else f"{ruleset} {n}p"
        cases[name] = lambda p=player: rate(p, seconds)
    if clone:
        cases[f"nanty {n}p clone()"] = micros_per_clone(nanty_states(n, CLONE_STATES, seed))
    return cases


def load_peers() -> dict[str, Any]:
    try:
        import pyspiel
    except ImportError:
        print('(OpenSpiel is not installed: pip install -e ".[bench]" to time the peers)')
        return {}
    return {label: pyspiel.load_game(name) for label, name in PEERS.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per case and round")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], choices=[2, 3, 4])
    parser.add_argument("--log", action="store_true", help="keep the game log (off by default)")
    parser.add_argument("--seed", type=int, default=0, help="first game seed")
    parser.add_argument(
        "--rulesets",
        nargs="+",
        default=list(RULESETS),
        choices=list(RULESETS),
        help="base game and/or expansion",
    )
    parser.add_argument("--no-clone", action="store_true", help="skip the clone timing")
    parser.add_argument(
        "--no-pure",
        action="store_true",
        help="on the compiled build, skip timing the pure-Python engine beside it",
    )
    parser.add_argument(
        "--strict", action="store_true", help="exit with status 1 when below the target"
    )
    add_arguments(parser)
    args = parser.parse_args(argv)
    info = header(
        f"engine: random play, decisions/s (wall clock, one process, log "
        f"{'on' if args.log else 'off'}), {args.seconds:g} s per case and round",
        args.rounds,
    )
    peers = load_peers()
    s = args.seconds
    big_n = args.players[-1]
    do_clone = not args.no_clone and "base" in args.rulesets
    pure = None
    if not args.no_pure and engine_build() != "pure Python":
        pure = PureBuild(pure_cases, big_n, args.rulesets, args.log, args.seed, s, do_clone)
    play: dict[str, Callable[[], Measured]] = {}
    for n in args.players:
        for ruleset in args.rulesets:
            player = nanty_player(n, args.log, args.seed, RULESETS[ruleset])
            name = f"nanty {n}p" if ruleset == "base" else f"{ruleset} {n}p"
            play[name] = lambda p=player: rate(p, s)
    for label, game in peers.items():
        player = spiel_player(game, args.seed)
        play[label] = lambda p=player: rate(p, s)
    if pure is not None:
        for ruleset in args.rulesets:
            name = f"nanty {big_n}p" if ruleset == "base" else f"{ruleset} {big_n}p"
            play[name + PURE] = pure.case(name)
    rounds = interleave(play, args.rounds)
    big = f"nanty {args.players[-1]}p"  # the base game's largest count, against each peer
    rows = []
    for name in play:
        if name in peers and big in play:
            peer = rate_columns(rounds, big, name)
        elif name.endswith(PURE):  # the compiled build over the pure one
            peer = rate_columns(rounds, name.removesuffix(PURE), name)
        elif name.startswith("nanty") or "base" not in args.rulesets:
            peer = ["", "", "", ""]
        else:  # the expansion against the base game at the same player count
            peer = rate_columns(rounds, name, "nanty " + name.split(" ", 1)[1])
        own = rate_columns(rounds, name, None)
        rows.append([name, own[0], peer[1], own[2], peer[3]])
    headers = ["game", "decisions/s", f"{big} / peer", "by CPU time", f"{big} / peer (CPU)"]
    print(text_table(headers, rows))
    print("(an expansion row's ratio: the expansion over the base game, same player count)")
    if pure is not None:
        print(
            f"(a{PURE} row: the pure-Python engine in a child process; its ratio: compiled / pure)"
        )
    footer(rounds)

    sections = {"play": rounds}
    if do_clone:
        print("\ncopying a state: microseconds per clone over states of random games")
        clone: dict[str, Callable[[], float]] = {}
        for n in args.players:
            states = nanty_states(n, CLONE_STATES, args.seed)
            clone[f"nanty {n}p clone()"] = micros_per_clone(states)
            clone[f"nanty {n}p clone(), then a draw"] = micros_per_clone(states, draw=True)
        if "cthulhu" in args.rulesets:
            for n in args.players:
                states = nanty_states(n, CLONE_STATES, args.seed, "cthulhu")
                clone[f"cthulhu {n}p clone()"] = micros_per_clone(states)
        peer_names = []
        for label, game in peers.items():
            peer_names.append(f"{label} clone()")
            clone[peer_names[-1]] = micros_per_clone(spiel_states(game, CLONE_STATES, args.seed))
        if pure is not None:
            name = f"nanty {big_n}p clone()"
            clone[name + PURE] = pure.case(name)
            peer_names.append(name + PURE)
        crounds = interleave(clone, args.rounds)
        ours4 = f"nanty {args.players[-1]}p clone()"
        rows = []
        for name in clone:
            cells = rate_columns(crounds, ours4, name if name in peer_names else None, 2)
            own = rate_columns(crounds, name, None, 2)
            rows.append([name, own[0], cells[1], own[2], cells[3]])
        print(
            text_table(["state", "us per clone", f"{ours4} / peer", "by CPU time", "(CPU)"], rows)
        )
        footer(crounds)
        sections["clone"] = crounds
    if pure is not None:
        pure.close()
    write_json(args.json, info, **sections)
    return _target(rounds, args.strict)


def _target(rounds: Rounds, strict: bool) -> int:
    """The targets, on CPU-time rates (load barely moves them)."""
    name, expansion = f"nanty {TARGET_PLAYERS}p", f"cthulhu {TARGET_PLAYERS}p"
    ok = True
    if name in rounds.values:
        rate_ = rounds.summary(name, cpu=True).median
        ok = rate_ >= TARGET_DECISIONS_PER_SECOND
        print(
            f"target: {TARGET_PLAYERS} players >= {TARGET_DECISIONS_PER_SECOND:,} decisions per "
            f"CPU-second: {'met' if ok else 'NOT met'} ({rate_:,.0f})"
        )
    if name in rounds.values and expansion in rounds.values:
        ratio = rounds.ratio(expansion, name, cpu=True)
        met = ratio.median >= TARGET_EXPANSION_RATIO
        ok = ok and met
        print(
            f"target: expansion / base at {TARGET_PLAYERS} players >= {TARGET_EXPANSION_RATIO}: "
            f"{'met' if met else 'NOT met'} ({ratio.format(2)})"
        )
    pure = f"{name}{PURE}"
    if name in rounds.values and pure in rounds.values:
        ratio = rounds.ratio(name, pure, cpu=True)
        met = ratio.median >= TARGET_COMPILED_RATIO
        ok = ok and met
        print(
            f"target: compiled / pure at {TARGET_PLAYERS} players >= {TARGET_COMPILED_RATIO}: "
            f"{'met' if met else 'NOT met'} ({ratio.format(2)})"
        )
    return 0 if ok or not strict else 1


if __name__ == "__main__":
    sys.exit(main())
