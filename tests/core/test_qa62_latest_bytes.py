""":class:`~stratagem.core.latest.Latest` with a budget in bytes: the least recently used values go first
until the rest weigh at most ``max_bytes``; the value used last stays whatever it weighs."""

from __future__ import annotations

import pytest

from stratagem.core.latest import Latest


def test_values_beyond_the_budget_go_least_recently_used_first() -> None:
    kept: Latest[bytes] = Latest(16, max_bytes=100, size=len)
    for key in "abc":
        kept.get(key, lambda: b"x" * 40)
    assert kept.cache_info().currsize == 2 and kept.kept_bytes() == 80  # a went: 120 bytes would be over
    kept.get("b", lambda: b"never built")  # b used again: c is now the least recently used
    kept.get("d", lambda: b"y" * 40)
    assert kept.get("b", lambda: b"rebuilt") == b"x" * 40
    assert kept.get("c", lambda: b"rebuilt") == b"rebuilt"


def test_the_value_used_last_stays_whatever_it_weighs() -> None:
    kept: Latest[bytes] = Latest(16, max_bytes=100, size=len)
    kept.get("small", lambda: b"s")
    big = kept.get("big", lambda: b"b" * 500)
    assert kept.cache_info().currsize == 1 and kept.kept_bytes() == 500
    assert kept.get("big", lambda: b"rebuilt") is big


def test_the_count_still_bounds_it_and_clearing_forgets_the_weights() -> None:
    kept: Latest[bytes] = Latest(2, max_bytes=1000, size=len)
    for key in "abc":
        kept.get(key, lambda: b"z")
    assert kept.cache_info().currsize == 2 and kept.kept_bytes() == 2
    kept.cache_clear()
    assert kept.kept_bytes() == 0


def test_a_budget_needs_a_weight() -> None:
    with pytest.raises(ValueError, match="together"):
        Latest(4, max_bytes=10)
