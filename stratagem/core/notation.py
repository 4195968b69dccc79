"""What every game's notation reader asks of a text before its own grammar reads it.

The five notations (docs/formats.md, "Reading the notation") are written in printable ASCII on one line,
fields separated by spaces, numbers in plain digits. Each reader calls :func:`check_notation_text` first,
so the five refuse the same near misses in the same words, naming the character at fault:

- a character outside printable ASCII: ``str.split()`` and ``str.strip()`` took a no-break space, a thin
  space, an ideographic space, a tab, a line break or a control character such as U+001C for a field
  separator, so such a text was read and printed back as other text; and a letter of another script that
  looks like one of the notation's (Cyrillic ``С``, full-width ``Ｒ``) was refused only as an "unknown
  letter" that looked like a known one;
- a number written with a leading zero (``01``, ``B@03,1h``, ``b04``, ``00``): read as the number and
  printed back without the zero, where a zero too many is more likely a slip than a spelling (``007``
  for ``7``, or a digit lost in ``D02``);
- a number of more than :data:`~stratagem.core.numbers.MAX_NOTATION_DIGITS` digits
  (:func:`~stratagem.core.numbers.check_notation_numbers`).

Spaces before and after a text and runs of spaces between fields are accepted: they change no field.
"""

from __future__ import annotations

import re
import unicodedata

from stratagem.core.errors import NotationError
from stratagem.core.numbers import check_notation_numbers

_NOT_PRINTABLE_ASCII = re.compile(r"[^\x20-\x7e]")
_LEADING_ZERO = re.compile(r"(?<![0-9])0[0-9]+")
#: Names for the characters Unicode leaves unnamed that a pasted text most often holds.
_UNNAMED = {"\t": "a tab", "\n": "a line break", "\r": "a carriage return", "\x00": "a NUL byte"}


def character_name(ch: str) -> str:
    """``U+00A0 NO-BREAK SPACE``, ``U+0009 (a tab)``: how a message names a character a reader cannot see."""
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X} {name}" if name else f"U+{ord(ch):04X} ({_UNNAMED.get(ch, 'a control character')})"


def check_notation_text(text: str) -> None:
    """:class:`NotationError` when ``text`` (a position, a move or a part of one) holds a character that is
    not printable ASCII, a number with a leading zero, or a number of more than 100 digits; see the module
    docstring. Counts characters from 1.

    Asked of every row a value table's check reads (millions): the two searches run only when a quick test
    (``str`` methods, a substring) finds something to look for, which halved the cost of reading a row."""
    check_notation_numbers(text)
    found = None if text.isascii() and text.isprintable() else _NOT_PRINTABLE_ASCII.search(text)
    if found is not None:
        raise NotationError(f"character {found.start() + 1} is {character_name(found.group())}: the notation is "
                            "printable ASCII on one line, with plain spaces between fields")
    zero = _LEADING_ZERO.search(text) if "0" in text else None
    if zero is not None:
        raise NotationError(f"number {zero.group()!r} at character {zero.start() + 1} has a leading zero: "
                            f"write {int(zero.group())}")


__all__ = ["character_name", "check_notation_text"]
