"""Fuzz ``Game.from_dict``: mutate the ``to_dict`` states of real games and check what comes back.

A pool of states is taken from seeded random play of both rulesets (base game and the Cthulhu
expansion, 2-4 players, every configuration option, finished games too). Each mutation copies
one state and changes it at a random JSON path: it replaces a value with a random JSON value
(integers small, near a bound, huge or negative; floats, NaN and infinities; strings; bools;
null; lists; objects), nudges an integer by one, puts another value of the same state there,
deletes a key or a list item, or inserts one. The property for every mutation:

* ``from_dict`` either raises ``InvalidStateError`` whose message starts with a field name
  (``"stack[2].stay: ..."``), or
* it returns a game that re-serialises (``to_dict`` -> strict JSON) and then plays
  ``--moves`` random legal moves without raising anything.

Anything else (another exception type, a message naming no field, a crash in play) is a
failure, printed with what replays it (``--replay SEED:INDEX``).

    .venv/bin/python benchmarks/fuzz_state.py --mutations 1000000 --workers 2
    .venv/bin/python benchmarks/fuzz_state.py --mutations 20000            # a quick look

The same mutations drive the Hypothesis property in ``tests/engine/test_from_dict_fuzz.py``.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import random
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from nanty_env.engine import Game, GameConfig, InvalidStateError

# The one failure the validator cannot prevent: ``Game.from_dict`` picks the expansion's game
# class from ``config.expansion`` before validating anything, so an unknown name raises a plain
# ``ValueError`` ("unknown expansion ...") from ``ruleset.game_class``. Counted apart.
OPS = ("replace", "nudge", "borrow", "delete", "insert")
# the message names a field: "stack[2].stay: ...", "config['a b']: ..."
FIELD = re.compile(r"^[A-Za-z_]\w*(\.\w+|\[[^\]]*\])*: ")
HUGE = (2**31, -(2**31), 2**63, -(2**63) - 1, 2**64, 10**30, -(10**30))
WORDS = ("", "x", "k", "p", "main", "card", "turn", "cthulhu", "standard", "yes", "none")
CONFIGS: tuple[dict[str, Any], ...] = (
    {},
    {"interrupt_windows": "holders"},
    {"personalities": "variant"},
    {"personalities": "classic", "theme": "discworld"},
    {"thresholds": "player_aid"},
    {"log": True},
    {"expansion": "cthulhu"},
    {"expansion": "cthulhu", "interrupt_windows": "holders"},
    {"expansion": "cthulhu", "log": True},
)


# ---------------------------------------------------------------------- the states
def sample_states(seed: int, games: int, per_game: int = 4) -> list[dict[str, Any]]:
    """``to_dict`` states of ``games`` seeded random games (``per_game`` from each, at random
    steps, the end included for some), as plain JSON data."""
    out = []
    for i in range(games):
        rng = random.Random(seed * 100_003 + i)
        options = CONFIGS[i % len(CONFIGS)]
        cfg = GameConfig(num_players=2 + rng.randrange(3), **{"log": False, **options})
        g = Game.new(cfg, rng.randrange(2**32))
        trace = []
        while not g.is_terminal:
            trace.append(g.to_dict())
            g.apply(rng.choice(g.legal_actions()))
        picks = rng.sample(trace, min(per_game, len(trace)))
        if i % 5 == 0:
            picks.append(g.to_dict())
        out += [json.loads(json.dumps(d)) for d in picks]
    return out


# ---------------------------------------------------------------------- the mutations
def random_json(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value (NaN and the infinities included: Python's ``json`` writes them)."""
    kind = rng.randrange(12 if depth < 2 else 9)
    if kind == 0:
        return rng.randrange(-3, 16)
    if kind == 1:
        return rng.choice(HUGE)
    if kind == 2:
        return rng.randrange(-200, 400)
    if kind == 3:
        return rng.choice((0.0, 0.5, -1.0, 2.0, 1e308, math.nan, math.inf, -math.inf))
    if kind == 4:
        return rng.choice(WORDS)
    if kind == 5:
        return rng.choice((True, False))
    if kind == 6:
        return None
    if kind == 7:
        return rng.randrange(0, 12)
    if kind == 8:
        return rng.choice(([], {}, [0], [1, 2], ["a"]))
    if kind in (9, 10):
        return [random_json(rng, depth + 1) for _ in range(rng.randrange(5))]
    keys = rng.sample(("k", "p", "a", "s", "x", "winners", "reason", "0"), rng.randrange(4))
    return {k: random_json(rng, depth + 1) for k in keys}


