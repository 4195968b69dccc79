"""Property-based round trips of every game's position and move notation (QA 60), on values the library
makes: positions reached by random legal play (chance outcomes included) from every shipped puzzle and
from fresh games of every player count, and Strato's seeded deals.

- ``parse_state(format_state(s)) == s`` and the text is canonical (one ASCII line, single spaces), and
  ``from_notation`` with the game's setup sent through JSON gives back the same game and position;
- every legal move and chance outcome prints to its own text, which parses back to it;
- near-miss text (a character or a field deleted, doubled or swapped, a number made -1, 0, huge, a digit
  of another script, a lookalike letter, a byte-order mark, CRLF, spaces) is refused with the notation's
  error (NotationError, IllegalMove; BadInput from ``from_notation``) or read as a position or a legal
  move whose text is a fixed point. A digit of another script is always refused: '３' or '٣' was read
  as 3 by STAKD's moves, pieces and hands and Card Clash's moves, and printed back as other text. A number
  of thousands of digits is a notation error: int()'s ValueError came through every notation. Card Clash's
  parse_move refuses a move that is not legal, as every other game's does.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stratagem.core.errors import BadInput, IllegalMove, NotationError
from stratagem.loading import Position, from_notation, game_module, load

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = tuple(sorted(str(p.relative_to(ROOT)) for p in (ROOT / "puzzles").glob("*/*.toml")))
#: Fresh games from a record's setup alone, every player count the rules take.
FRESH: tuple[tuple[str, str], ...] = (
    *(("stakd", json.dumps({"players": n})) for n in range(1, 7)),
    *(("stackattack", json.dumps({"players": n})) for n in range(2, 7)),
    ("stackattack", json.dumps({"players": 3, "options": {"actions": True}})),
    *(("cardclash", json.dumps({"players": n})) for n in range(2, 6)),
    ("cardclash", json.dumps({"players": 2, "strategic": True})),
    ("cardclash", json.dumps({"players": 3, "width": 4, "height": 4, "rounds": 2, "seed": 5})),
    ("stackattack", json.dumps({"players": 3, "options": {"scope": "game", "cards": 40, "actions": False}})),
    ("stakd", json.dumps({"players": 2, "width": 30, "height": 9})),
    ("stratatak", json.dumps({})),
    ("stratatak", json.dumps({"battle_limit": 3})),
    ("stratatak", json.dumps({"star_mode": "addon", "max_count": 5, "copies": 1, "stars": 2, "hand_size": 3})),
    ("stratatak", json.dumps({"max_count": 3, "copies": 1, "stars": 1, "hand_size": 2, "battle_limit": 5})),
)
STRATO = tuple(p for p in SHIPPED if p.startswith("puzzles/strato/"))

RUNS = settings(deadline=None, derandomize=True, max_examples=300,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@dataclass(frozen=True)
class Case:
    """A position reached by play: the game's name, rules, setup (as a record holds it) and state."""

    where: str
    game_name: str
    game: Any
    setup: dict[str, Any]
    state: Any


@functools.cache
def _shipped(path: str) -> tuple[str, Any, Any, str]:
    loaded = load(ROOT / path)
    if isinstance(loaded, Position):
        return loaded.game_name, loaded.game, loaded.state, json.dumps(loaded.game.setup())
    return "strato", loaded.game, loaded.start, json.dumps(loaded.setup())


@functools.cache
def _fresh(game_name: str, setup: str) -> tuple[str, Any, Any, str]:
    game = game_module(game_name, "puzzle", "<test>").game_from_setup(json.loads(setup), "<test>")
    return game_name, game, game.initial_state(), json.dumps(game.setup())


@functools.cache
def _seeded(path: str, seed: int, players: int) -> tuple[str, Any, Any, str]:
    deal = load(ROOT / path, deal=seed, players=players)
    assert not isinstance(deal, Position)
    return "strato", deal.game, deal.start, json.dumps(deal.setup())


