"""Counted nouns in the messages people read: "1 turn", "5 turns", "1 node expanded".

A line of one turn is common (a position one play from the goal), and "solved in 1 turns" or "no
winning line is shorter than 1 turns" reads as a bug. Every message that counts something the count
can make singular words it with :func:`plural`, so the rule is written once.
"""

from __future__ import annotations


def plural(count: object, noun: str, many: str | None = None, *, grouped: bool = False) -> str:
    """``count`` and ``noun``, singular for exactly one: ``plural(1, "turn")`` is ``1 turn``, ``plural(5, "turn")``
    ``5 turns``, ``plural(0, "turn")`` ``0 turns``.

    ``many`` is the plural when it is not ``noun + "s"`` (``plural(2, "search", "searches")``); ``grouped``
    writes the number with thousands separators (``12,345 nodes``), as the counts of large searches are.
    A ``count`` that is not a whole number (a field of a record shown as it was given, before or without
    its check) is written as it is, with the plural.
    """
    whole = isinstance(count, int) and not isinstance(count, bool)
    number = f"{count:,}" if grouped and whole else str(count)
    word = noun if whole and count == 1 else (many if many is not None else f"{noun}s")
    return f"{number} {word}"


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def ordinal(number: int) -> str:
    """``number`` (from 1) as an ordinal: ``first`` to ``tenth`` in words, then ``11th``, ``21st``, ``22nd``.

    For the item of a list a message names in running text: "the second agent" reads the same to a library
    caller, whose ``agents[1]`` it is, and on the command line, where ``--agents[2]`` counts from 1."""
    if 1 <= number <= len(_ORDINALS):
        return _ORDINALS[number - 1]
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


__all__ = ["ordinal", "plural"]
