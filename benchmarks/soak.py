"""Soak the rules engine: random games for a given time, every state checked.

For every decision of every game (2, 3 and 4 players over a spread of configurations, of the
base game and of the Cthulhu expansion: ``--ruleset``, both by default, alternating):

* the state's invariants (``nanty_env.engine.validation.check_game``: piece counts, each card
  in exactly one place, ranges, seats, every frame of the decision stack, the outcome, the
  expansion's own laws among them; for the expansion also the Insanity level never falling,
  ``cthulhu.invariants.state_violations``);
* a JSON round trip (``to_dict`` -> ``json`` -> ``from_dict``, validated) that must rebuild
  the same state, player and legal actions;
* illegal-action probes (``--probes`` integers that are not legal, plus -1 and the first
  action past the end) that must raise ``IllegalActionError`` and leave the state unchanged.

At a random ``--fork-rate`` of decisions the game is forked: a ``clone()``, a pickled copy of
the clone and the JSON copy each play the same random continuation for ``--fork-steps``
decisions and must agree with one another, while the original must be left untouched.

    .venv/bin/python benchmarks/soak.py --seconds 600 --json runs/soak.json
    .venv/bin/python benchmarks/soak.py --seconds 30 --seed 7      # a quick look
    .venv/bin/python benchmarks/soak.py --games 40                 # the same 40 games anywhere
    .venv/bin/python benchmarks/soak.py --seconds 300 --ruleset cthulhu

Prints decisions, games, round trips, forks, probes and violations (each with its game,
configuration, seed and step, so it can be replayed); exits 1 if there was any violation.
"""

from __future__ import annotations

import argparse
import json
import pickle
import platform
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from nanty_env.engine import Game, GameConfig, IllegalActionError, check_game
from nanty_env.engine.cthulhu.invariants import state_violations

CONFIGS: dict[str, tuple[dict[str, Any], ...]] = {
    "base": (
        {},
        {"interrupt_windows": "holders"},
        {"personalities": "variant"},
        {"personalities": "classic", "theme": "discworld"},
        {"thresholds": "player_aid"},
        {"log": True},
    ),
    "cthulhu": (
        {"expansion": "cthulhu"},
        {"expansion": "cthulhu", "interrupt_windows": "holders"},
        {"expansion": "cthulhu", "theme": "discworld"},
        {"expansion": "cthulhu", "log": True},
    ),
}


@dataclass
class Soak:
    decisions: int = 0
    games: int = 0
    round_trips: int = 0
    forks: int = 0
    fork_decisions: int = 0
    probes: int = 0
    violations: list[dict[str, Any]] = field(default_factory=list)
    ends: Counter = field(default_factory=Counter)
    by_players: Counter = field(default_factory=Counter)
    by_ruleset: Counter = field(default_factory=Counter)
    decisions_by_ruleset: Counter = field(default_factory=Counter)

    def report(self, cpu: float, wall: float) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "games": self.games,
            "json_round_trips": self.round_trips,
            "forks": self.forks,
            "fork_decisions": self.fork_decisions,
            "illegal_action_probes": self.probes,
            "violations": len(self.violations),
            "violation_kinds": dict(Counter(v["error"][:90] for v in self.violations)),
            "violation_details": self.violations[:50],
            "games_by_players": dict(sorted(self.by_players.items())),
            "games_by_ruleset": dict(sorted(self.by_ruleset.items())),
            "decisions_by_ruleset": dict(sorted(self.decisions_by_ruleset.items())),
            "end_reasons": dict(self.ends.most_common()),
            "cpu_seconds": round(cpu, 1),
            "wall_seconds": round(wall, 1),
            "decisions_per_cpu_second": round(self.decisions / max(cpu, 1e-9)),
            "python": platform.python_version(),
        }


class Violation(Exception):
    """A broken promise of the engine (recorded, then the soak moves to the next game)."""


class ProbeViolation(Violation):
    """An illegal action that raised something else than ``IllegalActionError`` but left the
    state unchanged: recorded, and the game goes on."""

    def __init__(self, message: str, tried: int) -> None:
        super().__init__(message)
        self.tried = tried


def same(a: Game, b: Game, what: str) -> None:
    if a.to_dict() != b.to_dict():
        raise Violation(f"{what}: the states differ")
    if a.legal_actions() != b.legal_actions() or a.current_player != b.current_player:
        raise Violation(f"{what}: the pending decisions differ")


def json_copy(g: Game) -> Game:
    return Game.from_dict(json.loads(json.dumps(g.to_dict())))


def probe(g: Game, rng: random.Random, count: int) -> int:
    """Illegal actions must raise and change nothing; returns how many were tried."""
    legal = set(g.legal_actions())
    before = g.to_dict()
    size = g.num_actions
    tried = [-1, size]
    while len(tried) < count + 2 and len(legal) < size:
        a = rng.randrange(size)
        if a not in legal:
            tried.append(a)
    wrong = []
    for a in tried:
        try:
            g.apply(a)
        except IllegalActionError:
            pass
        except Exception as e:  # recorded, and the game goes on (the state must be unchanged)
            wrong.append(f"illegal action {a} raised {e!r}, not IllegalActionError")
        else:
            raise Violation(f"illegal action {a} was accepted")
    if g.to_dict() != before or set(g.legal_actions()) != legal:
        raise Violation("an illegal action changed the state")
    if wrong:
        raise ProbeViolation(wrong[0], len(tried))
    return len(tried)


