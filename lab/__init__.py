"""Research code that is not part of the installed product: fitting the learned leaf value and
one-experiment scripts. Run from the repository root, e.g. ``python -m lab.value_train``.
Findings are written up in ``docs/experiments.md``."""
