"""QA 58, ``solve``, ``check`` and ``verify`` on Strato: what the user pass found, one test per finding.

- A count of one read "1 turns" ("solved in 1 turns", "no winning line is shorter than 1 turns", "all 1
  moves are legal", "1 nodes expanded", "a win within 1 turns"): every such message now counts with
  :func:`stratagem.core.words.plural`.
- A relaxation that reaches no goal was worded "...: never reaches no goal".
- ``verify`` certified a claim ``length: 5.0`` ("the winning line is 5.0 turns long") and took
  ``optimal: 0`` for "not claimed"; both are JSON of the wrong type, refused as a ``bound`` of 5.0 is.
- An unsolvability claim with a length was reported twice under ``solvable``: invalid and certified.
- CP-SAT's model build could not be stopped: ``--time-limit 4`` on challenge 1 took 6 s at load 4.
- ``--proof NAME.json`` with SAT checked only ``NAME.json`` before the work: an unwritable
  ``NAME.drup.gz`` failed after the solve, with ``NAME.cnf.gz`` already written (exit 2, half a record).
- "stopped by its nodes limit", "CPSAT stopped by ...".
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from conftest import PUZZLES, assert_bad_input

import stratagem
from stratagem.core.deadline import Deadline
from stratagem.core.progress import no_progress
from stratagem.core.words import plural
from stratagem.models.strato.solve import run_sat
from stratagem.solvers.search import UNKNOWN

#: Challenge 0 with position deals: one turn from the goal, two turns, and no win at all (the pile is
#: empty and the hand holds rain only, while the right half-row needs four winds).
NEAR = (PUZZLES / "challenge-0.toml").read_text().split("[[deals]]")[0] + """
[[deals]]
name = "one"
position = "RRRWR(RW)WWW RRW WRRWWRW 1 W"

[[deals]]
name = "two"
position = "RRRRW(RW)WW RRW WWRRWWRW 1 W"

[[deals]]
name = "lost"
position = "RRRWR(RW)W RR - 1 W"
"""


@pytest.fixture
def near(tmp_path: Path) -> Path:
    puzzle = tmp_path / "near.toml"
    puzzle.write_text(NEAR)
    return puzzle


def test_plural_counts_one_in_the_singular() -> None:
    assert [plural(n, "turn") for n in (0, 1, 2)] == ["0 turns", "1 turn", "2 turns"]
    assert plural(1, "search", "searches") == "1 search" and plural(3, "search", "searches") == "3 searches"
    assert plural(12345, "node", grouped=True) == "12,345 nodes"


@pytest.mark.parametrize("method", ["relaxed", "bfs", "astar", "idastar", "sat", "cpsat", "auto"])
def test_solve_and_check_of_a_one_turn_line_say_1_turn(cli, near: Path, method: str) -> None:  # type: ignore[no-untyped-def]
    for command in ("solve", "check"):
        if command == "check" and method not in ("sat", "cpsat", "auto"):
            continue
        result = cli(command, str(near), "--deal", "one", "--method", method, "--quiet")
        assert result.code == 0, result.err
        assert "solved in 1 turn, optimal" in result.out
        assert "1 turns" not in result.out and "1 nodes" not in result.out and "1 solver calls" not in result.out


def test_search_answers_count_one_node_and_one_turn(cli, near: Path) -> None:  # type: ignore[no-untyped-def]
    result = cli("solve", str(near), "--deal", "one", "--method", "bfs", "--quiet")
    assert "ruled out every line shorter than 1 turn (" in result.out
    assert "method bfs, 1 node expanded," in result.out


def test_verify_of_one_turn_records_says_1_turn(cli, near: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    for method in ("relaxed", "bfs"):
        record = tmp_path / f"one-{method}.json"
        assert cli("solve", str(near), "--deal", "one", "--method", method, "--quiet", "--proof", str(record)).code == 0
        result = cli("verify", str(record), "--recheck", "--quiet")
        assert result.code == 0, result.out
        assert "checked: the 1 move is legal under the rules engine" in result.out
        assert "certified: the winning line is 1 turn long" in result.out
        assert "no winning line is shorter than 1 turn " in result.out
        assert "1 turns" not in result.out and "1 moves" not in result.out


def test_verify_of_a_refutation_of_one_turn_says_1_turn(cli, near: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    record = tmp_path / "two-sat.json"
    assert cli("solve", str(near), "--deal", "two", "--method", "sat", "--quiet", "--proof", str(record)).code == 0
    result = cli("verify", str(record), "--quiet")
    assert result.code == 0, result.out
    assert "strato-sat@4 for 'a win within 1 turn', rebuilt from the rules" in result.out
    assert "1 turns" not in result.out


def test_a_relaxation_without_a_goal_is_worded_once(cli, near: Path) -> None:  # type: ignore[no-untyped-def]
    result = cli("solve", str(near), "--deal", "lost", "--method", "relaxed", "--quiet")
    assert result.code == 1
    assert "unsolvable: no winning line at all: no relaxed line reaches a goal (table-only relaxation" in result.out
    assert "never reaches no goal" not in result.out


@pytest.fixture(scope="module")
def certified() -> dict:  # type: ignore[type-arg]
    """A relaxation-certified record of challenge 0's solo-1 (5 turns), as data."""
    solution = stratagem.solve(PUZZLES / "challenge-0.toml", "solo-1", method="relaxed")
    assert solution.optimal
    return {"format": "stratagem/proof@1", "game": "strato", "claim": solution.claim(),
            "line": solution.line().to_json(), "evidence": solution.evidence}


