# The compiled build's declarations for cthulhu/state.py (Cython "augmenting .pxd", written by
# hand like engine/state.pxd; the .py stays the pure-Python reference and never reads this
# file): the expansion's state becomes an extension type over GameState's, so that the
# expansion's compiled rules, whose game parameter the build types ``CthulhuState``, read its
# own fields as C struct members too. Fields are Python objects, as GameState's.

cimport cython

from nanty_env.engine.state cimport GameState


# auto_pickle off: GameState.__getstate__ saves the fields of every subclass (its __slots__)
@cython.auto_pickle(False)
cdef class CthulhuState(GameState):
    cdef public object insanity, elder_area, elder_owner, elder_arrived, elder_hits, goo
    cdef public object objective, objective_pool, faceup, btype, eo

    # GameState.clone's copy, then these fields set as C struct members
    @cython.locals(g=CthulhuState)
    cpdef clone(self)


cpdef elders_per_area(elder_area)
