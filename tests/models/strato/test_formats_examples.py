"""docs/formats.md's Strato examples (sections 2 to 4), read from the page and run through the code.

The page says every example on it was run through the code and that tests read the notation examples
from it; the other games' sections were (``tests/models/*/test_notation.py``), Strato's were not. So
here: every ``Before | Move | After`` table of section 2 is played by the rules engine (under the options
its ``<!-- check: OPTION -->`` marker names, else the page's defaults: a card limit of 6, a goal out of
reach), the positions of 2.4 print back as shown, the mistakes of 2.5 give the messages shown, the whole
game of 2.6 replays from its deal, the complete puzzle of 3.6 deals the starts its table shows, and the
line, proof and solve examples of 4.2 to 4.4 verify and agree with what ``solve`` prints today.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from docsection import FormatsSection

import stratagem
from stratagem.loading import StratoDeal
from stratagem.models.strato.rules.challenge import Options
from stratagem.models.strato.rules.notation import format_move, parse_move
from stratagem.models.strato.rules.position import format_state, parse_row, parse_state
from stratagem.models.strato.rules.turns import StratoGame

from .support import make_challenge

NOTATION = FormatsSection("## 2. Strato notation")
PUZZLE_FILES = FormatsSection("## 3. Strato puzzle files")
RECORDS = FormatsSection("## 4. Records")
REPO = Path(__file__).resolve().parents[3]


def cells(line: str) -> list[str]:
    """The cells of a markdown table row, their backquotes taken off."""
    return [cell.strip().strip("`") for cell in line.strip().strip("|").split("|")]


def tables(text: str, header: str) -> list[tuple[str, list[list[str]]]]:
    """Each table whose header row starts with ``header``: the HTML comment just above it (or "") and its
    body rows as cells."""
    lines = text.split("\n")
    found = []
    for i, line in enumerate(lines):
        if line.startswith(header):
            marker = lines[i - 1] if lines[i - 1].startswith("<!--") else ""
            body = []
            for row in lines[i + 2 :]:
                if not row.startswith("|"):
                    break
                body.append(cells(row))
            found.append((marker, body))
    return found


def sandbox(text: str, **options: bool) -> tuple[StratoGame, Any]:
    """The game section 2.5's examples are played under: the position's tornadoes, a card limit of 6, a
    goal none of the positions meets, and ``options``."""
    state = parse_state(text)
    pairs = tuple(row.left_tornado + row.right_tornado for row in state.rows)
    return StratoGame(make_challenge(weathers="".join(pairs), pairs=pairs, limit=6), Options(**options), state), state


def json_blocks(text: str, count: int) -> list[dict[str, Any]]:
    """The first ``count`` ```` ```json ```` blocks of ``text`` (later ones abridge with ``{...}``)."""
    return [json.loads(block) for block in re.findall(r"^```json\n(.*?)^```$", text, flags=re.M | re.S)[:count]]


MOVE_ROWS = [(marker, row) for marker, body in tables(NOTATION.read_text(), "| Before | Move |") for row in body]


def test_the_move_tables_are_found() -> None:
    assert len(MOVE_ROWS) >= 45
    assert {marker for marker, _ in MOVE_ROWS} == {"", "<!-- check: wind_crosses_tornado -->",
                                                   "<!-- check: strict_effect -->"}


@pytest.mark.parametrize(("marker", "row"), MOVE_ROWS, ids=[f"{row[0]} {row[1]}" for _, row in MOVE_ROWS])
def test_every_example_move_leads_where_the_page_says(marker: str, row: list[str]) -> None:
    option = re.fullmatch(r"<!-- check: (\w+) -->", marker)
    game, state = sandbox(row[0], **({option.group(1): True} if option else {}))
    before, move, after = row[0], row[1], row[-1]
    assert move in [format_move(m) for m in game.legal_moves(state)], (before, move)
    assert format_state(game.apply(state, parse_move(move))) == after


def test_the_rows_and_positions_of_2_2_and_2_4_read_as_the_page_says() -> None:
    text = NOTATION.read_text()
    (_, rows), = tables(text, "| Row | Left tornado |")
    for written, left_tornado, right_tornado, left, right in rows:
        halves = ["" if half == "(empty)" else half.replace(" ", "") for half in (left, right)]
        assert parse_row(written) == (left_tornado, right_tornado, *halves)
    (_, positions), = tables(text, "| Position | What it says |")
    assert len(positions) == 6
    for position, _ in positions:
        assert format_state(parse_state(position)) == position
    (_, reprinted), = tables(text, "| Written | Read and printed back as |")
    for written, printed in reprinted:
        assert format_state(parse_state(written)) == printed


def test_the_mistakes_of_2_5_give_the_messages_shown() -> None:
    (_, mistakes), = tables(NOTATION.read_text(), "| Move | In position | Message |")
    assert len(mistakes) == 9
    for move, position, message in mistakes:
        with pytest.raises(ValueError) as raised:
            if position == "(any)":
                parse_move(move)
            else:
                game, state = sandbox(position)
                game.apply(state, parse_move(move))
        assert str(raised.value) == message


def test_the_claims_beside_the_tables_hold() -> None:
    text = NOTATION.read_text()
    assert "In the first position `T1L:1R2<>2L2` is not legal" in text
    game, state = sandbox("SF(RW)CT/TW(ST)R RST CWF 1 -")
    assert "T1L:1R2<>2L2" not in [format_move(m) for m in game.legal_moves(state)]
    assert "the only legal moves are\nthen the Redraws `!S1L:1R1` and `!S1R:1R1`" in text
    game, state = sandbox("(RW)R FTW SCT 1 -", strict_effect=True)
    assert [format_move(m) for m in game.legal_moves(state)] == ["!S1L:1R1", "!S1R:1R1"]
    with pytest.raises(ValueError, match="^F1L: with strict_effect this card can change nothing here$"):
        game.apply(state, parse_move("F1L"))


def test_the_whole_game_of_2_6_replays_from_its_deal() -> None:
    (marker, turns), = tables(NOTATION.read_text(), "| Turn | Move | Position after the turn |")
    puzzle, deal = re.fullmatch(r"<!-- check: (\S+) (\S+) -->", marker).groups()  # type: ignore[union-attr]
    loaded = stratagem.load(REPO / puzzle, deal=deal)
    assert isinstance(loaded, StratoDeal)
    state = loaded.start
    assert format_state(state) == turns[0][2]
    for _, move, after in turns[1:]:
        state = loaded.game.apply(state, parse_move(move))
        assert format_state(state) == after
    assert loaded.game.is_terminal(state) and turns[-1][2].endswith(" won")


def test_the_complete_puzzle_of_3_6_deals_the_starts_shown(tmp_path: Path) -> None:
    text = PUZZLE_FILES.read_text()
    example = next(block for block in re.findall(r"^```toml\n(.*?)^```$", text, flags=re.M | re.S)
                   if block.startswith("# A made-up two-row challenge"))
    path = tmp_path / "example.toml"
    path.write_text(example, encoding="utf-8")
    (_, starts), = tables(text, "| Deal | Start position |")
    first = stratagem.load(path)
    assert isinstance(first, StratoDeal)
    assert [name for name, _ in starts] == [deal.name for deal in first.puzzle.deals]
    for name, start in starts:
        loaded = stratagem.load(path, deal=name)
        assert isinstance(loaded, StratoDeal)
        assert loaded.game.format_state(loaded.start) == start


def test_the_line_proof_and_solve_examples_of_4_verify_and_match_solve_today(tmp_path: Path) -> None:
    line, proof, solve = json_blocks(RECORDS.read_text(), 3)
    assert (line["format"], proof["format"], solve["format"]) == (
        "stratagem/line@1", "stratagem/proof@1", "stratagem/solve@1")
    assert stratagem.verify(line, source="line.json").valid
    checked = stratagem.verify(proof, source="proof.json")
    assert [(c.claim, c.status) for c in checked.claims] == [
        ("solvable", "certified"), ("length", "certified"), ("optimal", "not-certified")]
    assert stratagem.verify(proof, recheck=True, source="proof.json").valid
    # The three are one run: challenge 0's solo-2 by A*, the proof's line and evidence the solve's.
    assert proof["line"] == line and solve["line"] == line["moves"] and solve["start"] == line["start"]
    stats = solve["stats"]
    assert (proof["evidence"]["nodes"], proof["evidence"]["states_per_depth"]) == (
        stats["nodes"], stats["states_per_depth"])
    today = stratagem.solve(REPO / solve["puzzle"], solve["deal"], method=solve["method"])
    printed = today.to_json()
    shown = {key: value for key, value in solve.items() if key not in ("provenance", "stats", "puzzle")}
    assert {key: printed[key] for key in shown} == shown
    assert set(printed) == set(solve) and set(printed["stats"]) == set(stats)
    assert (printed["stats"]["nodes"], printed["stats"]["states_per_depth"]) == (
        stats["nodes"], stats["states_per_depth"])
    assert today.write_proof(tmp_path / "proof.json")
    written = json.loads((tmp_path / "proof.json").read_text(encoding="utf-8"))
    assert {key: value for key, value in written.items() if key != "provenance"} == proof