def _options(game: Any, state: Any) -> list[Any]:
    """The chance outcomes at a chance node, else the legal moves (a simultaneous turn's joint moves)."""
    chance = game.chance_outcomes(state)
    return [outcome for outcome, _ in chance] if chance else list(game.legal_moves(state))


@st.composite
def cases(draw: st.DrawFn) -> Case:
    """A position of any game, reached by up to 40 random moves from a shipped, fresh or seeded start."""
    kind = draw(st.sampled_from(("shipped", "fresh", "seeded")))
    if kind == "shipped":
        where = draw(st.sampled_from(SHIPPED))
        game_name, game, state, setup = _shipped(where)
    elif kind == "fresh":
        name, raw = draw(st.sampled_from(FRESH))
        where = f"{name} {raw}"
        game_name, game, state, setup = _fresh(name, raw)
    else:
        path, seed, players = draw(st.sampled_from(STRATO)), draw(st.integers(0, 2**31)), draw(st.integers(1, 4))
        where = f"{path} seed {seed} for {players}"
        game_name, game, state, setup = _seeded(path, seed, players)
    for choice in draw(st.lists(st.integers(0, 2**16), max_size=40)):
        if game.is_terminal(state):
            break
        options = _options(game, state)
        state = game.apply(state, options[choice % len(options)])
    return Case(where, game_name, game, json.loads(setup), state)


def _canonical_line(text: str) -> bool:
    """One line of printable ASCII, fields separated by single spaces."""
    return text.isascii() and text.isprintable() and text == " ".join(text.split()) and text != ""


# --- value -> text -> value ----------------------------------------------------------------------------------


@RUNS
@given(cases())
def test_a_position_prints_to_canonical_text_that_reads_back(case: Case) -> None:
    text = case.game.format_state(case.state)
    assert _canonical_line(text), (case.where, text)
    assert case.game.format_state(case.state) == text  # the same value prints to the same text
    back = case.game.parse_state(text)
    assert back == case.state, (case.where, text)
    assert case.game.format_state(back) == text


@RUNS
@given(cases())
def test_from_notation_with_the_setup_a_record_holds_gives_the_same_game_and_position(case: Case) -> None:
    text = case.game.format_state(case.state)
    setup = json.loads(json.dumps(case.setup, sort_keys=True))  # as a record stores and reads it
    position = from_notation(case.game_name, text, setup)
    assert position.state == case.state, (case.where, text)
    assert position.game.format_state(position.state) == text
    if case.game_name == "strato":
        again = {"challenge": position.game.challenge.to_data(), "options": position.game.options.to_data()}
    else:
        again = position.game.setup()
    assert again == case.setup, case.where


@RUNS
@given(cases())
def test_every_legal_move_and_chance_outcome_has_its_own_text_that_reads_back(case: Case) -> None:
    if case.game.is_terminal(case.state):
        return
    options = _options(case.game, case.state)
    texts = [case.game.format_move(case.state, move) for move in options]
    assert len(set(texts)) == len(texts), (case.where, texts)
    for move, text in zip(options, texts, strict=True):
        assert text.isascii() and text.isprintable() and " " not in text, (case.where, text)
        assert case.game.parse_move(case.state, text) == move, (case.where, case.game.format_state(case.state), text)


# --- near-miss text ----------------------------------------------------------------------------------------

#: Characters that look like (or are read like) ASCII ones: digits of other scripts, Cyrillic and
#: full-width letters, other dashes and commas, spaces that are not ASCII.
LOOKALIKES = ["３", "٣", "²", "１", "０", "߃", "С", "В", "Т", "Ｒ", "−", "–", "，", "＠",
              "\u00a0", "\u2009", "\u0301", "\u200b"]
