"""QA 58, resource exhaustion and hostile input: files a user may have been sent by someone else, and
numeric options at and past their limits. Each case is bad input (exit 2, one line naming the file, the
place and the problem) or a bounded answer, never a hang, an internal error (exit 70) or a memory blow-up.
The hostile files are built here, in ``tmp_path``, small and fast."""

from __future__ import annotations

import contextlib
import io
import json
import os
import resource
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import PUZZLES, assert_bad_input

from stratagem.core.io import read_capped

#: Seconds after which a reader blocked on a test's FIFO is let go.
RELEASE = 5.0


@contextlib.contextmanager
def _fifo(tmp_path: Path, name: str) -> Iterator[Path]:
    """A FIFO at ``tmp_path/name``. A reader that blocks on it is let go after 5 s (a writer opens and closes
    it), so that a regression fails the test (it took that long) instead of hanging the suite."""
    path = tmp_path / name
    os.mkfifo(path)
    done = threading.Event()

    def release() -> None:
        while not done.wait(RELEASE):
            with contextlib.suppress(OSError):
                os.close(os.open(path, os.O_RDWR | os.O_NONBLOCK))

    writer = threading.Thread(target=release, daemon=True)
    writer.start()
    try:
        yield path
    finally:
        done.set()
        writer.join()


# -- view: a file the record reader refused is looked at again, as a sweep's results file -----------------


def test_view_refuses_a_fifo_at_once(cli, tmp_path: Path) -> None:
    with _fifo(tmp_path, "record.json") as pipe:
        started = time.monotonic()
        result = cli("view", str(pipe), "--out", str(tmp_path / "page.html"))
        took = time.monotonic() - started
    assert took < RELEASE - 1, f"view waited {took:.1f} s on the FIFO"
    assert_bad_input(result, "record.json", "not a regular file")
    assert not (tmp_path / "page.html").exists()


