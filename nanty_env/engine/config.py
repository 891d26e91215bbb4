"""Game configuration: player count, ruleset (base game or an expansion), personality set,
thresholds, theme and reaction windows."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from nanty_env.data.model import PERSONALITY_SETS as CARD_SETS
from nanty_env.data.model import THEMES, THRESHOLD_SETS
from nanty_env.engine.dataclass_repr import fields_repr
from nanty_env.engine.ruleset import known_rulesets

CLASSIC = "classic"  # the standard cards with the rulebook's thresholds (player aid variant C)
PERSONALITY_SETS = (*CARD_SETS, CLASSIC)  # what ``GameConfig.personalities`` may be
WINDOW_POLICIES = ("public", "holders")
EXPANSIONS = ("cthulhu",)  # the shipped expansion; ``known_rulesets()`` adds registered ones


@dataclass(frozen=True)  # no slots: the compiled build makes it an extension type (_build)
class GameConfig:
    """How a game is set up.

    Attributes:
        num_players: 2, 3 or 4.
        personalities: ``standard`` (the rulebook cards), ``variant`` (the player aid's V cards)
            or ``classic`` (the player aid's variant C: standard cards with the rulebook's
            Moriarty and de Sidonia thresholds, whatever ``thresholds`` says).
        thresholds: which printed numbers the standard cards use: ``rulebook`` (001) or
            ``player_aid`` (000).
        theme: ``nanty`` (London names) or ``discworld`` (Ankh-Morpork names); names only.
        interrupt_windows: ``public`` offers an out-of-turn reaction window whenever the rules
            would let the affected player react with *some* card, whatever they hold, so that
            the existence of the decision reveals nothing about their hand; ``holders`` offers it
            only to a player who can actually respond (fewer decisions, but who is asked leaks
            information through ``current_player``).
        log: keep a human-readable log of the game.
        expansion: the ruleset: ``None`` for the base game, ``"cthulhu"`` for *The Rise of
            Cthulhu* (which ignores ``personalities`` and ``thresholds``: its players get
            objectives instead), or the name of another registered ruleset
            (``nanty_env.engine.ruleset``, ``docs/rulesets.md``).
        content: with an expansion, a path to the user's own content pack (a TOML file or a
            directory of TOML files, see ``nanty_env/data/cthulhu/README.md``); ``None`` plays
            the shipped pack.
    """

    num_players: int = 4
    personalities: str = "standard"
    thresholds: str = "rulebook"
    theme: str = "nanty"
    interrupt_windows: str = "public"
    log: bool = True
    expansion: str | None = None
    content: str | None = None

    def __post_init__(self) -> None:
        if self.num_players not in (2, 3, 4):
            raise ValueError(f"num_players must be 2, 3 or 4, got {self.num_players!r}")
        _check("personalities", self.personalities, PERSONALITY_SETS)
        _check("thresholds", self.thresholds, THRESHOLD_SETS)
        _check("theme", self.theme, THEMES)
        _check("interrupt_windows", self.interrupt_windows, WINDOW_POLICIES)
        if self.expansion is not None:
            _check("expansion", self.expansion, known_rulesets() or EXPANSIONS)
        if self.content is not None:
            if self.expansion is None:
                raise ValueError("content packs are for an expansion: give expansion= too")
            if not isinstance(self.content, str) or not self.content:
                raise ValueError(f"content must be a path, got {self.content!r}")

    def __repr__(self) -> str:
        return fields_repr(self)

    @property
    def threshold_set(self) -> str:
        """The threshold set actually in force (classic forces the rulebook numbers)."""
        return "rulebook" if self.personalities == CLASSIC else self.thresholds

    @property
    def personality_set(self) -> str:
        """Which personality cards are dealt: ``standard`` or ``variant``."""
        return "variant" if self.personalities == "variant" else "standard"

    def to_dict(self) -> dict[str, Any]:
        """The fields as a dict; ``expansion`` and ``content`` only when set, so that a base
        game's state (and every hash of it) is what it was before expansions existed."""
        d = {name: getattr(self, name) for name in _FIELD_NAMES}  # flat: no asdict copies
        for key in ("expansion", "content"):
            if d[key] is None:
                del d[key]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameConfig:
        return cls(**d)


_FIELD_NAMES = tuple(f.name for f in fields(GameConfig))


def _check(name: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {allowed}, got {value!r}")
