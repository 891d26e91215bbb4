# The compiled build's declarations for state.py (Cython "augmenting .pxd"; the .py stays the
# pure-Python reference and never reads this file): GameState becomes an extension type, so
# compiled rules that know ``g`` is a GameState read and write its fields as C struct members.
# Fields are Python objects (an int field keeps a numpy integer as the pure build would); the
# lists that the rules always replace with lists are typed ``list``.

cimport cython

from nanty_env.engine.rng cimport Pcg64Stream
from nanty_env.engine.config cimport GameConfig
from nanty_env.engine.game_log cimport GameLog
from nanty_env.engine.ruleset cimport Ruleset
from nanty_env.engine.tables cimport Tables


# auto_pickle off: GameState.__getstate__ saves the fields of every subclass too
@cython.auto_pickle(False)
cdef class GameState:
    cdef public object ability_used, active, agents, building, cit, city_gained
    cdef public object city_retired, event_deck, events_done, first_player, gren
    cdef public object known, known_unused, loans, n, outcome, penalties, persona
    cdef public object persona_pool, removed, rng, turn, _dice, _legal
    cdef public list deck, discard, hands, in_play, money, on_board, played, stack, trouble
    # the game class's ruleset and frame handlers, bound into each game (``bind_rules``)
    cdef public Ruleset rules
    # the ruleset's lookup tables (``tables.Tables``, an extension type: its fields are C reads)
    cdef public Tables t
    # its configuration (``config.GameConfig``, an extension type likewise)
    cdef public GameConfig cfg
    # its log (``game_log.GameLog``, an extension type: a clone copies it with a C call)
    cdef public GameLog log
    cdef public dict _frame_options, _frame_act

    @cython.locals(g=GameState, cls=type, stream=Pcg64Stream, hands=list, h=list, stack=list, f=dict)
    cpdef clone(self)
    # the frame loop: a frame and the handler tables are dicts (``state.Frame``,
    # ``Ruleset.frame_handlers``)
    @cython.locals(f=dict)
    cpdef apply(self, action)
    @cython.locals(f=dict, options=dict)
    cpdef _advance(self)


# the module's row helpers, called directly from the compiled rules (their .pxd cimports them)
cpdef empty_rows(n)
# indices as C integers (a list store by index is then a C store); the lists built here typed
@cython.locals(out=list)
cpdef with_row(rows, Py_ssize_t i, row)
cpdef with_appended(rows, Py_ssize_t i, item)
@cython.locals(items=list)
cpdef with_item(row, Py_ssize_t i, value)
@cython.locals(out=list)
cpdef with_cell(rows, Py_ssize_t i, Py_ssize_t j, value)
