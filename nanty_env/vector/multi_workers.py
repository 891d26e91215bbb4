"""The multi-agent batch of ``nanty_env.vector.multi_batch`` played by worker processes.

:class:`MultiAgentWorkers` has the API of :class:`~nanty_env.vector.multi_batch.MultiAgentBatch` and
returns exactly what it returns for the same options and seeds (tested): the ``num_games`` games
are split into ``num_workers`` contiguous chunks, each a ``MultiAgentBatch`` in its own process,
whose pending decisions are stacked back in game order. A step's actions are checked in the
calling process, against the masks it handed out, before any of them is sent: no game moves
if one is refused.

A step's arrays cross in one block of shared memory (the caller writes the actions, each worker
its games' rows of observations, masks, seats, rewards and ends); the pipes carry only the
command and, back, the infos of the games that ended (pickled; usually none). Each side sleeps
on its pipe while it waits. The caller hands out copies: the block is rewritten at the next
step. The workers are started with the project's process context
(:func:`nanty_env.vector.batch.process_context`, ``forkserver`` where available) and watched by
:class:`nanty_env.vector.workers.Worker`: one that dies is reported at once, one that stops
answering after ``worker_timeout`` seconds, both as a
:class:`~nanty_env.vector.workers.VecEnvWorkerError` naming it; the batch is then unusable and says
so on every later call. ``close()`` (also on leaving a ``with`` block, and when the batch is
garbage-collected or the interpreter exits) stops the workers, killing a stopped or hung one.

With ``caller_games=k`` the calling process plays the first ``k`` games itself while the
workers play the others, rather than sleeping until they answer.

The options (a shaping potential in particular) must be picklable.
"""

from __future__ import annotations

import contextlib
import signal
import traceback
import weakref
from typing import Any

import numpy as np

from nanty_env.encoding.rulesets import config_spec
from nanty_env.engine import GameConfig, IllegalActionError
from nanty_env.faces.options import as_actions, check_seed
from nanty_env.vector.batch import process_context
from nanty_env.vector.multi_batch import (
    Decisions,
    MultiAgentBatch,
    agent_name,
    batch_options,
    check_num,
    game_seeds,
)
from nanty_env.vector.workers import DEFAULT_TIMEOUT, VecEnvWorkerError, Worker

CLOSE = ("close", None)