_NUMBER = re.compile(r"[0-9]+")


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """``text`` with one near-miss edit."""
    kind = draw(st.sampled_from(("delete", "double", "swap", "field-delete", "field-double", "field-swap",
                                 "number", "lookalike", "frame", "cut", "insert", "lower")))
    at = draw(st.integers(0, max(len(text) - 1, 0)))
    fields = text.split(" ")
    field = draw(st.integers(0, len(fields) - 1))
    if kind == "delete":
        return text[:at] + text[at + 1:]
    if kind == "double":
        return text[:at + 1] + text[at:]
    if kind == "swap" and len(text) > 1:
        at = min(at, len(text) - 2)
        return text[:at] + text[at + 1] + text[at] + text[at + 2:]
    if kind == "field-delete":
        return " ".join(fields[:field] + fields[field + 1:])
    if kind == "field-double":
        return " ".join(fields[:field + 1] + fields[field:])
    if kind == "field-swap" and len(fields) > 1:
        field = min(field, len(fields) - 2)
        return " ".join([*fields[:field], fields[field + 1], fields[field], *fields[field + 2:]])
    if kind == "number":
        numbers = list(_NUMBER.finditer(text))
        if numbers:
            match = draw(st.sampled_from(numbers))
            new = draw(st.sampled_from(("-1", "0", "00", "1" + "0" * 30, "9" * 5000, "+1", "1_0", "1.0", "1e3")))
            return text[:match.start()] + new + text[match.end():]
    if kind == "lookalike":
        return text[:at] + draw(st.sampled_from(LOOKALIKES)) + text[at + 1:]
    if kind == "frame":
        frame = draw(st.sampled_from(("\ufeff{}", "{}\r\n", "{}\r", "{}  ", "\t{}", "{}\x00", "{}\n{}")))
        return frame.format(text, text)
    if kind == "cut":
        return text[:at]
    if kind == "insert":
        return text[:at] + draw(st.sampled_from("!@#$%^&*()[]{}<>/:;,.-+=_|?~'\"\\")) + text[at:]
    return text.lower()


def _foreign_digit(text: str) -> bool:
    return any(ch.isdigit() and not ch.isascii() for ch in text)


@RUNS
@given(st.data(), cases())
def test_near_miss_position_text_is_refused_or_read_as_a_position_that_prints_canonically(data: st.DataObject,
                                                                                           case: Case) -> None:
    text = data.draw(mutated(case.game.format_state(case.state)))
    try:
        state = case.game.parse_state(text)
    except NotationError:
        pass
    else:
        assert not _foreign_digit(text), (case.where, text)
        again = case.game.format_state(state)
        assert _canonical_line(again) and case.game.parse_state(again) == state, (case.where, text, again)
    try:
        position = from_notation(case.game_name, text, case.setup)
    except BadInput as exc:
        assert str(exc).startswith("<notation>: ") and "\n" not in str(exc), str(exc)
    else:
        assert not _foreign_digit(text), (case.where, text)
        assert position.game.parse_state(position.game.format_state(position.state)) == position.state


@RUNS
@given(st.data(), cases())
def test_near_miss_move_text_is_refused_or_read_as_a_legal_move(data: st.DataObject, case: Case) -> None:
    if case.game.is_terminal(case.state):
        return
    options = _options(case.game, case.state)
    move = options[data.draw(st.integers(0, len(options) - 1))]
    text = data.draw(mutated(case.game.format_move(case.state, move)))
    try:
        read = case.game.parse_move(case.state, text)
    except (NotationError, IllegalMove) as exc:
        assert str(exc) and "\n" not in str(exc), (case.where, text)
        return
    assert not _foreign_digit(text), (case.where, text)
    assert read in options, (case.where, case.game.format_state(case.state), text)
    again = case.game.format_move(case.state, read)
    assert case.game.parse_move(case.state, again) == read


# --- regressions --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["D@３,4h", "D@3,٣h", "U@１1,2", "X@1０,5"])
def test_a_stakd_move_in_other_digits_is_a_notation_error(text: str) -> None:
    from stratagem.models.stakd.notation import parse_move

    with pytest.raises(NotationError, match="not of the form KIND@X,Y|printable ASCII"):
        parse_move(text)


