"""Training code: self-play PPO, leagues and evaluation.

Importing the package before torch sets how torch's OpenMP threads wait for each other (each
unless it is set already): ``OMP_WAIT_POLICY=PASSIVE`` and ``GOMP_SPINCOUNT=1000``, a short
spin (a few microseconds) before sleeping. Left to itself, GNU OpenMP spins for about 3 ms (and
``ACTIVE`` for minutes): with two update threads on a machine whose other core is busy, each
then spins waiting for a thread that is not running, and an update step takes many times
longer than with one thread. Sleeping at once (``PASSIVE`` alone) is safe under load but makes
two threads hardly faster than one on free cores; the short spin keeps both (measured in
docs/performance.md, ``benchmarks/policy.py``). OpenMP reads the variables once, when torch
loads, so they have no effect once torch is imported.
"""

import os

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
os.environ.setdefault("GOMP_SPINCOUNT", "1000")
