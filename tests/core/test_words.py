"""Counted nouns: one turn, two turns, and a record's field shown as it was given."""

from __future__ import annotations

import pytest

from stratagem.core.words import plural


@pytest.mark.parametrize(("count", "text"), [(0, "0 turns"), (1, "1 turn"), (2, "2 turns"), (-1, "-1 turns")])
def test_only_exactly_one_is_singular(count: int, text: str) -> None:
    assert plural(count, "turn") == text


def test_another_plural_and_grouped_numbers() -> None:
    assert plural(2, "search", "searches") == "2 searches" and plural(12345, "node", grouped=True) == "12,345 nodes"


@pytest.mark.parametrize(("count", "text"), [(None, "None turns"), ("1", "1 turns"), (True, "True turns"),
                                             (1.0, "1.0 turns"), ("x", "x turns")])
def test_a_field_that_is_not_a_whole_number_is_written_as_given(count: object, text: str) -> None:
    """A record's ``horizon`` or ``length`` is drawn as the record states it, checked or not: grouping a
    string raised, and True read as "True turn"."""
    assert plural(count, "turn", grouped=True) == text
