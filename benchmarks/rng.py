"""The game generator's list shuffle: drawn here (``rng._shuffle_list``, one draw an item) or
handed to numpy in the same state (``GameRng._numpy("shuffle")``: building a numpy generator
from the state and reading it back, then numpy's C loop), by list length, in interleaved
rounds. ``GameRng.shuffle`` shuffles a list of up to ``rng.SHUFFLED_HERE`` items here and a
longer one by numpy; both give the same order (numpy's).

    python benchmarks/rng.py [--sizes 8 16 32 64 100] [--rounds 5] [--json out.json]

Run it on each build (``NANTY_PURE=1`` for the pure-Python one): the crossover is the length
where the two columns meet.
"""

from __future__ import annotations

import argparse

import harness
import numpy as np

from nanty_env.engine.rng import SHUFFLED_HERE, GameRng, _shuffle_list

CALLS = 2_000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 16, 32, 64, 100])
    harness.add_arguments(parser)
    args = parser.parse_args(argv)
    info = harness.header("list shuffles: here or by numpy (us a shuffle)", args.rounds)
    rng = GameRng.from_generator(np.random.default_rng(0))
    cases = {}
    for size in args.sizes:
        items = list(range(size))
        cases[f"here {size}"] = lambda x=items: harness.per_call_seconds(
            lambda: _shuffle_list(rng, x), CALLS
        )
        cases[f"numpy {size}"] = lambda x=items: harness.per_call_seconds(
            lambda: rng._numpy("shuffle")(x, 0), CALLS
        )
    rounds = harness.interleave(cases, args.rounds)
    rows = []
    for size in args.sizes:
        here, numpy = f"here {size}", f"numpy {size}"
        rows.append(
            [
                str(size),
                _micros(rounds.summary(here, cpu=True)),
                _micros(rounds.summary(numpy, cpu=True)),
                rounds.ratio(here, numpy, cpu=True).format(2),
            ]
        )
    headers = ["items", "here (us, CPU)", "numpy (us, CPU)", "here / numpy"]
    print(harness.table(headers, rows))
    print(f"GameRng.shuffle shuffles up to {SHUFFLED_HERE} items here, longer lists by numpy")
    harness.footer(rounds)
    harness.write_json(args.json, info, shuffles=rounds)
    return 0


def _micros(summary: harness.Summary) -> str:
    return harness.Summary(tuple(v * 1e6 for v in summary.values)).format(2)


if __name__ == "__main__":
    raise SystemExit(main())
