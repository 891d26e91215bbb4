# The compiled build's declarations for rng.py (Cython "augmenting .pxd", written by hand like
# state.pxd; the .py stays the pure-Python reference and never reads this file): the stream of
# GameRng becomes an extension type, so that copying a generator (every clone of a game) is one
# C allocation and four references. Its fields stay Python objects (the 128-bit state is a
# Python int); GameRng stays a Python subclass, which carries numpy's other methods.

cimport cython


# auto_pickle off: __reduce__ pickles a generator as its numpy state
@cython.auto_pickle(False)
cdef class Pcg64Stream:
    cdef public object _has32, _inc, _state, _u32

    @cython.locals(g=Pcg64Stream, cls=type)
    cpdef copy(self)
    # the stream's draws, called from one another and from the shuffle as C methods
    cpdef _next64(self)
    cpdef _next32(self)
    cpdef _bounded(self, rng)
    cpdef _interval(self, top)


cpdef _shuffle_list(Pcg64Stream rng, x)
cpdef _numpy_generator(state)
cpdef rng_state(rng)
cpdef copy_rng(rng)