class _Shared:
    """A step's arrays for all ``n`` games in one shared block: ``actions`` (the caller's),
    and ``obs``, ``mask``, ``seat``, ``rewards``, ``done`` (each worker writes its rows)."""

    actions: np.ndarray
    obs: np.ndarray
    mask: np.ndarray
    seat: np.ndarray
    rewards: np.ndarray
    done: np.ndarray

    def __init__(self, raw: Any, n: int, obs_size: int, num_actions: int, players: int) -> None:
        self.raw, self.shape = raw, (n, obs_size, num_actions, players)
        buf = np.frombuffer(raw, dtype=np.uint8)
        offset = 0
        for name, dtype, shape in self.layout(*self.shape):
            size = int(np.prod(shape)) * np.dtype(dtype).itemsize
            setattr(self, name, buf[offset : offset + size].view(dtype).reshape(shape))
            offset += -(-size // 8) * 8  # each array 8-byte aligned

    @staticmethod
    def layout(n: int, obs_size: int, num_actions: int, players: int) -> list[tuple]:
        return [
            ("actions", np.int64, (n,)),
            ("seat", np.int64, (n,)),
            ("obs", np.float32, (n, obs_size)),
            ("rewards", np.float32, (n, players)),
            ("mask", np.bool_, (n, num_actions)),
            ("done", np.bool_, (n,)),
        ]

    @classmethod
    def allocate(cls, ctx: Any, *shape: int) -> _Shared:
        size = sum(
            -(-int(np.prod(s)) * np.dtype(d).itemsize // 8) * 8 for _, d, s in cls.layout(*shape)
        )
        return cls(ctx.RawArray("b", size), *shape)

    def __reduce__(self):  # to a worker: the shared block and its shape
        return (_Shared, (self.raw, *self.shape))

    def put(self, rows: slice, d: Decisions) -> dict[int, dict[str, Any]]:
        """Write a chunk's decisions into its rows; its infos are returned, to be sent."""
        self.obs[rows], self.mask[rows], self.seat[rows] = d.obs, d.mask, d.seat
        self.rewards[rows], self.done[rows] = d.rewards, d.done
        return d.infos


def _serve(conn: Any, job: tuple[int, int, dict[str, Any]], shared: _Shared) -> None:
    """A worker: build its chunk's batch (games ``first ..`` of the block), then answer
    ``(command, data)`` messages with ``(ok, infos or traceback)``, its rows written to the
    shared block, until told to close or the caller is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the caller's to handle
    first, num_games, options = job
    rows = slice(first, first + num_games)
    batch: MultiAgentBatch | None = None
    failure: str | None = None
    try:
        batch = MultiAgentBatch(num_games, **options)
    except Exception:
        failure = traceback.format_exc()  # said in answer to every command
    while True:
        try:
            cmd, data = conn.recv()
        except (EOFError, OSError):
            return
        if cmd == "close":
            conn.close()
            return
        if batch is None:
            conn.send((False, failure))
            continue
        try:
            if cmd == "reset":
                answer = (True, shared.put(rows, batch.reset_games(data)))
            elif cmd == "step":
                answer = (True, shared.put(rows, batch.step(shared.actions[rows])))
            else:
                raise ValueError(f"unknown command {cmd!r}")
        except Exception:
            answer = (False, traceback.format_exc())
        conn.send(answer)


def _stop(workers: list[Worker]) -> None:
    """Stop every worker (a finaliser: it holds no reference to the batch)."""
    for w in workers:
        with contextlib.suppress(Exception):
            w.stop(CLOSE)


class MultiAgentWorkers:
    """:class:`~nanty_env.vector.multi_batch.MultiAgentBatch` over ``num_workers`` processes.

    Args:
        num_games: how many games (at least ``num_workers``).
        config: the game's setup, or the game keywords, as for ``MultiAgentBatch``.
        num_workers: worker processes; worker ``i`` plays a contiguous chunk of about
            ``(num_games - caller_games) / num_workers`` games.
        caller_games: the first ``caller_games`` games are played by the calling process
            itself while the workers play theirs (instead of sleeping until they answer):
            with one worker and half the games, two processes share the work.
        seed: the seed of the first :meth:`reset` if that is given none.
        worker_timeout: seconds a worker may take to answer before it is reported.
        reward_mode, shaping, reveal_personalities, log: as for ``nanty_env.raw_env``.
    """

    def __init__(
        self,
        num_games: int,
        config: GameConfig | None = None,
        *,
        num_workers: int = 2,
        caller_games: int = 0,
        seed: int | None = None,
        worker_timeout: float = DEFAULT_TIMEOUT,
        **kw: Any,
    ) -> None:
        self.num_games = n = check_num("num_games", num_games)
        self.num_workers = w = check_num("num_workers", num_workers)
        self.caller_games = c = check_num("caller_games", caller_games, least=0)
        if w > n - c:
            raise ValueError(
                f"num_workers ({w}) must not exceed the games left to workers "
                f"(num_games - caller_games = {n - c})"
            )
        self._first_seed = check_seed(seed)
        options = batch_options(config, **kw)
        self.config: GameConfig = options["config"]
        self.ruleset = spec = config_spec(self.config)
        self.num_players = self.config.num_players
        self.obs_size, self.num_actions = spec.obs_size, spec.num_actions
        self.possible_agents = [agent_name(s) for s in range(self.num_players)]
        sizes = [(n - c) // w + (i < (n - c) % w) for i in range(w)]
        self._firsts = [c + sum(sizes[:i]) for i in range(w)]
        self._sizes = sizes
        self._mask: np.ndarray | None = None  # the masks handed out (the block's), to check actions
        self._seats: list[int] = []
        self._broken: str | None = None
        self._closed = False
        self._workers: list[Worker] = []
        self._finalizer = weakref.finalize(self, _stop, self._workers)
        ctx = process_context()
        self._shared = _Shared.allocate(ctx, n, self.obs_size, self.num_actions, self.num_players)
        self._local = MultiAgentBatch(c, **options) if c else None  # the caller's games
        try:
            for i, (first, size) in enumerate(zip(self._firsts, sizes, strict=True)):
                self._workers.append(
                    Worker(
                        ctx,
                        _serve,
                        (first, size, options),  # type: ignore[arg-type]
                        self._shared,
                        name=f"multi-agent worker {i}",
                        timeout=worker_timeout,
                    )
                )
        except BaseException:
            self.close()
            raise

    # ------------------------------------------------------------------ the batch
    def reset(self, seed: int | None = None) -> Decisions:
        """As :meth:`MultiAgentBatch.reset`: game ``k`` as ``raw_env.reset(seed=seed + k)``."""
        seed = check_seed(seed)
        if seed is None:
            seed, self._first_seed = self._first_seed, None
        return self.reset_games(game_seeds(seed, 0, self.num_games))

    def reset_games(self, seeds: list[int | None]) -> Decisions:
        """As :meth:`MultiAgentBatch.reset_games`: game ``k`` as ``raw_env.reset(seed=seeds[k])``."""
        self._usable()
        if len(seeds) != self.num_games:
            raise ValueError(f"need {self.num_games} seeds, got {len(seeds)}")
        seeds = [check_seed(s) for s in seeds]
        self._first_seed = None
        return self._exchange(
            "reset",
            [seeds[f : f + s] for f, s in zip(self._firsts, self._sizes, strict=True)],
            seeds[: self.caller_games],
        )

    def step(self, actions: Any) -> Decisions:
        """As :meth:`MultiAgentBatch.step`; the actions are checked here before any is sent."""
        self._usable()
        if self._mask is None:
            raise RuntimeError("call reset() before step()")
        acts = as_actions(actions, self.num_games)
        inside = (acts >= 0) & (acts < self.num_actions)
        legal = inside & self._mask[np.arange(self.num_games), np.where(inside, acts, 0)]
        if not legal.all():
            r = int(np.flatnonzero(~legal)[0])
            raise IllegalActionError(
                f"row {r} (game {r}, {agent_name(self._seats[r])}): action {int(acts[r])} is "
                f"not legal; no game has moved"
            )
        self._shared.actions[:] = acts
        return self._exchange("step", [None] * self.num_workers, acts[: self.caller_games])

    def _exchange(self, cmd: str, parts: list[Any], mine: Any) -> Decisions:
        """Send each worker its part, play the caller's games (``mine``: their seeds or
        actions), then gather the workers' infos; every row is in the block."""
        infos: dict[int, dict[str, Any]] = {}
        try:
            for w, part in zip(self._workers, parts, strict=True):
                w.send((cmd, part))
            if self._local is not None:
                local = self._local
                d = local.reset_games(mine) if cmd == "reset" else local.step(mine)
                infos.update(self._shared.put(slice(0, self.caller_games), d))
            for w, first in zip(self._workers, self._firsts, strict=True):
                infos.update((first + g, info) for g, info in w.result().items())
        except BaseException as exc:
            lines = str(exc).strip().splitlines() or [type(exc).__name__]
            # a worker's traceback: its first line (which worker) and its last (what failed);
            # games may have moved, so the batch cannot go on
            self._broken = " ".join(lines[:1] + lines[-1:] if len(lines) > 1 else lines)
            raise
        sh = self._shared
        out = Decisions(
            obs=sh.obs.copy(),
            mask=sh.mask.copy(),
            game=np.arange(self.num_games, dtype=np.int64),
            seat=sh.seat.copy(),
            rewards=sh.rewards.copy(),
            done=sh.done.copy(),
            infos=dict(sorted(infos.items())),
        )
        self._mask = sh.mask  # read only by step's check, before the block changes
        self._seats = out.seat.tolist()
        return out

    def _usable(self) -> None:
        if self._closed:
            raise RuntimeError("this batch is closed")
        if self._broken is not None:
            raise VecEnvWorkerError(
                f"this batch is unusable since a step failed ({self._broken}); close() it"
            )

    # ------------------------------------------------------------------ lifetime
    @property
    def pids(self) -> list[int]:
        """The worker processes' ids."""
        return [w.proc.pid for w in self._workers]

    def close(self) -> None:
        """Stop every worker (a stopped or hung one is killed); safe to call twice."""
        self._closed = True
        self._finalizer()

    def __enter__(self) -> MultiAgentWorkers:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
