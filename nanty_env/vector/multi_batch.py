"""N multi-agent games stepped together: every pending decision of every game in one batch.

Each game owes exactly one decision at a time, by one seat (learner or opponent alike). A
:class:`MultiAgentBatch` returns those decisions as one :class:`Decisions`: one row per game
with its observation, its action mask, the game's index and the deciding seat, so one forward
pass of a network answers every seat of every game, and :meth:`MultiAgentBatch.step` takes one
action per row. This is the shape of EnvPool's multi-player batch and of pgx (one row per game
with a pending decision, tagged by game and seat), not a dense ``games x seats`` block.

It plays exactly the games of ``num_games`` AEC envs (``nanty_env.raw_env`` with the same options)
stepped one by one: game ``k`` of a batch reset with ``seed=s`` is the game of
``raw_env.reset(seed=s + k)``, a finished game is followed by what ``raw_env.reset()`` (no seed)
would deal next, and the observations (the same encoder per seat), masks, deciding seats and
rewards are those of the AEC env, decision for decision (``tests/env/test_multi_batch.py``).

Rewards follow the AEC env's cumulative rewards: ``rewards[g, s]`` is what seat ``s`` of game
``g`` has received since its last decision (what ``raw_env.last()`` would return to it). Read
a seat's entry when it next decides (a row of that game and seat) or when its game ends
(``done[g]``): those are its transition rewards. Do not add them up step by step: an entry that
is not read keeps growing with shaping, and is reset to 0 when its seat decides.

A step's actions are checked before any game moves: not one integer per row raises
:class:`~nanty_env.faces.options.ActionBatchError`, an action the row's mask forbids raises
:class:`~nanty_env.engine.IllegalActionError`; no game is ever half-stepped.

``nanty_env.vector.multi_workers`` plays the same batch over worker processes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

import numpy as np

from nanty_env.encoding.rulesets import config_spec
from nanty_env.engine import Game, GameConfig, IllegalActionError
from nanty_env.faces.options import (
    as_actions,
    check_bool,
    check_int,
    check_potential,
    check_reward_mode,
    check_seed,
    game_config,
)
from nanty_env.faces.rewards import Potential, terminal_rewards


def agent_name(seat: int) -> str:
    """The AEC env's name of a seat (``"player_2"``)."""
    return f"player_{seat}"


