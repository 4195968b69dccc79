"""Lines and proof records with their JSON form.

A *line* is a start position plus moves in the game's notation (``"format": "stratagem/line@1"``);
every line the tool prints can be replayed by ``stratagem verify`` through the rules engine alone.
A *proof* (``"format": "stratagem/proof@1"``) wraps a line with the claim it supports and the
evidence for that claim; ``evidence.kind`` names what the evidence is, so a reader can tell a
certificate from an exhaustive search that merely reports its counts.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from stratagem.core.errors import BadInput
from stratagem.core.numbers import is_whole

LINE_FORMAT = "stratagem/line@1"
PROOF_FORMAT = "stratagem/proof@1"
SOLVE_FORMAT = "stratagem/solve@1"
#: A solo Strato policy with the pile's order hidden, as a proof DAG (``stratagem odds --proof``).
POLICY_FORMAT = "stratagem/policy@1"

#: An exact value in a record: ``"p/q"`` or ``"p"`` (a JSON float such as ``0.6666`` is not exact).
_FRACTION = re.compile(r"-?\d{1,1000}(/\d{1,1000})?", re.ASCII)  # ASCII: a plain \d took '٣/4' for 3/4


def fraction_text(x: Fraction) -> str:
    """A Fraction as ``"p/q"`` (always with the denominator, ``"1/1"`` for one)."""
    return f"{x.numerator}/{x.denominator}"


def parse_fraction(text: Any, source: str, place: str) -> Fraction:
    """``"p/q"`` or ``"p"`` as a Fraction; anything else (a JSON number included) is :class:`BadInput`."""
    if not isinstance(text, str) or not _FRACTION.fullmatch(text):
        shown = repr(text) if len(repr(text)) <= 40 else repr(text)[:40] + "..."
        raise BadInput(source, place, f'expected an exact fraction "p/q" such as "37/45", found {shown}')
    numerator, _, denominator = text.partition("/")
    if denominator and int(denominator) == 0:
        raise BadInput(source, place, f"zero denominator in {text!r}")
    return Fraction(int(numerator), int(denominator) if denominator else 1)


def quoted(value: Any) -> str:
    """A field's value as a message quotes it: its JSON, at most about 40 characters."""
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:40] + "..."


def cut_repr(value: Any, width: int = 80) -> str:
    """A value from a record as a checker's problem quotes it: its ``repr``, cut to ``width`` characters (a
    record's strings may be 65,536 characters long, and each problem is one line)."""
    text = repr(value)
    return text if len(text) <= width else text[:width - 3] + "..."


def exact_text(value: Any) -> str:
    """An exact value as the outputs write it: a Fraction, an integer or a record's ``"p/q"``/``"p"`` in
    lowest terms, a whole number as one (``-8``, not a record's ``-8/1``); anything else as it is given, cut
    to 40 characters (the check beside it says what is wrong with it). A number is never built from other
    text: ``Fraction("1e999999999")`` takes minutes, and a record is not trusted to be reasonable."""
    if isinstance(value, Fraction | int) and not isinstance(value, bool):
        return str(Fraction(value))
    if isinstance(value, str) and _FRACTION.fullmatch(value):
        numerator, _, denominator = value.partition("/")
        if not denominator or int(denominator):
            return str(Fraction(int(numerator), int(denominator) if denominator else 1))
    return str(value)[:40]


@dataclass(frozen=True)
class Line:
    """Moves from a start position, all in the game's notation.

    ``setup`` is what the rules engine needs besides the position (the challenge, the options), as
    plain JSON data, so the line can be checked without the puzzle file.
    """

    game: str
    setup: dict[str, Any]
    start: str
    moves: tuple[str, ...]
    result: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "format": LINE_FORMAT,
            "game": self.game,
            "setup": self.setup,
            "start": self.start,
            "moves": list(self.moves),
            "length": len(self.moves),
            "result": self.result,
        }

    @staticmethod
    def from_json(data: dict[str, Any], source: str, place: str = "") -> Line:
        """The line of ``data``; ``place`` is where it sits in the record (``line.`` in a proof record), so
        that a refusal names ``line.moves[3]``, not a ``moves[3]`` the record does not have."""
        if data.get("format") != LINE_FORMAT:
            raise BadInput(source, f"{place}format", f"expected {LINE_FORMAT!r}, found {data.get('format')!r}")
        for key, kind in (("game", str), ("setup", dict), ("start", str), ("moves", list)):
            if not isinstance(data.get(key), kind):
                raise BadInput(source, f"{place}{key}", "missing or of the wrong type")
        moves = data["moves"]
        for i, move in enumerate(moves):
            if not isinstance(move, str):
                raise BadInput(source, f"{place}moves[{i}]", "a move must be a string")
        if "length" in data and not is_whole(data["length"]):  # 5.0 and true (== 1) passed the count below
            raise BadInput(source, f"{place}length", f"must be a whole number, not {quoted(data['length'])}")
        if "length" in data and data["length"] != len(moves):
            raise BadInput(source, f"{place}length", f"says {data['length']} but the line has {len(moves)} moves")
        result = data.get("result", "")
        return Line(data["game"], data["setup"], data["start"], tuple(moves), str(result))


@dataclass(frozen=True)
class Proof:
    """A claim about a puzzle and the evidence for it.

    ``claim`` is e.g. ``{"solvable": true, "optimal_length": 7}``; ``evidence`` holds the witness line
    and, for a lower bound, what establishes it (``kind`` = ``"exhaustive-search"`` with states per
    depth, ``"drup-refutation"`` with a CNF and a proof file, ...).
    """

    game: str
    claim: dict[str, Any]
    line: Line | None
    evidence: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": PROOF_FORMAT,
            "game": self.game,
            "claim": self.claim,
            "line": self.line.to_json() if self.line is not None else None,
            "evidence": self.evidence,
        }

    @staticmethod
    def from_json(data: dict[str, Any], source: str) -> Proof:
        if data.get("format") != PROOF_FORMAT:
            raise BadInput(source, "format", f"expected {PROOF_FORMAT!r}, found {data.get('format')!r}")
        if not isinstance(data.get("game"), str):
            raise BadInput(source, "game", "missing or not a string")
        if not isinstance(data.get("claim"), dict):
            raise BadInput(source, "claim", "missing or not an object")
        evidence = data.get("evidence", {})
        if not isinstance(evidence, dict):
            raise BadInput(source, "evidence", "must be an object")
        raw_line = data.get("line")
        line = Line.from_json(raw_line, source, "line.") if isinstance(raw_line, dict) else None
        return Proof(data["game"], data["claim"], line, evidence)
