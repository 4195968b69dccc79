"""QA 57: what the library pass left to the analysis and provenance owners.

- ``analyze(depth="3")`` or ``depth=2.5`` failed deep in the search with a TypeError, ``progress=5`` at
  its first report; a Strato position from ``from_notation`` failed with an AttributeError.
- ``repr(Analysis)`` listed every field (1.5-3.7 KB).
- ``provenance()`` copied one level deep: editing a record's ``compiled_core`` lists changed every later
  record's provenance in the process.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from stratagem.analysis import analyze
from stratagem.core.errors import BadInput
from stratagem.core.provenance import provenance
from stratagem.loading import from_notation

SQUARE_IN_1 = str(Path(__file__).resolve().parent.parent / "puzzles" / "cardclash" / "square-in-1.toml")


@pytest.mark.parametrize(("options", "fragment"), [
    ({"depth": "3"}, "depth must be a whole number of plies"),
    ({"depth": 2.5}, "depth must be a whole number of plies"),
    ({"depth": True}, "depth must be a whole number of plies"),
    ({"progress": 5}, "progress must be a progress factory"),
])
def test_analyze_refuses_a_depth_or_progress_of_the_wrong_kind_by_name(options: dict[str, Any],
                                                                       fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        analyze(SQUARE_IN_1, **options)


def test_analyze_refuses_a_strato_position_saying_what_to_use() -> None:
    setup = {"challenge": {"name": "C", "level": 0, "weathers": "RW", "rows": 1, "limit": 6, "rows_required": 1,
                           "goal": {"left": "RRRR", "right": "WWWW"}}}
    position = from_notation("strato", "RW(RW)RW RWR WRWWRR 1 -", setup)
    with pytest.raises(BadInput, match="a Strato position is solved"):
        analyze(position)


def test_an_analysis_reprs_in_one_line_and_calls_only_an_established_move_best() -> None:
    solved = analyze(SQUARE_IN_1)
    assert repr(solved) == (f"Analysis(game='cardclash', start={solved.start!r}, method='alphabeta', "
                            f"status='solved', player=1, value=1, best_move={solved.best_move!r})")
    assert len(repr(solved)) < 200
    stopped = analyze(SQUARE_IN_1.replace("square-in-1", "square-in-5"), max_nodes=200, rank=False)
    assert stopped.status == "unknown" and stopped.best_move is None and stopped.best_found is not None
    assert repr(stopped).endswith(f"value=None, best_found={stopped.best_found!r})")


def test_provenance_records_are_independent_all_the_way_down() -> None:
    first = provenance()
    first["compiled_core"]["compiled"].append("forged")
    assert "forged" not in provenance()["compiled_core"]["compiled"]


@pytest.mark.parametrize(("options", "place"), [
    ({"seed": -1}, "seed"), ({"games": 0}, "games"), ({"max_plies": 0}, "max_plies"), ({"games": 2.0}, "games"),
])
def test_a_match_refuses_what_the_command_line_refuses(options: dict[str, Any], place: str) -> None:
    """``matches.play`` took seed -1, no game at all, or no ply (the command line refuses all three)."""
    from stratagem.matches import play

    with pytest.raises(BadInput, match=f"<argument>: {place}: a whole number"):
        play("stratatak", ["random", "random"], **options)


def test_check_of_a_stakd_puzzle_names_the_strato_option_given(capsys: pytest.CaptureFixture[str]) -> None:
    """``check STAKD --players 2`` named ``--deal``, which had not been given."""
    from stratagem.cli.main import run

    stakd = str(Path(SQUARE_IN_1).parent.parent / "stakd" / "solo-1-tiny.toml")
    assert run(["check", stakd, "--players", "2"]) == 2
    assert capsys.readouterr().err.strip() == "stratagem check: --players: --deal and --players are for Strato puzzles"
    assert run(["check", stakd, "--deal", "1"]) == 2
    assert "stratagem check: --deal: " in capsys.readouterr().err
