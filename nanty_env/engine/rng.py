"""The game's random generator: numpy's PCG64 stream, drawn in pure Python for the calls the
rules make, so that copying a game copies four integers instead of building a generator.

``Game.new`` seeds numpy's ``default_rng(seed)``, deals with it and hands its state to a
:class:`GameRng`. From then on every die roll, shuffle and draw gives exactly the numbers
numpy's ``Generator`` gives from the same state, by the same algorithms (the PCG64 step and
XSL-RR output; 32-bit draws taken two from one 64-bit output; Lemire's bounded integers;
``shuffle``'s Fisher-Yates with masked rejection; ``choice``'s Floyd's algorithm for distinct
integers): ``tests/engine/test_rng.py`` compares them draw by draw. Any other ``Generator``
method (``choice`` of anything else, ``integers`` with ``size=``, ...), and the shuffle of a
list longer than ``SHUFFLED_HERE`` (where that is the faster), runs on a numpy generator built
in the same state, whose state is then taken back, so the stream goes on
as one. ``bit_generator.state`` reads and sets the state in numpy's format,
which ``Game.to_dict`` stores.
"""

from __future__ import annotations

from collections.abc import Callable, MutableSequence
from typing import Any

import numpy as np

_MASK32 = (1 << 32) - 1
_MASK64 = (1 << 64) - 1
_MASK128 = (1 << 128) - 1
_MULTIPLIER = 0x2360ED051FC65DA44385DF649FCCF645  # PCG's default 128-bit multiplier
_DOUBLE = 1.0 / 9007199254740992.0  # 2**-53
_INT64_MIN, _INT64_END = -(1 << 63), 1 << 63  # numpy's default dtype, int64
# The longest list shuffled here rather than by numpy: here each item costs a draw, numpy's
# round trip a fixed ~11 us (compiled, the two meet near 29 items: benchmarks/rng.py)
SHUFFLED_HERE = 28
# The largest population ``choice`` draws distinct integers from here (numpy's Floyd's
# algorithm; above it numpy may shuffle a whole range instead)
FLOYD_MAX = 10_000
_SEED = np.random.SeedSequence(0)  # any seed: a built generator's state is overwritten at once


