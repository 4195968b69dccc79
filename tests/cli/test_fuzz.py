"""CLI fuzz test: every command, fed broken files and arguments, either answers or refuses in one line.

The inputs are the shipped puzzles mutated at random (numbers swapped for huge, negative or boundary
values, strings for random notation, lines dropped, doubled, cut or added), random TOML, proof records
written by the commands themselves and then mutated (values replaced at random places in the JSON,
keys dropped, text damaged), and random option values. Every run must end in one of:

- a result: exit 0, 1 or 3 (done, a checked no, undetermined), with no traceback on stderr;
- bad input: exit 2 with exactly one line on stderr.

Anything else fails the test: a traceback, an "internal error" line (exit 70: a bug, reported as such
by ``stratagem.cli.main.run``), or any other exit code. Commands run in-process through ``run`` with
short time and size limits. The default run is small, derandomized and bounded (``max_examples``);
the ``slow`` variants run many more examples.
"""

from __future__ import annotations

import gzip
import json
import re
import string
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, Outcome
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stratagem.cli.main import run

PUZZLE_FILES = sorted((ROOT / "puzzles").glob("*/*.toml"))

QUICK = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
THOROUGH = settings(max_examples=300, deadline=None, derandomize=False, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

#: Numbers that sit on or past a limit somewhere: zero, negatives, the table and deck caps and one more,
#: 64-bit edges, and far beyond.
NUMBERS = ["0", "-1", "1", "2", "3", "8", "9", "33", "64", "65", "102", "103", "1000", "1001", "10001", "100000000",
           "9223372036854775807", "9223372036854775808", "-9223372036854775809", "1e400", "nan", "inf", "0x10",
           "9" * 30, "9" * 5000, "1.5", "1e300", "true", '"7"', "[]", "{}"]
#: Characters of every game's notation, and some that none uses.
NOTATION = "RWSFCT()<>?.,/;:-+*!|# @0123456789BQTDUXhvrgbypoA" + "é\u00b2\u0660\t"
LINES = ['game = "strato"', 'game = "stakd"', 'game = "stratatak"', 'game = "stackattack"', 'game = "cardclash"',
         'game = "chess"', "[options]", "[position]", "[challenge]", "[[deals]]", "width = 1000000", "cards = 3",
         "players = 7", "seed = -5", 'state = "-"', 'pieces = ["B1", "U40"]', "x = [[[[[[1]]]]]]",
         "deep = " + "[" * 300 + "]" * 300, "[claim]", "rounds = 0", "copies = 0", "limit = 0", "= 1", "[[x]]"]


def invoke(capsys: pytest.CaptureFixture[str], args: list[str]) -> Outcome:
    code = run(args)
    captured = capsys.readouterr()
    return Outcome(code, captured.out, captured.err)


def assert_clean(result: Outcome, args: list[str], source: str = "") -> None:
    """A result (0, 1, 3) without a traceback, or bad input (2) as exactly one stderr line."""
    command = " ".join(a[:80] for a in args)
    context = f"stratagem {command}\n--- input ---\n{source[:3000]}\n--- stderr ---\n{result.err}"
    assert "Traceback" not in result.err, context
    assert "internal error" not in result.err, context
    if result.code == 2:
        assert len(result.err.strip().splitlines()) == 1, context
    else:
        assert result.code in (0, 1, 3), f"exit {result.code}\n{context}"


# -- mutations ------------------------------------------------------------------------------------------

Mutation = Callable[[str], str]


def _at(text: str, where: float) -> int:
    return min(len(text), int(where * len(text)))


@st.composite
def mutations(draw: st.DrawFn) -> Mutation:
    """One edit of a file's text: mostly a value (so that the file still parses and the edit reaches the
    game's own checks), sometimes the file's structure."""
    kind = draw(st.sampled_from(["number"] * 6 + ["string"] * 6 + ["insert"] * 2 + ["drop", "double", "cut", "char"]))
    where = draw(st.floats(0, 1))
    if kind == "number":
        value = draw(st.sampled_from(NUMBERS))

        def number(text: str) -> str:
            spots = list(re.finditer(r"(?<![\w.\"])-?\d+(?![\w.])", text))
            if not spots:
                return text
            spot = spots[min(len(spots) - 1, int(where * len(spots)))]
            return text[: spot.start()] + value + text[spot.end():]

        return number
    if kind == "string":
        value = draw(st.text(NOTATION, max_size=30))

        def string_(text: str) -> str:
            spots = [m for m in re.finditer(r'"([^"\n]*)"', text)
                     if not text[text.rfind("\n", 0, m.start()) + 1:].startswith("game")]  # keep the game
            if not spots:
                return text
            spot = spots[min(len(spots) - 1, int(where * len(spots)))]
            return text[: spot.start(1)] + value.replace('"', "") + text[spot.end(1):]

        return string_
    if kind in ("drop", "double"):

        def lines(text: str) -> str:
            rows = text.splitlines()
            if not rows:
                return text
            i = min(len(rows) - 1, int(where * len(rows)))
            rows[i:i + 1] = [] if kind == "drop" else [rows[i], rows[i]]
            return "\n".join(rows) + "\n"

        return lines
    if kind == "cut":
        return lambda text: text[: _at(text, where)]
    if kind == "insert":
        line = draw(st.sampled_from(LINES))

        def insert(text: str) -> str:
            rows = text.splitlines()
            i = min(len(rows), int(where * (len(rows) + 1)))
            return "\n".join([*rows[:i], line, *rows[i:]]) + "\n"

        return insert
    char = draw(st.sampled_from(list(NOTATION) + ["\x00", "\ufeff", "\\", "'", '"', "\n", "=", "[", "]"]))
    return lambda text: text[: _at(text, where)] + char + text[_at(text, where) + 1:]


def mutate(text: str, edits: list[Mutation]) -> str:
    for edit in edits:
        text = edit(text)
    return text


# -- commands -------------------------------------------------------------------------------------------


def puzzle_commands(path: str, game: str) -> list[list[str]]:
    """The commands that read a puzzle or position file of ``game``, with limits that keep each run short.

    Each game gets the commands meant for it, so that a mutation reaches the game's own checks rather
    than the first "this command takes ..." refusal (those are covered too: ``game`` may be mutated)."""
    everyone = [["show", path], ["check", path, "--time-limit", "0.3"]]
    if game == "strato":
        return [*everyone, ["solve", path, "--time-limit", "0.3"], ["reach", path, "--max-nodes", "300"],
                ["export", path, "--horizon", "2"], ["export", path, "--format", "pddl", "--out", path + ".pddl"],
                ["generate", "strato", "--challenge", path, "--count", "1", "--tries", "1", "--time-limit", "0.3"]]
    commands = [*everyone, ["analyze", path, "--time-limit", "0.3", "--no-rank"],
                ["analyze", path, "--time-limit", "0.3", "--depth", "2", "--json"],
                ["play", game, "--agents", "random,random", "--count", "1", "--max-plies", "30", "--position", path]]
    if game == "stakd":
        commands.append(["solve", path, "--time-limit", "0.3"])
    return commands


def _game_of(path: Path) -> str:
    return path.parent.name


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Proof records made by the commands themselves: a Strato line proof, a STAKD refutation (with its
    CNF and DRUP files), a Stratatak proof tree and a Card Clash proof."""
    folder = tmp_path_factory.mktemp("records")
    made = {}
    jobs = {
        "strato.json": ["solve", str(ROOT / "puzzles/strato/challenge-0.toml")],
        "stakd-solo.json": ["check", str(ROOT / "puzzles/stakd/solo-1-tiny.toml")],
        "stakd-refuted.json": ["check", str(ROOT / "puzzles/stakd/solo-4-impossible.toml")],
        "stratatak.json": ["analyze", str(ROOT / "puzzles/stratatak/lone-star.toml")],
        "stackattack.json": ["analyze", str(ROOT / "puzzles/stackattack/2p-actions-3-turns.toml")],
    }
    for name, args in jobs.items():
        target = folder / name
        code = run([*args, "--proof", str(target), "--time-limit", "30"])
        assert code in (0, 1), (name, code)
        assert target.exists(), name
        made[name] = str(target)
    return made


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.sampled_from([0, -1, 1, 7, 2**63, -(2**63) - 1, 10**30, 1.5, float("nan"),
                                                 "0/0", "1/0", "-3/4", "1e99999", "stratagem/line@1",
                                                 "stratagem/proof@1", "stratagem/prooftree@1", "strato", "stakd"])
    | st.text(NOTATION, max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(
        ["format", "game", "setup", "start", "moves", "claim", "evidence", "line", "nodes", "root", "x"]), inner,
        max_size=3),
    max_leaves=6,
)


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            out += _paths(value, (*prefix, key))
    elif isinstance(data, list):
        for i, value in enumerate(data[:5]):
            out += _paths(value, (*prefix, i))
    return out


@st.composite
def record_edits(draw: st.DrawFn) -> Callable[[Any], Any]:
    """One edit of a parsed record: a value replaced, or a key dropped, at a random place."""
    where = draw(st.floats(0, 1))
    drop = draw(st.booleans())
    value = draw(JSON_VALUES)

    def edit(data: Any) -> Any:
        paths = _paths(data)[1:]
        if not paths:
            return value
        path = paths[min(len(paths) - 1, int(where * len(paths)))]
        parent = data
        for step in path[:-1]:
            parent = parent[step]
        if drop and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = value
        return data

    return edit


# -- the tests ------------------------------------------------------------------------------------------


def _run_puzzle_case(capsys: pytest.CaptureFixture[str], tmp_path: Path, data: st.DataObject) -> None:
    original = data.draw(st.sampled_from(PUZZLE_FILES), label="puzzle")
    edits = data.draw(st.lists(mutations(), min_size=1, max_size=3))
    text = mutate(original.read_text(), edits)
    path = tmp_path / original.name
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    args = data.draw(st.sampled_from(puzzle_commands(str(path), _game_of(original))), label="command")
    assert_clean(invoke(capsys, args), args, text)


def _run_record_case(capsys: pytest.CaptureFixture[str], tmp_path: Path, records: dict[str, str],
                     data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(records)), label="record")
    source = Path(records[name])
    record = json.loads(source.read_text())
    if data.draw(st.booleans(), label="structural"):
        for edit in data.draw(st.lists(record_edits(), min_size=1, max_size=3)):
            record = edit(record)
        text = json.dumps(record, indent=2)
    else:
        text = mutate(json.dumps(record, indent=2), data.draw(st.lists(mutations(), min_size=1, max_size=2)))
    path = tmp_path / source.name
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    for beside in source.parent.glob(source.stem + ".*.gz"):  # the CNF and DRUP files the record names
        content = beside.read_bytes()
        damage = data.draw(st.sampled_from(["none", "none", "text", "bytes", "empty"]), label=f"{beside.name}")
        if damage == "text":
            edits = data.draw(st.lists(mutations(), min_size=1, max_size=2))
            content = gzip.compress(mutate(gzip.decompress(content).decode(), edits).encode(), mtime=0)
        elif damage == "bytes":
            content = content[: len(content) // 2] + data.draw(st.binary(max_size=20))
        elif damage == "empty":
            content = b""
        (tmp_path / beside.name).write_bytes(content)
    args = data.draw(st.sampled_from([["verify", str(path)], ["show", str(path)]]), label="command")
    assert_clean(invoke(capsys, args), args, text)


def _run_random_toml_case(capsys: pytest.CaptureFixture[str], tmp_path: Path, data: st.DataObject) -> None:
    keys = st.sampled_from(["game", "name", "options", "position", "challenge", "deals", "state", "seed",
                            "players", "width", "height", "cards", "pieces", "limit", "rows", "weathers"])
    game = data.draw(st.sampled_from(["strato", "stakd", "stratatak", "stackattack", "cardclash", "other"]))
    lines = [f'game = "{game}"'] + data.draw(st.lists(
        st.builds(lambda k, v: f"{k} = {v}", keys, st.sampled_from(NUMBERS) | st.sampled_from(['"-"', '"x"']))
        | st.sampled_from(LINES), max_size=8))
    text = "\n".join(lines) + "\n"
    path = tmp_path / "random.toml"
    path.write_text(text)
    args = data.draw(st.sampled_from(puzzle_commands(str(path), game if game != "other" else "stakd")))
    assert_clean(invoke(capsys, args), args, text)


ARGUMENT_CASES = [
    ("show", "{strato}", "--deal"), ("show", "{strato}", "--players"), ("solve", "{strato}", "--time-limit"),
    ("solve", "{strato}", "--max-nodes"), ("solve", "{strato}", "--deal"), ("check", "{stakd}", "--time-limit"),
    ("analyze", "{stratatak}", "--depth"), ("analyze", "{stratatak}", "--as"), ("analyze", "{stratatak}", "--method"),
    ("reach", "{strato}", "--max-nodes"), ("export", "{strato}", "--horizon"), ("export", "{strato}", "--format"),
    ("play", "stratatak", "--agents"), ("play", "stackattack", "--seed"), ("play", "cardclash", "--players"),
    ("analyze", "{stratatak}", "--iterations"), ("analyze", "{stratatak}", "--samples"),
    ("analyze", "{stratatak}", "--seed"), ("solve", "{strato}", "--method"), ("solve", "{strato}", "--players"),
    ("check", "{strato}", "--deal"), ("reach", "{strato}", "--time-limit"), ("generate", "strato", "--seed"),
    ("generate", "strato", "--min-length"), ("export", "{strato}", "--deal"), ("show", "{stakd}", "--deal"),
]


def _run_argument_case(capsys: pytest.CaptureFixture[str], data: st.DataObject) -> None:
    files = {"strato": ROOT / "puzzles/strato/challenge-0.toml", "stakd": ROOT / "puzzles/stakd/solo-1-tiny.toml",
             "stratatak": ROOT / "puzzles/stratatak/lone-star.toml"}
    command, target, option = data.draw(st.sampled_from(ARGUMENT_CASES), label="case")
    value = data.draw(st.sampled_from(NUMBERS) | st.text(string.printable + NOTATION, max_size=12), label="value")
    args = [command, target.format(**{k: str(v) for k, v in files.items()}), option, value]
    if command == "play":
        args += ["--count", "1", "--max-plies", "30"] + ([] if option == "--agents" else ["--agents", "random,random"])
    elif command in ("solve", "check", "analyze") and option != "--time-limit":
        args += ["--time-limit", "0.3"]
    elif command == "reach" and option != "--max-nodes":
        args += ["--max-nodes", "300"]
    elif command == "generate":
        args = ["generate", "strato", "--challenge", str(files["strato"]), "--count", "1", "--tries", "1",
                "--time-limit", "0.3", option, value]
    elif command == "export" and option != "--horizon":
        args += ["--horizon", "2"]
    assert_clean(invoke(capsys, args), args)


@QUICK
@given(data=st.data())
def test_mutated_puzzles(capsys: pytest.CaptureFixture[str], tmp_path: Path, data: st.DataObject) -> None:
    _run_puzzle_case(capsys, tmp_path, data)


@QUICK
@given(data=st.data())
def test_mutated_records(capsys: pytest.CaptureFixture[str], tmp_path: Path, records: dict[str, str],
                         data: st.DataObject) -> None:
    _run_record_case(capsys, tmp_path, records, data)


@QUICK
@given(data=st.data())
def test_random_toml(capsys: pytest.CaptureFixture[str], tmp_path: Path, data: st.DataObject) -> None:
    _run_random_toml_case(capsys, tmp_path, data)


@QUICK
@given(data=st.data())
def test_random_arguments(capsys: pytest.CaptureFixture[str], data: st.DataObject) -> None:
    _run_argument_case(capsys, data)


@pytest.mark.slow
@THOROUGH
@given(data=st.data())
def test_mutated_puzzles_thoroughly(capsys: pytest.CaptureFixture[str], tmp_path: Path, data: st.DataObject) -> None:
    _run_puzzle_case(capsys, tmp_path, data)


@pytest.mark.slow
@THOROUGH
@given(data=st.data())
def test_mutated_records_thoroughly(capsys: pytest.CaptureFixture[str], tmp_path: Path, records: dict[str, str],
                                   data: st.DataObject) -> None:
    _run_record_case(capsys, tmp_path, records, data)


@pytest.mark.slow
@THOROUGH
@given(data=st.data())
def test_random_toml_thoroughly(capsys: pytest.CaptureFixture[str], tmp_path: Path, data: st.DataObject) -> None:
    _run_random_toml_case(capsys, tmp_path, data)


@pytest.mark.slow
@THOROUGH
@given(data=st.data())
def test_random_arguments_thoroughly(capsys: pytest.CaptureFixture[str], data: st.DataObject) -> None:
    _run_argument_case(capsys, data)


def test_the_fuzz_oracle_rejects_a_crash() -> None:
    """The oracle itself: an internal error, a traceback, a two-line refusal or a stray code all fail."""
    for bad in (Outcome(70, "", "stratagem: internal error: KeyError: 'x' (a bug)\n"),
                Outcome(2, "", "one\ntwo\n"),
                Outcome(1, "", "Traceback (most recent call last):\n"),
                Outcome(4, "", "")):
        with pytest.raises(AssertionError):
            assert_clean(bad, ["show"])
    assert_clean(Outcome(2, "", "x.toml: limit: bad\n"), ["show"])
    assert_clean(Outcome(3, "", "a note\nanother\n"), ["solve"])


@pytest.mark.parametrize(
    ("name", "text", "args"),
    [
        ("big.toml", "game = \"cardclash\"\n[options]\nwidth = " + "9" * 5000 + "\n", ["show"]),
        ("deep.json", "[" * 200_000 + "]" * 200_000, ["verify"]),
        ("hand.toml", "game = \"stakd\"\n[position]\npieces = \"B2U99999999\"\n", ["check", "--time-limit", "1"]),
    ],
    ids=["5000-digits", "200000-deep", "huge-hand"],
)
def test_bad_input_through_the_real_entry_point(tmp_path: Path, name: str, text: str, args: list[str]) -> None:
    """The same refusals through ``python -m stratagem`` (its own process, as a user runs it)."""
    import os
    import subprocess
    import sys

    path = tmp_path / name
    path.write_text(text)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("STRATAGEM_TRACEBACK", None)
    done = subprocess.run([sys.executable, "-m", "stratagem", args[0], str(path), *args[1:]], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(str(path)), done.stderr
