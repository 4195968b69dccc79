"""The compiled layer's interface for every game: packed states and the C-level moves over them (draft)."""

import cython

COMPILED: bool = cython.compiled
