"""docs/rulesets.md: its Python example registers and plays a ruleset, and its content-pack
example is the house variant's pack, and its plug-in example names the group the commands
read."""

from __future__ import annotations

import tomllib
from pathlib import Path

from tests.snippets import snippets

PACK = Path(__file__).with_name("house_pack") / "cards.toml"


def test_the_python_example_runs():
    (example,) = snippets("rulesets.md", "python")
    exec(compile(example.code, "docs/rulesets.md", "exec"), {"__name__": "docs_rulesets"})


def test_the_pack_example_is_the_shipped_house_pack():
    (example,) = [e for e in snippets("rulesets.md", "toml") if "[[card]]" in e.code]
    assert tomllib.loads(example.code) == tomllib.loads(PACK.read_text())


def test_the_plug_in_example_names_the_entry_point_group():
    from nanty_env.engine.ruleset import PLUGIN_GROUP

    (example,) = [e for e in snippets("rulesets.md", "toml") if "entry-points" in e.code]
    assert list(tomllib.loads(example.code)["project"]["entry-points"]) == [PLUGIN_GROUP]
