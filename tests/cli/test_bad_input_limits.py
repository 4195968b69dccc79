"""Input limits, unwritable outputs, interruptions and crashes: each is one line on stderr and its own
exit code (2 bad input, 130 interrupted, 70 internal error), never a traceback, never a half-written file.

The limits themselves are described in docs/formats.md, "Input limits".
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from conftest import PUZZLES, ROOT, assert_bad_input

from stratagem.cli.exitcodes import INTERNAL_ERROR, INTERRUPTED
from stratagem.core.errors import BadInput
from stratagem.core.io import MAX_NESTING, load_json, load_toml
from stratagem.core.outputs import check_writable, write_atomic
from stratagem.solvers.dimacs import write_text_maybe_gz

GOOD = (PUZZLES / "challenge-0.toml").read_text()
LONE_STAR = ROOT / "puzzles" / "stratatak" / "lone-star.toml"


def _file(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


# -- numbers and nesting the parsers cannot take --------------------------------------------------------


def test_a_5000_digit_integer_in_toml(cli, tmp_path: Path) -> None:
    text = GOOD.replace("limit = 6", "limit = " + "9" * 5000)
    line = next(i for i, row in enumerate(text.splitlines(), start=1) if "99999" in row)
    path = _file(tmp_path, "big.toml", text)
    assert_bad_input(cli("solve", path), "big.toml", f"line {line}:", "digits", "64-bit")


def test_a_5000_digit_integer_in_json(cli, tmp_path: Path) -> None:
    path = _file(tmp_path, "big.json", '{\n"format": ' + "9" * 5000 + "}")
    assert_bad_input(cli("verify", path), "big.json", "line 2", "digits")


def test_an_integer_beyond_64_bits(cli, tmp_path: Path) -> None:
    path = _file(tmp_path, "p.toml", GOOD.replace("seed = 1", "seed = 9223372036854775808", 1))
    assert_bad_input(cli("show", path), "p.toml", "deals[0].seed", "64-bit")


def test_the_largest_64_bit_seed_is_accepted(cli, tmp_path: Path) -> None:
    path = _file(tmp_path, "p.toml", GOOD.replace("seed = 1", "seed = 9223372036854775807", 1))
    assert cli("show", path).code == 0


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_a_record_with_a_number_that_is_not_finite(cli, tmp_path: Path, number: str) -> None:
    path = _file(tmp_path, "r.json", '{"format": "stratagem/prooftree@1", "x": ' + number + "}")
    assert_bad_input(cli("verify", path), "r.json", number, "not a finite number")


def test_a_proof_tree_value_that_is_no_fraction_makes_the_proof_invalid(cli, tmp_path: Path) -> None:
    """'0/0' crashed verify (ZeroDivisionError; found by the CLI fuzz); now the proof is simply invalid."""
    proof = tmp_path / "p.json"
    assert cli("analyze", str(LONE_STAR), "--proof", str(proof)).code == 0
    record = json.loads(proof.read_text())
    record["nodes"][1]["value"] = "0/0"
    proof.write_text(json.dumps(record))
    result = cli("verify", str(proof))
    assert result.code == 1, result.err
    assert "'0/0' is not a number" in result.err + result.out
    assert "Traceback" not in result.err and "internal error" not in result.err


@pytest.mark.parametrize("kind", ["toml", "json"])
def test_200000_deep_nesting(cli, tmp_path: Path, kind: str) -> None:
    deep = "[" * 200_000 + "]" * 200_000
    text = f"x = {deep}\n" if kind == "toml" else deep
    path = _file(tmp_path, f"deep.{kind}", text)
    assert_bad_input(cli("show" if kind == "toml" else "verify", path), f"deep.{kind}", "nested more than")


def test_nesting_just_over_the_limit_names_the_place(tmp_path: Path) -> None:
    """Deep enough to break the limit, not deep enough for the parser's recursion: the walk catches it."""
    text = "{\"a\": " + "[" * MAX_NESTING + "]" * MAX_NESTING + "}"
    with pytest.raises(BadInput, match="nested more than") as caught:
        load_json(_file(tmp_path, "r.json", text))
    assert caught.value.place.startswith("a[0]")
    ok = "{\"a\": " + "[" * (MAX_NESTING - 2) + "]" * (MAX_NESTING - 2) + "}"
    assert load_json(_file(tmp_path, "ok.json", ok))["a"] == json.loads(ok)["a"]