def test_view_of_json_nested_100000_deep_is_bad_input(cli, tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    assert_bad_input(cli("view", str(deep), "--out", str(tmp_path / "page.html")), "deep.json", "nested more than 64")


# -- proof trees: drawn without recursion, checked with JSON's types ---------------------------------------


def _chain(length: int, state: str = "x") -> dict:
    """A proof tree record whose nodes form one chain ``length`` long (not a valid proof: view draws what a
    record holds)."""
    nodes = [{"id": i, "side": "at least", "state": state, "to_move": 0 if i < length - 1 else -3, "value": 1,
              "children": [{"move": "m", "node": i + 1}] if i < length - 1 else []} for i in range(length)]
    return {"format": "stratagem/prooftree@1", "game": "nim", "start": state,
            "claim": {"player": 0, "bound": "at least", "value": 1},
            "halves": [{"side": "at least", "root": 0, "plies": length - 1}], "nodes": nodes}


def test_a_proof_tree_drawn_deeper_than_the_recursion_limit() -> None:
    from stratagem.views.prooftree import MAX_DRAWN, tree_html

    page = tree_html(_chain(MAX_DRAWN + 10))
    assert page.count("<details") == MAX_DRAWN
    assert page.count("</details>") == MAX_DRAWN
    assert "not drawn: the tree is larger than" in page


def test_a_proof_tree_drawing_keeps_the_order_of_children() -> None:
    from stratagem.views.prooftree import tree_html

    tree = _chain(3)
    tree["nodes"][0]["children"] = [{"move": "a", "node": 1}, {"move": "b", "node": 2}]
    page = tree_html(tree)
    assert page.index(">a</span>") < page.index(">b</span>")
    assert page.count("<details") == page.count("</details>") == 3


@pytest.mark.parametrize("broken", [{"id": [1]}, {"children": "ab"}, {"children": [1, None]}])
def test_a_proof_tree_with_nodes_of_the_wrong_kind_is_drawn_as_far_as_it_goes(broken: dict) -> None:
    from stratagem.views.prooftree import tree_html

    tree = _chain(3)
    tree["nodes"][0].update(broken)
    tree_html(tree)  # an unhashable id or children that are no objects raised TypeError / AttributeError


def _checker(nodes: list[dict]) -> object:
    """A proof tree checker over ``nodes`` for a game of one position, where the rules say player 1 moves
    and player 0 has won."""
    from stratagem.solvers.prooftree import _Checker

    class Game:
        def parse_state(self, text: str) -> str:
            return text

        def format_state(self, state: str) -> str:
            return state

        def to_move(self, state: str) -> int:
            return 1

        def is_terminal(self, state: str) -> bool:
            return True

        def returns(self, state: str) -> tuple[int, int]:
            return (1, -1)

    return _Checker(Game(), 0, nodes)  # type: ignore[arg-type]


def _end(node_id: object, to_move: object = 1) -> dict:
    return {"id": node_id, "side": "at least", "state": "s", "to_move": to_move, "value": 1, "children": []}


def test_a_proof_tree_node_to_move_true_is_not_player_1() -> None:
    checker = _checker([_end(0, to_move=True)])  # true == 1 in Python, but JSON's true is no player
    checker.states[0] = "s"
    checker.evaluate(0, "at least")
    assert [p.problem for p in checker.problems] == ["says player True moves but the rules say 1"]


def test_a_proof_tree_node_id_true_is_not_node_1() -> None:
    checker = _checker([_end(0), _end(True)])
    assert checker.node(1, "node 0, child 0") is None
    assert [p.problem for p in checker.problems] == ["has id True but is entry 1 of the node list"]


# -- report: the puzzle files a results file names ----------------------------------------------------------


@pytest.fixture(scope="module")
def sweep_lines(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    from stratagem.cli.main import run

    out = tmp_path_factory.mktemp("sweep") / "results.jsonl"
    assert run(["sweep", str(PUZZLES / "challenge-0.toml"), "--count", "2", "--workers", "0", "--out", str(out),
                "--quiet"]) == 0
    return out.read_text().splitlines()


def _second_version(tmp_path: Path, lines: list[str], puzzle: str) -> Path:
    """The results file with its second record's puzzle another version (other bytes) at ``puzzle``."""
    record = json.loads(lines[1])
    record.update(puzzle=puzzle, puzzle_sha256="0" * 64)
    path = tmp_path / "results.jsonl"
    path.write_text(lines[0] + "\n" + json.dumps(record) + "\n")
    return path


def test_report_does_not_wait_on_a_fifo_a_record_names(cli, tmp_path: Path, sweep_lines: list[str]) -> None:
    with _fifo(tmp_path, "puzzle.toml") as pipe:
        results = _second_version(tmp_path, sweep_lines, str(pipe))
        started = time.monotonic()
        result = cli("report", str(results), "--out", str(tmp_path / "report"), "--no-plots", "--json")
        took = time.monotonic() - started
    assert took < RELEASE - 1, f"report waited {took:.1f} s on the FIFO"
    assert result.code == 0, result.err
    assert f"from {pipe} (not a file it reads)" in (tmp_path / "report" / "report.md").read_text()


def test_report_does_not_read_dev_zero_a_record_names(tmp_path: Path, sweep_lines: list[str]) -> None:
    """In a child process whose memory is capped at 1 GB: a regression reads /dev/zero into a MemoryError
    (exit 70) there, not into the memory of the machine running the tests."""
    results = _second_version(tmp_path, sweep_lines, "/dev/zero")

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    done = subprocess.run([sys.executable, "-m", "stratagem", "report", str(results), "--out",
                           str(tmp_path / "report"), "--no-plots", "--json"], preexec_fn=cap, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "from /dev/zero (not a file it reads)" in (tmp_path / "report" / "report.md").read_text()


def test_report_says_a_puzzle_file_over_the_limit_is_no_longer_its_bytes(cli, tmp_path: Path,
                                                                         sweep_lines: list[str]) -> None:
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * ((1 << 20) + 10))
    results = _second_version(tmp_path, sweep_lines, str(big))
    assert cli("report", str(results), "--out", str(tmp_path / "report"), "--no-plots", "--json").code == 0
    assert f"from {big} (no longer its bytes)" in (tmp_path / "report" / "report.md").read_text()


# -- numeric options --------------------------------------------------------------------------------------


def test_analyze_depth_past_the_parameter_limit_is_a_usage_error(cli) -> None:
    result = cli("analyze", str(PUZZLES.parent / "cardclash" / "square-in-1.toml"), "--depth", "10000001")
    assert_bad_input(result, "--depth", "10000000")  # the library's ValueError was an internal error (exit 70)


@pytest.mark.parametrize("seconds", ["1e308", "86401"])
def test_sweep_connect_timeout_past_a_day_is_a_usage_error(cli, tmp_path: Path, seconds: str) -> None:
    result = cli("sweep", str(PUZZLES / "challenge-0.toml"), "--count", "1", "--out", str(tmp_path / "r.jsonl"),
                 "--scheduler", "tcp://127.0.0.1:1", "--connect-timeout", seconds)
    assert_bad_input(result, "--connect-timeout", "more than a day")  # 1e308 overflowed the socket's clock
    assert not (tmp_path / "r.jsonl").exists()


# -- reading files ------------------------------------------------------------------------------------------


def test_read_capped_holds_a_file_once() -> None:
    """The bytes come back in one piece without a second copy of every piece (tracemalloc's peak is the
    file's size and a little, not twice it)."""
    import tracemalloc

    data = b"x" * (8 << 20)
    tracemalloc.start()
    try:
        got = read_capped(io.BytesIO(data), 16 << 20)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert got == data
    assert peak < 1.5 * len(data), peak


# -- strings, names and ids a record gives -------------------------------------------------------------------


@pytest.fixture(scope="module")
def proof_record(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """challenge 0's proof record (a SAT refutation beside it), as ``solve --proof`` writes it."""
    from stratagem.cli.main import run

    out = tmp_path_factory.mktemp("proof") / "proof.json"
    assert run(["solve", str(PUZZLES / "challenge-0.toml"), "--method", "relaxed", "--proof", str(out),
                "--quiet"]) == 0
    return json.loads(out.read_text())


def test_a_string_of_megabytes_in_a_record_is_refused_at_its_place(cli, tmp_path: Path, proof_record: dict) -> None:
    record = json.loads(json.dumps(proof_record))
    record["line"]["moves"][0] = "Q" * (1 << 20)
    path = tmp_path / "long.json"
    path.write_text(json.dumps(record))
    result = cli("verify", str(path))
    assert_bad_input(result, "long.json", "line.moves[0]", "a string of 1,048,576 characters (at most 65,536")
    assert len(result.err) < 300 and len(result.out) < 300  # the move was quoted whole on stderr and stdout


def test_a_string_at_the_limit_is_read(tmp_path: Path) -> None:
    from stratagem.core.io import MAX_STRING_CHARS, load_json

    path = tmp_path / "record.json"
    path.write_text(json.dumps({"format": "x", "name": "Q" * MAX_STRING_CHARS}))
    assert len(load_json(path)["name"]) == MAX_STRING_CHARS


def test_evidence_naming_a_file_too_long_for_the_file_system_is_bad_input(tmp_path: Path) -> None:
    from stratagem.core.errors import BadInput
    from stratagem.verification.evidence import files_beside

    (tmp_path / "f.cnf.gz").write_bytes(b"")
    evidence = {"kind": "drup-refutation", "cnf": "f.cnf.gz", "proof": "Q" * 300}
    with pytest.raises(BadInput) as caught:  # the file system's "File name too long" was OSError: exit 70
        files_beside(str(tmp_path / "r.json"), evidence)
    assert caught.value.place == "evidence.proof"
    assert "File name too long" in caught.value.problem


def test_view_draws_a_proof_tree_node_whose_state_does_not_parse(cli, tmp_path: Path) -> None:
    from stratagem.cli.main import run

    tree = tmp_path / "tree.json"
    assert run(["analyze", str(PUZZLES.parent / "stakd" / "endgame-2p-only-move.toml"), "--proof", str(tree),
                "--quiet"]) == 0
    record = json.loads(tree.read_text())
    record["nodes"][1]["state"] = "not a position"
    tree.write_text(json.dumps(record))
    result = cli("view", str(tree), "--out", str(tmp_path / "tree.html"))
    assert result.code == 0, result.err  # the NotationError was an internal error (exit 70)
    assert "not a position: not a position (" in (tmp_path / "tree.html").read_text()


@pytest.mark.parametrize("forgery", ["child", "id"])
def test_view_of_a_policy_with_a_list_for_a_node_id_is_bad_input(cli, tmp_path: Path, forgery: str) -> None:
    from stratagem.cli.main import run

    policy = tmp_path / "policy.json"
    assert run(["odds", str(PUZZLES / "challenge-0.toml"), "--position", "RRWR(RW)WWRW RRR WRR 1 -", "--proof",
                str(policy), "--quiet"]) == 0
    record = json.loads(policy.read_text())
    record["nodes"][0][forgery] = [record["nodes"][0][forgery]]
    policy.write_text(json.dumps(record))
    result = cli("view", str(policy), "--out", str(tmp_path / "policy.html"))
    assert_bad_input(result, "policy.json", "nodes[0]")  # TypeError: unhashable type: 'list' (exit 70)


def test_a_policy_chance_node_of_100000_outcomes_is_named_in_one_short_line() -> None:
    from stratagem.solvers.mdp import _some

    listed = _some(["W"] * 100_000)
    assert listed.endswith("W, ... (100,000 in all)") and len(listed) < 100
    assert _some(["R", "W"]) == "R, W"
    assert _some(["Q" * 100]) == "Q" * 40 + "..."


def test_a_report_holds_its_records_without_their_provenance(tmp_path: Path, sweep_lines: list[str]) -> None:
    """A report reads no record's provenance, which was most of the ~9 KB each record held (100,000 records
    took 900 MB; now 460 MB, the same report)."""
    import tracemalloc

    from stratagem.sweeprecords import read_results

    record = json.loads(sweep_lines[0])
    assert "provenance" in record
    path = tmp_path / "results.jsonl"
    with path.open("w") as out:
        for seed in range(2000):
            out.write(json.dumps(dict(record, seed=seed), sort_keys=True, separators=(",", ":")) + "\n")
    read_results(path)  # once before measuring: what it imports is not what it holds
    tracemalloc.start()
    try:
        records, torn = read_results(path)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert torn is None and len(records) == 2000
    assert all("provenance" not in r for r in records)
    assert held / len(records) < 6000, held / len(records)


def test_view_verify_counts_its_time_limit_from_the_command_start(cli, tmp_path: Path, proof_record: dict,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """verify is handed the command's running deadline, not the seconds: counted from verify's own start,
    after the record was read, a 48 MB proof tree with --time-limit 5 took 8.1 s."""
    import stratagem.verification
    from stratagem.core.deadline import Deadline

    given: list[object] = []
    real = stratagem.verification.verify

    def spy(record: object, *args: object, **kwargs: object) -> object:
        given.append(kwargs.get("time_limit"))
        return real(record, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(stratagem.verification, "verify", spy)
    path = tmp_path / "proof.json"
    path.write_text(json.dumps(proof_record))
    result = cli("view", str(path), "--out", str(tmp_path / "page.html"), "--verify", "--time-limit", "60")
    assert result.code == 0, result.err
    assert len(given) == 1 and isinstance(given[0], Deadline) and given[0].seconds == 60


@pytest.mark.parametrize(("field", "value", "words"), [
    ("seed", 2**63, "seed 9223372036854775808 is not a seed (seeds are whole numbers from 0 to"),
    ("seed", 10**4000, "seed 1000000000000000000000000000000000000000... is not a seed"),
    ("lower_bound", 10**4000, "lower_bound 1000000000000000000000000000000000000000... is more turns"),
])
def test_a_results_record_with_a_number_no_sweep_writes_is_refused_in_one_short_line(
        cli, tmp_path: Path, sweep_lines: list[str], field: str, value: int, words: str) -> None:
    record = json.loads(sweep_lines[0])
    record[field] = value
    if field == "lower_bound":
        record.update(status="unknown", length=None, best_length=None, line=None)
    path = tmp_path / "results.jsonl"
    path.write_text(json.dumps(record) + "\n")
    result = cli("report", str(path), "--out", str(tmp_path / "report"), "--no-plots")
    assert_bad_input(result, "results.jsonl", "line 1", words)  # a seed past 2^63-1 was reported, with a
    assert len(result.err) < 300  # `solve --deal` command that refuses it; 4,000 digits were printed whole


def test_a_proof_tree_problem_quotes_a_long_move_in_80_characters() -> None:
    """A record's string may be 65,536 characters long: each problem stays one short line."""
    checker = _checker([{"id": 0, "side": "at least", "state": "s" * 60_000, "to_move": 1, "value": 1,
                         "children": []}])
    assert checker.parse(0, checker.nodes[0]) == "s" * 60_000  # the stub parses anything: no problem yet
    checker.game.format_state = lambda state: "t"  # type: ignore[attr-defined]  # the normal form differs
    checker.parse(0, checker.nodes[0])
    [problem] = checker.problems
    assert len(problem.problem) < 200, len(problem.problem)
    assert "'sssss" in problem.problem and "..." in problem.problem


@pytest.mark.parametrize("command", ["show", "view"])
def test_an_unknown_format_of_60000_characters_is_quoted_short(cli, tmp_path: Path, command: str) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps({"format": "Q" * 60_000, "game": "strato"}))
    extra = ("--out", str(tmp_path / "page.html")) if command == "view" else ()
    result = cli(command, str(path), *extra)
    assert_bad_input(result, "record.json", "format", "QQQ...")
    assert len(result.err) < 1000, len(result.err)  # the format was quoted whole


def test_a_policy_problem_quotes_a_long_state_in_80_characters(cli, tmp_path: Path) -> None:
    from stratagem.cli.main import run

    policy = tmp_path / "policy.json"
    assert run(["odds", str(PUZZLES / "challenge-0.toml"), "--position", "RRWR(RW)WWRW RRR WRR 1 -", "--proof",
                str(policy), "--quiet"]) == 0
    record = json.loads(policy.read_text())
    record["nodes"][0]["state"] = "Q" * 60_000
    policy.write_text(json.dumps(record))
    result = cli("verify", str(policy))
    assert result.code == 1
    assert "the node says 'QQQ" in result.err and len(result.err) < 400, len(result.err)  # 60 KB before
