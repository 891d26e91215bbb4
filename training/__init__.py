"""Training code: self-play PPO, leagues and evaluation.

Importing the package before torch sets ``OMP_WAIT_POLICY=PASSIVE`` (unless it is set already):
torch's OpenMP threads otherwise spin while they wait for each other, and with two update
threads on a machine whose other core is busy each waits for a thread that is not running: an
update step then takes many times longer than with one thread (docs/performance.md,
``benchmarks/policy.py``). OpenMP reads the variable once, when torch loads, so it has no
effect once torch is imported.
"""

import os

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
