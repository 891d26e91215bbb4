"""The ``Game``: one object owning the whole state, the seeded RNG and the public surface."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar

import numpy as np

# Importing these modules registers their frame handlers and effects.
from nanty_env.engine import (  # noqa: F401  (registers frame handlers)  # noqa: F401
    abilities,
    effects,
    events,
    flow,
    reactions,
    setup,
    validation,
)
from nanty_env.engine import actions as A
from nanty_env.engine.config import GameConfig
from nanty_env.engine.errors import EngineError, IllegalActionError, InvalidStateError
from nanty_env.engine.frames import ACT, OPTIONS, Act, Frame, Options
from nanty_env.engine.tables import Tables, tables_for

_LIST_FIELDS = (
    "gren",
    "cit",
    "trouble",
    "building",
    "money",
    "on_board",
    "deck",
    "discard",
    "in_play",
    "removed",
    "event_deck",
    "events_done",
    "persona",
    "persona_pool",
    "city_retired",
    "city_gained",
    "played",
)
_NESTED_FIELDS = ("agents", "hands", "loans", "penalties", "known_unused")
_SCALAR_FIELDS = ("n", "active", "turn", "first_player", "ability_used")


class Termination(Enum):
    """How a game ended, for the base game and the expansion alike (``Outcome.termination``)."""

    GOAL = "goal"  # a personality's goal held at the start of its owner's turn (base game)
    SUDDEN_DEATH = "sudden_death"  # an objective announced at the start of a turn (expansion)
    DECK = "deck"  # a player could not refill their hand
    RIOTS = "riots"  # the Riots event with eight or more trouble markers (base game)
    DOOMSDAY = "doomsday"  # the Insanity marker reached level 13 (expansion)


_TERMINATIONS = {
    "personality": Termination.GOAL,
    "objective": Termination.SUDDEN_DEATH,
    "deck_exhausted": Termination.DECK,
    "riots": Termination.RIOTS,
    "doomsday": Termination.DOOMSDAY,
}


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the game ended: the winning seats and why (``reason``, a string such as
    ``"personality:fagin"``, ``"deck_exhausted:points"`` or ``"doomsday"``; ``termination``
    names the kind of ending as a :class:`Termination`)."""

    winners: tuple[int, ...]
    reason: str
    points: tuple[int, ...] | None = None

    @property
    def termination(self) -> Termination:
        """The kind of ending, read from ``reason`` (so that saved states need no new key)."""
        return _TERMINATIONS[self.reason.split(":", 1)[0]]


