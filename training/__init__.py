"""Training code: self-play PPO, leagues and evaluation.

Importing the package before torch sets ``OMP_WAIT_POLICY=PASSIVE`` (unless it is set already):
torch's OpenMP threads otherwise spin while they wait for each other, and with two update
threads on a machine whose other core is busy each waits for a thread that is not running. A
PPO update measured on the shared 2-core machine took 18-28 s instead of 1.3-1.6 s with one
thread; passive waiting brought it back to 1.8-2.2 s (see docs/performance.md). OpenMP reads
the variable once, when torch loads, so it has no effect once torch is imported.
"""

import os

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
