"""``stratagem odds`` of a whole deal says that the plain search is slow and that ``--table`` is not.

The plain search (exact fractions in Python, first moves ranked) took 111 s wall, 92 CPU s, for challenge
0's solo-1 with nothing on stderr off a terminal, where ``--table`` values the same deal with the compiled
search in about 0.3 s. A note on stderr says so whenever a whole deal goes to the plain search; a
``--position`` (an endgame, the plain search's use) and ``--quiet`` get none.
"""

from __future__ import annotations

from conftest import PUZZLES

CHALLENGE_0 = str(PUZZLES / "challenge-0.toml")
NOTE = "--table FILE values it with the compiled search"


def test_a_whole_deal_names_the_compiled_search(cli) -> None:  # type: ignore[no-untyped-def]
    outcome = cli("odds", CHALLENGE_0, "--deal", "solo-1", "--time-limit", "0.5", "--no-rank")
    assert outcome.code == 3  # the limit stops the plain search
    notes = [line for line in outcome.err.splitlines() if NOTE in line]
    assert len(notes) == 1 and notes[0].startswith("note: the plain search values a whole deal"), outcome.err


def test_an_endgame_or_quiet_gets_no_note(cli) -> None:  # type: ignore[no-untyped-def]
    endgame = cli("odds", CHALLENGE_0, "--position", "RRWR(RW)WWRW RRR WRR 1 -", "--no-rank")
    assert endgame.code == 0 and NOTE not in endgame.err
    quiet = cli("odds", CHALLENGE_0, "--deal", "solo-1", "--time-limit", "0.5", "--no-rank", "--quiet")
    assert quiet.code == 3 and quiet.err == ""