@dataclass
class Decisions:
    """The pending decisions of a batch after ``reset`` or ``step``.

    One row per game, in game order (``game[r] == r`` in a whole batch). Every array is new
    at each call and belongs to the caller.

    Attributes:
        obs: ``(R, obs_size)`` float32, the deciding seat's observation.
        mask: ``(R, num_actions)`` bool, its legal actions.
        game: ``(R,)`` int64, the game of each row.
        seat: ``(R,)`` int64, the seat that decides (agent ``player_{seat}``).
        rewards: ``(num_games, num_players)`` float32, each seat's reward since its last
            decision (the AEC env's cumulative reward); for a game that just ended, its final
            rewards (its row is then the first decision of the next game).
        done: ``(num_games,)`` bool, the game ended at this step (and was dealt again).
        infos: per game that ended, by game index: ``winners`` (seats), ``reason`` (the
            engine's), ``length`` (decisions played), ``rewards`` (final, per seat, as
            ``rewards[g]``), ``seed`` (the game's ``Game.new`` seed) and
            ``final_observation`` (``(num_players, obs_size)``: each seat's observation of the
            final position, what the AEC env's ``observe`` gives after the end).
    """

    obs: np.ndarray
    mask: np.ndarray
    game: np.ndarray
    seat: np.ndarray
    rewards: np.ndarray
    done: np.ndarray
    infos: dict[int, dict[str, Any]] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.game)

    @property
    def agents(self) -> list[str]:
        """The agent name of each row (``"player_2"``), as the AEC env names it."""
        return [agent_name(s) for s in self.seat.tolist()]

    def rows_for(self, seats: int | Iterable[int]) -> np.ndarray:
        """The indices of the rows owed by ``seats`` (one seat or several)."""
        if isinstance(seats, int | np.integer):
            return np.flatnonzero(self.seat == seats)
        return np.flatnonzero(np.isin(self.seat, np.fromiter(seats, dtype=np.int64)))

    def split(self, learner: int | Sequence[int] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The rows of the learner and the rows of everyone else, as index arrays.

        Args:
            learner: the learner's seat, one for every game or one per game (an array of
                ``num_games`` seats, e.g. a seat that changes from game to game).
        """
        learner = np.asarray(learner)
        mine = self.seat == (learner if learner.ndim == 0 else learner[self.game])
        return np.flatnonzero(mine), np.flatnonzero(~mine)

    def row_rewards(self) -> np.ndarray:
        """``(R,)``: each row's seat's reward since its previous decision in the same game
        (0 for the first decision of a game just dealt), what ``raw_env.last()`` returns to
        the deciding agent."""
        r = self.rewards[self.game, self.seat]
        return np.where(self.done[self.game], np.float32(0.0), r)


def batch_options(
    config: GameConfig | None = None,
    *,
    reward_mode: str = "win_loss",
    shaping: Potential | None = None,
    reveal_personalities: bool = False,
    log: bool = False,
    **game: Any,
) -> dict[str, Any]:
    """The options of a batch, checked as the AEC env checks them, as keywords that build the
    same batch (``config`` resolved from the game keywords)."""
    return {
        "config": game_config(config, log=log, **game),
        "reward_mode": check_reward_mode(reward_mode),
        "shaping": check_potential(shaping),
        "reveal_personalities": check_bool("reveal_personalities", reveal_personalities),
    }


def check_num(name: str, value: Any, least: int = 1) -> int:
    value = check_int(name, value)
    if value < least:
        raise ValueError(f"{name} must be at least {least}, got {value}")
    return value


def game_seeds(seed: int | None, first: int, n: int) -> list[int | None]:
    """The reset seeds of games ``first .. first + n - 1`` of a batch reset with ``seed``
    (game ``k`` takes ``seed + k``, as ``raw_env.reset(seed=seed + k)``)."""
    return [None] * n if seed is None else [seed + k for k in range(first, first + n)]


class MultiAgentBatch:
    """``num_games`` games in this process whose pending decisions are answered together.

    Args:
        num_games: how many games (at least 1).
        config: the game's setup (``GameConfig``); or the game keywords ``num_players``,
            ``expansion``, ``personalities``... as for ``nanty_env.raw_env``.
        seed: the seed of the first :meth:`reset` if that is given none.
        reward_mode, shaping, reveal_personalities, log: as for ``nanty_env.raw_env``.
    """

    def __init__(
        self, num_games: int, config: GameConfig | None = None, *, seed: int | None = None, **kw
    ) -> None:
        self.num_games = check_num("num_games", num_games)
        self._first_seed = check_seed(seed)
        opts = batch_options(config, **kw)
        self.config: GameConfig = opts["config"]
        self.reward_mode: str = opts["reward_mode"]
        self.shaping: Potential | None = opts["shaping"]
        self.reveal_personalities: bool = opts["reveal_personalities"]
        self.ruleset = spec = config_spec(self.config)
        self.num_players = self.config.num_players
        self.obs_size, self.num_actions = spec.obs_size, spec.num_actions
        self.possible_agents = [agent_name(s) for s in range(self.num_players)]
        n = self.num_games
        # per game, as one raw_env holds them: the generator of its game seeds, its encoder
        self._seeders = [np.random.default_rng() for _ in range(n)]
        self._encoders = [spec.new_encoder() for _ in range(n)]
        self._games: list[Game] = []
        self.game_seeds: list[int] = [0] * n  # each game's ``Game.new`` seed
        self._cum: list[list[float]] = []  # cumulative rewards per game and seat
        self._potential: list[list[float]] = []
        self._lengths: list[int] = []

    # ------------------------------------------------------------------ the batch
    def reset(self, seed: int | None = None) -> Decisions:
        """Deal every game again: game ``k`` as ``raw_env.reset(seed=seed + k)`` deals it (with
        no seed: the constructor's, at the first reset; else each game's next seed, as
        ``raw_env.reset()``)."""
        seed = check_seed(seed)
        if seed is None:
            seed, self._first_seed = self._first_seed, None
        return self.reset_games(game_seeds(seed, 0, self.num_games))

    def reset_games(self, seeds: Sequence[int | None]) -> Decisions:
        """Deal every game again, game ``k`` as ``raw_env.reset(seed=seeds[k])`` would."""
        if len(seeds) != self.num_games:
            raise ValueError(f"need {self.num_games} seeds, got {len(seeds)}")
        seeds = [check_seed(s) for s in seeds]
        self._first_seed = None
        n, p = self.num_games, self.num_players
        self._games = [None] * n  # type: ignore[list-item]
        self._cum = [[0.0] * p for _ in range(n)]
        self._potential = [[] for _ in range(n)]
        self._lengths = [0] * n
        for k, s in enumerate(seeds):
            self._deal(k, s)
        return self._decisions([list(c) for c in self._cum], np.zeros(n, dtype=bool), {})

    def step(self, actions: Any) -> Decisions:
        """Answer every row of the last :class:`Decisions` (``actions[r]``: row ``r``'s action),
        and return the next ones. Checked before any game moves: not one integer per row
        raises ``ActionBatchError``, an illegal one ``IllegalActionError``."""
        games = self._games
        if not games:
            raise RuntimeError("call reset() before step()")
        acts = as_actions(actions, self.num_games).tolist()
        for k, (g, a) in enumerate(zip(games, acts, strict=True)):
            if a not in g.legal:
                raise IllegalActionError(
                    f"row {k} (game {k}, {agent_name(g.stack[-1]['p'])}): action {a} is not "
                    f"legal; no game has moved"
                )
        n = self.num_games
        done = np.zeros(n, dtype=bool)
        infos: dict[int, dict[str, Any]] = {}
        rewards: list[list[float]] = [None] * n  # type: ignore[list-item]
        shaping = self.shaping
        for k, (g, a) in enumerate(zip(games, acts, strict=True)):
            seat = g.stack[-1]["p"]
            g.apply(a)
            self._lengths[k] += 1
            cum = self._cum[k]
            cum[seat] = 0.0
            if shaping is not None or g.outcome is not None:
                self._reward(k, g, cum)
            rewards[k] = cum if g.outcome is None else cum[:]
            if g.outcome is not None:
                done[k] = True
                infos[k] = self._final_info(k, g, cum)
                self._deal(k, None)
        return self._decisions(rewards, done, infos)

    # ------------------------------------------------------------------ helpers
    def _deal(self, k: int, seed: int | None) -> None:
        """Deal game ``k`` as ``raw_env.reset(seed=seed)`` does."""
        if seed is not None:
            self._seeders[k] = np.random.default_rng(seed)
        self.game_seeds[k] = int(self._seeders[k].integers(2**63))
        g = self._games[k] = Game.new(self.config, self.game_seeds[k])
        self._cum[k] = [0.0] * self.num_players
        self._lengths[k] = 0
        self._potential[k] = self._potentials(g)

    def _potentials(self, g: Game) -> list[float]:
        if self.shaping is None:
            return []
        if g.is_terminal:  # a finished game's potential is 0 (nanty_env.faces.rewards)
            return [0.0] * g.n
        return [self.shaping(g, s) for s in range(g.n)]

    def _reward(self, k: int, g: Game, cum: list[float]) -> None:
        """After a decision of game ``k``: its shaping and terminal rewards, added to the
        cumulative ones in the AEC env's order (so the floats are the same)."""
        step = [0.0] * g.n
        if self.shaping is not None:
            new, old = self._potentials(g), self._potential[k]
            for s in range(g.n):
                step[s] += new[s] - old[s]
            self._potential[k] = new
        if g.outcome is not None:
            final = terminal_rewards(g, self.reward_mode)
            for s in range(g.n):
                step[s] += final[s]
        for s in range(g.n):
            cum[s] += step[s]

    def _final_info(self, k: int, g: Game, cum: list[float]) -> dict[str, Any]:
        enc, reveal = self._encoders[k], self.reveal_personalities
        return {
            "winners": list(g.outcome.winners),
            "reason": g.outcome.reason,
            "length": self._lengths[k],
            "rewards": np.array(cum, dtype=np.float32),
            "seed": self.game_seeds[k],
            "final_observation": np.stack(
                [enc(g, s, reveal_personalities=reveal) for s in range(g.n)]
            ),
        }

    def _decisions(
        self,
        rewards: list[list[float]],
        done: np.ndarray,
        infos: dict[int, dict[str, Any]],
    ) -> Decisions:
        n = self.num_games
        obs = np.empty((n, self.obs_size), dtype=np.float32)
        seats: list[int] = []
        legals: list[tuple[int, ...]] = []
        reveal = self.reveal_personalities
        for k, (g, enc) in enumerate(zip(self._games, self._encoders, strict=True)):
            seat = g.stack[-1]["p"]
            seats.append(seat)
            obs[k] = enc(g, seat, reveal_personalities=reveal)
            legals.append(g.legal)
        # the masks in one scatter (five times faster than one row at a time at 64 games)
        counts = [len(legal) for legal in legals]
        flat = np.fromiter(chain.from_iterable(legals), dtype=np.int64, count=sum(counts))
        mask = np.zeros((n, self.num_actions), dtype=bool)
        mask[np.repeat(np.arange(n), counts), flat] = True
        return Decisions(
            obs=obs,
            mask=mask,
            game=np.arange(n, dtype=np.int64),
            seat=np.array(seats, dtype=np.int64),
            rewards=np.array(rewards, dtype=np.float32).reshape(n, self.num_players),
            done=done,
            infos=infos,
        )

    @property
    def games(self) -> list[Game]:
        """The games being played (read them, do not change them)."""
        return list(self._games)

    def close(self) -> None:
        """Nothing to release (the same call as the worker batch's)."""

    def __enter__(self) -> MultiAgentBatch:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
