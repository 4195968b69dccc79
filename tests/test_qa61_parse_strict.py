"""Near misses of the five notations that were read and printed back as other text (QA 61), each now either
refused in one line naming the place and the problem, or an alternative spelling docs/formats.md documents
("Reading the notation", section 1) with its canonical form.

Refused: a character outside printable ASCII (a no-break space, a thin or ideographic space, a tab, a line
break, a control character: ``str.split()`` and ``str.strip()`` took them for separators); a number with a
leading zero (``01``, ``B@03,1h``, ``b04``, scores ``00``); ``-0`` in a Card Clash move; a STAKD count of 0
(``U0``); ``?0`` and ``{-}`` in a Stratatak pile; a Strato or Card Clash hand or pile written as nothing
(``RR,``); a player named twice in STAKD's ``out:`` or Card Clash's ``won=``; an empty ``out=``; a space
inside a Stack Attack reveal (``50, 30``) or inside STAKD layers. Each refused case below (the lookalike
letter aside) was read by the code before this pass.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stratagem.core.errors import BadInput, IllegalMove, NotationError
from stratagem.loading import Position, from_notation, load
from tests.test_qa60_roundtrip_notation import RUNS, Case, _canonical_line, cases, mutated

ROOT = Path(__file__).resolve().parent.parent

STRATO = "RW(RW)RW RRR WWRWWRRWWRW 1 -"
HIDDEN = "RW(RW)RW RRW {RRWWW} 1 - play"
STAKD = "1B@3,1h;2B@0,0h/1D@2,0h;2X@4,0;1D@3,1h -,Q1 1 out:1,2"
STRATATAK = "B7B8,G1G2G3G4G5G6G7 G8 B9R1 - A2 b1"
STACKATTACK = "12/28/47/63 50.51/30.31 -/- 0/0 1"
CARDCLASH = "r2,r3/r4,r5 -,4 -,- 2 out=r6b6 won=1"


def _parsers() -> dict[str, Any]:
    from stratagem.models.cardclash.position import parse_state as cardclash
    from stratagem.models.stackattack.position import parse_state as stackattack
    from stratagem.models.stakd.notation import parse_state as stakd
    from stratagem.models.stratatak.position import parse_state as stratatak
    from stratagem.models.strato.hidden.game import parse_hidden
    from stratagem.models.strato.rules.position import parse_state as strato

    return {"strato": strato, "hidden": parse_hidden, "stakd": stakd, "stratatak": stratatak,
            "stackattack": stackattack, "cardclash": cardclash}


@pytest.mark.parametrize(("notation", "canonical"), [
    ("strato", STRATO), ("hidden", HIDDEN), ("stakd", STAKD), ("stratatak", STRATATAK),
    ("stackattack", STACKATTACK), ("cardclash", CARDCLASH)])
def test_the_positions_below_are_canonical(notation: str, canonical: str) -> None:
    from stratagem.models.cardclash.position import format_state as cardclash
    from stratagem.models.stackattack.position import format_state as stackattack
    from stratagem.models.stakd.notation import format_state as stakd
    from stratagem.models.stratatak.position import format_state as stratatak
    from stratagem.models.strato.hidden.game import format_hidden
    from stratagem.models.strato.rules.position import format_state as strato

    formats = {"strato": strato, "hidden": format_hidden, "stakd": stakd, "stratatak": stratatak,
               "stackattack": stackattack, "cardclash": cardclash}
    assert formats[notation](_parsers()[notation](canonical)) == canonical


REFUSED_POSITIONS = [
    # characters outside printable ASCII, in every notation
    ("strato", STRATO.replace(" ", "\u00a0", 1), "character 9 is U\\+00A0 NO-BREAK SPACE"),
    ("strato", STRATO.replace(" ", "\t", 1), "character 9 is U\\+0009 \\(a tab\\)"),
    ("strato", STRATO + "\n", "U\\+000A \\(a line break\\)"),
    ("strato", "\u2009" + STRATO, "character 1 is U\\+2009 THIN SPACE"),
    ("hidden", HIDDEN.replace(" ", "\u3000"), "U\\+3000 IDEOGRAPHIC SPACE"),
    ("stakd", STAKD.replace(" ", "\x1c", 1), "U\\+001C \\(a control character\\)"),
    ("stratatak", STRATATAK.replace(" ", "\u00a0"), "U\\+00A0 NO-BREAK SPACE"),
    ("stackattack", STACKATTACK.replace(" ", "\u2009"), "U\\+2009 THIN SPACE"),
    ("cardclash", CARDCLASH.replace(" ", "\r\n", 1), "U\\+000D \\(a carriage return\\)"),
    # a number with a leading zero
    ("strato", STRATO.replace(" 1 ", " 01 "), "number '01' at character 26 has a leading zero: write 1"),
    ("hidden", HIDDEN.replace(" 1 ", " 01 "), "number '01' .* leading zero"),
    ("stakd", STAKD.replace("1B@3,1h", "1B@03,1h"), "number '03' at character 4 has a leading zero: write 3"),
    ("stakd", STAKD.replace("out:1,2", "out:1,02"), "number '02' .* leading zero"),
    ("stakd", "- B2Q4T6D010U16X1 1", "number '010' .* leading zero: write 10"),
    ("stratatak", STRATATAK.replace("b1", "b01"), "number '01' .* leading zero"),
    ("stackattack", STACKATTACK.replace("0/0", "00/0"), "number '00' .* leading zero: write 0"),
    ("cardclash", CARDCLASH.replace(" 2 ", " 02 "), "number '02' .* leading zero"),
    ("cardclash", CARDCLASH.replace("won=1", "won=01"), "number '01' .* leading zero"),
    # a hand or pile written as nothing
    ("strato", "RW(RW)RW RR, WW 1 -", "hand 2 is written as nothing: write - when it holds no card"),
    ("strato", "RW(RW)RW ,RR WW 1 -", "hand 1 is written as nothing"),
    ("hidden", "RW(RW)RW RW, {RRWWW} 1 - play", "hand 2 is written as nothing"),
    ("cardclash", "r2,r3/r4,r5 ,4 -,- 2 out=r6b6 won=1", "hand 1 is written as nothing"),
    ("cardclash", "r2,r3/r4,r5 -,4 -, 2 out=r6b6 won=1", "draw pile 2 is written as nothing"),
    # counts and lists
    ("stakd", "- B2Q4T6D10U0X1 1", "U0 holds no piece; leave out a kind the hand does not hold"),
    ("stakd", STAKD.replace("out:1,2", "out:1,2,1"), "names player 1 twice"),
    ("stratatak", "B6R7,R1R5* {-} G4G9 - A2", "empty braces"),
    ("cardclash", CARDCLASH.replace("won=1", "won=1,1"), "names a winner twice"),
    ("cardclash", "r2,r3/r4,r5 -,4 -,- 2 out= won=1", "out= names no card"),
]


@pytest.mark.parametrize(("notation", "text", "message"), REFUSED_POSITIONS)
def test_a_near_miss_position_is_refused_saying_where_and_why(notation: str, text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message) as caught:
        _parsers()[notation](text)
    assert "\n" not in str(caught.value)


def test_a_lookalike_letter_is_named_by_its_code_point() -> None:
    # Refused before too, as "out='гбb6' is not a run of cards": a message quoting what looks like r and b.
    with pytest.raises(NotationError, match="character 27 is U\\+0433 CYRILLIC SMALL LETTER GHE"):
        _parsers()["cardclash"](CARDCLASH.replace("r6", "\u0433\u0431"))


def test_a_stratatak_count_of_no_unknown_card_is_refused() -> None:
    game = load(ROOT / "puzzles/stratatak/lone-star.toml")
    assert isinstance(game, Position)
    text = game.game.format_state(game.state)
    hands, pile, *rest = text.split(" ")
    with pytest.raises(NotationError, match=r"\?0 stands for no card"):
        game.game.parse_state(" ".join([hands, (pile if pile != "-" else "") + "?0", *rest]))


def test_stakd_layers_with_a_space_are_refused() -> None:
    from stratagem.models.stakd.notation import parse_layers

    assert parse_layers(" 1B@3,1h;1B@0,0h ") == parse_layers("1B@3,1h;1B@0,0h")  # spaces around: accepted
    with pytest.raises(NotationError, match="hold a space"):
        parse_layers("1B@3,1h; 1B@0,0h")


def _shipped(path: str) -> tuple[Any, Any]:
    loaded = load(ROOT / path)
    if isinstance(loaded, Position):
        return loaded.game, loaded.state
    return loaded.game, loaded.start


REFUSED_MOVES = [
    ("puzzles/strato/challenge-0.toml", "\u00a0R1L:1R2>1R1", "U\\+00A0 NO-BREAK SPACE"),
    ("puzzles/strato/challenge-0.toml", "R1L:1R2>1R1\n", "U\\+000A"),
    ("puzzles/stakd/solo-1-tiny.toml", "B@00,0h", "leading zero"),
    ("puzzles/stratatak/attacker-only-one-way.toml", "R5\u2009", "U\\+2009 THIN SPACE"),
    ("puzzles/stackattack/2p-actions-3-turns.toml", "16, 14", "holds a space"),
    ("puzzles/cardclash/defence-holds.toml", "r2@-0,0", "-0 is no coordinate"),
    ("puzzles/cardclash/defence-holds.toml", "r2@01,0", "leading zero"),
]


@pytest.mark.parametrize(("path", "text", "message"), REFUSED_MOVES)
def test_a_near_miss_move_is_refused_saying_why(path: str, text: str, message: str) -> None:
    game, state = _shipped(path)
    with pytest.raises(NotationError, match=message):
        game.parse_move(state, text)


def test_the_near_miss_moves_were_legal_moves_read_once() -> None:
    # Each refused move above is a near miss of a legal move's text, so a reader that accepted it played it.
    for path, text, _ in REFUSED_MOVES:
        game, state = _shipped(path)
        legal = {game.format_move(state, m) for m in game.legal_moves(state)}
        canonical = text.strip().replace("\u00a0", "").replace("\u2009", "").replace(", ", ",").replace("@-0,", "@0,")
        canonical = canonical.replace("@00,", "@0,").replace("@01,", "@1,")
        assert canonical in legal, (path, canonical, sorted(legal)[:10])


ACCEPTED_POSITIONS = [
    # spaces around a position and runs of spaces between its fields
    ("strato", "  RW(RW)RW  RRR WWRWWRRWWRW 1   - ", STRATO),
    # multisets in any order (hands, Stratatak's discard, Card Clash's out=), sets in any order
    ("strato", "RW(RW)RW WRR,WR WRW 1 -", "RW(RW)RW RRW,RW WRW 1 -"),
    ("hidden", "RW(RW)RW WRR {WWRRW} 1 - play", HIDDEN),
    ("stakd", "- X1U16D10T6Q4B2 1", "- B2Q4T6D10U16X1 1"),
    ("stakd", STAKD.replace("out:1,2", "out:2,1"), STAKD),
    ("stratatak", "*B4B3,G7R7 B1R2 R5R5 - A1", "B3B4*,R7G7 B1R2 R5R5 - A1"),
    ("stackattack", "12/28/47/63 51.50/31.30 -/- 0/0 1", STACKATTACK),
    ("cardclash", "r2,r3/r4,r5 -,4 -,- 2 out=b6r6 won=1", CARDCLASH),
    ("cardclash", "rXbB,bXrB/bXrB,rXbB 3,4 5,6 1 passes=2 won=2,1", "rXbB,bXrB/bXrB,rXbB 3,4 5,6 1 passes=2 won=1,2"),
    # Card Clash's optional fields at their default
    ("cardclash", "r2,r3/r4,. 5,6 B,B 1 passes=0 round=1 flags=0,0", "r2,r3/r4,. 5,6 B,B 1"),
]


@pytest.mark.parametrize(("notation", "text", "canonical"), ACCEPTED_POSITIONS)
def test_a_documented_alternative_spelling_reads_as_its_canonical_form(notation: str, text: str,
                                                                       canonical: str) -> None:
    parse = _parsers()[notation]
    assert parse(text) == parse(canonical)


@pytest.mark.parametrize(("path", "text", "canonical"), [
    ("puzzles/strato/challenge-0.toml", " R1L:1R2>1R1  ", "R1L:1R2>1R1"),
    ("puzzles/stratatak/attacker-only-one-way.toml", "R5 ", "R5"),
    ("puzzles/cardclash/defence-holds.toml", "2@1,-1", "r2@1,-1"),
])
def test_a_documented_alternative_move_spelling_reads_as_its_canonical_form(path: str, text: str,
                                                                            canonical: str) -> None:
    game, state = _shipped(path)
    assert game.format_move(state, game.parse_move(state, text)) == canonical


def test_a_position_file_with_a_leading_zero_is_bad_input_at_its_key(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from stratagem.cli.main import run

    path = tmp_path / "zero.toml"
    path.write_text('game = "stakd"\n[position]\nstate = "- B2Q4T6D10U16X1 01"\n', encoding="utf-8")
    assert run(["show", str(path)]) == 2  # was shown, as player 1 to move
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "position.state" in err[0] and "number '01'" in err[0] and "leading zero" in err[0], err


def test_a_strato_position_deal_with_a_no_break_space_is_bad_input(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from stratagem.cli.main import run

    text = (ROOT / "puzzles/strato/challenge-0.toml").read_text(encoding="utf-8")
    path = tmp_path / "nbsp.toml"
    path.write_text(text + '\n[[deals]]\nname = "nbsp"\nposition = "RW(RW)RW\u00a0RRR WWRWWRRWWRW 1 -"\n',
                    encoding="utf-8")
    assert run(["show", str(path), "--deal", "nbsp"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "U+00A0 NO-BREAK SPACE" in err[0] and str(path) in err[0], err


def test_from_notation_names_the_character() -> None:
    with pytest.raises(BadInput, match="<notation>: start: character 9 is U\\+00A0"):
        from_notation("strato", STRATO.replace(" ", "\u00a0", 1), json.loads(json.dumps(_strato_setup())))


def _strato_setup() -> dict[str, Any]:
    loaded = load(ROOT / "puzzles/strato/challenge-0.toml")
    assert not isinstance(loaded, Position)
    return dict(loaded.setup())


# --- the policy as a property over near misses of values the library makes ---------------------------------


def _accepted_is_plain(text: str) -> bool:
    """Text a notation accepts: printable ASCII, and no number with a leading zero."""
    import re

    return all(" " <= ch <= "~" for ch in text) and re.search(r"(?<![0-9])0[0-9]", text) is None


@RUNS
@given(st.data(), cases())
def test_an_accepted_near_miss_position_is_printable_ascii_without_leading_zeros(data: st.DataObject,
                                                                                 case: Case) -> None:
    text = data.draw(mutated(case.game.format_state(case.state)))
    try:
        state = case.game.parse_state(text)
    except NotationError:
        return
    assert _accepted_is_plain(text), (case.where, text)
    assert _canonical_line(case.game.format_state(state))


@RUNS
@given(st.data(), cases())
def test_an_accepted_near_miss_move_is_printable_ascii_without_leading_zeros(data: st.DataObject,
                                                                             case: Case) -> None:
    if case.game.is_terminal(case.state):
        return
    chance = case.game.chance_outcomes(case.state)
    options = [o for o, _ in chance] if chance else list(case.game.legal_moves(case.state))
    move = options[data.draw(st.integers(0, len(options) - 1))]
    text = data.draw(mutated(case.game.format_move(case.state, move)))
    try:
        case.game.parse_move(case.state, text)
    except (NotationError, IllegalMove):
        return
    assert _accepted_is_plain(text), (case.where, text)


def test_a_stack_attack_decision_with_a_space_is_told_how_a_decision_is_written() -> None:
    """``T 2`` was refused as a reveal ("a reveal joins its cards with commas alone"), which it is not
    (stop 62); a reveal with a space still gets the reveal's wording."""
    from stratagem.models.stackattack.notation import parse_move

    with pytest.raises(NotationError, match="a decision is its letter and number alone, e.g. T2"):
        parse_move("T 2")
    with pytest.raises(NotationError, match="a reveal joins its cards with commas alone"):
        parse_move("16, 14")
    assert parse_move("T2") == parse_move(" T2 ")
