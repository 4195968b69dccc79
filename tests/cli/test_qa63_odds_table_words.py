"""``odds --table`` says what its user needs (stop 63): when no table is written, why (the search finished no
pass in the time limit, or the limit stopped the writing), that a table is whole or not at all, and what to
do; and on a pile the compiled search cannot count, which search can value it and what certifies its answer
(the library's message read "the plain search (without table) counts in exact fractions")."""

from __future__ import annotations

import re
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from test_qa58_designer_odds import THREE_ROWS

import stratagem
from stratagem.cli.main import run
from stratagem.core.errors import BadInput
from stratagem.loading import StratoDeal
from stratagem.models.strato.hidden import exact
from stratagem.winprobability import odds_bounds

CHALLENGE_1 = Path(__file__).resolve().parents[2] / "puzzles" / "strato" / "challenge-1.toml"
LIMIT = 0.5


def test_no_table_when_the_search_finished_no_pass_says_so_and_why(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """The search finishes no pass and takes the whole limit (made certain here: it is given no time, then the
    limit passes): exit 3, the trivial interval, nothing written, and stderr says that the search took the
    time. It said "the time limit stopped it (stopped after 1 rows)", as though the writing had run late."""
    real = exact.odds_interval

    def no_pass(game: Any, **kwargs: Any) -> Any:
        found = real(game, **{**kwargs, "seconds": 0.0})
        time.sleep(LIMIT + 0.1)
        return found

    monkeypatch.setattr(exact, "odds_interval", no_pass)
    table = tmp_path / "t.gz"
    assert run(["odds", str(CHALLENGE_1), "--table", str(table), "--time-limit", str(LIMIT)]) == 3
    out, err = capsys.readouterr()
    assert not table.exists()
    assert "win probability between 0 = 0.0000 and 1 = 1.0000" in out
    assert re.fullmatch(re.escape(f"{table}: no value table written: within the time limit the search finished "
                                  "neither the exact search nor the guided policy's first pass, and left no time "
                                  "to write a table (the writing stopped after ") + r"(1 row|[\d,]+ rows)"
                        + re.escape("); a table is written whole or not at all: a longer time limit lets a pass "
                                    "finish and its table be written") + "\n", err), err


@pytest.mark.parametrize(("found", "rows", "said"), [
    (SimpleNamespace(status="interval", passes=(object(),)), 1,
     "no value table written: the time limit stopped the writing after 1 row (a table is written whole or not at "
     "all); a longer time limit leaves the writing more time"),
    (SimpleNamespace(status="exact", passes=()), 12_345,
     "no value table written: the time limit stopped the writing after 12,345 rows (a table is written whole or "
     "not at all); a longer time limit leaves the writing more time"),
])
def test_no_table_after_a_finished_search_says_the_writing_ran_late(found: Any, rows: int, said: str) -> None:
    """A search that finished a pass, or found the exact value, left the writing too little: that is said,
    with the rows in words ("1 row", not "1 rows")."""
    from stratagem.winprobability import _stopped_note

    assert _stopped_note(found, rows) == said


PLAIN = ("counts in exact fractions: it gives the exact value if it finishes, else the value of the best policy it "
         "valued, a lower bound (no upper one), either certified by its policy record (stratagem/policy@1), which "
         "verify replays")


def test_a_pile_too_large_names_the_search_that_values_it_and_its_certificate(tmp_path: Path) -> None:
    """To a library caller, as the keyword it would leave out ("odds with no table"); what that search's
    answer is and what certifies it."""
    puzzle = tmp_path / "three.toml"
    puzzle.write_text(THREE_ROWS)
    deal = stratagem.load(puzzle)
    assert isinstance(deal, StratoDeal)
    with pytest.raises(BadInput) as refused:
        odds_bounds(deal, tmp_path / "t.gz", time_limit=20)
    assert refused.value.problem.endswith(f"; the plain search (odds with no table) {PLAIN}")
    assert "(without table)" not in str(refused.value)


def test_the_command_names_the_option_it_would_leave_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    puzzle = tmp_path / "three.toml"
    puzzle.write_text(THREE_ROWS)
    assert run(["odds", str(puzzle), "--table", str(tmp_path / "t.gz"), "--time-limit", "20"]) == 2
    assert capsys.readouterr().err.endswith(f"; the plain search (odds with no --table) {PLAIN}\n")
