# The C-level interface of the compiled core: what every game's compiled engine provides to the
# compiled searches (packed.py says what each method means). Words are 64-bit signed integers.

cdef class PackedGame:
    cdef readonly Py_ssize_t width
    cdef readonly Py_ssize_t key_width
    cdef readonly Py_ssize_t move_width
    cdef readonly Py_ssize_t max_moves
    cdef readonly Py_ssize_t players

    cdef Py_ssize_t to_move(self, long long[::1] state) except -3
    cdef Py_ssize_t legal(self, long long[::1] state, long long[:, ::1] moves) except -1
    cdef Py_ssize_t chance(self, long long[::1] state, long long[:, ::1] moves, long long[::1] weights) except -1
    cdef int apply(self, long long[::1] state, long long[::1] move, long long[::1] out) except -1
    cdef bint terminal(self, long long[::1] state, long long[::1] returns) except -1
    cdef bint quiet(self, long long[::1] state) except -1
    cdef int pack(self, long long[::1] state, long long[::1] key) except -1
    cdef unsigned long long hash(self, long long[::1] key) noexcept

# Who moves at a state that no single player moves at (PackedGame.to_move).
cpdef enum:
    CHANCE = -1
    SIMULTANEOUS = -2
