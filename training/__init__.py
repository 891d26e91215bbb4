"""Training code: self-play PPO, leagues and evaluation.

Importing the package before torch sets how torch's OpenMP threads wait for each other, unless
either variable is set already (an explicit choice is kept whole): ``OMP_WAIT_POLICY=PASSIVE``
and ``GOMP_SPINCOUNT=1000``, a short spin (microseconds) before sleeping. Left to itself, GNU
OpenMP spins for about 3 ms (and with ``ACTIVE`` for minutes): with two update threads on a
machine whose other core is busy, each then spins waiting for a thread that is not running, and
an update step takes many times longer than with one thread. Sleeping at once (``PASSIVE``
alone) is safe under load but makes two threads no faster than one on free cores; the short
spin keeps most of both (measured in docs/performance.md, ``benchmarks/policy.py``). OpenMP
reads the variables once, when torch loads, so they have no effect once torch is imported.
"""

import os

SPIN_COUNT = 1000  # GNU OpenMP's spin rounds before a waiting thread sleeps (GOMP_SPINCOUNT)

if "OMP_WAIT_POLICY" not in os.environ and "GOMP_SPINCOUNT" not in os.environ:
    os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
    os.environ["GOMP_SPINCOUNT"] = str(SPIN_COUNT)
