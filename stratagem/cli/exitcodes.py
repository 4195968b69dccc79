"""The exit codes every ``stratagem`` command uses, in one place.

The rule: the code says how far the answer is *established*, never how pleasant it is.

- ``DONE`` (0): the command did what was asked and everything it states is established (checked by the
  rules engine, certified, or found by an exhaustive search named as such).
- ``NO`` (1): a checked negative answer to a yes/no question: ``verify`` finds the record invalid;
  ``check`` and ``solve`` establish that no winning line exists.
- ``BAD_INPUT`` (2): the input or the command line cannot be used; one line on stderr says where and why.
- ``UNDETERMINED`` (3): the work ran but the answer is not established: a limit stopped it (status
  ``unknown``), or ``verify`` replayed the record without finding it wrong but some claim in it is only
  asserted (not certified here).
- ``INTERRUPTED`` (130), ``TERMINATED`` (143) and ``HUNG_UP`` (129): stopped by SIGINT, SIGTERM or SIGHUP
  (the terminal closed; 128 + the signal, the shell convention); nothing is left half-written.
- ``INTERNAL_ERROR`` (70, ``EX_SOFTWARE`` of sysexits.h): an unexpected exception, that is a bug in
  stratagem, not a problem with the input. It is reported as one line ``stratagem: internal error: ...``
  (set ``STRATAGEM_TRACEBACK=1`` for the traceback) and kept apart from 2 so that scripts, and the CLI
  fuzz test, never mistake a crash for a refused input.
- ``BROKEN_PIPE`` (141, 128 + SIGPIPE): whoever read the output stopped reading (``stratagem ... | head``);
  nothing more is printed.
- ``CANNOT_WRITE`` (74, ``EX_IOERR`` of sysexits.h): the output could not be written (a full disk, a
  quota, an I/O error): not the input's fault and not a bug; one line on stderr names the system's reason.
"""

from __future__ import annotations

DONE = 0
NO = 1
BAD_INPUT = 2
UNDETERMINED = 3
INTERRUPTED = 130
TERMINATED = 143
HUNG_UP = 129
INTERNAL_ERROR = 70
BROKEN_PIPE = 141
CANNOT_WRITE = 74