def paths(d: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path to a value inside ``d`` (dict keys and list indices)."""
    out = []
    items = d.items() if isinstance(d, dict) else enumerate(d) if isinstance(d, list) else ()
    for k, v in items:
        out.append((*prefix, k))
        out += paths(v, (*prefix, k))
    return out


def pick_path(d: dict[str, Any], choices: list[int]) -> tuple:
    """A path chosen by descending from the root, one choice per level: a top-level key
    uniformly (so that small fields are hit as often as the long card lists), then a child
    or stopping here."""
    path: tuple = ()
    node: Any = d
    for i, c in enumerate(choices):
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys or (i > 0 and c % 3 == 0):
            break
        k = keys[c % len(keys)]
        if i == 0 and c % 4 == 0 and d.get("stack"):
            k = "stack"  # the decision stack a quarter of the time: its frames hide the most
        path = (*path, k)
        node = node[k]
        if not isinstance(node, dict | list):
            break
    return path


def get(d: Any, path: tuple) -> Any:
    for k in path:
        d = d[k]
    return d


@dataclass
class Mutation:
    """What was done to a state (for the report and to replay it)."""

    op: str
    path: tuple
    value: Any = None

    def __str__(self) -> str:
        where = "".join(f"[{k!r}]" for k in self.path)
        return f"{self.op} {where}" + (f" = {self.value!r}" if self.op != "delete" else "")


def mutate(d: dict[str, Any], op: str, choices: list[int], value: Any) -> Mutation:
    """Apply one mutation to ``d`` in place: ``op`` (one of :data:`OPS`) at the path that
    ``choices`` picks, with ``value`` (a random JSON value) where one is needed."""
    path = pick_path(d, choices)
    if not path:
        path = (next(iter(d)),)
    parent, key = get(d, path[:-1]), path[-1]
    old = parent[key]
    if op == "nudge" and type(old) is int:
        value = old + (1 if choices[-1] % 2 else -1)
    elif op == "borrow":
        every = paths(d)
        value = json.loads(json.dumps(get(d, every[sum(choices) % len(every)])))
    if op in ("replace", "nudge", "borrow"):
        parent[key] = value
        return Mutation(
            op if op == "replace" or type(old) is int or op == "borrow" else "replace", path, value
        )
    if op == "delete":
        del parent[key]
        return Mutation(op, path)
    # insert: a new key in an object, or a new item in a list (at the chosen index)
    if isinstance(old, dict):
        new = ("k", "p", "s", "up", "r", "e", "x", "amount", "left", "stay")[choices[-1] % 10]
        old[new] = value
        return Mutation(op, (*path, new), value)
    if isinstance(parent, list):
        parent.insert(key, value)
    else:
        parent[f"{key}_"] = value
    return Mutation(op, path, value)


def random_mutation(d: dict[str, Any], rng: random.Random) -> Mutation:
    op = rng.choice(OPS)
    choices = [rng.randrange(1 << 30) for _ in range(rng.randrange(1, 6))]
    return mutate(d, op, choices, random_json(rng))


# ---------------------------------------------------------------------- the property
def check(d: dict[str, Any], seed: int, moves: int) -> tuple[str, str]:
    """Load the mutated state ``d`` and judge it: ``("rejected", field)``, ``("accepted", "")``,
    or ``("failure", what went wrong)``."""
    try:
        g = Game.from_dict(d)
    except InvalidStateError as e:
        text = str(e)
        if not FIELD.match(text):
            return "failure", f"InvalidStateError naming no field: {text!r}"
        return "rejected", re.split(r"[.\[:]", text, maxsplit=1)[0]
    except Exception as e:
        return "failure", f"from_dict raised {type(e).__name__}: {e}"
    try:
        json.dumps(g.to_dict(), allow_nan=False)
    except Exception as e:
        return "failure", f"to_dict of the accepted state raised {type(e).__name__}: {e}"
    rng = random.Random(seed)
    step = 0
    try:
        while step < moves and not g.is_terminal:
            g.apply(rng.choice(g.legal_actions()))
            step += 1
    except Exception as e:
        return "failure", f"play step {step} raised {type(e).__name__}: {e}"
    return "accepted", ""


@dataclass
class Tally:
    mutations: int = 0
    rejected: int = 0
    accepted: int = 0
    failures: list[str] = field(default_factory=list)
    failure_count: int = 0
    by_field: Counter = field(default_factory=Counter)
    by_op: Counter = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        self.mutations += other.mutations
        self.rejected += other.rejected
        self.accepted += other.accepted
        self.failure_count += other.failure_count
        self.failures += other.failures[: max(0, 50 - len(self.failures))]
        self.by_field.update(other.by_field)
        self.by_op.update(other.by_op)


def run_one(pool: list[dict[str, Any]], seed: int, i: int, moves: int) -> tuple[str, str, Mutation]:
    """Mutation ``i`` of the run seeded ``seed``: which state, what mutation, the verdict."""
    rng = random.Random(f"{seed}:{i}")
    d = json.loads(json.dumps(pool[rng.randrange(len(pool))]))
    m = random_mutation(d, rng)
    verdict, detail = check(d, rng.randrange(2**32), moves)
    return verdict, detail, m


def worker(args: tuple[int, int, int, int, int, int]) -> Tally:
    seed, start, stop, games, moves, _ = args
    pool = sample_states(seed, games)
    tally = Tally()
    for i in range(start, stop):
        verdict, detail, m = run_one(pool, seed, i, moves)
        tally.mutations += 1
        tally.by_op[f"{m.op} {verdict}"] += 1
        if verdict == "rejected":
            tally.rejected += 1
            tally.by_field[detail] += 1
        elif verdict == "accepted":
            tally.accepted += 1
        else:
            tally.failure_count += 1
            if len(tally.failures) < 50:
                tally.failures.append(f"--replay {seed}:{i}  {m}  ->  {detail}")
    return tally


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mutations", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--games", type=int, default=90, help="games whose states are mutated")
    ap.add_argument("--moves", type=int, default=150, help="random moves after each load")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=20_000, help="mutations per task")
    ap.add_argument("--replay", help="SEED:INDEX of one mutation to show and run again")
    ap.add_argument("--json", help="also write the report here")
    args = ap.parse_args(argv)
    if args.replay:
        seed, i = map(int, args.replay.split(":"))
        verdict, detail, m = run_one(sample_states(seed, args.games), seed, i, args.moves)
        print(f"{m}\n{verdict} {detail}")
        return 1 if verdict == "failure" else 0
    t0 = time.perf_counter()
    tasks = [
        (args.seed, s, min(s + args.chunk, args.mutations), args.games, args.moves, k)
        for k, s in enumerate(range(0, args.mutations, args.chunk))
    ]
    total = Tally()
    if args.workers > 1:
        with mp.get_context("spawn").Pool(args.workers) as pool:
            for t in pool.imap_unordered(worker, tasks):
                total.add(t)
                print(f"{total.mutations} mutations, {total.failure_count} failures", flush=True)
    else:
        for task in tasks:
            total.add(worker(task))
    report = {
        "mutations": total.mutations,
        "rejected": total.rejected,
        "accepted_and_played": total.accepted,
        "failures": total.failure_count,
        "failure_examples": total.failures,
        "rejected_by_field": dict(total.by_field.most_common()),
        "by_operation": dict(sorted(total.by_op.items())),
        "moves_after_each_load": args.moves,
        "seed": args.seed,
        "states_from_games": args.games,
        "wall_seconds": round(time.perf_counter() - t0, 1),
    }
    text = json.dumps(report, indent=1)
    print(text)
    if args.json:
        with open(args.json, "w") as fh:
            fh.write(text + "\n")
    return 1 if total.failure_count else 0


if __name__ == "__main__":
    sys.exit(main())
