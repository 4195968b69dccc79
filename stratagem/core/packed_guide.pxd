# The C-level guidance of a compiled engine for sampling searches (packed_guide.py says what it means).

from stratagem.core.packed_order cimport MoveOrder

cdef class Guide(MoveOrder):
    cdef readonly long long rollout_limit
    cdef readonly double exploration

    cdef int evaluate(self, long long[::1] state, double[::1] out) except -1
