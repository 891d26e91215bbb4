"""The state every rule reads and writes: :class:`GameState`, the fields of a game and the loop
that runs its pending frames.

It sits below the rules (the frame handlers, board, cards, victory ...), which take a
``GameState``; :class:`~nanty_env.engine.game.Game` adds the public surface on top (building,
applying actions, copies, serialisation, views), so that no rule module needs the ``Game``
class and the imports run one way. An expansion's state subclasses it
(``nanty_env.engine.cthulhu.state``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar, Self

import numpy as np

from nanty_env.engine import actions as A
from nanty_env.engine.config import GameConfig
from nanty_env.engine.errors import EngineError, IllegalActionError
from nanty_env.engine.game_log import GameLog
from nanty_env.engine.outcome import Outcome
from nanty_env.engine.rng import GameRng, copy_rng
from nanty_env.engine.ruleset import Ruleset
from nanty_env.engine.tables import Tables

Frame = dict[str, Any]
Rows = tuple[tuple[int, ...], ...]  # one row per seat, immutable: clones share it


def empty_rows(n: int) -> Rows:
    """``n`` empty rows."""
    return ((),) * n


def with_row(rows: Rows, i: int, row: Iterable[int]) -> Rows:
    """``rows`` with row ``i`` replaced by ``row`` (new tuples; ``rows`` is unchanged)."""
    # a list set and frozen: faster than unpacking two slices (163 against 250 ns pure; compiled,
    # no slice objects)
    out = list(rows)
    out[i] = tuple(row)
    return tuple(out)


def with_appended(rows: Rows, i: int, item: int) -> Rows:
    """``rows`` with ``item`` appended to row ``i``."""
    return with_row(rows, i, (*rows[i], item))


def with_item(row: tuple[int, ...], i: int, value: int) -> tuple[int, ...]:
    """``row`` with item ``i`` set to ``value`` (a new tuple; ``row`` is unchanged)."""
    items = list(row)
    items[i] = value
    return tuple(items)


def with_cell(rows: Rows, i: int, j: int, value: int) -> Rows:
    """``rows`` with item ``j`` of row ``i`` set to ``value``."""
    out = list(rows)
    out[i] = with_item(rows[i], j, value)
    return tuple(out)


Options = Callable[["GameState", Frame], "list[int] | None"]
Act = Callable[["GameState", Frame, int], None]

NUM_AREAS = A.NUM_AREAS
DIE_FACES = NUM_AREAS  # the twelve-sided die names an area (area index = die number - 1)

STATE_SLOTS = (
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


# The game class's ruleset and frame handlers (``ruleset``, ``_options``, ``_act``: class
# attributes, see below) copied into every game by ``bind_rules``: fields, so that the compiled
# build's rules and frame loop read them from the state's C struct instead of looking them up on
# the class. Not saved (``__getstate__``): a loaded game binds its class's.
BOUND_SLOTS = ("rules", "_frame_options", "_frame_act")


class FixedRolls:
    """Die rolls fixed in advance (``Game.fix_rolls``): the next rolls come out as ``rolls``
    (area indices), in order, without drawing from the generator; after the last one the
    die is random again (``then_random``) or a further roll raises :class:`EngineError`."""

    __slots__ = ("rolls", "then_random")

    def __init__(self, rolls: list[int], then_random: bool) -> None:
        self.rolls = rolls
        self.then_random = then_random

    def copy(self) -> FixedRolls:
        return FixedRolls(self.rolls[:], self.then_random)


class GameState:
    """The fields of a game (see ``docs/engine.md``, State schema) and the frame loop.

    ``ruleset`` and its frame handlers ``_options`` / ``_act`` are set on the game class of
    each ruleset (``ruleset.register_ruleset``) and bound into each game (``bind_rules``:
    ``rules``, ``_frame_options``, ``_frame_act``, what the rules read); the other class
    attributes are the base game's defaults that an expansion's state overrides.
    """

    __slots__ = (*STATE_SLOTS, *BOUND_SLOTS, "_dice", "_legal")

    cfg: GameConfig
    t: Tables  # the ruleset's lookup tables
    n: int
    active: int
    turn: int
    first_player: int
    ability_used: int
    # Fields that change in fewer than one decision in fifty (and agents, in one in eight) are
    # immutable tuples that clones share; a rule replaces them (with_item, with_cell).
    agents: Rows
    on_board: list[int]
    gren: tuple[int, ...]
    cit: tuple[int, ...]
    trouble: list[int]
    building: tuple[int, ...]
    city_retired: tuple[int, ...]
    city_gained: tuple[int, ...]
    money: list[int]
    hands: list[list[int]]
    penalties: Rows  # rarely change, so immutable and shared by clones (with_appended)
    loans: Rows
    deck: list[int]
    discard: list[int]
    in_play: list[int]
    removed: tuple[int, ...]
    event_deck: tuple[int, ...]
    events_done: tuple[int, ...]
    persona: tuple[int, ...]
    persona_pool: tuple[int, ...]
    played: list[int]
    known: tuple[Rows, ...]  # immutable: see engine.knowledge
    known_unused: Rows
    stack: list[Frame]
    rules: Ruleset  # the game class's ``ruleset`` (bound by ``bind_rules``)
    _frame_options: dict[str, Options]  # the game class's ``_options`` (likewise)
    _frame_act: dict[str, Act]  # and ``_act``
    outcome: Outcome | None
    rng: Any  # the game's generator (see ``nanty_env.engine.rng``)
    log: GameLog
    _dice: FixedRolls | None
    _legal: tuple[int, ...] | None

    # ``ruleset`` (what the frames ask where rulesets differ) and its handlers ``_options`` and
    # ``_act``: class attributes of each ruleset's game class (``Game``), not annotated here, as
    # the compiled build makes this class an extension type (``state.pxd``) whose annotated
    # names are its C fields (the game's own copies above, ``rules`` ..., are such fields)
    has_elders: ClassVar[bool] = False  # the expansion's Elder Ones (minions that are no agents)
    eo: ClassVar[tuple[int, ...]] = (0,) * NUM_AREAS  # Elder Ones per area (none in the base game)
    num_actions: ClassVar[int] = A.NUM_ACTIONS  # size of this ruleset's action space
    ability_bits: ClassVar[int] = NUM_AREAS  # bits of ability_used (one per City Area card)

    # ------------------------------------------------------------------ the pending decision
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
        """The sorted legal actions of the pending decision (empty only at the end), as a new
        list the caller may change; :attr:`legal` is the same without the copy."""
        return [] if self._legal is None else list(self._legal)

    @property
    def legal(self) -> tuple[int, ...]:
        """The sorted legal actions of the pending decision as a read-only tuple (empty only
        at the end): what :meth:`legal_actions` copies, for callers that only read it."""
        legal = self._legal
        return () if legal is None else legal

    # ------------------------------------------------------------------ applying a decision
    def apply(self, action: int) -> None:
        """Apply ``action`` for :attr:`current_player`.

        Raises:
            TypeError: ``action`` is not an integer: a Python int, a numpy integer or a 0-d
                integer array (what numpy policies return); bools, floats, strings, ``None``
                and lists are refused, never coerced. The state is unchanged.
            IllegalActionError: the action is not legal now; the state is unchanged.
        """
        if type(action) is not int:
            if isinstance(action, np.ndarray) and action.shape == ():
                action = action[()]
            if isinstance(action, bool) or not isinstance(action, int | np.integer):
                raise TypeError(
                    f"an action is a Python or numpy integer, got {type(action).__name__} "
                    f"{action!r}"
                )
            action = int(action)
        legal = self._legal
        if legal is None:
            raise IllegalActionError("the game is over")
        if action not in legal:
            raise IllegalActionError(
                f"action {action!r} ({self.action_to_string(action)}) is not legal for "
                f"player {self.current_player} in decision {self.decision!r}"
            )
        f = self.stack[-1]
        self._frame_act[f["k"]](self, f, action)
        self._advance()

    # ------------------------------------------------------------------ copies
    def clone(self) -> Self:
        """An independent copy (sharing nothing mutable with this game) that goes on exactly
        as this game would: its generator continues from the same state (a copy of four
        integers, see ``nanty_env.engine.rng``)."""
        # the class's own __new__ (GameState's, not object's: the compiled build's GameState is
        # an extension type, whose instances only its own __new__ may make), spelled
        # ``cls.__new__(cls)`` so that the compiled build calls its C slot directly
        cls = type(self)
        g = cls.__new__(cls)
        g.t = self.t
        g.cfg = self.cfg
        g.rules = self.rules
        g._frame_options = self._frame_options
        g._frame_act = self._frame_act
        g.n = self.n
        g.active = self.active
        g.turn = self.turn
        g.first_player = self.first_player
        g.ability_used = self.ability_used
        g.outcome = self.outcome
        g._legal = self._legal
        g._dice = None if self._dice is None else self._dice.copy()
        rng = self.rng
        # copy_rng's own test, inlined: the extra call would be about 4 % of a clone; the
        # compiled build types ``stream`` (state.pxd), so its copy is a C call
        if type(rng) is GameRng:
            stream = rng
            g.rng = stream.copy()
        else:
            g.rng = copy_rng(rng)
        # ``x[:]``: the compiled build copies a list typed ``list`` with Cython's own slice (a
        # C copy, some 4 % of a clone cheaper than ``[*x]``'s generic extend, and no method
        # lookup as ``x.copy()`` would need); the pure build pays ~10 ns a list for the slice
        g.trouble = self.trouble[:]
        g.money = self.money[:]
        g.on_board = self.on_board[:]
        g.deck = self.deck[:]
        g.discard = self.discard[:]
        g.in_play = self.in_play[:]
        g.played = self.played[:]
        # explicit loops: faster than map(list.copy, ...) in both builds (and C calls compiled)
        hands = []
        for h in self.hands:
            hands.append(h[:])
        g.hands = hands
        # with logging off nothing appends (``say``): the one log is shared; else the copy
        # shares the lines until one of the two appends
        g.log = self.log.copy() if self.cfg.log else self.log
        # immutable (tuples, state.Rows, engine.knowledge): shared, replaced when they change
        g.gren = self.gren
        g.cit = self.cit
        g.building = self.building
        g.removed = self.removed
        g.event_deck = self.event_deck
        g.events_done = self.events_done
        g.persona = self.persona
        g.persona_pool = self.persona_pool
        g.city_retired = self.city_retired
        g.city_gained = self.city_gained
        g.agents = self.agents
        g.loans = self.loans
        g.penalties = self.penalties
        g.known_unused = self.known_unused
        g.known = self.known
        stack = []
        for f in self.stack:
            stack.append(f.copy())  # a frame holds only ints, strings and tuples
        g.stack = stack
        return g

    @classmethod
    def blank(cls) -> Self:
        """An empty game of this class with its class's ruleset and handlers bound: where a
        new or loaded game starts (``Game.new``, ``Game.from_dict``)."""
        g = cls.__new__(cls)
        g.bind_rules()
        return g

    def bind_rules(self) -> None:
        """Copy the game class's ruleset and frame handlers into this game (``BOUND_SLOTS``):
        every blank or unpickled game does so (a copy takes its original's)."""
        cls = type(self)
        self.rules = cls.ruleset
        self._frame_options = cls._options
        self._frame_act = cls._act

    def __getstate__(self) -> tuple[None, dict[str, Any]]:
        """What pickling saves: every field that is set (but the class's ruleset and handlers,
        which ``__setstate__`` binds again), in the format of a slotted class's default
        (spelled out so that the compiled build, whose ``GameState`` is an extension type,
        pickles every ruleset's fields alike)."""
        state = {}
        for cls in type(self).__mro__:
            for name in cls.__dict__.get("__slots__", ()):
                if name in BOUND_SLOTS:
                    continue
                try:
                    state[name] = getattr(self, name)
                except AttributeError:
                    continue
        return None, state

    def __setstate__(self, state: tuple[None, dict[str, Any]]) -> None:
        """Unpickling: the saved fields, then the class's ruleset and handlers."""
        for name, value in state[1].items():
            setattr(self, name, value)
        self.bind_rules()

    # ------------------------------------------------------------------ what rules call
    def say(self, text: str) -> None:
        """Append a line to the game log (when logging is on). Every rule tests ``g.cfg.log``
        before calling it, so that a line nobody keeps is never built
        (``tests/engine/test_game_log.py``)."""
        if self.cfg.log:
            self.log.append(f"[t{self.turn} p{self.active}] {text}")

    def roll(self) -> int:
        """Roll the twelve-sided die: an area index 0..11 (a fixed roll first, if any)."""
        if self._dice is not None:
            return self._fixed_roll()
        return int(self.rng.integers(DIE_FACES))

    def _fixed_roll(self) -> int:
        dice = self._dice
        if dice.rolls:
            return dice.rolls.pop(0)
        if not dice.then_random:
            raise EngineError("the die was rolled more often than the fixed rolls allow")
        self._dice = None
        return int(self.rng.integers(DIE_FACES))

    def finish(self, outcome: Outcome) -> None:
        """End the game now with ``outcome``."""
        self.outcome = outcome
        self.stack.clear()
        self._legal = None
        if self.cfg.log:
            self.say(f"game over: {outcome.reason}, winners {list(outcome.winners)}")

    def _advance(self) -> None:
        """Run automatic frames until a decision is pending or the game is over."""
        stack = self.stack
        options = self._frame_options
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
            # Handlers return their actions sorted (the contract in ``frames``; masks, traces
            # and seeded random play depend on the order), so they are kept as they come.
            self._legal = tuple(legal)
            return
        raise EngineError("automatic frames did not settle")


__all__ = ["BOUND_SLOTS", "Act", "FixedRolls", "Frame", "GameState", "Options"]
