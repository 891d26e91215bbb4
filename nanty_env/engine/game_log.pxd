# The compiled build's declarations for game_log.py (Cython "augmenting .pxd", written by hand
# like state.pxd; the .py stays the pure-Python reference and never reads this file): the log
# becomes an extension type, so that copying it (every clone of a logged game) is one C
# allocation and two references, and appending a line (``GameState.say``) is a C call.

cimport cython


# auto_pickle off: __reduce__ pickles a log as its own lines
@cython.auto_pickle(False)
cdef class GameLog:
    cdef public list _lines
    cdef public Py_ssize_t _n

    cpdef append(self, line)
    @cython.locals(c=GameLog, cls=type)
    cpdef copy(self)