@pytest.mark.parametrize(("key", "value"), [("length", 5.0), ("length", "5"), ("optimal", 0), ("optimal", 0.0),
                                            ("optimal", "true")])
def test_a_claim_of_the_wrong_json_type_is_refused(certified: dict, key: str, value: object) -> None:  # type: ignore[type-arg]
    record = copy.deepcopy(certified)
    assert stratagem.verify(record, source="forged.json").valid
    record["claim"][key] = value
    verdict = stratagem.verify(record, source="forged.json")
    assert verdict.status == "invalid", verdict.to_json()
    assert verdict.problem is not None and verdict.problem.startswith(f"forged.json: claim.{key}: ")
    assert not any(c.status == "certified" for c in verdict.claims if c.claim == key)


def test_an_unsolvability_claim_with_a_length_is_refuted_under_length(near: Path) -> None:
    solution = stratagem.solve(near, "lost", method="relaxed")
    assert solution.status == "unsolvable"
    record = {"format": "stratagem/proof@1", "game": "strato", "claim": solution.claim(),
              "line": solution.line().to_json(), "evidence": solution.evidence}
    assert stratagem.verify(record, source="lost.json").valid
    for key, value, fragment in (("length", 3, "claim.length: is 3"), ("optimal", True, "claim.optimal: is True"),
                                 ("optimal", 0, "claim.optimal: is 0")):
        forged = copy.deepcopy(record)
        forged["claim"][key] = value
        verdict = stratagem.verify(forged, source="lost.json")
        assert verdict.status == "invalid" and fragment in (verdict.problem or "")
        names = [c.claim for c in verdict.claims]
        assert names.count("solvable") == 1 and names.count(key) == 1, names
        assert next(c.status for c in verdict.claims if c.claim == key) == "invalid"


class _TimeIsUp(Deadline):
    """A deadline that says it has expired while it still reports time left: the state a CP-SAT model's
    build is in when the limit passes during it (the horizon search read the time left before it began)."""

    def expired(self) -> bool:
        return True


def test_cpsat_stops_its_model_build_at_the_deadline() -> None:
    deal = stratagem.load(PUZZLES / "challenge-0.toml", deal="solo-1")
    solution = run_sat(deal.game, _TimeIsUp(60.0), no_progress, "solo-1", backend="cpsat")
    # before: the build ran to its end and CP-SAT, given the 60 s the deadline reported, solved the deal
    assert (solution.status, solution.stopped_by, solution.moves) == (UNKNOWN, "time", ())
    assert solution.optimality.startswith("CP-SAT stopped by its time limit")