def test_a_long_digit_run_in_a_notation_string(cli, tmp_path: Path) -> None:
    text = f'game = "stakd"\n[position]\nstate = "- B2U{"9" * 5000} 1"\n'
    assert_bad_input(cli("show", _file(tmp_path, "s.toml", text)), "s.toml", "position.state", "digits in a row")


def test_a_huge_table_key(cli, tmp_path: Path) -> None:
    text = 'game = "stackattack"\n[options.penalties]\n"' + "5" * 5000 + '" = 8\n[position]\nseed = 1\nplayers = 2\n'
    assert_bad_input(cli("show", _file(tmp_path, "k.toml", text)), "k.toml", "options.penalties:", "a key of 5000")


def test_a_file_over_the_size_limit(cli, tmp_path: Path) -> None:
    path = _file(tmp_path, "huge.toml", GOOD + "#" * (1 << 20) + "\n")
    assert_bad_input(cli("show", path), "huge.toml", "larger than the 1 MiB")


def test_a_file_that_is_not_utf8(cli, tmp_path: Path) -> None:
    path = tmp_path / "latin.toml"
    path.write_bytes(GOOD.encode() + b"# caf\xe9\n")
    assert_bad_input(cli("show", str(path)), "latin.toml", "line ", "not UTF-8")


def test_a_directory_given_as_a_puzzle(cli, tmp_path: Path) -> None:
    assert_bad_input(cli("verify", str(tmp_path)), str(tmp_path), "directory")


# -- the games' own caps ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text", "fragments"),
    [
        ("cardclash", 'game = "cardclash"\n[options]\nwidth = 100000000\nheight = 100000000\n[position]\nseed = 1\n',
         ("options.width", "at most 102")),
        ("stakd", 'game = "stakd"\n[position]\npieces = "B2U99999999"\n', ("position.pieces", "at most 32")),
        ("stakd-state", 'game = "stakd"\n[position]\nstate = "- B2U33 1"\n', ("position.state", "at most 32")),
        ("stackattack", 'game = "stackattack"\n[options]\ncards = 100000000\n[position]\nseed = 1\nplayers = 2\n',
         ("options.cards", "at most 1000")),
        ("stratatak", 'game = "stratatak"\n[options]\ncopies = 100000000\n[position]\nseed = 1\n',
         ("options.copies", "at most 16")),
        ("stratatak-limit", 'game = "stratatak"\n[options]\nbattle_limit = 10001\n[position]\nseed = 1\n',
         ("options.battle_limit", "at most 10000")),
    ],
)
def test_game_caps(cli, tmp_path: Path, name: str, text: str, fragments: tuple[str, ...]) -> None:
    assert_bad_input(cli("show", _file(tmp_path, f"{name}.toml", text)), f"{name}.toml", *fragments)


def test_caps_hold_in_a_record_setup_too(cli, tmp_path: Path) -> None:
    """A record rebuilds its game from ``setup`` through the same loader, so the same caps apply."""
    record = {"format": "stratagem/line@1", "game": "stackattack", "start": "x", "moves": [],
              "setup": {"players": 2, "options": {"cards": 100_000_000}}}
    path = _file(tmp_path, "line.json", json.dumps(record))
    assert_bad_input(cli("show", path), "line.json", "setup.options.cards", "at most 1000")


def test_a_seed_too_long_for_64_bits_on_the_command_line(cli) -> None:
    result = cli("show", str(PUZZLES / "challenge-0.toml"), "--deal", "9" * 5000)
    assert_bad_input(result, "--deal", "2^63-1")


def test_shipped_puzzles_are_far_inside_the_limits() -> None:
    """The limits are generous: every shipped file loads, and is well under the size and nesting caps."""
    for path in sorted((ROOT / "puzzles").glob("*/*.toml")):
        assert path.stat().st_size < 4096, path
        load_toml(path)


def test_a_strato_command_on_another_games_file_says_what_it_takes(cli) -> None:
    result = cli("reach", str(LONE_STAR))
    assert_bad_input(result, "lone-star.toml", "takes Strato puzzles", "'stratatak'", "analyze")
    assert "not supported" not in result.err


