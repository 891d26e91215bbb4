"""An observation layout from its field table: ``(name, size, meaning)`` rows in order give
each field's slice of the vector and the Markdown table the docs show (every ruleset's
observation module describes its fields this way)."""

from __future__ import annotations

from collections.abc import Sequence

from nanty_env.engine import actions as A

Field = tuple[str, int, str]

_NA, _NS, _NC = A.NUM_AREAS, A.MAX_PLAYERS, A.NUM_CARDS

# Field groups every ruleset's layout shares, word for word (each places them itself).
BOARD: tuple[Field, ...] = (
    ("agents", _NA * _NS, "agents per area x relative seat (count / 4)"),
    ("buildings", _NA * _NS, "building owner per area x relative seat (one-hot)"),
)
NEUTRALS: tuple[Field, ...] = (
    ("grenadiers", _NA, "grenadiers per area (count / 4)"),
    ("citizens", _NA, "new citizens per area (count / 3)"),
    ("trouble", _NA, "trouble marker per area"),
)
SEATS: tuple[Field, ...] = (
    ("money", _NS, "money per relative seat (/ 50)"),
    ("loans", _NS, "loan cards per relative seat"),
    ("penalties", _NS, "penalty cards in front of each relative seat"),
    ("hand_sizes", _NS, "hand size per relative seat (/ 10)"),
    ("agents_on_board", _NS, "agents on the board per relative seat (/ 12)"),
    ("seat_present", _NS, "relative seat is in the game"),
    ("active", _NS, "whose turn it is (relative seat, one-hot)"),
    ("num_players", 3, "2, 3 or 4 players (one-hot)"),
    ("hand", _NC, "my hand (multi-hot over the 101 cards)"),
    ("known_cards", (_NS - 1) * _NC, "cards I know to be in each other seat's hand"),
)
PILES: tuple[Field, ...] = (
    ("discard", _NC, "discard pile (public)"),
    ("in_play", _NC, "cards being resolved (public)"),
)
CONTEXT: tuple[Field, ...] = (
    ("context_area", _NA, "area named by my pending decision"),
    ("context_player", _NS, "relative seat named by my pending decision"),
    ("context_cards", _NC, "cards named by my pending decision"),
)
MY_TURN: Field = ("my_turn_to_act", 1, "1 if I owe the pending decision")


def resolving(max_symbols: int) -> tuple[Field, ...]:
    """The card being resolved and the index of its next symbol."""
    return (
        ("resolving_card", _NC, "card whose symbols are being resolved (topmost)"),
        ("symbol_index", max_symbols, "index of that card's next symbol (one-hot)"),
    )


def field_slices(fields: Sequence[Field]) -> dict[str, slice]:
    """Each field's slice of the observation vector, the fields laid end to end."""
    out, pos = {}, 0
    for name, size, _ in fields:
        out[name] = slice(pos, pos + size)
        pos += size
    return out


def fields_table(fields: Sequence[Field]) -> str:
    """The layout as a Markdown table: slice, name, size, meaning."""
    slices = field_slices(fields)
    rows = ["| slice | name | size | meaning |", "|---|---|---|---|"]
    for name, size, meaning in fields:
        s = slices[name]
        rows.append(f"| {s.start}:{s.stop} | `{name}` | {size} | {meaning} |")
    return "\n".join(rows)