def test_a_refutation_file_that_cannot_be_written_is_refused_before_the_work(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "p.drup.gz").mkdir()
    record = tmp_path / "p.json"
    result = cli("solve", str(PUZZLES / "challenge-0.toml"), "--method", "sat", "--proof", str(record))
    assert_bad_input(result, "p.drup.gz", "--proof", "is a directory")
    assert result.out == ""  # refused before any work: nothing solved, nothing written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.drup.gz"]
    clash = cli("check", str(PUZZLES / "challenge-0.toml"), "--proof", str(tmp_path / "q.json"),
                "--html", str(tmp_path / "q.cnf.gz"))
    assert_bad_input(clash, "q.cnf.gz", "is also the --html file")


def test_a_search_stopped_by_nodes_names_its_node_limit(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("solve", str(PUZZLES / "challenge-0.toml"), "--method", "bfs", "--max-nodes", "3", "--json")
    assert result.code == 3
    optimality = json.loads(result.out)["optimality"]
    assert optimality.startswith("breadth-first search stopped by its node limit; no winning line is shorter than")


def test_verify_help_says_max_nodes_caps_a_relaxation_search(cli) -> None:  # type: ignore[no-untyped-def]
    text = " ".join(cli("verify", "--help").out.split())
    assert "the search a relaxation-search certificate repeats (default 1,000,000)" in text


@pytest.fixture
def unsolvable_by_sat(near: Path, tmp_path: Path) -> Path:
    """A SAT-certified unsolvability record (the game lasts 2 turns), with its CNF and DRUP files beside it."""
    record = tmp_path / "lost.json"
    solution = stratagem.solve(near, "lost", method="sat")
    assert solution.status == "unsolvable" and solution.write_proof(record)
    assert stratagem.verify(record).valid
    return record


def test_a_refutation_longer_than_any_game_is_refuted_before_a_formula_is_built(unsolvable_by_sat: Path) -> None:
    """A forged horizon of 100,000 turns had verify build a formula of gigabytes for minutes, past its
    --time-limit; 40 shows the same path quickly (before: a 40-turn formula built and compared)."""
    data = json.loads(unsolvable_by_sat.read_text())
    data["evidence"]["horizon"] = 40
    verdict = stratagem.verify(data, source=str(unsolvable_by_sat))
    assert verdict.status == "invalid"
    assert verdict.problem == (f"{unsolvable_by_sat}: evidence.horizon: refutes 40 turns, but no game from this "
                               "start lasts more than 2 turns: a refutation of 'no win' refutes 2")


class _StopsTheBuild(Deadline):
    """A deadline that has passed by the time the CNF's build asks (and not before): where a slow rebuild
    meets the limit."""

    def expired(self) -> bool:
        import sys

        return sys._getframe(1).f_code.co_name == "_ask_stop"


def test_verify_stops_rebuilding_the_cnf_at_its_deadline(unsolvable_by_sat: Path) -> None:
    verdict = stratagem.verify(unsolvable_by_sat, time_limit=_StopsTheBuild(60.0))
    # before: the build ignored the deadline, and the refutation was then checked in full (certified)
    assert verdict.status == "unknown"
    assert "ran out while the CNF was rebuilt from the rules" in verdict.claims[-1].text()


#: A one-row Fog and Cloud challenge under strict_effect whose seeded deal 0 has no legal play at the start
#: (nothing a Fog or a Cloud can change): the relaxation's bound is 1 and its pruned search, run to the
#: game's length, finds no line.
NO_PLAY = """game = "strato"
[challenge]
name = "No play"
weathers = "FC"
rows = 1
pairs = ["FC"]
limit = 5
[challenge.goal]
left = { nearest = 3, counts = { C = 2 } }
right = "F"
[options]
strict_effect = true
[[deals]]
name = "stuck"
seed = 0
"""


def test_relaxed_unsolvability_by_search_names_its_method(tmp_path: Path) -> None:
    """The record's exhaustive-search evidence had none of the kind's fields (method, lower_bound, nodes), so
    verify said "an exhaustive search the record reports" without naming it."""
    puzzle = tmp_path / "stuck.toml"
    puzzle.write_text(NO_PLAY)
    solution = stratagem.solve(puzzle, "stuck", method="relaxed")
    assert solution.status == "unsolvable"
    evidence = solution.evidence
    assert (evidence["kind"], evidence["method"], evidence["certificate"]) == ("exhaustive-search", "relaxed", False)
    assert evidence["lower_bound"] == solution.lower_bound and evidence["nodes"] == solution.stats["nodes"]
    record = tmp_path / "stuck.json"
    assert solution.write_proof(record)
    verdict = stratagem.verify(record)
    assert verdict.status == "not-certified"
    assert "an exhaustive search the record reports (relaxed)" in verdict.claims[-1].text()
    assert stratagem.verify(record, recheck=True).valid


@pytest.mark.parametrize("recheck", [False, True])
def test_a_line_of_no_moves_on_a_won_start_is_optimal(certified: dict, recheck: bool) -> None:  # type: ignore[type-arg]
    """A start the rules call won, claimed won in 0 turns and optimal: true whatever the evidence. Before,
    --recheck enumerated "no win within -1 turns", met the won start and refuted the claim (exit 1)."""
    record = copy.deepcopy(certified)
    record["line"].update(start="WRRRR(RW)WWWW RRW RRWWRW 1 W won", moves=[], length=0)
    record["claim"].update(length=0, optimal=True)
    record["evidence"] = {"kind": "exhaustive-search", "certificate": False, "method": "bfs", "lower_bound": 0}
    verdict = stratagem.verify(record, source="won.json", recheck=recheck)
    assert verdict.valid, verdict.to_json()
    assert [c.claim for c in verdict.claims] == ["solvable", "length", "optimal"]


def test_an_expired_deadline_builds_no_relaxation_tables() -> None:
    """The relaxation's tables took 0.5 s and more before the search looked at its deadline, so a
    sub-second --time-limit already spent by the command's start ran over by that much (level-2 duo-1,
    --time-limit 0.2: 1.4-1.8 s wall at load 5, allowed 1.24; 0.9-1.0 s after)."""
    from stratagem.models.strato.search import relaxation

    deal = stratagem.load(PUZZLES / "level-2-example.toml", deal="duo-1")
    relaxation._all_tables.cache_clear()
    bound = relaxation.relaxation_bound(deal.game.challenge, deal.game.options, deal.start, deadline=lambda: True)
    assert bound.stopped and bound.bound is None
    assert relaxation._all_tables.cache_info().currsize == 0


def test_cpsat_with_its_time_spent_does_not_load_or_tools() -> None:
    """OR-Tools' import (0.6 s quiet, 1.6 s at load 4) ran after the deadline had passed: challenge 1,
    --method cpsat --time-limit 0.5 took 1.7-2.0 s (allowed 1.6). Run in a fresh interpreter, where
    nothing else has imported it."""
    import subprocess
    import sys

    script = (
        "import sys, stratagem\n"
        "from stratagem.core.deadline import Deadline\n"
        "from stratagem.core.progress import no_progress\n"
        "from stratagem.models.strato.solve import run_sat\n"
        f"deal = stratagem.load({str(PUZZLES / 'challenge-0.toml')!r}, deal='solo-1')\n"
        "spent = Deadline(0.001)\n"
        "while not spent.expired():\n"
        "    pass\n"
        "answer = run_sat(deal.game, spent, no_progress, 'solo-1', backend='cpsat')\n"
        "print(answer.status, answer.stopped_by, 'ortools' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.split() == ["unknown", "time", "False"], out.stdout + out.stderr


def test_check_and_stakd_solve_count_their_limit_from_the_command_start(cli, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """check passed its --time-limit on as seconds, so the limit began after the imports: challenge 1,
    --time-limit 0.5 took 2.0 s at load 4 (allowed 1.6; solve, whose limit counts from the start, 0.9 s).
    solve of a STAKD solo set did the same. Both now hand on the command's deadline."""
    import stratagem.cli.check as check_command
    import stratagem.cli.solve as solve_command
    from stratagem.core import deadline as deadlines

    seen: list[object] = []

    def stop(*args: object, **kwargs: object) -> None:
        seen.append((args[3] if len(args) > 3 else args[2], deadlines._command_started))
        raise stratagem.BadInput("<test>", "limit", "seen")

    monkeypatch.setattr(check_command, "check_puzzle", stop)
    monkeypatch.setattr(solve_command, "check_solo", stop)
    cli("check", str(PUZZLES / "challenge-1.toml"), "--time-limit", "0.5")
    cli("solve", str(PUZZLES.parent / "stakd" / "solo.toml"), "--time-limit", "0.5")
    assert len(seen) == 2
    for limit, command_started in seen:
        assert isinstance(limit, Deadline) and limit.seconds == 0.5
        assert limit.started == command_started


@pytest.mark.parametrize("kind", [["relaxation-bound"], {"kind": "drup-refutation"}, 5])
def test_an_evidence_kind_that_is_no_string_is_refuted(cli, certified: dict, tmp_path: Path,  # type: ignore[no-untyped-def, type-arg]
                                                      kind: object) -> None:
    """A list or an object as evidence.kind ended verify with an internal error (unhashable, exit 70)."""
    record = copy.deepcopy(certified)
    record["evidence"]["kind"] = kind
    path = tmp_path / "kind.json"
    path.write_text(json.dumps(record))
    result = cli("verify", str(path))
    assert result.code == 1, (result.out, result.err)
    assert result.err.strip() == f"{path}: evidence.kind: must be a string naming the kind, not {kind!r}"


def test_a_proof_whose_line_says_won_without_a_win_is_refuted(near: Path) -> None:
    """An unsolvability proof whose line said result "won" (no moves, the start not won) verified as
    "valid: every claim certified": the line's flag was passed over."""
    solution = stratagem.solve(near, "lost", method="relaxed")
    record = {"format": "stratagem/proof@1", "game": "strato", "claim": solution.claim(),
              "line": solution.line().to_json(), "evidence": solution.evidence}
    assert stratagem.verify(record, source="lost.json").valid
    record["line"]["result"] = "won"
    verdict = stratagem.verify(record, source="lost.json")
    assert verdict.status == "invalid"
    assert verdict.problem == ("lost.json: line.result: says 'won', but the replayed line does not end in a won "
                               "position")


def test_a_digest_that_is_not_its_files_is_noted(unsolvable_by_sat: Path) -> None:
    """cnf_sha256 and proof_sha256 were read by nothing: a record whose digests belong to other files
    verified without a word. The files are what is checked, so the claims stand; a note says so."""
    assert not any("sha256" in note for note in stratagem.verify(unsolvable_by_sat).notes)
    data = json.loads(unsolvable_by_sat.read_text())
    data["evidence"]["proof_sha256"] = "0" * 64
    verdict = stratagem.verify(data, source=str(unsolvable_by_sat))
    assert verdict.valid
    assert ("the record's proof_sha256 is not the SHA-256 of lost.drup.gz's text: the file was checked, not the "
            "digest; the record and the file may not belong together") in verdict.notes
    assert not any("cnf_sha256" in note for note in verdict.notes)


def test_a_table_past_the_limit_is_not_called_too_many_relaxed_states(tmp_path: Path) -> None:
    """A lost start (a half-row of 7 past the limit of 6) cannot be put in the relaxation's terms; its row
    read "0 (not searched: 16,129 relaxed states)", the words of a space too large to search (40 million)."""
    puzzle = tmp_path / "full.toml"
    puzzle.write_text((PUZZLES / "challenge-0.toml").read_text().split("[[deals]]")[0]
                      + '[[deals]]\nname = "full"\nposition = "WRRRRRR(RW)WWWW RRW WRW 1 R lost"\n')
    solution = stratagem.solve(puzzle, "full", method="relaxed")
    assert solution.status == "unsolvable"
    assert "(classes W R): 0 (not searched: the table does not fit the relaxation)" in solution.optimality
    assert "relaxed states" not in solution.optimality