# -- output paths: refused before any work ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (("solve", "{puzzle}", "--proof", "/proc/x.json"), ("/proc/x.json", "--proof", "cannot create a file")),
        (("solve", "{puzzle}", "--proof", ""), ("--proof", "empty file name")),
        (("check", "{puzzle}", "--proof", "{tmp}/missing/p.json"), ("--proof", "does not exist")),
        (("export", "{puzzle}", "--horizon", "2", "--out", "{tmp}/missing/x.cnf"), ("--out", "does not exist")),
        (("export", "{puzzle}", "--format", "pddl", "--out", "/proc/p.pddl"), ("--out", "cannot create a file")),
        (("reach", "{puzzle}", "--export", "dot", "--out", "/dev/null"), ("/dev/null", "not a regular file")),
        (("generate", "strato", "--challenge", "{puzzle}", "--count", "1", "--out", "{tmp}"),
         ("--out", "directory")),
        (("bench", "stakd", "--out", "{puzzle}"), ("--out", "is a file")),
        (("bench", "stakd", "--out", "/proc/results"), ("--out", "cannot create a file in '/proc'")),
    ],
)
def test_unwritable_outputs(cli, tmp_path: Path, args: tuple[str, ...], fragments: tuple[str, ...]) -> None:
    filled = [a.format(puzzle=PUZZLES / "challenge-0.toml", tmp=tmp_path) for a in args]
    before = sorted(p.name for p in tmp_path.iterdir())
    assert_bad_input(cli(*filled), *fragments)
    assert sorted(p.name for p in tmp_path.iterdir()) == before, "nothing may be left behind"


def test_analyze_checks_its_proof_path_before_reading_the_position(cli, tmp_path: Path) -> None:
    """The proof path is refused first: the position file does not even exist, and that is not reported."""
    result = cli("analyze", str(tmp_path / "no-such-position.toml"), "--proof", "/proc/p.json")
    assert_bad_input(result, "/proc/p.json", "--proof")


def test_check_writable_accepts_a_new_file_and_leaves_nothing(tmp_path: Path) -> None:
    check_writable(str(tmp_path / "new.json"), "--out")
    assert list(tmp_path.iterdir()) == []


