# The C-level state and helpers the packed Monte Carlo searches share (packed_playout.py says what each is):
# UCT (packed_uct), DUCT (packed_duct) and ISMCTS/PIMC (packed_ismcts) subclass PlayoutSearch.

from stratagem.core.packed cimport PackedGame
from stratagem.core.packed_guide cimport Guide
from stratagem.solvers.induction_kernel cimport SimultaneousPacked

cdef class PlayoutSearch:
    cdef PackedGame game
    cdef SimultaneousPacked sp
    cdef bint has_sp
    cdef Guide guide
    cdef bint has_guide
    cdef Py_ssize_t width
    cdef Py_ssize_t move_width
    cdef Py_ssize_t players
    cdef unsigned long long rng
    cdef Py_ssize_t limit
    cdef double middle
    cdef bint play_on
    cdef object stopped
    cdef object refusal
    cdef long long[:, ::1] roll
    cdef long long[:, ::1] mbuf
    cdef long long[::1] wbuf
    cdef long long[::1] rbuf
    cdef long long[::1] words
    cdef long long[::1] choice
    cdef long long[::1] joint
    cdef double[::1] value

    cdef unsigned long long _next(self) noexcept
    cdef long long _below(self, long long n) except -1
    cdef double _uniform(self) noexcept
    cdef Py_ssize_t _draw_outcome(self, long long[::1] state) except -1
    cdef int _random_joint(self, long long[::1] state) except -1
    cdef int _rollout(self, long long[::1] start) except -1