class Game:
    """A game of Nanty Narking: a sequence of decisions, one seat at a time.

    Build one with :meth:`new`; ask :attr:`current_player` and :meth:`legal_actions`; answer with
    :meth:`apply`. Every die roll and shuffle comes from the game's own ``numpy`` generator.
    """

    __slots__ = (
        "_legal",
        "ability_used",
        "active",
        "agents",
        "building",
        "cfg",
        "cit",
        "city_gained",
        "city_retired",
        "deck",
        "discard",
        "event_deck",
        "events_done",
        "first_player",
        "gren",
        "hands",
        "in_play",
        "known",
        "known_unused",
        "loans",
        "log",
        "money",
        "n",
        "on_board",
        "outcome",
        "penalties",
        "persona",
        "persona_pool",
        "played",
        "removed",
        "rng",
        "stack",
        "t",
        "trouble",
        "turn",
    )

    # The ruleset: frame handlers, and the defaults an expansion's subclass overrides.
    _options: ClassVar[dict[str, Options]] = OPTIONS
    _act: ClassVar[dict[str, Act]] = ACT
    has_elders: ClassVar[bool] = False  # the expansion's Elder Ones (minions that are no agents)
    eo: ClassVar[tuple[int, ...]] = (0,) * 12  # Elder Ones per area (none in the base game)
    num_actions: ClassVar[int] = A.NUM_ACTIONS  # size of this ruleset's action space
    ability_bits: ClassVar[int] = 12  # bits of ability_used (one per City Area card)

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(cls, config: GameConfig | None = None, seed: int | None = 0) -> Game:
        """A new game dealt from ``seed`` (same config and seed => same game); an expansion's
        config gives that expansion's game class."""
        cfg = config or GameConfig()
        if cfg.expansion is not None and cls is Game:
            return _expansion_class(cfg.expansion).new(cfg, seed)
        g = cls.__new__(cls)
        g.deal(cfg, np.random.default_rng(seed))
        g._advance()
        return g

    def deal(self, cfg: GameConfig, rng: np.random.Generator) -> None:
        """Fill this (empty) game with a freshly set-up one."""
        setup.deal(self, cfg, rng)

    # ------------------------------------------------------------------ public surface
    @property
    def current_player(self) -> int:
        """The seat that owes the pending decision (-1 once the game is over)."""
        if self.outcome is not None:
            return -1
        return self.stack[-1]["p"]

    @property
    def is_terminal(self) -> bool:
        return self.outcome is not None

    @property
    def decision(self) -> str:
        """The kind of the pending decision ("" once the game is over)."""
        return "" if self.outcome is not None else self.stack[-1]["k"]

    def legal_actions(self) -> list[int]:
        """The sorted legal actions of the pending decision (empty only at the end)."""
        return [] if self._legal is None else list(self._legal)

    def apply(self, action: int) -> None:
        """Apply ``action`` for :attr:`current_player`.

        Raises:
            IllegalActionError: the action is not legal now; the state is unchanged.
        """
        legal = self._legal
        if legal is None:
            raise IllegalActionError("the game is over")
        if action not in legal:
            raise IllegalActionError(
                f"action {action!r} ({_describe(self, action)}) is not legal for "
                f"player {self.current_player} in decision {self.decision!r}"
            )
        f = self.stack[-1]
        self._act[f["k"]](self, f, int(action))
        self._advance()

    def returns(self) -> list[float]:
        """+1 for each winner and -1 for everyone else at the end; zeros before."""
        if self.outcome is None:
            return [0.0] * self.n
        return [1.0 if s in self.outcome.winners else -1.0 for s in range(self.n)]

    def action_to_string(self, action: int, seat: int | None = None) -> str:
        """A readable description of ``action`` for ``seat`` (default: the current player)."""
        return _describe(self, action, self.current_player if seat is None else seat)

    def view(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` knows (public state, own hand, own personality, own knowledge)."""
        from nanty_env.engine.view import player_view

        return player_view(self, seat)

    def clone(self) -> Game:
        """An independent copy (sharing nothing mutable with this game).

        The copy's generator starts from this game's generator state but is only built when
        the copy first draws a random number (see :class:`_LazyRng`): most copies made by
        search bots never roll a die, and building a generator is a third of a copy's cost.
        """
        cls = type(self)
        g = cls.__new__(cls)
        g.t = self.t
        g.cfg = self.cfg
        g.n = self.n
        g.active = self.active
        g.turn = self.turn
        g.first_player = self.first_player
        g.ability_used = self.ability_used
        g.gren = self.gren[:]
        g.cit = self.cit[:]
        g.trouble = self.trouble[:]
        g.building = self.building[:]
        g.money = self.money[:]
        g.on_board = self.on_board[:]
        g.deck = self.deck[:]
        g.discard = self.discard[:]
        g.in_play = self.in_play[:]
        g.removed = self.removed[:]
        g.event_deck = self.event_deck[:]
        g.events_done = self.events_done[:]
        g.persona = self.persona[:]
        g.persona_pool = self.persona_pool[:]
        g.city_retired = self.city_retired[:]
        g.city_gained = self.city_gained[:]
        g.played = self.played[:]
        g.agents = [row[:] for row in self.agents]
        g.hands = [row[:] for row in self.hands]
        g.loans = [row[:] for row in self.loans]
        g.penalties = [row[:] for row in self.penalties]
        g.known_unused = [row[:] for row in self.known_unused]
        g.known = [[row[:] for row in rows] for rows in self.known]
        g.stack = [f.copy() for f in self.stack]
        g.outcome = self.outcome
        g.rng = _LazyRng(_rng_state(self.rng))
        g.log = self.log[:]
        g._legal = self._legal
        return g

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-safe data (works mid-decision)."""
        d: dict[str, Any] = {"config": self.cfg.to_dict()}
        for name in _SCALAR_FIELDS + _LIST_FIELDS + _NESTED_FIELDS:
            d[name] = _jsonable(getattr(self, name))
        d["known"] = _jsonable(self.known)
        d["stack"] = [_jsonable(f) for f in self.stack]
        d["outcome"] = (
            None
            if self.outcome is None
            else {
                "winners": list(self.outcome.winners),
                "reason": self.outcome.reason,
                "points": None if self.outcome.points is None else list(self.outcome.points),
            }
        )
        d["rng"] = self.rng.bit_generator.state
        d["log"] = list(self.log)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any], *, validate: bool = True) -> Game:
        """Rebuild a game from :meth:`to_dict` output (or a hand-built state, see docs); an
        expansion's state gives that expansion's game class.

        Raises:
            InvalidStateError: the state breaks the schema or a rule (the message names the
                field); checked by ``nanty_env.engine.validation`` unless ``validate`` is
                false (for states the engine built itself, e.g. determinizations).
        """
        if cls is Game and _expansion_of(d) is not None:
            return _expansion_class(_expansion_of(d)).from_dict(d, validate=validate)
        if validate:
            validation.check_schema(d, _SCALAR_FIELDS, _LIST_FIELDS, _NESTED_FIELDS)
            cls._check_schema_extra(d)
        cfg = GameConfig.from_dict(d["config"])
        g = cls.__new__(cls)
        g.cfg = cfg
        g.t = tables_for(cfg)
        g._load(d, validate)
        g._legal = None
        if validate:
            validation.check_state(g)
            if g.outcome is None:
                validation.advance_checked(g)
        elif g.outcome is None:
            g._advance()
        return g

    @classmethod
    def _check_schema_extra(cls, d: dict[str, Any]) -> None:
        """The schema of the fields a ruleset adds to the base game's (none here)."""

    def _load(self, d: dict[str, Any], validate: bool = False) -> None:
        """Read the base game's fields of a :meth:`to_dict` state into this game."""
        g = self
        for name in _SCALAR_FIELDS:
            setattr(g, name, int(d[name]))
        for name in _LIST_FIELDS:
            setattr(g, name, [int(x) for x in d[name]])
        for name in _NESTED_FIELDS:
            setattr(g, name, [[int(x) for x in row] for row in d[name]])
        g.known = [[[int(x) for x in row] for row in rows] for rows in d["known"]]
        g.stack = [_frame_from_json(f) for f in d["stack"]]
        o = d.get("outcome")
        g.outcome = (
            None
            if o is None
            else Outcome(
                tuple(o["winners"]),
                o["reason"],
                None if o.get("points") is None else tuple(o["points"]),
            )
        )
        state = d.get("rng")
        g.rng = np.random.default_rng() if state is None else _rng_from(state, validate)
        g.log = list(d.get("log", []))

    # ------------------------------------------------------------------ internals
    def say(self, text: str) -> None:
        """Append a line to the game log (when logging is on)."""
        if self.cfg.log:
            self.log.append(f"[t{self.turn} p{self.active}] {text}")

    def roll(self) -> int:
        """Roll the twelve-sided die: an area index 0..11."""
        return int(self.rng.integers(12))

    def finish(self, outcome: Outcome) -> None:
        """End the game now with ``outcome``."""
        self.outcome = outcome
        self.stack.clear()
        self._legal = None
        self.say(f"game over: {outcome.reason}, winners {list(outcome.winners)}")

    def _advance_cached(self) -> None:
        """Recompute the cached legal actions after the state was edited from outside."""
        if self.outcome is None:
            self._advance()

    def _advance(self) -> None:
        """Run automatic frames until a decision is pending or the game is over."""
        stack = self.stack
        options = self._options
        for _ in range(100_000):
            if self.outcome is not None:
                self._legal = None
                return
            f = stack[-1]
            legal = options[f["k"]](self, f)
            if legal is None:
                continue
            if not legal:
                raise EngineError(f"decision {f['k']} has no legal action: {f}")
            # The contract is a sorted list whatever order a handler built it in (masks,
            # traces and seeded random play all depend on it).
            self._legal = sorted(legal)
            return
        raise EngineError("automatic frames did not settle")

    def __repr__(self) -> str:
        return f"<Game n={self.n} turn={self.turn} player={self.current_player} {self.decision}>"


def _expansion_class(expansion: str) -> type[Game]:
    """The game class of an expansion (imported only when an expansion is played)."""
    from nanty_env.engine.cthulhu.game import CthulhuGame

    return CthulhuGame


def _expansion_of(d: Any) -> str | None:
    """The expansion named by a state's config (None for the base game, or when the state is
    too malformed to say: the validator then reports it)."""
    cfg = d.get("config") if isinstance(d, Mapping) else None
    expansion = cfg.get("expansion") if isinstance(cfg, Mapping) else None
    return expansion if isinstance(expansion, str) else None


_SEED = np.random.SeedSequence(0)  # any seed: a copied generator's state is overwritten at once


def _generator(state: dict[str, Any]) -> np.random.Generator:
    """A fresh PCG64 generator in ``state`` (without drawing entropy from the OS)."""
    bits = np.random.PCG64(_SEED)
    bits.state = state
    return np.random.Generator(bits)


def _rng_from(state: dict[str, Any], validate: bool) -> np.random.Generator:
    if not validate:
        return _generator(state)
    try:
        return _generator(dict(state))
    except (TypeError, ValueError, KeyError) as e:
        raise InvalidStateError(f"rng: not a PCG64 generator state ({e})") from e


def _rng_state(rng: Any) -> dict[str, Any]:
    """The bit-generator state of a game's generator (lazy or not), as a new dict."""
    if type(rng) is _LazyRng:
        return rng._state if rng._gen is None else rng._gen.bit_generator.state
    return rng.bit_generator.state


class _LazyRng:
    """A copied generator that is built on first use.

    It holds the state it was copied in (a dict that nobody mutates) and behaves as the
    ``numpy`` generator in that state from the first attribute access on. Copies never share a
    generator, so they stay independent.
    """

    __slots__ = ("_gen", "_state")

    def __init__(self, state: dict[str, Any]) -> None:
        self._state = state
        self._gen: np.random.Generator | None = None

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in _LazyRng.__slots__:
            # copy/pickle probe dunders and (on an instance they built with __new__) the
            # unset slots: answering them from the generator would recurse forever
            raise AttributeError(name)
        gen = self._gen
        if gen is None:
            gen = self._gen = _generator(self._state)
        return getattr(gen, name)

    def __reduce__(self) -> tuple:
        """Pickles and deep copies as the generator it stands for."""
        return (_generator, (_rng_state(self),))


def _jsonable(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _jsonable(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_jsonable(v) for v in x]
    return x


def _frame_from_json(f: dict[str, Any]) -> Frame:
    return {k: tuple(_tuplify(x) for x in v) if isinstance(v, list) else v for k, v in f.items()}


def _tuplify(x: Any) -> Any:
    return tuple(_tuplify(v) for v in x) if isinstance(x, list) else x


def _describe(g: Game, action: int, seat: int | None = None) -> str:
    from nanty_env.engine.describe import describe_action

    return describe_action(g, action, g.current_player if seat is None else seat)


__all__ = ["A", "Game", "Outcome", "Tables", "Termination"]
