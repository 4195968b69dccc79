"""``stratagem odds`` of a whole deal that the exact search does not finish names ``--table``.

Until stop 71 the plain search (exact fractions in Python) valued whole deals: 111 s wall for challenge 0's
solo-1, and a note on stderr named ``--table`` whenever a whole deal went to it. The compiled search now
values that deal in about 2 s, but a challenge-1 deal's exact search still meets a limit, where ``--table``
gives a proven interval: the note says so then, and only then (not for a ``--position``, an endgame, nor
under ``--quiet``, nor for an answer found).
"""

from __future__ import annotations

from conftest import PUZZLES

CHALLENGE_0 = str(PUZZLES / "challenge-0.toml")
NOTE = "--table FILE gives a proven interval"


def test_a_whole_deal_the_search_does_not_finish_names_the_table(cli) -> None:  # type: ignore[no-untyped-def]
    outcome = cli("odds", CHALLENGE_0, "--deal", "solo-1", "--time-limit", "0.3", "--no-rank")
    assert outcome.code == 3  # the limit stops the search
    notes = [line for line in outcome.err.splitlines() if NOTE in line]
    assert len(notes) == 1 and notes[0].startswith("note: where the exact search does not finish"), outcome.err


def test_an_answer_an_endgame_or_quiet_gets_no_note(cli) -> None:  # type: ignore[no-untyped-def]
    from tests.interpreted import timed_for_the_compiled_odds

    timed_for_the_compiled_odds()  # the whole deal is found in about 2 s compiled
    found = cli("odds", CHALLENGE_0, "--deal", "solo-1", "--no-rank")
    assert found.code == 0 and NOTE not in found.err
    endgame = cli("odds", CHALLENGE_0, "--position", "RRWR(RW)WWRW RRR WRR 1 -", "--no-rank", "--time-limit", "0.001")
    assert endgame.code == 3 and NOTE not in endgame.err
    quiet = cli("odds", CHALLENGE_0, "--deal", "solo-1", "--time-limit", "0.3", "--no-rank", "--quiet")
    assert quiet.code == 3 and quiet.err == ""