def test_check_writable_refuses_a_read_only_directory(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root writes into read-only directories")
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(BadInput, match="cannot create a file"):
            check_writable(str(folder / "x.json"), "--proof")
    finally:
        folder.chmod(0o700)


# -- atomic writes: permissions and clean-up -------------------------------------------------------------


@pytest.mark.parametrize("mask", [0o022, 0o077, 0o002])
def test_atomic_writes_respect_the_umask(tmp_path: Path, mask: int) -> None:
    old = os.umask(mask)
    try:
        write_atomic(tmp_path / "r.json", "{}\n")
        write_text_maybe_gz(tmp_path / "p.drup.gz", "0\n")
        write_text_maybe_gz(tmp_path / "p.cnf", "p cnf 0 0\n")
    finally:
        os.umask(old)
    for name in ("r.json", "p.drup.gz", "p.cnf"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o666 & ~mask, name


def test_a_proof_record_gets_the_usual_permissions(cli, tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        result = cli("solve", str(PUZZLES / "challenge-0.toml"), "--proof", str(tmp_path / "p.json"))
    finally:
        os.umask(old)
    assert result.code == 0, result.err
    assert stat.S_IMODE((tmp_path / "p.json").stat().st_mode) == 0o644


@pytest.mark.parametrize("error", [KeyboardInterrupt, OSError])
def test_an_interrupted_atomic_write_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: type[BaseException]
) -> None:
    target = tmp_path / "r.json"
    target.write_text("old\n")

    def fail(*args: object) -> None:
        raise error()

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(BadInput if error is OSError else error):
        write_atomic(target, "new\n")
    with pytest.raises(BadInput if error is OSError else error):
        write_text_maybe_gz(target, "new\n")
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


# -- interruptions and crashes ---------------------------------------------------------------------------


def test_ctrl_c_is_exit_130_with_one_line(cli, monkeypatch: pytest.MonkeyPatch) -> None:
    import stratagem.loading as games

    def interrupt(path: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(games, "load_puzzle", interrupt)
    result = cli("show", str(PUZZLES / "challenge-0.toml"))
    assert result.code == INTERRUPTED
    assert result.err == "stratagem: interrupted\n"


def test_an_unexpected_exception_is_an_internal_error_not_bad_input(cli, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug is reported in one line with exit 70 (EX_SOFTWARE), kept apart from bad input (2)."""
    import stratagem.loading as games

    def crash(path: str) -> None:
        raise ZeroDivisionError("a bug\nover two lines")

    monkeypatch.delenv("STRATAGEM_TRACEBACK", raising=False)
    monkeypatch.setattr(games, "load_puzzle", crash)
    result = cli("show", str(PUZZLES / "challenge-0.toml"))
    assert result.code == INTERNAL_ERROR
    lines = result.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("stratagem: internal error: ZeroDivisionError: a bug over two")
    assert "Traceback" not in result.err


def test_the_traceback_is_there_when_asked_for(cli, monkeypatch: pytest.MonkeyPatch) -> None:
    import stratagem.loading as games

    def crash(path: str) -> None:
        raise ZeroDivisionError("a bug")

    monkeypatch.setenv("STRATAGEM_TRACEBACK", "1")
    monkeypatch.setattr(games, "load_puzzle", crash)
    with pytest.raises(ZeroDivisionError):
        cli("show", str(PUZZLES / "challenge-0.toml"))


def test_the_limits_section_of_formats_md_names_every_limit_with_its_value() -> None:
    """docs/formats.md section 11 quotes each limit's constant and value; a changed limit must change it."""
    from stratagem.core import io
    from stratagem.models.cardclash import puzzle as cardclash
    from stratagem.models.stackattack import puzzle as stackattack
    from stratagem.models.stakd import notation as stakd_notation
    from stratagem.models.stakd import puzzle as stakd
    from stratagem.models.stratatak import puzzle as stratatak
    from stratagem.solvers import dimacs

    section = (ROOT / "docs" / "formats.md").read_text().split("## 11. Input limits", 1)[1]
    shown = {
        "MAX_PUZZLE_BYTES": (io.MAX_PUZZLE_BYTES, "1 MiB"), "MAX_RECORD_BYTES": (io.MAX_RECORD_BYTES, "64 MiB"),
        "MAX_PROOF_BYTES": (dimacs.MAX_PROOF_BYTES, "1 GiB"), "MAX_NESTING": (io.MAX_NESTING, "64 levels"),
        "MAX_DIGIT_RUN": (io.MAX_DIGIT_RUN, "| 1000 |"), "MAX_KEY_LENGTH": (io.MAX_KEY_LENGTH, "100 characters"),
        "MAX_OF_A_KIND": (stakd_notation.MAX_OF_A_KIND, "| 32 |"), "MAX_WIDTH": (stakd.MAX_WIDTH, "width 5 to 64"),
        "MAX_COPIES": (stratatak.MAX_COPIES, "16, 99, 14, 10,000"), "MAX_CARDS": (stackattack.MAX_CARDS, "| 1000 |"),
        "MAX_TABLE": (cardclash.MAX_TABLE, "| 102 |"),
    }
    expected = {"MAX_PUZZLE_BYTES": 1 << 20, "MAX_RECORD_BYTES": 64 << 20, "MAX_PROOF_BYTES": 1 << 30,
                "MAX_NESTING": 64, "MAX_DIGIT_RUN": 1000, "MAX_KEY_LENGTH": 100, "MAX_OF_A_KIND": 32,
                "MAX_WIDTH": 64, "MAX_COPIES": 16, "MAX_CARDS": 1000, "MAX_TABLE": 102}
    for name, (value, text) in shown.items():
        assert name in section, name
        assert text in section, (name, text)
        assert value == expected[name], (name, value)
    assert (stratatak.MAX_STARS, stratatak.MAX_HAND_SIZE, stratatak.MAX_BATTLE_LIMIT) == (99, 14, 10_000)


def test_a_solvers_refusal_names_the_command(cli, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """A solver's StratagemError knows no file; its one line at least says which command refused. (The
    shipped examples of such a refusal, alpha-beta or expectiminimax on a game not of two players, are now
    refused before the search, naming the file: a search's own refusal stands in for any.)"""
    from stratagem.cli import analyze as command
    from stratagem.core.errors import StratagemError

    def refuse(*args: object, **kwargs: object) -> None:
        raise StratagemError("the search needs something this position lacks")

    monkeypatch.setattr(command, "analyse_position", refuse)
    result = cli("analyze", str(ROOT / "puzzles" / "stakd" / "solo-1-tiny.toml"), "--time-limit", "1")
    assert_bad_input(result, "stratagem analyze: ", "needs something this position lacks")
