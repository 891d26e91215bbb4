"""The people layer: the ``nanty`` command line (train, evaluate, compare, role inference)."""
