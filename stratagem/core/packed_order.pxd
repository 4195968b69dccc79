# The C-level move-ordering hint of a compiled engine (packed_order.py says what it means).

from stratagem.core.packed cimport PackedGame

cdef class MoveOrder:
    cdef readonly PackedGame game

    cdef int keys(self, long long[::1] state, long long[:, ::1] moves, Py_ssize_t count, long long[::1] out) except -1
