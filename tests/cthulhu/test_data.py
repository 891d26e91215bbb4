"""The shipped content pack (counts, provenance, the README's list of assumptions, the mapping
from the base deck) and users' own packs (same validation, errors naming file, item, field)."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

import pytest

from nanty_env.data import DataError, load_game_data
from nanty_env.data.cthulhu import PACK_FILES, load_cthulhu_data
from nanty_env.data.cthulhu.loader import pack_items
from nanty_env.engine.config import GameConfig
from nanty_env.engine.cthulhu.tables import cthulhu_tables
from nanty_env.engine.game import Game

PACK = resources.files("nanty_env.data.cthulhu")
SYMBOL_MAP = {"event": "insanity", "agent": "minion", "remove_trouble": "summon"}
REPLACED = {"mrs_cake", "zorgo_the_retro_phrenologist", "sybil_vimes", "reacher_gilt", "rincewind"}


def shipped_text(name: str) -> str:
    return PACK.joinpath(name).read_text(encoding="utf-8")


def test_counts():
    d = load_cthulhu_data()
    assert len(d.cards) == 101 and len(d.events) == 9 and len(d.great_old_ones) == 4
    assert len(d.objectives) == 7 and len(d.track) == 13 and len(d.buildings) == 6
    assert 2 <= len(d.elder_ones) <= 8
    assert [c.deck for c in d.cards].count("yellow") == 48
    assert [c.id for c in d.cards if c.removed_with_two_players] == ["cosmo_lavish"]


def test_every_item_has_a_source_and_a_reason():
    d = load_cthulhu_data()
    for section, items in pack_items(d).items():
        for x in items:
            assert x.source in ("rulebook", "assumed"), (section, x)
            assert x.reason.strip(), (section, x)


def test_what_the_rulebook_prints():
    d = load_cthulhu_data()
    pickwick = d.cards[38]
    assert pickwick.name() == "Samuel Pickwick" and pickwick.source == "rulebook"
    assert pickwick.symbols == ("insanity", "scroll", "play_another")
    assert pickwick.effect == "move_own_minion_out_of_trouble"
    basatan = d.elder_ones[d.elder_index["basatan"]]
    assert basatan.hp == 2 and basatan.ability == "remove_minion_or_grenadier_here"
    assert basatan.source == "rulebook"
    bokrug = d.elder_ones[d.elder_index["bokrug"]]
    assert bokrug.ability == "place_trouble_here" and bokrug.source == "assumed"  # HP assumed
    assert {b.id: (b.number, b.cost) for b in d.buildings} == {
        "tenement": (102, 6),
        "mansion": (103, 12),
        "palace": (104, 18),
        "hotel": (105, 12),
        "office": (106, 6),
        "factory": (107, 12),
    }
    assert all(b.source == "rulebook" for b in d.buildings)
    assert {e.id for e in d.events if e.source == "rulebook"} == {"flood", "fire"}
    assert [o.id for o in d.objectives if o.rule == "sloth"] == ["sloth"]
    assert d.track[0].level == 1 and d.track[-1].level == 13


def test_every_card_mirrors_its_base_card():
    base, d = load_game_data(), load_cthulhu_data()
    for b, x in zip(base.cards, d.cards, strict=True):
        assert x.id == b.id
        assert x.deck == {"grey": "yellow", "red": "purple"}[b.deck]
        assert x.symbols == tuple(SYMBOL_MAP.get(s, s) for s in b.symbols), x.id
        assert x.money == b.money
        if x.id not in REPLACED:
            assert (x.effect, dict(x.params)) == (b.effect, dict(b.params)), x.id


def test_the_readme_lists_every_assumption():
    readme = shipped_text("README.md")
    d = load_cthulhu_data()
    for section, items in pack_items(d).items():
        for x in items:
            if x.source != "assumed":
                continue
            if section == "card" and x.reason.startswith("The base card"):
                if x.id in REPLACED:
                    assert f"`{x.id}`" in readme, x.id
                continue  # covered by the README's mapping rule, checked above
            if section == "level":
                assert str(x.level) in readme
                continue
            assert f"`{x.id}`" in readme, (section, x.id)


def test_tables_are_cached_per_pack():
    assert cthulhu_tables() is cthulhu_tables()
    assert Game.new(GameConfig(expansion="cthulhu"), 1).t is cthulhu_tables()


# ---------------------------------------------------------------------- users' packs
def write_pack(tmp_path: Path, **edits) -> Path:
    """A directory pack with ``cards.toml`` edited by ``edits`` (old -> new text)."""
    text = shipped_text("cards.toml")
    for old, new in edits.items():
        assert old in text
        text = text.replace(old, new, 1)
    (tmp_path / "cards.toml").write_text(text, encoding="utf-8")
    return tmp_path


def test_a_directory_pack_replaces_the_files_it_holds(tmp_path):
    pack = write_pack(tmp_path, **{'name = "Groat"': 'name = "My Groat"'})
    d = load_cthulhu_data(str(pack))
    assert d.cards[d.card_index["groat"]].name() == "My Groat"
    assert d.objectives == load_cthulhu_data().objectives  # the rest is shipped
    g = Game.new(GameConfig(num_players=2, expansion="cthulhu", content=str(pack)), 3)
    assert g.t.data.cards[d.card_index["groat"]].name() == "My Groat"
    assert Game.from_dict(g.to_dict()).t is g.t


def test_a_single_file_pack_replaces_the_sections_it_holds(tmp_path):
    text = shipped_text("elder_ones.toml").replace("hp = 1", "hp = 5")
    path = tmp_path / "mypack.toml"
    path.write_text(text, encoding="utf-8")
    d = load_cthulhu_data(str(path))
    assert d.elder_ones[d.elder_index["yig"]].hp == 5
    assert d.cards == load_cthulhu_data().cards


def test_an_edited_pack_is_reloaded(tmp_path):
    pack = write_pack(tmp_path)
    first = cthulhu_tables(str(pack))
    assert cthulhu_tables(str(pack)) is first
    text = (pack / "cards.toml").read_text(encoding="utf-8").replace("money = 3", "money = 4", 1)
    (pack / "cards.toml").write_text(text + "\n# edited\n", encoding="utf-8")
    assert cthulhu_tables(str(pack)) is not first


@pytest.mark.parametrize(
    "old, new, message",
    [
        (
            'symbols = ["minion"]',
            'symbols = ["remove_trouble"]',
            "cards.toml: card 'groat': symbols: unknown symbol 'remove_trouble'",
        ),
        (
            'id = "mr_boggis"\ndeck = "yellow"',
            'id = "mr_boggis"\ndeck = "green"',
            "cards.toml: card 'mr_boggis': deck = 'green' is not one of",
        ),
        (
            "params = { amount = 2 }",
            "params = { amount = 2, area = 1 }",
            "card 'mr_boggis': effect 'take_money_from_each_opponent' takes params ['amount']",
        ),
        (
            'source = "assumed"',
            'source = "guessed"',
            "cards.toml: card 'mr_boggis': source = 'guessed' is not one of",
        ),
        (
            'effect = "take_money_from_each_opponent"',
            'effect = "swap_personality"',
            "card 'mr_boggis': effect: unknown effect 'swap_personality'",
        ),
    ],
)
def test_errors_name_file_item_and_field(tmp_path, old, new, message):
    pack = write_pack(tmp_path, **{old: new})
    with pytest.raises(DataError) as err:
        load_cthulhu_data(str(pack))
    assert message in str(err.value)
    assert str(pack) in str(err.value)


def test_errors_in_other_sections(tmp_path):
    text = shipped_text("elder_ones.toml").replace("hp = 2", "hp = 0", 1)
    (tmp_path / "elder_ones.toml").write_text(text, encoding="utf-8")
    with pytest.raises(DataError, match=r"elder_ones.toml: elder_one 'basatan': hp = 0 is below"):
        load_cthulhu_data(str(tmp_path))
    goo = shipped_text("great_old_ones.toml").replace(
        'ability = "move_own_minion"', 'ability = "place_trouble_here"'
    )
    (tmp_path / "elder_ones.toml").unlink()
    (tmp_path / "great_old_ones.toml").write_text(goo, encoding="utf-8")
    with pytest.raises(DataError, match="great_old_one 'nyarlathotep': ability 'place_trouble_h"):
        load_cthulhu_data(str(tmp_path))


def test_bad_pack_paths_and_files(tmp_path):
    with pytest.raises(DataError, match="no such content pack"):
        load_cthulhu_data(str(tmp_path / "missing"))
    (tmp_path / "cards.tml").write_text("", encoding="utf-8")
    (tmp_path / "extra.toml").write_text("", encoding="utf-8")
    with pytest.raises(DataError, match="unknown file"):
        load_cthulhu_data(str(tmp_path))
    bad = tmp_path / "bad.toml"
    bad.write_text("[[card]\n", encoding="utf-8")
    with pytest.raises(DataError, match="cannot parse TOML"):
        load_cthulhu_data(str(bad))
    wrong = tmp_path / "wrong.toml"
    wrong.write_text("[[cards]]\nid = 'x'\n", encoding="utf-8")
    with pytest.raises(DataError, match="unknown top-level key"):
        load_cthulhu_data(str(wrong))


def test_every_shipped_file_parses_and_is_listed():
    for name in PACK_FILES:
        assert tomllib.loads(shipped_text(name))
    assert sorted(p.name for p in Path(str(PACK)).glob("*.toml")) == sorted(PACK_FILES)
