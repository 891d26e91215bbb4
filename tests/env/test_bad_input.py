"""Bad input on every face (``docs/env.md``, "Bad input"): a clear error, the same kind of
error for the same mistake on every face, and no game changed by a call that is refused.

- an action that is not an integer: ``TypeError`` (on the vectorised faces
  ``ActionBatchError``, a ``TypeError`` and a ``ValueError``), nothing changes;
- a batch of actions that is not one integer per game: ``ActionBatchError``, no game moves;
- an integer action that is not legal: ``IllegalActionError`` and nothing changes
  (``raw_env``, ``parallel_env``, ``illegal_action="raise"``), or the game ends with the
  penalty (``env()``, ``illegal_action="terminate"``);
- stepping the single-learner env after its episode has terminated: ``RuntimeError``;
- a seed that is not ``None`` or an integer >= 0: ``TypeError`` (``ValueError`` if negative).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from decimal import Decimal
from typing import Any

import numpy as np
import pytest

import nanty_env
from nanty_env.engine import IllegalActionError
from nanty_env.engine import actions as A
from nanty_env.faces.options import ActionBatchError
from nanty_env.faces.single import NantySingleAgentEnv
from nanty_env.vector import make_vec_env
from nanty_env.vector.async_vector import AsyncNantyVecEnv, make_async_vec_env
from nanty_env.vector.batch import EnvMaker, GameBatch


def legal(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def illegal(mask: np.ndarray) -> int:
    return int(np.flatnonzero(~mask.astype(bool))[0])


NOT_INTEGERS: dict[str, Callable[[int], Any]] = {
    "bool": lambda a: True,
    "numpy bool": lambda a: np.True_,
    "float": float,
    "fraction": lambda a: a + 0.5,
    "numpy float": np.float64,
    "0-d float array": lambda a: np.array(float(a)),
    "str": str,
    "Decimal": Decimal,
    "list": lambda a: [a],
    "1-d array": lambda a: np.array([a]),
    "2-d array": lambda a: np.array([[a]]),
    "None": lambda a: None,
}

INTEGERS: dict[str, Callable[[int], Any]] = {
    "int": int,
    "numpy int64": np.int64,
    "numpy int16": np.int16,
    "0-d int array": np.array,
}


# ---------------------------------------------------------------------------- the faces
class Face:
    """One face with a game in progress: ``step(action)`` gives ``action`` to the seat (or
    game) that must act, ``state()`` is everything a refused call must leave as it was."""

    def mask(self) -> np.ndarray:
        raise NotImplementedError

    def step(self, action: Any) -> Any:
        raise NotImplementedError

    def state(self) -> Any:
        raise NotImplementedError

    def close(self) -> None:
        pass


class AECFace(Face):
    def __init__(self, wrapped: bool, order: str) -> None:
        make = nanty_env.env if wrapped else nanty_env.raw_env
        self.env = make(num_players=3, agent_order=order)
        self.env.reset(seed=1)
        self.raw = self.env.unwrapped

    def mask(self) -> np.ndarray:
        return self.env.observe(self.env.agent_selection)["action_mask"]

    def step(self, action: Any) -> Any:
        return self.env.step(action)

    def state(self) -> Any:
        r = self.raw
        return (
            r.game.to_dict(),
            r.agent_selection,
            dict(r.terminations),
            dict(r.truncations),
            dict(r._cumulative_rewards),
            r._pending,
        )


class ParallelFace(Face):
    def __init__(self) -> None:
        self.env = nanty_env.parallel_env(num_players=3)
        self.obs, infos = self.env.reset(seed=1)
        self.acting = next(a for a in self.env.agents if infos[a]["acting"])
        self.other = next(a for a in self.env.agents if a != self.acting)

    def mask(self) -> np.ndarray:
        return self.obs[self.acting]["action_mask"]

    def step(self, action: Any) -> Any:
        result = self.env.step({self.acting: action})
        self.obs, infos = result[0], result[4]
        self.acting = next(a for a in self.env.agents if infos[a]["acting"])
        return result

    def state(self) -> Any:
        return self.env.game.to_dict(), list(self.env.agents)


class SingleFace(Face):
    def __init__(self, mode: str = "terminate") -> None:
        self.env = NantySingleAgentEnv(num_players=3, illegal_action=mode)
        self.env.reset(seed=1)

    def mask(self) -> np.ndarray:
        return self.env.action_masks()

    def step(self, action: Any) -> Any:
        return self.env.step(action)

    def state(self) -> Any:
        return self.env.game.to_dict(), self.env.seat


class VectorFace(Face):
    """Two games; the action under test goes to the second (a worker's, with two processes),
    the first gets a legal one."""

    def __init__(self, workers: int, mode: str = "terminate") -> None:
        self.env = make_vec_env(2, num_workers=workers, seed=1, num_players=2, illegal_action=mode)
        self.env.reset()

    def mask(self) -> np.ndarray:
        return self.env.action_masks()[1]

    def step(self, action: Any) -> Any:
        return self.env.step([legal(self.env.action_masks()[0]), action])

    def state(self) -> Any:
        return [g.to_dict() for g in self.env.get_attr("game")]

    def close(self) -> None:
        self.env.close()


class AsyncFace(Face):
    """Four games: a worker's chunk (0, 1) and the caller's (2, 3); the action under test goes
    to game 3, whose game this process can read."""

    def __init__(self, mode: str = "terminate") -> None:
        self.env = make_async_vec_env(
            4,
            num_workers=1,
            chunks_per_worker=1,
            caller_games=2,
            seed=1,
            num_players=2,
            illegal_action=mode,
        )
        self.env.async_reset()
        got = {int(r[-1][0]): r for r in (self.env.recv(), self.env.recv())}
        self.masks, self.ids = got[2][4], got[2][5]

    def mask(self) -> np.ndarray:
        return self.masks[1]

    def step(self, action: Any) -> Any:
        self.env.send([legal(self.masks[0]), action], self.ids)
        *_, self.masks, self.ids = self.env.recv()  # the caller's chunk: nothing else is sent
        return None

    def state(self) -> Any:
        (chunk,) = self.env._here.values()
        return [e.game.to_dict() for e in chunk.envs], sorted(self.env._awaiting)

    def close(self) -> None:
        self.env.close()


SINGLE_ACTION_FACES: dict[str, Callable[[], Face]] = {
    "raw_env": lambda: AECFace(False, "engine"),
    "raw_env cycle": lambda: AECFace(False, "cycle"),
    "env": lambda: AECFace(True, "engine"),
    "env cycle": lambda: AECFace(True, "cycle"),
    "parallel_env": ParallelFace,
    "single": SingleFace,
}
BATCH_FACES: dict[str, Callable[[], Face]] = {
    "vector": lambda: VectorFace(1),
    "vector, worker process": lambda: VectorFace(2),
    "async": AsyncFace,
}
FACES = SINGLE_ACTION_FACES | BATCH_FACES


@pytest.fixture(params=sorted(FACES))
def face(request: pytest.FixtureRequest) -> Iterator[Face]:
    f = FACES[request.param]()
    yield f
    f.close()


# ---------------------------------------------------------------------------- actions
def test_every_non_integer_action_is_a_type_error_on_every_face_and_changes_nothing(
    face: Face,
) -> None:
    good = legal(face.mask())
    before = face.state()
    for name, bad in NOT_INTEGERS.items():
        with pytest.raises(TypeError, match=r"integer|must act") as caught:
            face.step(bad(good))
        if isinstance(face, VectorFace | AsyncFace):
            assert isinstance(caught.value, ActionBatchError), name
            assert isinstance(caught.value, ValueError), name
        assert face.state() == before, name
    for make in INTEGERS.values():  # every kind of integer is taken
        face.step(make(legal(face.mask())))


def test_none_from_a_seat_that_does_not_decide_is_refused_too() -> None:
    f = ParallelFace()
    before = f.state()
    with pytest.raises(TypeError, match=f"{f.other}: .*integer"):
        f.env.step({f.acting: legal(f.mask()), f.other: None})
    with pytest.raises(TypeError, match="must be a dict"):
        f.env.step([legal(f.mask())])
    with pytest.raises(TypeError, match="must be a dict"):
        f.env.step(None)
    assert f.state() == before


@pytest.mark.parametrize("wrapped", [False, True])
def test_a_finished_agent_steps_none_and_a_wrong_type_is_still_a_type_error(wrapped: bool) -> None:
    f = AECFace(wrapped, "engine")
    while not f.raw.game.is_terminal:
        f.step(legal(f.mask()))
    before = f.state()
    with pytest.raises(TypeError, match="integer"):
        f.step(True)
    with pytest.raises(ValueError, match="None"):  # PettingZoo's rule for a finished agent
        f.step(0)
    assert f.state() == before
    f.step(None)


def out_of_range_integers(face: Face) -> list[Any]:
    return [illegal(face.mask()), A.NUM_ACTIONS, -1, np.int64(10**6)]


@pytest.mark.parametrize("name", ["raw_env", "raw_env cycle", "parallel_env"])
def test_illegal_integers_raise_on_the_raising_faces_and_change_nothing(name: str) -> None:
    f = FACES[name]()
    before = f.state()
    for bad in out_of_range_integers(f):
        with pytest.raises(IllegalActionError):
            f.step(bad)
        assert f.state() == before, bad
    f.step(legal(f.mask()))


@pytest.mark.parametrize("order", ["engine", "cycle"])
@pytest.mark.parametrize("which", range(4))
def test_illegal_integers_end_the_wrapped_game_with_the_penalty(order: str, which: int) -> None:
    """Out of the action space or not, an integer the mask forbids is an illegal action."""
    f = AECFace(True, order)
    bad = out_of_range_integers(f)[which]
    game = f.raw.game.to_dict()
    offender = f.env.agent_selection
    f.step(bad)
    assert all(f.env.terminations.values()) and all(f.env.truncations.values())
    assert f.env.rewards[offender] == -1.0
    assert all(r == 0 for a, r in f.env.rewards.items() if a != offender)
    assert f.raw.game.to_dict() == game  # the game itself never saw the action
    with pytest.raises(TypeError, match="integer"):  # a finished agent may only send None
        f.step(1.5)


@pytest.mark.parametrize("which", range(4))
def test_single_agent_illegal_integers_terminate_and_then_step_raises(which: int) -> None:
    f = SingleFace()
    bad = out_of_range_integers(f)[which]
    before = f.state()
    _, reward, terminated, truncated, info = f.step(bad)
    assert terminated and not truncated and reward == -1.0 and info["illegal_action"] == bad
    assert f.state() == before  # the game was left as it was ...
    for action in (legal(f.mask()), bad, None):  # ... and is not played on
        with pytest.raises(RuntimeError, match=r"terminated: call reset\(\)"):
            f.step(action)
        assert f.state() == before
    f.env.reset()
    f.step(legal(f.mask()))


def test_single_agent_step_after_the_game_ended_raises() -> None:
    env = NantySingleAgentEnv(num_players=2)
    env.reset(seed=3)
    terminated, steps = False, 0
    while not terminated and steps < 10_000:
        _, _, terminated, _, _ = env.step(legal(env.action_masks()))
        steps += 1
    assert terminated
    before = env.game.to_dict()
    with pytest.raises(RuntimeError, match="terminated"):
        env.step(legal(env.action_masks()) if env.action_masks().any() else 0)
    assert env.game.to_dict() == before and env.game.is_terminal
    env.reset()
    env.step(legal(env.action_masks()))


def test_single_agent_raise_mode_refuses_illegal_integers_and_plays_on() -> None:
    f = SingleFace("raise")
    before = f.state()
    for bad in out_of_range_integers(f):
        with pytest.raises(IllegalActionError):
            f.step(bad)
        assert f.state() == before
    f.step(legal(f.mask()))


@pytest.mark.parametrize("name", sorted(BATCH_FACES))
def test_batch_illegal_integers_under_raise_move_no_game(name: str) -> None:
    maker = {"vector": lambda: VectorFace(1, "raise"), "async": lambda: AsyncFace("raise")}
    f = maker.get(name, lambda: VectorFace(2, "raise"))()
    try:
        before = f.state()
        for bad in out_of_range_integers(f):
            with pytest.raises(IllegalActionError, match="no game has moved"):
                f.step(bad)
            assert f.state() == before, bad
        f.step(legal(f.mask()))
        assert f.state() != before
    finally:
        f.close()


@pytest.mark.parametrize("workers", [1, 2])
def test_vector_raise_mode_checks_the_callers_games_before_the_workers_move(workers: int) -> None:
    """An illegal action for the first game (the caller's) stops the second (a worker's) too."""
    f = VectorFace(workers, "raise")
    try:
        masks = f.env.action_masks()
        before = f.state()
        with pytest.raises(IllegalActionError, match="game 0"):
            f.env.step([illegal(masks[0]), legal(masks[1])])
        assert f.state() == before
    finally:
        f.close()


@pytest.mark.parametrize("workers", [1, 2])
def test_vector_terminate_mode_ends_the_episode_of_the_illegal_game(workers: int) -> None:
    f = VectorFace(workers)
    try:
        _, rewards, dones, infos = f.step(A.NUM_ACTIONS)
        assert dones.tolist() == [False, True] and rewards[1] == -1.0
        assert infos[1]["illegal_action"] == A.NUM_ACTIONS and "episode" in infos[1]
        f.step(legal(f.mask()))  # the game was reset: it plays on
    finally:
        f.close()


# ---------------------------------------------------------------------------- batches
def bad_batches(good: list[int]) -> dict[str, Any]:
    """Ways to get a batch of actions for two games wrong."""
    a, b = good
    return {
        "three actions for two games": [a, b, a],
        "one action for two games": [a],
        "no actions": [],
        "None": None,
        "one int": a,
        "a str": f"{a}{b}",
        "a dict": {0: a, 1: b},
        "bool array": np.array([True, False]),
        "float array": np.array(good, dtype=float),
        "object array": np.array(good, dtype=object),
        "column": np.array(good).reshape(2, 1),
        "row": np.array(good).reshape(1, 2),
        "nested lists": [[a], [b]],
        "a bool in the list": [True, b],
        "a float in the list": [float(a), b],
        "a numpy float in the list": [np.float32(a), b],
        "None in the list": [a, None],
        "a str in the list": [str(a), b],
        "a 1-d array in the list": [np.array([a]), b],
        "too large": [a, 2**70],
        "too large uint64": np.array([a, 2**64 - 1], dtype=np.uint64),
    }


def good_batches(good: list[int]) -> dict[str, Any]:
    return {
        "int64 array": np.array(good),
        "int32 array": np.array(good, dtype=np.int32),
        "uint16 array": np.array(good, dtype=np.uint16),
        "list": list(good),
        "tuple": tuple(good),
        "list of numpy ints": [np.int64(x) for x in good],
        "list of 0-d arrays": [np.array(x) for x in good],
    }


@pytest.mark.parametrize("workers", [1, 2])
def test_vector_batches_that_are_not_one_integer_per_game_move_no_game(workers: int) -> None:
    f = VectorFace(workers)
    try:
        for kind in good_batches([0, 0]):
            masks = f.env.action_masks()
            good = [legal(m) for m in masks]
            before = f.state()
            for name, bad in bad_batches(good).items():
                with pytest.raises(ActionBatchError, match="actions must") as caught:
                    f.env.step(bad)
                assert isinstance(caught.value, ValueError | TypeError)
                assert f.state() == before, name
                assert np.array_equal(f.env.action_masks(), masks), name
            f.env.step(good_batches(good)[kind])
            assert f.state() != before, kind
    finally:
        f.close()


def test_async_batches_are_checked_by_send_and_the_chunk_still_waits() -> None:
    """The worker's chunk: a refused send posts nothing; the chunk then plays exactly as a
    batch that never saw the bad input."""
    fns = [EnvMaker(num_players=2, illegal_action="raise") for _ in range(2)]
    reference = GameBatch(fns)
    reference.seed(5)
    reference.reset()
    with AsyncNantyVecEnv(fns, num_workers=1, chunks_per_worker=1) as venv:
        venv.seed(5)
        venv.async_reset()
        for _ in range(3):
            *_, masks, ids = venv.recv()
            good = [legal(m) for m in masks]
            for name, bad in bad_batches(good).items():
                with pytest.raises(ActionBatchError, match="actions must"):
                    venv.send(bad, ids)
                assert not venv._busy and venv._awaiting == {0}, name
            with pytest.raises(IllegalActionError, match=r"game 1\b.*no game has moved"):
                venv.send([good[0], illegal(masks[1])], ids)
            assert not venv._busy and venv._awaiting == {0}
            with pytest.raises(ValueError, match="not one chunk"):
                venv.send(good, ids.astype(float))
            venv.send(good, ids)
            expected = reference.step(np.array(good))
            got = venv.recv()
            assert np.array_equal(got[0], expected[0]) and np.array_equal(got[1], expected[1])
            assert np.array_equal(got[4], reference.action_masks())
            venv.send([legal(m) for m in got[4]], got[5])
            reference.step(np.array([legal(m) for m in got[4]]))


def test_game_batch_checks_its_actions_before_any_game_moves() -> None:
    batch = GameBatch([EnvMaker(num_players=2, illegal_action="raise") for _ in range(3)])
    with pytest.raises(RuntimeError, match=r"reset\(\)"):
        batch.step([0, 0, 0])
    batch.seed(2)
    batch.reset()
    masks = batch.action_masks()
    before = [e.game.to_dict() for e in batch.envs]
    with pytest.raises(IllegalActionError, match=r"game 2: .*no game has moved"):
        batch.step([legal(masks[0]), legal(masks[1]), illegal(masks[2])])
    with pytest.raises(ActionBatchError):
        batch.step([legal(masks[0]), legal(masks[1])])
    with pytest.raises(RuntimeError, match="step_async"):
        batch.step_wait()
    assert [e.game.to_dict() for e in batch.envs] == before


# ---------------------------------------------------------------------------- seeds
BAD_SEEDS: dict[str, tuple[Any, type]] = {
    "True": (True, TypeError),
    "numpy True": (np.True_, TypeError),
    "float": (3.0, TypeError),
    "numpy float": (np.float64(3), TypeError),
    "str": ("3", TypeError),
    "list": ([3], TypeError),
    "negative": (-1, ValueError),
    "negative numpy": (np.int64(-3), ValueError),
}
GOOD_SEEDS = [3, np.int64(3), np.uint8(3), np.int32(3)]


def aec_state(env: Any) -> Any:
    return env.unwrapped.game.to_dict()


def parallel_state(env: Any) -> Any:
    return env.game.to_dict()


def single_state(env: Any) -> Any:
    return env.game.to_dict(), env.seat


RESETS: dict[str, tuple[Callable[[], Any], Callable[[Any], Any]]] = {
    "raw_env": (lambda: nanty_env.raw_env(num_players=2), aec_state),
    "env": (lambda: nanty_env.env(num_players=2), aec_state),
    "parallel_env": (lambda: nanty_env.parallel_env(num_players=2), parallel_state),
    "single": (lambda: NantySingleAgentEnv(num_players=2), single_state),
}


@pytest.mark.parametrize("name", sorted(RESETS))
def test_reset_takes_integer_seeds_of_any_kind_and_refuses_the_rest(name: str) -> None:
    make, state = RESETS[name]
    env = make()
    env.reset(seed=3)
    expected = state(env)
    for seed in GOOD_SEEDS:
        env.reset(seed=seed)
        assert state(env) == expected, type(seed)
    env.reset(seed=None)
    env.reset(seed=7)
    before = state(env)
    for label, (seed, error) in BAD_SEEDS.items():
        with pytest.raises(error, match="seed must be a non-negative integer or None"):
            env.reset(seed=seed)
        assert state(env) == before, label


def test_a_bad_first_seed_leaves_the_wrapped_env_before_reset() -> None:
    e = nanty_env.env(num_players=2)
    with pytest.raises(TypeError, match="seed"):
        e.reset(seed=True)
    with pytest.raises(AttributeError, match="before reset"):
        _ = e.agent_selection
    e.reset(seed=np.int64(0))
    assert e.agents


@pytest.mark.parametrize("workers", [1, 2])
def test_vector_seed_checks_the_seed_and_stays_usable(workers: int) -> None:
    venv = make_vec_env(2, num_workers=workers, num_players=2)
    try:
        venv.seed(3)
        expected = venv.reset()
        for label, (seed, error) in BAD_SEEDS.items():
            with pytest.raises(error, match="seed must be"):
                venv.seed(seed)
            assert venv.get_attr("game") is not None, label
        for seed in GOOD_SEEDS:
            venv.seed(seed)
            assert np.array_equal(venv.reset(), expected)
    finally:
        venv.close()


def test_async_seed_checks_the_seed_and_stays_usable() -> None:
    with make_async_vec_env(2, num_workers=1, chunks_per_worker=1, num_players=2) as venv:
        venv.seed(3)
        venv.async_reset()
        expected = venv.recv()[0]
        venv.send([0, 0], [0, 1])  # whatever happens to them, the seed starts them again
        venv.recv()
        for seed, error in BAD_SEEDS.values():
            with pytest.raises(error, match="seed must be"):
                venv.seed(seed)
        venv.seed(np.int64(3))
        venv.async_reset()
        assert np.array_equal(venv.recv()[0], expected)