def fork(g: Game, rng: random.Random, steps: int, soak: Soak) -> None:
    """A clone, a pickled clone and a JSON copy play the same continuation and agree; the
    original is untouched."""
    before = g.to_dict()
    copies = [g.clone(), pickle.loads(pickle.dumps(g.clone())), json_copy(g)]
    for _ in range(steps):
        if copies[0].is_terminal:
            break
        a = rng.choice(copies[0].legal_actions())
        for c in copies:
            c.apply(a)
        soak.fork_decisions += 1
    same(copies[0], copies[1], "fork: clone vs pickled clone")
    same(copies[0], copies[2], "fork: clone vs JSON copy")
    if g.to_dict() != before:
        raise Violation("fork: playing a clone changed the original")
    soak.forks += 1


def check(g: Game, insanity: int | None) -> None:
    """Every invariant of ``g`` (and the expansion's, the level not below ``insanity``)."""
    check_game(g)
    if g.has_elders:
        bad = state_violations(g, insanity)  # check_game ran the shared laws
        if bad:
            raise Violation(f"expansion invariants: {bad}")


def play(n: int, seed: int, args: argparse.Namespace, soak: Soak, ruleset: str = "base") -> None:
    configs = CONFIGS[ruleset]
    options = configs[seed % len(configs)]
    config = GameConfig(num_players=n, **{"log": False, **options})
    g = Game.new(config, seed)
    rng = random.Random(seed * 7919 + n)
    step = 0
    insanity = None
    try:
        while True:
            check(g, insanity)
            insanity = getattr(g, "insanity", None)
            copy = json_copy(g)
            same(g, copy, "JSON round trip")
            soak.round_trips += 1
            if g.is_terminal:
                try:
                    g.apply(0)
                except IllegalActionError:
                    pass
                else:
                    raise Violation("an action was accepted after the end")
                break
            try:
                soak.probes += probe(g, rng, args.probes)
            except ProbeViolation as e:
                soak.probes += e.tried
                record(soak, ruleset, n, seed, options, step, e)
            if rng.random() < args.fork_rate:
                fork(g, rng, args.fork_steps, soak)
            a = rng.choice(g.legal_actions())
            g.apply(a)
            copy.apply(a)
            if step % 16 == 0:  # the restored copy continues exactly like the original
                same(g, copy, "restored copy after an action")
            soak.decisions += 1
            soak.decisions_by_ruleset[ruleset] += 1
            step += 1
            if step > args.max_steps:
                raise Violation(f"no end after {args.max_steps} decisions")
        soak.games += 1
        soak.by_players[n] += 1
        soak.by_ruleset[ruleset] += 1
        soak.ends[g.outcome.termination.value] += 1
    except Exception as e:  # every failure is recorded with what replays it
        record(soak, ruleset, n, seed, options, step, e)


def record(
    soak: Soak, ruleset: str, n: int, seed: int, options: dict, step: int, e: Exception
) -> None:
    soak.violations.append(
        {
            "ruleset": ruleset,
            "players": n,
            "seed": seed,
            "config": options,
            "step": step,
            "error": repr(e),
        }
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=None, help="60 unless --games is given")
    ap.add_argument(
        "--games",
        type=int,
        default=None,
        help="play exactly this many games (the same ones on every machine and build)",
    )
    ap.add_argument("--seed", type=int, default=0, help="first game seed")
    ap.add_argument("--probes", type=int, default=3, help="random illegal actions per decision")
    ap.add_argument("--fork-rate", type=float, default=0.02, help="share of decisions forked")
    ap.add_argument("--fork-steps", type=int, default=40, help="decisions a fork plays")
    ap.add_argument("--max-steps", type=int, default=20_000)
    ap.add_argument("--ruleset", choices=("both", *CONFIGS), default="both")
    ap.add_argument("--json", help="also write the report here")
    args = ap.parse_args(argv)
    if args.seconds is None:
        args.seconds = float("inf") if args.games else 60.0
    if args.seconds <= 0 or args.probes < 0 or not 0 <= args.fork_rate <= 1:
        ap.error("--seconds must be positive, --probes non-negative, --fork-rate in [0, 1]")
    soak = Soak()
    t0, c0 = time.perf_counter(), time.process_time()
    deadline = t0 + args.seconds
    seed = args.seed
    rulesets = list(CONFIGS) if args.ruleset == "both" else [args.ruleset]
    while time.perf_counter() < deadline and (args.games is None or seed - args.seed < args.games):
        play(2 + seed % 3, seed, args, soak, rulesets[seed % len(rulesets)])
        seed += 1
    report = soak.report(time.process_time() - c0, time.perf_counter() - t0)
    report["seeds"] = [args.seed, seed - 1]
    report["command"] = " ".join(["benchmarks/soak.py", *(argv or sys.argv[1:])])
    text = json.dumps(report, indent=1)
    print(text)
    if args.json:
        from nanty_env.storage.files import atomic_write_text

        atomic_write_text(args.json, text + "\n")
    return 1 if soak.violations else 0


if __name__ == "__main__":
    sys.exit(main())