@pytest.mark.parametrize("text", ["１B@3,1h B1 1", "1B@3,٣h B1 1", "1B@3,1h B٣ 1", "1B@3,1h B1U１ 1"])
def test_a_stakd_position_in_other_digits_is_a_notation_error(text: str) -> None:
    from stratagem.models.stakd.notation import parse_state

    with pytest.raises(NotationError):
        parse_state(text)


@pytest.mark.parametrize("text", ["r6@٣,0", "r6@0,-１", "6@０,0"])
def test_a_card_clash_move_in_other_digits_is_a_notation_error(text: str) -> None:
    from stratagem.models.cardclash.position import parse_move

    with pytest.raises(NotationError, match="not CARD@X,Y|printable ASCII"):
        parse_move("r", text)


BIG = "9" * 5000


@pytest.mark.parametrize(("game_name", "kind", "text"), [
    ("strato", "state", f"RW(RW)RW RRR WWRWWRRWWRW {BIG} -"),
    ("stakd", "state", f"1B@{BIG},3h;2B@10,2h U2X1,D1U2 1"),
    ("stakd", "move", f"U@{BIG},2"),
    ("cardclash", "state", f".,b1,b3,rB/bX,b5r2,r6,./.,.,r2,. 23,22 3,3 {BIG}"),
    ("cardclash", "move", f"r2@1,-{BIG}"),
    ("stackattack", "state", f"{BIG}.7.9.12/20.22.23/33.35.38/44.45.47.50 16.32.52/14.40.51 1.2.5/6.10 0/0 1"),
    ("stackattack", "move", f"{BIG},14"),
    ("stackattack", "move", f"D{BIG}"),
    ("stratatak", "state", f"B{BIG}R5G3,G2 R9B9 G8 - A1 b4"),
    ("stratatak", "move", f"B{BIG}"),
])
def test_a_number_of_thousands_of_digits_is_a_notation_error(game_name: str, kind: str, text: str) -> None:
    # int() refuses more than 4,300 digits with a ValueError, which every notation let through
    # (odds --position ended in an internal error).
    source = {"strato": "strato/challenge-0", "stakd": "stakd/endgame-2p-bomber",
              "cardclash": "cardclash/defence-holds", "stackattack": "stackattack/2p-actions-3-turns",
              "stratatak": "stratatak/attacker-only-one-way"}[game_name]
    game_name_, game, state, setup = _shipped(f"puzzles/{source}.toml")
    with pytest.raises(NotationError, match="a number of 5,000 digits"):
        if kind == "state":
            game.parse_state(text)
        else:
            game.parse_move(state, text)
    if kind == "state":
        with pytest.raises(BadInput, match="a number of 5,000 digits"):
            from_notation(game_name_, text, json.loads(setup))


def test_a_hidden_position_of_thousands_of_digits_is_a_notation_error() -> None:
    from stratagem.models.strato.hidden.game import parse_hidden

    with pytest.raises(NotationError, match="a number of 5,000 digits"):
        parse_hidden(f"RW(RW)RW RRR {{RRRRWWWWWWW}} {BIG} - play")


def test_a_card_clash_move_that_is_not_legal_is_refused_when_read() -> None:
    _, game, state, _ = _shipped("puzzles/cardclash/defence-holds.toml")
    with pytest.raises(IllegalMove, match="may not be laid at 11,-1"):
        game.parse_move(state, "r2@11,-1")  # read as a move before, as no other game's parse_move reads one
    with pytest.raises(IllegalMove, match="may not pass"):
        game.parse_move(state, "pass")


def test_odds_of_a_position_with_a_huge_number_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    from stratagem.cli.main import run

    assert run(["odds", str(ROOT / "puzzles/strato/challenge-0.toml"), "--position",
                f"RW(RW)RW RRR WWRWWRRWWRW {BIG} -"]) == 2  # was an internal error, exit 70
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "a number of 5,000 digits" in err[0] and len(err[0]) < 300, err
