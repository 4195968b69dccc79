# The C-level extension of a packed game that the compiled backward induction needs (induction_kernel.py
# says what each method means).

from stratagem.core.packed cimport PackedGame

cdef class SimultaneousPacked:
    cdef readonly PackedGame game
    cdef readonly Py_ssize_t max_player_moves
    cdef readonly Py_ssize_t max_decisions
    cdef readonly Py_ssize_t max_plies

    cdef Py_ssize_t player_moves(self, long long[::1] state, Py_ssize_t player, long long[::1] out) except -1
    cdef int joint(self, long long[::1] choice, long long[::1] record) except -1
    cdef bint bank(self, long long[::1] state, long long[::1] rest, long long[::1] banked) except -1
    cdef bint evaluate(self, long long[::1] state, long long[::1] values) except -1
