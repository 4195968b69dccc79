# The C-level state and helpers the exact packed searches share (packed_exact.py says what each is):
# alpha-beta (packed_alphabeta), expectiminimax/paranoid (packed_expectimax) and max^n (packed_maxn)
# subclass ExactSearch.

from stratagem.core.packed cimport PackedGame
from stratagem.core.packed_order cimport MoveOrder

cdef class ExactSearch:
    cdef PackedGame game
    cdef Py_ssize_t width
    cdef Py_ssize_t key_width
    cdef Py_ssize_t move_width
    cdef long long nodes
    cdef long long max_nodes
    cdef object expired
    cdef object progress
    cdef long long progress_every
    cdef unsigned long long mask
    cdef Py_ssize_t bits
    cdef Py_ssize_t max_bits
    cdef long long entries
    cdef long long probes
    cdef long long hits
    cdef long long stores
    cdef Py_ssize_t plies
    cdef dict owned
    cdef long long[::1] returns
    cdef long long[:, ::1] states
    cdef long long[:, :, ::1] moves
    cdef long long[:, ::1] keys
    cdef unsigned long long[::1] hashes
    cdef unsigned long long[::1] mult
    cdef long long[:, ::1] tkeys
    cdef long long[::1] tidx
    cdef unsigned long long[::1] thash
    cdef long long[::1] tflag
    cdef MoveOrder hint
    cdef long long[::1] history
    cdef long long[:, ::1] order
    cdef long long[:, ::1] score
    cdef long long[:, ::1] hkeys

    cdef int _tick(self) except -1
    cdef unsigned long long _hash(self, Py_ssize_t ply) noexcept
    cdef int _repeats(self, Py_ssize_t ply) except -1
    cdef Py_ssize_t _find(self, Py_ssize_t ply) except -2
    cdef bint _hinted(self, Py_ssize_t ply, Py_ssize_t count) except? -1
    cdef long long _slot(self, Py_ssize_t ply, Py_ssize_t i, Py_ssize_t mover) noexcept
    cdef int _sort_rest(self, Py_ssize_t ply, Py_ssize_t count, Py_ssize_t low, bint hinted, bint history,
                        Py_ssize_t mover) except -1
