"""An asynchronous batch of single-learner games (EnvPool-style ``send`` / ``recv``).

The games are split into chunks, played by worker processes (by default two chunks each: a
worker steps its second chunk while the caller chooses actions for its first). ``recv()`` returns
the results of whichever chunk is ready first (its observations, rewards, dones, infos, next
action masks and the global indices of its games) and ``send(actions, env_ids)`` hands that
chunk its next actions; meanwhile the other chunks keep stepping. Nobody waits for the slowest
chunk of a synchronous step. The caller may play some games itself (``caller_games``): it
then plays them instead of sleeping while no worker's chunk is ready. Each game's trajectory
depends only on its own actions and seed, never on the order in which chunks come back. Training
loops built on it (asynchronous PPO, actor-learner setups) compute actions for one chunk while the
others play.

    venv = make_async_vec_env(64, num_workers=2, seed=0, num_players=4)
    venv.async_reset()
    while ...:
        obs, rewards, dones, infos, masks, ids = venv.recv()
        venv.send(policy(obs, masks), ids)
    venv.close()

Data crosses through shared memory; each worker is woken and answers through its pipe, so
idle processes sleep instead of spinning (the caller and the workers share the cores). A worker
handles its messages in order, so a chunk posted while it is busy is stepped without a wake-up.

``send`` checks its actions before the chunk moves:
:class:`~nanty_env.faces.options.ActionBatchError` for a batch that is not one integer per game of
the chunk, ``IllegalActionError`` for an illegal action of a game whose ``illegal_action`` is
``"raise"`` (against the masks ``recv`` returned); the chunk then still waits for its actions, and
the batch stays usable.
"""

from __future__ import annotations

import itertools
import pickle
import time
import traceback
from collections.abc import Sequence
from multiprocessing.connection import wait
from typing import Any

import numpy as np

from nanty_env.faces.options import as_actions, check_legal, check_seed
from nanty_env.vector.balance import MIN_WINDOW, WINDOW_GAME_STEPS, FasterMode
from nanty_env.vector.batch import EnvFactory, EnvMaker, GameBatch, process_context, warn_games_stay
from nanty_env.vector.workers import DEFAULT_TIMEOUT, VecEnvWorkerError, Worker, _StepBuffers

GIVEN = "given"  # marks a worker's answer to "give": the chunk's games, pickled


def _play(batch: GameBatch, b: _StepBuffers, cmd: str) -> list[dict]:
    """Step (``cmd == "step"``, with the actions in ``b``) or reset one chunk into its buffers;
    its infos. The same in a worker and in the calling process."""
    if cmd == "step":
        actions = b.actions[: batch.num_envs]  # checked by send()
        return batch.step_into(actions, b.obs, b.rewards, b.dones, b.masks)
    if cmd == "reset":
        b.raising[:] = batch.raising()  # for send() to check the actions of those games
        b.obs[:] = batch.reset()
        b.masks[:] = batch.action_masks()
        b.rewards[:] = 0.0
        b.dones[:] = False
        return [{} for _ in batch.envs]
    raise ValueError(f"unknown command {cmd!r}")


def _async_worker(remote: Any, env_fns: list[EnvFactory], bufs: list[_StepBuffers]) -> None:
    """Block on the pipe; step (or reset) the named chunk into its shared memory, then answer
    with the chunk's index. Messages are handled in order, so a chunk posted while another is
    stepping is picked up at once, without the worker going to sleep."""
    chunks, start = [], 0
    for b in bufs:
        chunks.append(GameBatch(env_fns[start : start + b.n]))
        start += b.n
    while True:
        try:
            cmd, j, data = remote.recv()
        except (EOFError, OSError):  # the caller is gone
            return
        if cmd == "close":
            remote.close()
            return
        batch, b = chunks[j], bufs[j]
        try:
            if cmd == "seed":
                batch.seed(data)
                remote.send((j, None))
                continue
            if cmd == "give":  # the caller plays this chunk from now on (None: it cannot)
                games = batch.remove_games_pickled(batch.num_envs, front=True)
                remote.send((j, (GIVEN, games)))
                continue
            if cmd == "take":  # the chunk is back from the caller: play its step
                batch.insert_games(pickle.loads(data), front=True)
                cmd = "step"
            infos = _play(batch, b, cmd)
            stored = b.put_infos(infos)
        except Exception:
            remote.send((j, traceback.format_exc()))
            continue
        remote.send((j, None if stored else infos))  # done; the infos in shared memory or here


