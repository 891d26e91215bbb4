"""The environment faces: one game behind the interfaces learners use.

- ``aec``: PettingZoo's AEC env (``nanty_env.env()`` / ``nanty_env.raw_env()``), ``wrapper``
  its checks; ``parallel``: the PettingZoo ``ParallelEnv`` (``nanty_env.parallel_env()``);
- ``single``: the single-learner Gymnasium env, ``registration`` its Gymnasium id;
- ``options``: the constructor options they share; ``rewards``: terminal rewards and shaping.

Gymnasium and PettingZoo are imported by the faces that need them, not here.
"""
