"""The value table's check after its QA 63 speed-ups (verification/oddstable.py, issue 29): what each
shortcut could hide is still refused.

- Values are read once per text (``values`` in ``check_table``): a row whose value is written as another
  row's, correct there, is held to its own state; the same value in other terms reads as that value.
- The states a one-card draw leads to are looked up inline, not through ``follow``: a draw's state left
  out is refused at the row it follows from, a draw's state with a changed value is refused, and a draw
  that ends the game still counts (a table of a certain win, whose last draws win, is certified).
- The interpreter's cycle collector is off while a table is checked (it walked the millions of objects a
  check makes, again and again), and back as it was after, also when the check fails or its rows raise.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from stratagem.core.errors import BadInput
from stratagem.models.strato.hidden.game import DRAW, PLAY, HiddenStrato, format_hidden, parse_hidden, parse_play
from stratagem.verification import oddstable, verify
from stratagem.verification.oddstable import check_table, read_table
from tests.verification.test_oddstable import (
    POSITIONS,
    deal_table,
    entries,
    policy_rows,
    refused,
    rewrite,
    rows_of,
    table,
)


def test_a_value_written_as_another_rows_is_held_to_its_own_state(tmp_path: Path) -> None:
    path, _ = table(tmp_path, POSITIONS[1])
    rows = rows_of(path)
    reached = [(i, value, rows[i].split(" ", 2)[1]) for i, kind, value, _ in entries(rows) if kind == "value"]
    first = reached[0]
    other = next((i, text) for i, value, text in reached[1:] if value != first[1])
    rows[other[0]] = f"value {first[2]} {rows[other[0]].split(' ', 2)[2]}"
    assert "line" in refused(rewrite(path, rows))


def test_a_value_in_other_terms_reads_as_that_value(tmp_path: Path) -> None:
    path, solver = table(tmp_path, POSITIONS[1])
    head, rows = read_table(path)
    interior = [i for i, kind, value, _ in entries(rows) if kind == "value" and 0 < value < 1]
    for i in interior:  # every interior value doubled in its terms: the same values, other texts
        kind, value, state = rows[i].split(" ", 2)
        fraction = Fraction(value)
        rows[i] = f"{kind} {2 * fraction.numerator}/{2 * fraction.denominator} {state}"
    found = check_table(solver.game, rows)
    assert found.valid, found.problem
    assert found.value == Fraction(head["claim"]["upper_bound"])


def one_card_draws(path: Path, game: HiddenStrato) -> tuple[list[str], int, list[int]]:
    """A certain win's rows, a policy row whose move is a play from hand followed by one card's draw, and
    the rows of the states that draw leads to (listed, still to play)."""
    rows = rows_of(path)
    listed = {line.split(" ", 3)[3]: i for i, line in enumerate(rows) if line.startswith("policy ")}
    for i in policy_rows(rows):
        _, _, move, text = rows[i].split(" ", 3)
        if ";" in move or "~" in move or move.startswith("!"):
            continue
        after = game.apply(parse_hidden(text), parse_play(move))
        if after.phase != DRAW or after.draws != 1:
            continue
        children = [game.apply(after, card) for card in sorted(set(after.pile))]
        below = [listed.get(format_hidden(child)) for child in children if child.phase == PLAY and not child.status]
        if below and all(b is not None for b in below):
            return rows, i, [b for b in below if b is not None]
    raise AssertionError("no play from hand followed by one card's draw to listed states")


def test_a_one_card_draws_state_left_out_is_refused_at_the_row_it_follows(tmp_path: Path) -> None:
    path, game = deal_table(tmp_path)
    rows, parent, below = one_card_draws(path, game)
    missing = rows[below[0]].split(" ", 3)[3]
    del rows[below[0]]
    problem = refused(rewrite(path, rows))
    assert f"line {parent + 2 - (below[0] < parent)}: {missing} follows from it by the rules but is not in the " \
           "table" in problem


def test_a_one_card_draws_state_with_a_changed_value_is_refused(tmp_path: Path) -> None:
    path, game = deal_table(tmp_path)
    rows, _, below = one_card_draws(path, game)
    _, value, move, text = rows[below[0]].split(" ", 3)
    assert value == "1"
    rows[below[0]] = f"policy 1/2 {move} {text}"
    assert "gives" in refused(rewrite(path, rows))


def test_a_certain_win_whose_last_draws_win_is_certified(tmp_path: Path) -> None:
    path, _ = deal_table(tmp_path)
    verdict = verify(path)
    assert verdict.status == "certified", verdict.problem


def test_the_cycle_collector_is_off_while_a_table_is_checked_and_back_after(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    path, solver = table(tmp_path, POSITIONS[1])
    _, rows = read_table(path)
    monkeypatch.setattr(oddstable, "CLOCK_ROWS", 1)
    seen: list[bool] = []
    assert gc.isenabled()
    found = check_table(solver.game, rows, progress=lambda read, checked: seen.append(gc.isenabled()))
    assert found.valid, found.problem
    assert seen and not any(seen)
    assert gc.isenabled()
    assert not check_table(solver.game, rows[:1] + ["value x y"]).valid
    assert gc.isenabled()

    def failing() -> Iterator[str]:
        yield rows[0]
        raise BadInput("table", "line 3", "unreadable")

    with pytest.raises(BadInput):
        check_table(solver.game, failing())
    assert gc.isenabled()
    gc.disable()
    try:  # off before the check: left off after it
        assert check_table(solver.game, rows).valid
        assert not gc.isenabled()
    finally:
        gc.enable()