class AsyncNantyVecEnv:
    """``len(env_fns)`` games in chunks: each worker process plays ``chunks_per_worker`` of them
    (env factories must be picklable). See the module docstring for the protocol. With two or
    more chunks per worker, a worker steps its next chunk while the caller is choosing the
    actions of the one just returned.

    ``caller_games``: the last games are played in the calling process instead, as one more
    chunk, played inside ``recv()`` when it has waited longest of the chunks ready, or when no
    worker's chunk is ready. The caller then plays games instead of sleeping: with a cheap
    policy (random, scripted bots, data generation) on two cores, the caller and one worker
    outrun two workers and the caller (three processes). With an expensive policy, leave it
    at 0: the caller's time goes to the policy.

    ``balance``: move the workers' chunks to the caller while that is measured faster, and
    back (``nanty_env.vector.balance.FasterMode`` between "split" and "local", timing the batch's
    throughput window by window): beside a busy process, the caller alone is faster than
    any split. A chunk moves when it is sent its actions, its games pickled once; each game
    goes on exactly as it would have. True for the default windows, or a ``FasterMode`` to
    tune; games that cannot be pickled stay where they are (with a warning).

    Every chunk must be answered with ``send`` for exactly the ``env_ids`` that ``recv``
    returned for it before ``recv`` can return it again. A worker that dies, or owes an answer
    for ``worker_timeout`` seconds (even while the others keep answering), is reported by one
    ``VecEnvWorkerError``; a game that raises in the calling process raises its own exception.
    Either way the batch is then unusable.
    """

    def __init__(
        self,
        env_fns: Sequence[EnvFactory],
        num_workers: int = 2,
        chunks_per_worker: int = 2,
        worker_timeout: float = DEFAULT_TIMEOUT,
        caller_games: int = 0,
        balance: bool | FasterMode = False,
    ) -> None:
        n = len(env_fns)
        if not 0 <= caller_games < n:
            raise ValueError(f"caller_games must be 0 to {n - 1} for {n} games: {caller_games}")
        in_workers = n - caller_games
        num_workers = max(1, min(num_workers, in_workers))
        per_worker = max(1, min(chunks_per_worker, in_workers // num_workers))
        probe = env_fns[0]()
        self.num_envs = n
        self.observation_space, self.action_space = probe.observation_space, probe.action_space
        obs_dim, num_actions = int(np.prod(self.observation_space.shape)), int(self.action_space.n)
        bounds = np.linspace(0, in_workers, num_workers * per_worker + 1).astype(int)
        self._ids = [np.arange(bounds[c], bounds[c + 1]) for c in range(len(bounds) - 1)]
        self._in_workers_chunks = len(self._ids)  # chunks 0..this-1 belong to workers
        if caller_games:
            self._ids.append(np.arange(in_workers, n))
        self._chunk_from = {int(ids[0]): k for k, ids in enumerate(self._ids)}
        self._per_worker = per_worker
        ctx = process_context()
        self._workers: list[Worker] = []
        self._bufs: list[_StepBuffers] = []  # one per chunk
        self._here: dict[int, GameBatch] = {}  # the chunks played in this process
        self._busy: set[int] = set()  # workers' chunks stepping (results not yet received)
        self._queued: dict[int, str] = {}  # this process's chunks owed: the command to play
        self._awaiting: set[int] = set()  # chunks received, waiting for their actions
        self._posted: dict[int, int] = {}  # chunk: when it was last posted (a counter)
        self._clock = itertools.count()
        self._broken: str | None = None
        self._closed = False
        self._last_ready = -1  # the worker whose answer recv returned last
        self._balancer: FasterMode | None = None
        if balance is not False:
            window = max(MIN_WINDOW, WINDOW_GAME_STEPS * len(self._ids) // n)  # in chunks
            self._balancer = (
                balance if isinstance(balance, FasterMode) else FasterMode("split", "local", window)
            )
            if {self._balancer.parallel, self._balancer.serial} != {"split", "local"}:
                raise ValueError('the balancer must choose between "split" and "local"')
        self._last_recv: float | None = None
        self._made = time.time()  # about when every batch's episode clock started
        try:
            for w in range(num_workers):
                chunks = self._ids[w * per_worker : (w + 1) * per_worker]
                bufs = [_StepBuffers.allocate(ctx, len(i), obs_dim, num_actions) for i in chunks]
                fns = [env_fns[i] for ids in chunks for i in ids]
                name = f"async vec-env worker {w}"
                self._workers.append(Worker(ctx, _async_worker, fns, bufs, name, worker_timeout))
                self._bufs += bufs
            for c in range(len(self._bufs), len(self._ids)):
                self._here[c] = GameBatch([env_fns[i] for i in self._ids[c]])
                size = _StepBuffers.array_bytes(len(self._ids[c]), obs_dim, num_actions)
                self._bufs.append(
                    _StepBuffers(bytearray(size), len(self._ids[c]), obs_dim, num_actions)
                )
        except BaseException:
            self.close()
            raise

    @property
    def num_workers(self) -> int:
        return len(self._workers)

    @property
    def num_chunks(self) -> int:
        return len(self._ids)

    @property
    def worker_pids(self) -> list[int]:
        return [w.proc.pid for w in self._workers]

    def seed(self, seed: int | None = None) -> None:
        """Seed game ``i`` with ``seed + i`` at the next ``async_reset`` (``seed``: ``None`` or
        an integer >= 0)."""
        seed = check_seed(seed)
        self._require_idle("seed")
        posted = []
        for c, ids in enumerate(self._ids):
            value = None if seed is None else seed + int(ids[0])
            if c in self._here:
                self._here[c].seed(value)
            else:
                self._post(c, "seed", value)
                posted.append(c)
        for c in posted:
            self._message(c // self._per_worker)

    def async_reset(self) -> None:
        """Reset every game; each chunk's first observations come back through ``recv``."""
        self._require_idle("async_reset")
        for c in range(self.num_chunks):
            self._start(c, "reset")

    def send(
        self, actions: Sequence[int] | np.ndarray, env_ids: Sequence[int] | np.ndarray
    ) -> None:
        """Hand a received chunk its next actions (``actions[j]`` for game ``env_ids[j]``), once
        they are checked (one integer per game, legal for the games that raise on an illegal
        action): if they are refused, nothing moves and the chunk still waits for them."""
        env_ids = np.asarray(env_ids)
        c = self._chunk_of(env_ids)
        if c not in self._awaiting:
            raise ValueError(f"games {env_ids.tolist()} are not waiting for actions")
        b = self._bufs[c]
        actions = as_actions(actions, len(env_ids))
        check_legal(actions, b.masks, b.raising, first=int(env_ids[0]))
        b.actions[:] = actions
        self._awaiting.discard(c)
        if not self._relocate(c):
            self._start(c, "step")

    def recv(
        self,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict], np.ndarray, np.ndarray]:
        """The next ready chunk: ``(obs, rewards, dones, infos, masks, env_ids)`` (copies;
        finished games are already reset, as in ``NantyVecEnv``). Blocks until one is ready.
        Of the chunks ready (a worker's answered, or one of this process's, which can be
        played now), the one posted first comes first."""
        self._check_usable()
        if not self._busy and not self._queued:
            raise RuntimeError("nothing to receive: send actions (or async_reset) first")
        while True:
            here = min(self._queued, key=self._posted.__getitem__, default=None)
            w = self._next_ready(block=here is None)
            if here is not None and (w is None or self._posted[here] < self._first_owed(w)):
                c, infos = here, self._play_here(here)
                break
            assert w is not None
            self._last_ready = w
            c, infos = self._receive(w)
            if not isinstance(infos, tuple):
                break
            self._take_given(c, infos[1])  # a chunk its worker gave up: now played here
        if self._balancer is not None:
            now = time.perf_counter()
            if self._last_recv is not None:
                self._balancer.record(now - self._last_recv)
            self._last_recv = now
        b = self._bufs[c]
        self._awaiting.add(c)
        return (
            b.obs.copy(),
            b.rewards.copy(),
            b.dones.copy(),
            infos,
            b.masks.copy(),
            self._ids[c].copy(),
        )

    def _start(self, c: int, cmd: str, data: Any = None) -> None:
        """Post ``cmd`` for chunk ``c`` and note when: to its worker, or, for a chunk played
        here ("step" or "reset"), to be played here."""
        if c in self._here:
            self._check_usable()
            self._queued[c] = cmd
        else:
            self._post(c, cmd, data)
            self._busy.add(c)
        self._posted[c] = next(self._clock)

    def _relocate(self, c: int) -> bool:
        """Move worker chunk ``c`` (just given its actions) to where the balancer's mode has
        it: played here ("local") or by its worker ("split"); True if its step is posted."""
        if self._balancer is None or c >= self._in_workers_chunks:
            return False
        here = self._balancer.mode == "local"
        if here == (c in self._here):
            return False
        if here:  # its worker gives up its games; they are played here when they come
            self._start(c, "give")
            return True
        games = self._here[c].remove_games_pickled(len(self._ids[c]), front=True)
        if games is None:
            self._stop_balancing()
            return False
        del self._here[c]
        self._start(c, "take", games)
        return True

    def _take_given(self, c: int, games: bytes | None) -> None:
        """Worker chunk ``c``'s games, given up at the caller's request: played here from now
        on, its step first (or, if they could not be pickled, its worker plays the step)."""
        if games is None:
            self._stop_balancing()
            self._post(c, "step")
            self._busy.add(c)
            return
        self._here[c] = GameBatch.from_games(pickle.loads(games), t0=self._made)
        self._queued[c] = "step"  # posted when its "give" was: its place in the order kept

    def _stop_balancing(self) -> None:
        self._balancer = None
        warn_games_stay(stacklevel=4)  # the user's send or recv

    def _play_here(self, c: int) -> list[dict]:
        """Play this process's chunk ``c`` now; a game that raises breaks the batch."""
        cmd = self._queued.pop(c)
        try:
            return _play(self._here[c], self._bufs[c], cmd)
        except Exception as exc:
            self._broken = f"a game in the calling process raised {type(exc).__name__}"
            raise

    def _first_owed(self, w: int) -> int:
        """When worker ``w``'s oldest chunk still stepping was posted: its answer comes first
        (a worker handles its messages in order)."""
        return min(self._posted[c] for c in self._busy if c // self._per_worker == w)

    def _next_ready(self, block: bool = True) -> int | None:
        """The next worker with an answer ready, taking turns (the one after the last returned
        goes first, so a fast worker cannot hide a dead or stopped one), sleeping until one
        is (``block``; else None when none is). Every worker owing an answer for longer than
        its timeout raises, even while the others keep answering; a dead one is reported when
        its turn comes."""
        self._check_usable()
        owing = sorted({c // self._per_worker for c in self._busy})
        turn = [w for w in owing if w > self._last_ready] + [
            w for w in owing if w <= self._last_ready
        ]
        while True:
            now = time.monotonic()
            for w in turn:
                worker = self._workers[w]
                if now - worker.pending_since >= worker.limit and not worker.ready():
                    self._fail(worker.silent(now - worker.pending_since))
            for w in turn:
                if self._workers[w].ready():
                    return w
            if not block or not owing:
                return None
            first_due = min(self._workers[w].pending_since + self._workers[w].limit for w in owing)
            handles = [self._workers[w].conn for w in owing]
            handles += [self._workers[w].proc.sentinel for w in owing]
            wait(handles, max(first_due - now, 0.0))

    def _post(self, c: int, cmd: str, data: Any = None) -> None:
        """Send ``cmd`` for chunk ``c`` to its worker."""
        self._check_usable()
        w, j = divmod(c, self._per_worker)
        try:
            self._workers[w].send((cmd, j, data))
        except VecEnvWorkerError as exc:
            self._fail(exc)

    def _message(self, w: int) -> tuple[int, Any]:
        """Worker ``w``'s next answer: ``(chunk, payload)``; the chunk is no longer stepping,
        and a traceback from the worker is raised as a ``VecEnvWorkerError``."""
        worker = self._workers[w]
        try:
            j, payload = worker.recv()
        except VecEnvWorkerError as exc:
            self._fail(exc)
        c = w * self._per_worker + j
        self._busy.discard(c)
        if any(k // self._per_worker == w for k in self._busy):
            worker.answered()  # more is owed: its clock starts again
        else:
            worker.settled()
        if isinstance(payload, str):
            self._fail(VecEnvWorkerError(f"{worker.name} failed:\n{payload}"))
        return c, payload

    def _receive(self, w: int) -> tuple[int, list[dict]]:
        """The chunk worker ``w`` has just finished and its infos (from shared memory, or sent
        along when large)."""
        c, infos = self._message(w)
        if infos is not None:
            return c, infos
        try:
            return c, self._bufs[c].take_infos(self._workers[w])
        except VecEnvWorkerError as exc:
            self._fail(exc)

    def _fail(self, exc: VecEnvWorkerError) -> None:
        self._broken = str(exc).splitlines()[0]
        raise exc

    def _check_usable(self) -> None:
        if self._broken is not None:
            raise VecEnvWorkerError(f"this vec env is unusable: {self._broken}; close it")

    def _chunk_of(self, env_ids: np.ndarray) -> int:
        ok = env_ids.ndim == 1 and env_ids.dtype.kind in "iu" and len(env_ids)
        k = self._chunk_from.get(int(env_ids[0]), -1) if ok else -1
        if k >= 0 and np.array_equal(self._ids[k], env_ids):
            return k
        raise ValueError(f"{env_ids.tolist()!r} is not one chunk returned by recv()")

    def _require_idle(self, what: str) -> None:
        self._check_usable()
        if self._busy or self._queued:
            raise RuntimeError(f"{what}() while chunks are still stepping: recv() them first")

    def close(self) -> None:
        """Collect the chunks still stepping (a worker could otherwise block writing large
        infos to a pipe nobody reads), then stop the workers (killing any that is stopped or
        hung)."""
        if self._closed:
            return
        if self._broken is None:
            for c in sorted(self._busy):
                try:
                    self._receive(c // self._per_worker)
                except VecEnvWorkerError:  # a dead, stopped or failed worker
                    break
        self._busy.clear()
        self._queued.clear()
        for worker in self._workers:
            worker.stop(("close", 0, None))
        for batch in self._here.values():
            batch.close()
        self._closed = True

    def __enter__(self) -> AsyncNantyVecEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def make_async_vec_env(
    num_envs: int = 64,
    num_workers: int = 2,
    seed: int | None = None,
    chunks_per_worker: int = 2,
    worker_timeout: float = DEFAULT_TIMEOUT,
    caller_games: int = 0,
    balance: bool | FasterMode = False,
    **kwargs: Any,
) -> AsyncNantyVecEnv:
    """``num_envs`` single-learner games over ``num_workers`` worker processes
    (``chunks_per_worker`` chunks each) and, the last ``caller_games`` of them, the calling
    process; ``kwargs`` go to ``NantySingleAgentEnv``; game ``i`` is seeded ``seed + i`` at
    the first reset; ``balance``: see ``AsyncNantyVecEnv``."""
    venv = AsyncNantyVecEnv(
        [EnvMaker(**kwargs) for _ in range(num_envs)],
        num_workers,
        chunks_per_worker,
        worker_timeout,
        caller_games,
        balance,
    )
    if seed is not None:
        venv.seed(seed)
    return venv
