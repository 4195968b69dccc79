"""The one check of "a whole number from L to H" that arguments and records use."""

from __future__ import annotations

import pytest

from stratagem.core.numbers import is_whole


@pytest.mark.parametrize("value", [True, False, 1.0, "1", None, 2**0.5])
def test_only_an_int_that_is_not_a_bool_is_whole(value: object) -> None:
    assert not is_whole(value)


@pytest.mark.parametrize(("value", "low", "high", "whole"), [
    (0, None, None, True), (-5, None, None, True), (0, 0, None, True), (-1, 0, None, False),
    (4, 1, 4, True), (5, 1, 4, False), (1, 1, 1, True), (0, 1, 4, False), (10**30, None, 10**30, True),
    (3, None, 2, False),
])
def test_both_ends_are_inclusive_and_either_may_be_open(value: int, low: int | None, high: int | None,
                                                        whole: bool) -> None:
    assert is_whole(value, low, high) is whole


def test_a_bool_is_refused_where_it_is_in_range() -> None:
    # True == 1 lies in 0..4 as an int; it is still not a count, seed or player's number
    assert is_whole(1, 0, 4) and not is_whole(True, 0, 4)
