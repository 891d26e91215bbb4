"""Rulesets: what one variant of the game changes in the one engine.

The engine's frames are registered once (``flow``, ``reactions``, ``effects`` ...); where
rulesets differ, a handler asks the game's ruleset (``g.rules``: its game class's ``ruleset``
class attribute, bound into each game) instead of naming one: the symbols a card may show, the
extra actions of a turn, the turn's first and last steps, how the game ends, the hand size, the
tables, how a game is sampled from a view. The base game is one :class:`Ruleset`; an expansion
or a house variant is another, written as :meth:`Ruleset.derive` of its parent: the list of
what it changes. ``docs/rulesets.md`` shows how to write one.

A ruleset is selected by ``GameConfig.expansion`` (``None``: the base game) and registered
with its game class by :func:`register_ruleset`; :func:`find_ruleset` looks one up. This
module imports nothing from the engine at run time, so every engine module may ask it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from nanty_env.engine.dataclass_repr import fields_repr

if TYPE_CHECKING:
    import numpy as np

    from nanty_env.engine.config import GameConfig
    from nanty_env.engine.frames import Registry
    from nanty_env.engine.state import Act, Frame, GameState, Options
    from nanty_env.engine.tables import Tables


@dataclass(frozen=True)  # no slots: the compiled build makes it an extension type (_build)
class Symbol:
    """One symbol a played card may show: its targets and what choosing one does.

    ``options(g, p, c)``: the targets for seat ``p`` of this symbol on card ``c`` (a new
    sorted list without PASS; empty: nothing to do); ``do(g, p, c, a)``: carry it out with
    target ``a``. ``mandatory``: a symbol with targets cannot be skipped (the base game's
    Random Event, the expansion's Insanity). A symbol without targets is passed over unless
    the player could use an ability first, or it ``always_asks`` (play another card: that it
    asks must not tell the others whether the hand holds a playable card).
    """

    options: Callable[[GameState, int, int], list[int]]
    do: Callable[[GameState, int, int, int], None]
    mandatory: bool = False
    always_asks: bool = False

    def __repr__(self) -> str:
        return fields_repr(self)


def _nothing(g: GameState) -> None:
    """A hook that changes nothing."""


@dataclass(frozen=True, eq=False)  # an extension type in the compiled build (_build)
class Ruleset:
    """The hooks and data by which one ruleset differs from the engine's skeleton.

    Attributes:
        name: the ruleset's name (``"base"``, ``"cthulhu"``, a house variant's).
        expansion: the ``GameConfig.expansion`` that selects it (None: the base game).
        parent: the ruleset it derives from (None for the base game).
        handlers: its own frame handlers, which add new kinds or replace the parent's.
        symbols: symbol name -> :class:`Symbol` (merged over the parent's by ``derive``).
        effects: scroll effect id -> handler ``(g, p, card, params)`` (merged likewise).
        event_effects: event effect -> handler ``(g, p)`` (merged likewise).
        events_cycle: a drawn event goes to the bottom of the event deck (the expansion's)
            instead of out of the game (the base game's random events: each at most once).
        ability_actions: ``(g, p)`` -> the ability actions ``p`` may take now (a new list).
        is_ability: ``(a)`` -> whether action ``a`` is one of the ruleset's ability actions
            (an own-turn extra, as the interrupt cards' discards and plays are: never a target).
        use_ability: ``(g, p, a)`` uses the ability of ability action ``a``.
        start_turn: ``(g)`` resets the ruleset's per-turn state at the start of a turn.
        start_of_turn_win: ``(g, p)`` ends the game and returns True when ``p`` has won.
        refill: ``(g, f)`` the turn's refill step: True to pass the turn on now, False when
            it pushed frames (and set the turn frame's next step) or ended the game.
        buildable_areas: ``(g, p, factor)`` -> the areas where ``p`` may build now at
            ``factor`` times the price (1.0; 0.5 for a scroll's half price), sorted.
        build: ``(g, p, area, factor)`` pays for and places (or starts choosing) ``p``'s
            building there: the building symbol and the half-price scroll both ask these two.
        control: ``(g, area)`` -> who controls ``area`` and by how much (a ``Control``).
        points: ``(g, seat)`` -> ``seat``'s final points; ``tie_break``: ``(g, seat)`` -> the
            value that breaks a tie on points (higher wins).
        hand_size: the hand dealt and refilled to.
        roles: the state field holding each seat's secret role (``"persona"``: personality
            cards; the expansion's ``"objective"``), for bots that guess roles.
        tables: ``(cfg)`` -> the ruleset's lookup tables.
        sample: ``(view, rng, cfg)`` -> a game consistent with one seat's view.
        params: the ruleset's own named values (a house rule's numbers), free for its hooks.
        title: the name shown to people (the browser's game menu); ``derive`` defaults it to
            the child's ``name``.
    """

    name: str
    expansion: str | None
    parent: Ruleset | None
    handlers: Registry
    symbols: Mapping[str, Symbol]
    effects: Mapping[str, Callable[..., None]]
    event_effects: Mapping[str, Callable[[GameState, int], None]]
    ability_actions: Callable[[GameState, int], list[int]]
    is_ability: Callable[[int], bool]
    use_ability: Callable[[GameState, int, int], None]
    start_of_turn_win: Callable[[GameState, int], bool]
    refill: Callable[[GameState, Frame], bool]
    buildable_areas: Callable[[GameState, int, float], list[int]]
    build: Callable[[GameState, int, int, float], None]
    tables: Callable[[GameConfig], Tables]
    sample: Callable[[dict[str, Any], np.random.Generator, GameConfig], Any]
    control: Callable[[GameState, int], Any]
    points: Callable[[GameState, int], int]
    tie_break: Callable[[GameState, int], int]
    start_turn: Callable[[GameState], None] = _nothing
    hand_size: int = 5
    events_cycle: bool = False
    roles: str = "persona"
    params: Mapping[str, Any] = field(default_factory=dict)
    title: str = "the base game"

    def derive(self, name: str, expansion: str, handlers: Registry, **changes: Any) -> Ruleset:
        """A child ruleset: this one with ``changes``; ``symbols``, ``effects``,
        ``event_effects`` and ``params`` given in ``changes`` are merged over this ruleset's (an
        item mapped to None is removed)."""
        for table in ("symbols", "effects", "event_effects", "params"):
            merged = {**getattr(self, table), **changes.pop(table, {})}
            changes[table] = {k: v for k, v in merged.items() if v is not None}
        changes.setdefault("title", name)
        return replace(
            self, name=name, expansion=expansion, parent=self, handlers=handlers, **changes
        )

    def lineage(self) -> list[Ruleset]:
        """This ruleset and its ancestors, the base game first."""
        out: list[Ruleset] = []
        r: Ruleset | None = self
        while r is not None:
            out.append(r)
            r = r.parent
        return out[::-1]

    def frame_handlers(self) -> tuple[dict[str, Options], dict[str, Act], dict[str, str]]:
        """The frame handlers in force: each ancestor's, overlaid by its children's."""
        options: dict[str, Options] = {}
        act: dict[str, Act] = {}
        descriptions: dict[str, str] = {}
        for r in self.lineage():
            options.update(r.handlers.options)
            act.update(r.handlers.act)
            descriptions.update(r.handlers.descriptions)
        return options, act, descriptions

    def __repr__(self) -> str:
        return f"<Ruleset {self.name}>"


# GameConfig.expansion -> (ruleset, its game class); filled as each ruleset's package is
# imported (``nanty_env.engine`` imports the shipped ones)
_REGISTERED: dict[str | None, tuple[Ruleset, type]] = {}


def register_ruleset(ruleset: Ruleset, game_class: type) -> None:
    """Make ``ruleset`` the rules of ``game_class`` and of every config naming its
    ``expansion`` (``Game.new``, ``Game.from_dict``, ``GameConfig`` accept it from now on)."""
    if ruleset.expansion in _REGISTERED:
        raise ValueError(f"ruleset {ruleset.expansion!r} registered twice")
    options, act, _ = ruleset.frame_handlers()
    game_class.ruleset = ruleset
    game_class._options = options
    game_class._act = act
    _REGISTERED[ruleset.expansion] = (ruleset, game_class)


def find_ruleset(expansion: str | None = None) -> Ruleset:
    """The ruleset selected by ``GameConfig.expansion`` (None: the base game)."""
    return _entry(expansion)[0]


def derives_from(expansion: str | None, name: str) -> bool:
    """Whether the ruleset selected by ``expansion`` is the ruleset ``name`` or derives from it
    (what its state, views and pictures hold: a house variant of the base game has none of the
    expansion's pieces)."""
    return any(r.name == name for r in find_ruleset(expansion).lineage())


def game_class(expansion: str | None = None) -> type:
    """The game class of the ruleset selected by ``expansion``."""
    return _entry(expansion)[1]


def known_rulesets() -> tuple[str, ...]:
    """The ``GameConfig.expansion`` names of the registered rulesets (the base game's is None,
    not listed)."""
    return tuple(k for k in _REGISTERED if k is not None)


# Installed packages offer rulesets as entry points of this group: ``name = "package.module"``,
# a module whose import registers the ruleset ``name``.
PLUGIN_GROUP = "nanty_narking.rulesets"


def _plugin_entry_points() -> list[Any]:
    from importlib.metadata import entry_points

    return list(entry_points(group=PLUGIN_GROUP))


def installed_rulesets() -> tuple[str, ...]:
    """The names of the rulesets that installed packages offer (loaded or not)."""
    return tuple(sorted(ep.name for ep in _plugin_entry_points()))


def load_ruleset(expansion: str) -> Ruleset:
    """The ruleset ``expansion``: one registered already, or an installed plug-in's, whose
    module is imported now. Only for a name the user gave on their own command line: a name
    read from a file or a request is looked up with :func:`find_ruleset`, which imports
    nothing."""
    if expansion in _REGISTERED:
        return _REGISTERED[expansion][0]
    offered = _plugin_entry_points()
    found = [ep for ep in offered if ep.name == expansion]
    if not found:
        known = sorted({*known_rulesets(), *(ep.name for ep in offered)})
        raise ValueError(f"unknown ruleset {expansion!r}; known: {known}")
    found[0].load()
    if expansion not in _REGISTERED:
        raise ValueError(f"{found[0].value} did not register the ruleset {expansion!r}")
    return _REGISTERED[expansion][0]


def plugin_modules() -> tuple[str, ...]:
    """The modules that registered rulesets from outside ``nanty_env``: a worker process
    imports them (see :func:`run_with_plugins`) so that it knows the parent's rulesets. Code
    run without a module of its own (``exec``, a notebook cell) cannot be imported again:
    its rulesets stay in the process that made them."""
    import sys

    modules = {cls.__module__ for _, cls in _REGISTERED.values()}
    return tuple(
        sorted(
            m
            for m in modules
            if m.split(".")[0] != "nanty_env"
            and getattr(sys.modules.get(m), "__spec__", None) is not None
        )
    )


def run_with_plugins(modules: tuple[str, ...], target: Callable[..., Any], *args: Any) -> Any:
    """A worker process's entry: import the ruleset modules that the parent named
    (:func:`plugin_modules`, never a file's word), then run ``target(*args)``."""
    import importlib

    for module in modules:
        importlib.import_module(module)
    return target(*args)


def _entry(expansion: str | None) -> tuple[Ruleset, type]:
    try:
        return _REGISTERED[expansion]
    except KeyError:
        raise ValueError(f"unknown expansion {expansion!r}; known: {known_rulesets()}") from None


__all__ = [
    "Ruleset",
    "Symbol",
    "find_ruleset",
    "game_class",
    "installed_rulesets",
    "known_rulesets",
    "load_ruleset",
    "plugin_modules",
    "register_ruleset",
    "run_with_plugins",
]
