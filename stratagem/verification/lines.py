"""Replaying a line record move by move through the rules engine: the check every line and every Strato
or STAKD proof (which carries its start position as a line) begins with.

A line's moves are legal only if the rules engine accepts each in turn from the start rebuilt from the
record's setup; its ``result: won`` holds only if the replayed last position is won by the rules, never
because the record says so.
"""

from __future__ import annotations

from typing import Any

from stratagem.core.errors import BadInput
from stratagem.core.records import Line
from stratagem.core.words import plural
from stratagem.loading import game_from_record
from stratagem.solvers.replay import is_win, replay
from stratagem.verification.verdict import Verdict


def check_line(line: Line, verdict: Verdict, place: str, bare: bool) -> tuple[Any, Any, Any] | None:
    """Replay a line; return (game, start, final state) when it replays.

    For a bare line record (``bare``) its claims are reported here: that every move is legal, and
    ``result: won``, which is certified only when the replayed final position is won by the rules
    (``is_win``), never from the flag.
    """
    game, start = game_from_record(line.game, line.setup, line.start, verdict.source)
    result = replay(game, start, line.moves)
    n = len(line.moves)
    legal = (("the move is legal from the start" if n == 1 else f"the {n} moves are legal from the start") if n
             else "the start position fits the setup")
    if result.unreadable:
        raise BadInput(verdict.source, f"{place}moves[{result.error_at}]", result.error)
    if not result.ok:
        verdict.refute("moves", legal, f"{place}moves[{result.error_at}]", result.error)
        return None
    if line.moves:
        verdict.checked.append("the 1 move is legal under the rules engine" if n == 1
                               else f"all {n} moves are legal under the rules engine")
    else:
        verdict.checked.append("the start position reads and fits the setup")
    final = result.final
    won = is_win(game, final)
    if won:
        verdict.checked.append(f"the line ends in a won position after {plural(n, 'turn')}")
    if line.result not in ("", "won"):
        verdict.refute("result", f"the line's result {line.result!r}"[:80], f"{place}result",
                       f"unknown result {line.result!r} (expected 'won' or empty)")
    if bare:
        verdict.certify("moves", legal, "replayed move by move through the rules engine")
        if line.result == "won":
            statement = "the line ends in a win"
            if won:
                verdict.certify("result", statement,
                                f"the replayed position after {plural(n, 'turn')} is won by the rules")
            else:
                verdict.refute("result", statement, "result", "the line claims a win but its last position is not won")
    return game, start, final
