"""Searching Strato with open information: the one-player problem and what prunes it.

:mod:`.planning` (the deal as a search problem), :mod:`.heuristic` and :mod:`.demand` (admissible
bounds), :mod:`.relaxation` (the table-only relaxation bound, a certificate; its compiled search in
:mod:`.relaxation_kernel`), :mod:`.guided` (lines exactly as long as that bound, or longer),
:mod:`.packed` (states as integer vectors) and :mod:`.compiled_search` (A* over them, compiled in
:mod:`.search_kernel`).
"""
