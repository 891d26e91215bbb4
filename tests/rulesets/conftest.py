"""Registers the house variant once per test process (``tests/rulesets/house.py``)."""

import tests.rulesets.house  # noqa: F401
