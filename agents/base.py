"""The Bot protocol and the harness that seats bots at a game.

A bot only ever sees its own seat's *view* (``Game.view(seat)``: the public board, its own hand,
its own personality and what it has learnt) together with the legal actions and a
``numpy.random.Generator``. The harness owns the :class:`~nanty_env.engine.Game`; a bot never
gets the game object, so it cannot read hidden state by accident. Search bots rebuild full games
consistent with the view (``nanty_env.engine.determinize.sample_from_view``) and search those.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

from nanty_env.engine import Game, GameConfig, IllegalActionError

View = dict[str, Any]


@runtime_checkable
class Bot(Protocol):
    """What the harness needs from a bot.

    Attributes:
        name: a short label used in tournament tables.
        observes: whether the bot wants :meth:`observe` calls (they cost a view each).
    """

    name: str
    observes: bool

    def reset(self, seat: int, config: GameConfig) -> None:
        """A new game starts with the bot in ``seat`` (the configuration is public)."""

    def observe(self, view: View) -> None:
        """The bot's own view at the start of every turn and once at the end (if ``observes``)."""

    def act(self, view: View, legal_actions: Sequence[int], rng: np.random.Generator) -> int:
        """Choose one of ``legal_actions`` for the pending decision described by ``view``."""


class BaseBot:
    """Convenience base: remembers seat and config, ignores observations."""

    name = "bot"
    observes = False

    def __init__(self) -> None:
        self.seat = -1
        self.config = GameConfig()

    def reset(self, seat: int, config: GameConfig) -> None:
        self.seat = seat
        self.config = config

    def observe(self, view: View) -> None:
        return None

    def act(self, view: View, legal_actions: Sequence[int], rng: np.random.Generator) -> int:
        raise NotImplementedError

    def config_for(self, view: View) -> GameConfig:
        """The game configuration (from :meth:`reset`, else a default one for the view's size)."""
        if self.config.num_players == view["num_players"]:
            return self.config
        return GameConfig(num_players=view["num_players"], log=False)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


@dataclass
class GameRecord:
    """The result of one game played by :func:`play_game`."""

    seed: int
    num_players: int
    winners: tuple[int, ...]
    reason: str
    personalities: tuple[int, ...]
    turns: int
    decisions: int
    points: tuple[int, ...] | None = None
    seconds: list[float] = field(default_factory=list)  # thinking time per seat
    first_player: int = 0


def bot_rngs(seed: int, num_players: int, salt: int = 0) -> list[np.random.Generator]:
    """One independent generator per seat, derived from the game seed (reproducible)."""
    return [np.random.default_rng([seed, salt, s]) for s in range(num_players)]


def play_game(
    bots: Sequence[Bot],
    config: GameConfig,
    seed: int,
    rngs: Sequence[np.random.Generator] | None = None,
    *,
    max_decisions: int = 100_000,
    on_turn: Callable[[Game], None] | None = None,
    on_action: Callable[[Game, int], None] | None = None,
) -> tuple[Game, GameRecord]:
    """Play one game: seat ``s`` is played by ``bots[s]``.

    Decisions with a single legal action are applied without asking the bot (it could not
    choose anything else). Bots with ``observes`` get their own view at the start of each
    turn and at the end of the game. ``on_turn`` (for loggers, not bots: it sees the whole
    game) is called at the start of each turn, ``on_action(game, action)`` (for game records)
    just before each action is applied, forced ones included.

    Raises:
        IllegalActionError: a bot returned an action that is not legal (a bug in the bot).
    """
    n = config.num_players
    if len(bots) != n:
        raise ValueError(f"{n} seats but {len(bots)} bots")
    g = Game.new(config, seed)
    rngs = list(rngs) if rngs is not None else bot_rngs(seed, n)
    for s, b in enumerate(bots):
        b.reset(s, config)
    observers = [s for s, b in enumerate(bots) if getattr(b, "observes", False)]
    seconds = [0.0] * n
    last_turn = -1
    decisions = 0
    while not g.is_terminal:
        if g.turn != last_turn:
            last_turn = g.turn
            if on_turn is not None:
                on_turn(g)
            for s in observers:
                bots[s].observe(g.view(s))
        legal = g.legal_actions()
        decisions += 1
        if decisions > max_decisions:
            raise RuntimeError(f"game {seed} did not end within {max_decisions} decisions")
        if len(legal) == 1:
            if on_action is not None:
                on_action(g, legal[0])
            g.apply(legal[0])
            continue
        p = g.current_player
        view = g.view(p)
        t0 = time.perf_counter()
        a = bots[p].act(view, view["legal_actions"], rngs[p])
        seconds[p] += time.perf_counter() - t0
        if a not in legal:
            raise IllegalActionError(
                f"bot {bots[p].name!r} in seat {p} chose illegal action {a!r} "
                f"({g.action_to_string(int(a))}) at decision {g.decision!r}; legal: {legal}"
            )
        if on_action is not None:
            on_action(g, int(a))
        g.apply(int(a))
    for s in observers:
        bots[s].observe(g.view(s))
    o = g.outcome
    record = GameRecord(
        seed=seed,
        num_players=n,
        winners=tuple(o.winners),
        reason=o.reason,
        personalities=tuple(g.persona),
        turns=g.turn,
        decisions=decisions,
        points=None if o.points is None else tuple(o.points),
        seconds=seconds,
        first_player=g.first_player,
    )
    return g, record
