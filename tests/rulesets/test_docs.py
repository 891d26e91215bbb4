"""docs/rulesets.md: its Python example registers and plays a ruleset, and its content-pack
example is the house variant's pack."""

from __future__ import annotations

import tomllib
from pathlib import Path

from tests.snippets import snippets

PACK = Path(__file__).with_name("house_pack") / "cards.toml"


def test_the_python_example_runs():
    (example,) = snippets("rulesets.md", "python")
    exec(compile(example.code, "docs/rulesets.md", "exec"), {"__name__": "docs_rulesets"})


def test_the_pack_example_is_the_shipped_house_pack():
    (example,) = snippets("rulesets.md", "toml")
    assert tomllib.loads(example.code) == tomllib.loads(PACK.read_text())