class Pcg64Stream:
    """The stream of :class:`GameRng`: its state, its draws and the ``Generator`` methods the
    rules call. The compiled build makes it an extension type (``rng.pxd``), so that a copy
    (every clone of a game) is one C allocation and four references."""

    __slots__ = ("_has32", "_inc", "_state", "_u32")

    def __init__(self, state: dict[str, Any]) -> None:
        """From a numpy PCG64 ``bit_generator.state`` dict (:meth:`from_state` checks one)."""
        self._state = state["state"]["state"]
        self._inc = state["state"]["inc"]
        self._has32 = state["has_uint32"]
        self._u32 = state["uinteger"]

    @classmethod
    def from_state(cls, state: Any) -> GameRng:
        """From a PCG64 state dict, checked by numpy (``ValueError`` naming the problem when
        it is not one)."""
        try:
            return cls(_numpy_generator(state).bit_generator.state)
        except (TypeError, ValueError, KeyError, OverflowError) as e:
            raise ValueError(f"not a PCG64 generator state ({type(e).__name__}: {e})") from e

    @classmethod
    def from_generator(cls, gen: np.random.Generator) -> GameRng:
        """Continuing numpy generator ``gen``'s stream (a PCG64 one)."""
        return cls(gen.bit_generator.state)

    def copy(self) -> GameRng:
        """An independent generator in the same state."""
        # the class's own __new__ without __init__ (object's in the pure build); ``cls`` typed
        # ``type`` in the compiled one, which then calls the C slot instead of looking it up
        cls = type(self)
        g = cls.__new__(cls)
        g._state = self._state
        g._inc = self._inc
        g._has32 = self._has32
        g._u32 = self._u32
        return g

    # ------------------------------------------------------------------ the stream
    def _next64(self) -> int:
        s = self._state = (self._state * _MULTIPLIER + self._inc) & _MASK128
        x = ((s >> 64) ^ s) & _MASK64
        r = s >> 122
        return ((x >> r) | (x << (64 - r))) & _MASK64 if r else x

    def _next32(self) -> int:
        if self._has32:
            self._has32 = 0
            return self._u32
        x = self._next64()
        self._has32, self._u32 = 1, x >> 32
        return x & _MASK32

    def _bounded(self, rng: int) -> int:
        """A uniform integer in ``[0, rng]`` as numpy draws one (``rng`` >= 1)."""
        if rng <= _MASK32:
            if rng == _MASK32:
                return self._next32()
            excl = rng + 1
            m = self._next32() * excl
            if m & _MASK32 < excl:
                threshold = (_MASK32 - rng) % excl
                while m & _MASK32 < threshold:
                    m = self._next32() * excl
            return m >> 32
        if rng == _MASK64:
            return self._next64()
        excl = rng + 1
        m = self._next64() * excl
        if m & _MASK64 < excl:
            threshold = (_MASK64 - rng) % excl
            while m & _MASK64 < threshold:
                m = self._next64() * excl
        return m >> 64

    def _interval(self, top: int) -> int:
        """A uniform integer in ``[0, top]`` by masked rejection (numpy's shuffle)."""
        mask = top
        for shift in (1, 2, 4, 8, 16, 32):
            mask |= mask >> shift
        if top <= _MASK32:
            while True:
                value = self._next32() & mask
                if value <= top:
                    return value
        while True:
            value = self._next64() & mask
            if value <= top:
                return value

    # ------------------------------------------------------------------ Generator methods
    def integers(self, low: Any, high: Any = None, size: Any = None, *args: Any, **kw: Any) -> Any:
        """``Generator.integers``; one integer in ``[low, high)`` (``[0, low)`` without
        ``high``) is drawn here and returned as an ``int``, anything else by numpy."""
        if size is None and not args and not kw and type(low) is int:
            if high is None:
                low, high = 0, low
            if type(high) is int and _INT64_MIN <= low < high <= _INT64_END:
                span = high - low - 1
                return low if span == 0 else low + self._bounded(span)
        return self._numpy("integers")(low, high, size, *args, **kw)

    def random(self, size: Any = None, *args: Any, **kw: Any) -> Any:
        """``Generator.random``: a float in ``[0, 1)`` drawn here, or arrays by numpy."""
        if size is None and not args and not kw:
            return (self._next64() >> 11) * _DOUBLE
        return self._numpy("random")(size, *args, **kw)

    def choice(
        self,
        a: Any,
        size: Any = None,
        replace: Any = True,
        p: Any = None,
        axis: int = 0,
        shuffle: Any = True,
    ) -> Any:
        """``Generator.choice``: ``size`` distinct integers of ``range(a)`` (``replace=False``)
        are drawn here, by numpy's algorithm for them (Floyd's, then a shuffle), as numpy's
        ``int64`` array; anything else by numpy."""
        if (
            type(a) is int
            and type(size) is int
            and not replace
            and p is None
            and axis == 0
            and 0 <= size <= a <= FLOYD_MAX
        ):
            return np.array(self._distinct(a, size, shuffle), dtype=np.int64)
        return self._numpy("choice")(a, size, replace, p, axis, shuffle)

    def _distinct(self, n: int, k: int, shuffle: Any) -> list[int]:
        """``k`` distinct integers of ``range(n)`` in numpy's order: Floyd's algorithm (a draw
        already taken gives the bound itself), then Fisher-Yates by bounded draws."""
        out: list[int] = []
        taken: set[int] = set()
        for top in range(n - k, n):
            x = self._bounded(top) if top else 0
            if x in taken:
                x = top
            taken.add(x)
            out.append(x)
        if shuffle:
            for i in reversed(range(1, k)):
                j = self._bounded(i)
                out[i], out[j] = out[j], out[i]
        return out

    def shuffle(self, x: Any, axis: int = 0) -> None:
        """``Generator.shuffle``: a short list is shuffled here in place; a longer one (where
        numpy, with the state handed over and back, is the faster) or an array by numpy."""
        if type(x) is not list or axis != 0 or len(x) > SHUFFLED_HERE:
            return self._numpy("shuffle")(x, axis)
        _shuffle_list(self, x)

    @property
    def bit_generator(self) -> _BitGeneratorState:
        """Reads and sets the state as numpy's ``bit_generator.state`` does."""
        return _BitGeneratorState(self)

    def _numpy(self, name: str) -> Any:
        """Attribute ``name`` of a numpy generator in this state; a method hands the state
        back after each call, so the stream goes on here."""
        gen = _numpy_generator(self.state())
        value = getattr(gen, name)
        if not callable(value):
            return value

        def call(*args: Any, **kw: Any) -> Any:
            try:
                return value(*args, **kw)
            finally:
                self._set(gen.bit_generator.state)

        return call

    # ------------------------------------------------------------------ state
    def state(self) -> dict[str, Any]:
        """The state as numpy's PCG64 ``bit_generator.state`` (a new dict)."""
        return {
            "bit_generator": "PCG64",
            "state": {"state": self._state, "inc": self._inc},
            "has_uint32": self._has32,
            "uinteger": self._u32,
        }

    def _set(self, state: dict[str, Any]) -> None:
        self._state = state["state"]["state"]
        self._inc = state["state"]["inc"]
        self._has32 = state["has_uint32"]
        self._u32 = state["uinteger"]

    def __reduce__(self) -> tuple[Callable[..., GameRng], tuple[dict[str, Any]]]:
        return (GameRng, (self.state(),))

    def __repr__(self) -> str:
        return f"GameRng(PCG64 state {self._state:#x})"


