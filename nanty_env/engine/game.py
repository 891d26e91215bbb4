"""The ``Game``: one object owning the whole state, the seeded RNG and the public surface.

The state's fields and the frame loop are :class:`~nanty_env.engine.state.GameState`'s (what
the rules read and write); ``Game`` adds building a game, applying actions, copies,
serialisation, views and descriptions. Another ruleset's game class subclasses it and is
registered with its ruleset (``ruleset.register_ruleset``), so ``Game.new`` and
``Game.from_dict`` of that ruleset's config give that class.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

import numpy as np

# Importing these modules registers their frame handlers and effects.
from nanty_env.engine import abilities, effects, events, flow, reactions, setup, validation  # noqa: F401
from nanty_env.engine import actions as A
from nanty_env.engine.base_ruleset import BASE_RULESET
from nanty_env.engine.config import GameConfig
from nanty_env.engine.describe import BASE_VOCABULARY, Vocabulary, describe_action
from nanty_env.engine.errors import EngineError
from nanty_env.engine.outcome import Outcome, Termination
from nanty_env.engine.rng import GameRng
from nanty_env.engine.ruleset import Ruleset, game_class, known_rulesets, register_ruleset
from nanty_env.engine.state import Act, FixedRolls, GameState, Options
from nanty_env.engine.state_data import (
    LIST_FIELDS,
    NESTED_FIELDS,
    SCALAR_FIELDS,
    load_state,
    state_dict,
)
from nanty_env.engine.tables import Tables, tables_for
from nanty_env.engine.view import player_view


class Game(GameState):
    """A game of Nanty Narking: a sequence of decisions, one seat at a time.

    Build one with :meth:`new`; ask :attr:`current_player` and :meth:`legal_actions`; answer with
    :meth:`apply`. Every die roll and shuffle comes from the game's own ``numpy`` generator.
    """

    __slots__ = ()

    # set by ``register_ruleset`` for each ruleset's game class
    ruleset: ClassVar[Ruleset]
    _options: ClassVar[dict[str, Options]]
    _act: ClassVar[dict[str, Act]]
    # the state fields a ruleset's game class adds to the base game's, saved after them by
    # ``to_dict`` and read back by ``_load``: integers, and lists of integers (kept as tuples
    # that clones share, but those in ``extra_copied``)
    extra_scalars: ClassVar[tuple[str, ...]] = ()
    extra_lists: ClassVar[tuple[str, ...]] = ()
    extra_copied: ClassVar[frozenset[str]] = frozenset()
    # the words of the ruleset's actions (``describe``): a ruleset's game class names its own
    vocabulary: ClassVar[Vocabulary] = BASE_VOCABULARY

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(cls, config: GameConfig | None = None, seed: int | None = 0) -> Game:
        """A new game dealt from ``seed`` (same config and seed => same game); an expansion's
        config gives that expansion's game class."""
        cfg = config or GameConfig()
        if cls is Game and cfg.expansion is not None:
            return game_class(cfg.expansion).new(cfg, seed)
        g = cls.blank()
        gen = np.random.default_rng(seed)
        g.deal(cfg, gen)  # shuffles with numpy's generator ...
        g.rng = GameRng.from_generator(gen)  # ... whose stream the game's own carries on
        g._dice = None
        g._advance()
        return g

    def deal(self, cfg: GameConfig, rng: np.random.Generator) -> None:
        """Fill this (empty) game with a freshly set-up one, shuffling with ``rng``."""
        setup.deal(self, cfg, rng)

    # ------------------------------------------------------------------ public surface
    def returns(self) -> list[float]:
        """+1 for each winner and -1 for everyone else at the end; zeros before."""
        if self.outcome is None:
            return [0.0] * self.n
        return [1.0 if s in self.outcome.winners else -1.0 for s in range(self.n)]

    def action_to_string(self, action: int, seat: int | None = None) -> str:
        """A readable description of ``action`` for ``seat`` (default: the current player)."""
        seat = self.current_player if seat is None else seat
        return describe_action(self, action, seat, self.vocabulary)

    def view(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` knows (public state, own hand, own personality, own knowledge)."""
        return player_view(self, seat)

    def controllers(self) -> list[int]:
        """Who controls each area (-1: nobody), by the ruleset's control rule (public: a
        seat's view has all it needs, e.g. ``scoring.control(board_of_view(view), area)``)."""
        control = self.ruleset.control
        return [control(self, a).controller for a in range(A.NUM_AREAS)]

    # ------------------------------------------------------------------ dice
    def fix_rolls(self, rolls: Iterable[int], *, then_random: bool = False) -> Game:
        """Make the next die rolls come out as ``rolls`` (area indices 0-11, i.e. die number
        - 1), in order, for tests and analysis ("what if the fire spreads to 4?"). A fixed
        roll draws nothing from the generator, so shuffles and other draws are unchanged.
        After the last one the die is random again with ``then_random``; otherwise a further
        roll raises :class:`EngineError`. Returns the game; :attr:`fixed_rolls` says what is
        left. Copies keep what is left; ``to_dict`` does not carry it (the generator is the
        saved game's die)."""
        rolls = [int(r) for r in rolls]
        for r in rolls:
            if not 0 <= r < A.NUM_AREAS:
                raise ValueError(f"a die roll is an area index 0..{A.NUM_AREAS - 1}, got {r}")
        self._dice = FixedRolls(rolls, then_random)
        return self

    @property
    def fixed_rolls(self) -> tuple[int, ...]:
        """The fixed die rolls not rolled yet (see :meth:`fix_rolls`)."""
        return () if self._dice is None else tuple(self._dice.rolls)

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-safe data (works mid-decision)."""
        return state_dict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any], *, validate: bool = True) -> Game:
        """Rebuild a game from :meth:`to_dict` output (or a hand-built state, see docs); an
        expansion's state gives that expansion's game class.

        Raises:
            InvalidStateError: the state breaks the schema or a rule (the message names the
                field); checked by ``nanty_env.engine.validation`` unless ``validate`` is
                false (for states the engine built itself, e.g. determinizations).
        """
        expansion = _expansion_of(d)
        if cls is Game and expansion is not None:
            if expansion not in known_rulesets():
                validation.fail("config.expansion", f"{expansion!r} is not a known expansion")
            return game_class(expansion).from_dict(d, validate=validate)
        if validate:
            validation.check_schema(
                d,
                (*SCALAR_FIELDS, *cls.extra_scalars),
                (*LIST_FIELDS, *cls.extra_lists),
                NESTED_FIELDS,
            )
            cls._check_schema_extra(d)
        cfg = GameConfig.from_dict(d["config"])
        g = cls.blank()
        g.cfg = cfg
        g.t = tables_for(cfg)
        g._load(d, validate)
        g._legal = None
        g._dice = None
        if validate:
            validation.check_state(g)
            if g.outcome is None:
                validation.advance_checked(g)
        elif g.outcome is None:
            g._advance()
        return g

    @classmethod
    def _check_schema_extra(cls, d: dict[str, Any]) -> None:
        """The schema of the fields a ruleset adds to the base game's beyond their presence and
        types (``validation.check_schema`` checks those of ``extra_scalars`` and
        ``extra_lists``); none here."""

    def _load(self, d: dict[str, Any], validate: bool = False) -> None:
        """Read the fields of a :meth:`to_dict` state into this game."""
        load_state(self, d, validate)

    # ------------------------------------------------------------------ hand edits
    def resume(self) -> None:
        """Carry on after the state was edited by hand (tests, analysis): run the automatic
        frames and work out the pending decision again. The immutable fields (docs/engine.md,
        State schema) are edited by replacing them: ``board.set_pawns``,
        ``board.place_building``, ``state.with_item`` / ``with_cell``."""
        self._legal = None
        if self.outcome is None:
            self._advance()

    def __repr__(self) -> str:
        return f"<Game n={self.n} turn={self.turn} player={self.current_player} {self.decision}>"


register_ruleset(BASE_RULESET, Game)


def _expansion_of(d: Any) -> str | None:
    """The expansion named by a state's config (None for the base game, or when the state is
    too malformed to say: the validator then reports it)."""
    cfg = d.get("config") if isinstance(d, Mapping) else None
    expansion = cfg.get("expansion") if isinstance(cfg, Mapping) else None
    return expansion if isinstance(expansion, str) else None


__all__ = [
    "A",
    "EngineError",
    "Game",
    "Outcome",
    "Tables",
    "Termination",
]
