"""The click application: parse arguments, call models and solvers, render the results.

Before anything imports numpy: OpenBLAS, which numpy loads, starts a pool of threads at import (one
per core after the first), and nothing in stratagem calls BLAS. Those idle threads made every command
that loads a compiled kernel a multi-threaded process, so a time-limited SAT solve could not fork its
CaDiCaL child (a fork copies whatever lock another thread holds; Python 3.12+ warns of it) and started a
fresh interpreter instead, some 0.07 s of CPU a call (``stratagem.solvers.satplan``). A value the user
set is kept. (On a terminal the status line that shows a command's progress is a thread of its own, so there
the child is still a fresh interpreter.)
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