class GameRng(Pcg64Stream):
    """A PCG64 generator in pure Python with numpy ``Generator``'s results (see the module):
    the stream, and every other public ``Generator`` method run by numpy in its state."""

    __slots__ = ()


def _forwarded(name: str) -> Callable[..., Any]:
    """``Generator.<name>`` run by numpy in the generator's state (see the module)."""

    def method(self: GameRng, *args: Any, **kw: Any) -> Any:
        return self._numpy(name)(*args, **kw)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"``Generator.{name}``, run by numpy in this generator's state."
    return method


# Every other public Generator method, as a plain method rather than a ``__getattr__`` hook:
# with a hook, Python would try it on every attribute read, and a draw reads several.
for _name in dir(np.random.Generator):
    if not _name.startswith("_") and not hasattr(GameRng, _name):
        setattr(GameRng, _name, _forwarded(_name))


class _BitGeneratorState:
    """``rng.bit_generator`` of a :class:`GameRng`: its ``state``, read and set as numpy's."""

    __slots__ = ("_rng",)

    def __init__(self, rng: GameRng) -> None:
        self._rng = rng

    @property
    def state(self) -> dict[str, Any]:
        return self._rng.state()

    @state.setter
    def state(self, value: dict[str, Any]) -> None:
        self._rng._set(GameRng.from_state(value).state())


def _shuffle_list(rng: GameRng, x: MutableSequence[Any]) -> None:
    for i in reversed(range(1, len(x))):
        j = rng._interval(i)
        x[i], x[j] = x[j], x[i]


def _numpy_generator(state: Any) -> np.random.Generator:
    """A numpy PCG64 generator in ``state`` (without drawing entropy from the OS)."""
    bits = np.random.PCG64(_SEED)
    bits.state = state
    return np.random.Generator(bits)


def rng_state(rng: Any) -> dict[str, Any]:
    """The state of a game's generator (a :class:`GameRng` or a numpy ``Generator``)."""
    if type(rng) is GameRng:
        return rng.state()
    return rng.bit_generator.state


def copy_rng(rng: Any) -> GameRng:
    """An independent :class:`GameRng` continuing ``rng``'s stream."""
    if type(rng) is GameRng:
        return rng.copy()
    return GameRng(rng.bit_generator.state)
