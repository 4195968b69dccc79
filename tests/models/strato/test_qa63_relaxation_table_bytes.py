"""The relaxation's half-row tables kept between solves are bounded by their bytes, not only their count.

``relaxation._all_tables`` kept the tables of the 8 ``(classes, limit)`` used last, whatever they weighed:
2.2 MB for 3 classes at the card limit 6, 19 MB for 4, 110 MB for 5, so eight large ones held hundreds of MB
in a process that had finished with them. They are now kept within :data:`relaxation.TABLE_BYTES` (the ones
used last first; the one in use always, as rebuilding 5 or 6 classes takes 12-50 s), as the guides and the
scratch arrays are.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from stratagem.models.strato.search import relaxation
from stratagem.models.strato.search import relaxation_kernel as kernel

#: (classes, card limit) with small tables: 10 KB to 0.2 MB.
KEYS = ((2, 3), (2, 4), (3, 3), (3, 4))


@pytest.fixture
def empty_tables() -> Iterator[None]:
    relaxation._all_tables.cache_clear()
    yield
    relaxation._all_tables.cache_clear()


def _weight(k: int, limit: int) -> int:
    return sum(array.nbytes for array in kernel.half_tables(k, limit).values())


def test_the_tables_kept_are_weighed_by_their_arrays(empty_tables: None) -> None:
    assert relaxation._all_tables.max_bytes == relaxation.TABLE_BYTES  # before: no bound on the bytes
    for key in KEYS:
        relaxation._half_tables(*key)
    assert relaxation._all_tables.kept_bytes() == sum(_weight(*key) for key in KEYS)


def test_the_tables_used_last_are_kept_within_the_budget(empty_tables: None, monkeypatch: pytest.MonkeyPatch) -> None:
    weights = {key: _weight(*key) for key in KEYS}
    budget = weights[(3, 4)] + weights[(3, 3)]
    monkeypatch.setattr(relaxation._all_tables, "max_bytes", budget)
    for key in KEYS:
        relaxation._half_tables(*key)
    assert relaxation._all_tables.kept_bytes() == budget  # the two used last; the older ones went
    first = relaxation._half_tables(3, 3)
    assert relaxation._half_tables(3, 3) is first  # kept: not built again
    relaxation._all_tables.cache_clear()
    monkeypatch.setattr(relaxation._all_tables, "max_bytes", weights[(2, 3)])
    relaxation._half_tables(2, 3)
    tables = relaxation._half_tables(3, 4)  # more than the whole budget: kept alone, its caller uses it
    assert relaxation._half_tables(3, 4) is tables
    assert relaxation._all_tables.kept_bytes() == weights[(3, 4)]
