"""Forged game proofs (``stratagem/prooftree@1``, ``stratagem/matrixproof@2``/``@1`` and their bundles) that
``verify`` passed, crashed on or ran past its time limit with (QA pass s54, findings 1, 3, 6 and 8):

- a matrix proof of a game without simultaneous moves (Card Clash, Stratatak) with no nodes made the checker
  value the whole game tree by brute force: minutes past ``--time-limit`` for Card Clash, a RecursionError
  (exit 70) for Stratatak without a battle limit, a "certified" value with one. It is bad input now;
- a well-formed bound certificate of one node at a five-player start obliges a bound after each of 10,000
  replies: ``--time-limit`` did not reach that check, which now stops with the value unknown; a walk deeper
  than the caller's recursion limit is checked, and one deeper than any is unknown, not exit 70;
- a value the Stratatak battle limit decided was certified as ``player 1 exactly 0`` (which reads as a draw):
  the statement now carries ``analyze``'s words for the limit;
- a matrix proof's keys beyond its fields (``"exact": true``, a ``claim``) were passed over in silence, and
  a bundle with a player twice or missing was certified: not certified (exit 3) and bad input (exit 2) now;
- places inside a bundle were named without ``proofs[i].``; a proof tree's claim value that is no number
  made the proof invalid (exit 1), not unreadable (exit 2); a message counted players from 0.
"""

from __future__ import annotations

import contextlib
import copy
import inspect
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from stratagem.cli.main import run
from stratagem.core.deadline import Deadline
from stratagem.core.game import CHANCE, SIMULTANEOUS
from stratagem.loading import load_position
from stratagem.models.stackattack import puzzle as stackattack
from stratagem.solvers.boundproof import CheckStopped, check_bound_proof
from stratagem.solvers.matrixproof import move_label
from stratagem.solvers.simultaneous import Walker
from stratagem.verification import gameproofs, verify

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def bad_input(outcome: tuple[int, str, str], *fragments: str) -> str:
    """The one stderr line of bad input (exit 2, no traceback), holding every fragment."""
    code, out, err = outcome
    assert code == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


def write(tmp_path: Path, name: str, record: dict[str, Any]) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(record))
    return str(path)


def made(capsys: pytest.CaptureFixture[str], tmp_path: Path, puzzle: Path, name: str) -> dict[str, Any]:
    """The proof ``analyze --proof`` writes for ``puzzle``, as JSON data."""
    proof = tmp_path / name
    code, _, err = cli(capsys, "analyze", str(puzzle), "--quiet", "--proof", str(proof))
    assert code == 0, err
    data: dict[str, Any] = json.loads(proof.read_text())
    return data


def empty_matrix_proof(puzzle: Path, fmt: str, value: str) -> dict[str, Any]:
    """A matrix proof with no node of the position of ``puzzle``: what the QA pass forged."""
    position = load_position(puzzle)
    game = position.game
    return {"format": fmt, "game": game.name, "setup": json.loads(json.dumps(game.setup())),
            "start": game.format_state(position.state), "information": "open", "player": 0, "opponents": [1],
            "label": "zero-sum", "payoff": "own", "depth": None, "value": value, "nodes": []}


# --- a matrix proof is about simultaneous moves ---------------------------------------------------


@pytest.mark.parametrize("fmt", ["stratagem/matrixproof@2", "stratagem/matrixproof@1"])
@pytest.mark.parametrize(("puzzle", "value", "battle_limit"), [
    ("cardclash/defence-holds.toml", "1", None),  # ran for minutes, --time-limit or not
    ("stratatak/long-odds.toml", "1/5", None),  # "certified", by a brute-force minimax
    ("stratatak/long-odds.toml", "1/5", 0),  # an endless game: RecursionError, exit 70
])
def test_a_matrix_proof_of_a_game_without_simultaneous_moves_is_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, fmt: str, puzzle: str, value: str,
        battle_limit: int | None) -> None:
    record = empty_matrix_proof(PUZZLES / puzzle, fmt, value)
    if battle_limit is not None:
        record["setup"]["battle_limit"] = battle_limit
        record["start"] = record["start"].rsplit(" ", 1)[0]  # no battles left to count
    started = time.perf_counter()
    line = bad_input(cli(capsys, "verify", write(tmp_path, "m.json", record), "--time-limit", "5"),
                     "m.json: game: a matrix proof is about a game of simultaneous moves; "
                     f"{record['game']} has none (its proofs are stratagem/prooftree@1)")
    assert time.perf_counter() - started < 5, line


def test_a_game_proof_of_a_strato_deal_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = empty_matrix_proof(PUZZLES / "stratatak" / "long-odds.toml", "stratagem/matrixproof@2", "1/5")
    record["game"] = "strato"  # was an internal error (no position module for Strato)
    bad_input(cli(capsys, "verify", write(tmp_path, "s.json", record)), "s.json: game: strato deals are proved by "
              "stratagem/proof@1 records")


# --- the bound check's work is not bounded by its record -------------------------------------------


def five_player_record() -> dict[str, Any]:
    """A well-formed bound certificate of one node at a five-player Stack Attack start (ten cards a hand):
    its lower part of one move obliges a bound after each of the 10,000 joint replies."""
    setup = {"options": {"scope": "round"}, "players": 5}
    game = stackattack.game_from_setup(setup, "five")
    cards = iter(range(1, 65))
    rows = "/".join(str(next(cards)) for _ in range(4))
    hands = [[next(cards) for _ in range(10)] for _ in range(5)]
    state = game.parse_state(f"{rows} {'/'.join('.'.join(map(str, h)) for h in hands)} -/-/-/-/- 0/0/0/0/0 1")
    start = game.format_state(state)
    return {"format": "stratagem/matrixproof@2", "game": "stackattack", "setup": json.loads(json.dumps(game.setup())),
            "start": start, "information": "open", "player": 0, "opponents": [1, 2, 3, 4],
            "label": "player vs coalition", "payoff": "own", "depth": None, "value": "0",
            "nodes": [[start, None, "0", [[move_label(game, state, 0, hands[0][0]), "1"]], None]]}


def test_the_time_limit_stops_a_bound_check_that_its_record_does_not_bound(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, "five.json", five_player_record())
    started = time.perf_counter()
    code, out, err = cli(capsys, "verify", path, "--time-limit", "1", "--json")
    took = time.perf_counter() - started
    assert code == 3, (out, err)  # ran about 30 s, then INVALID
    assert took < 1.2 * 1 + 1 + 1, took  # the standard's bound, and a second for a loaded machine
    [claim] = json.loads(out)["claims"]
    assert claim["status"] == "unknown" and claim["statement"] == "player 1: value 0 (player vs coalition)"
    assert claim["why"].startswith("the time limit (1 s) ran out after ")


def test_check_bound_proof_raises_when_its_deadline_passes() -> None:
    record = five_player_record()
    game = stackattack.game_from_setup(record["setup"], "five")
    with pytest.raises(CheckStopped) as stopped:
        check_bound_proof(game, game.parse_state(record["start"]), record, deadline=Deadline(0))
    assert stopped.value.positions < 100


def first_path_record() -> dict[str, Any]:
    """A bound certificate of a whole two-player game of Stack Attack (three rounds, the deals between) with
    a node at each simultaneous position of one line of play: the lowest card each, the first card dealt,
    the first choice. The checker walks that line to its end before it finds a reply with no bound."""
    game = stackattack.game_from_setup({"options": {"actions": False, "scope": "game"}, "players": 2}, "game")
    walker = Walker(game, 0, "own")
    state = start = game.initial_state()
    nodes = []
    while not game.is_terminal(state):
        mover = game.to_move(state)
        if mover == CHANCE:
            state = game.apply(state, game.chance_outcomes(state)[0][0])
        elif mover == SIMULTANEOUS:
            rows, columns = walker.options(state)
            if len(rows) > 1 or len(columns) > 1:
                nodes.append([game.format_state(state), None, "0", [[move_label(game, state, 0, rows[0]), "1"]], None])
            state = walker.child(state, rows[0], columns[0])
        else:
            state = game.apply(state, game.legal_moves(state)[0])
    return {"format": "stratagem/matrixproof@2", "game": "stackattack", "setup": json.loads(json.dumps(game.setup())),
            "start": game.format_state(start), "information": "open", "player": 0, "opponents": [1],
            "label": "zero-sum", "payoff": "own", "depth": None, "value": "0", "nodes": nodes}


@contextlib.contextmanager
def recursion_limit(above: int) -> Iterator[None]:
    """Python's recursion limit ``above`` calls deeper than here, as a caller deep in its own stack has it."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack(0)) + above)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def test_a_walk_deeper_than_the_callers_recursion_limit_is_checked() -> None:
    record = first_path_record()
    with recursion_limit(150):  # the line's walk is a few hundred calls deep: RecursionError
        verdict = verify(record, source="deep.json")
    assert verdict.status == "invalid"
    assert "a child has no lower bound in the record" in verdict.problem or "below the value" in verdict.problem


def test_a_walk_deeper_than_any_recursion_limit_is_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gameproofs, "deep_recursion", contextlib.nullcontext)  # as if the game were deeper still
    with recursion_limit(150):
        verdict = verify(first_path_record(), source="deep.json")
    [claim] = verdict.claims
    assert (claim.status, claim.statement) == ("unknown", "player 1: value 0 (zero-sum)")
    assert claim.reason.startswith("the check was stopped: the game walked from the start goes deeper than ")


# --- what a certified value means under the battle limit -------------------------------------------


def test_a_value_the_battle_limit_decided_is_stated_with_the_limit(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    holds = tmp_path / "dh1.toml"  # player 2 wins within 4 battles; within 1 nothing is decided
    holds.write_text((PUZZLES / "stratatak" / "defender-holds.toml").read_text()
                     .replace("battle_limit = 4", "battle_limit = 1").replace('value = "-1"', 'value = "0"'))
    made(capsys, tmp_path, holds, "dh1.json")
    code, out, _ = cli(capsys, "verify", str(tmp_path / "dh1.json"))
    assert code == 0
    undecided = ("player 1 exactly 0; undecided within 1 battle with best play: the battle limit stops the game "
                 "there, and its 0 is not a draw")
    assert f"certified: {undecided} — the proof tree" in out  # was "player 1 exactly 0", as if a draw
    code, out, _ = cli(capsys, "verify", str(tmp_path / "dh1.json"), "--json")
    assert json.loads(out)["claims"][0]["statement"] == undecided
    _, report, _ = cli(capsys, "analyze", str(holds), "--json")
    assert json.loads(report)["summary"] in undecided  # analyze's words, not a second copy

    made(capsys, tmp_path, PUZZLES / "stratatak" / "long-odds.toml", "odds.json")
    code, out, _ = cli(capsys, "verify", str(tmp_path / "odds.json"), "--json")
    assert code == 0
    assert json.loads(out)["claims"][0]["statement"] == (
        "player 1 exactly 1/5; a game the battle limit stops counts 0 there (undecided within 4 battles, not a draw)")

    made(capsys, tmp_path, PUZZLES / "stratatak" / "defender-holds.toml", "win.json")  # forced: no note
    code, out, _ = cli(capsys, "verify", str(tmp_path / "win.json"), "--json")
    assert code == 0 and json.loads(out)["claims"][0]["statement"] == (
        "player 1 at most -1, a loss within 8 plies whatever player 1 plays")  # the tree's longest line


def test_a_bound_at_zero_under_the_battle_limit_is_not_called_undecided() -> None:
    position = load_position(PUZZLES / "stratatak" / "long-odds.toml")
    game, state = position.game, position.state
    assert gameproofs.horizon_note(game, state, 0, exact=False) == (
        "a game the battle limit stops counts 0 there (undecided within 4 battles, not a draw)")
    assert gameproofs.horizon_note(game, state, 1) is None
    cards = load_position(PUZZLES / "cardclash" / "square-in-1.toml")
    assert gameproofs.horizon_note(cards.game, cards.state, 0) is None  # no battle limit, no note


# --- what a matrix proof says beyond its value; bundles ---------------------------------------------


@pytest.fixture
def two_player(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> dict[str, Any]:
    return made(capsys, tmp_path, PUZZLES / "stackattack" / "2p-actions-3-turns.toml", "sa2.json")


@pytest.fixture
def bundle(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> dict[str, Any]:
    data = made(capsys, tmp_path, PUZZLES / "stackattack" / "3p-actions-2-turns.toml", "sa3.json")
    assert data["format"] == "stratagem/matrixproofs@1" and len(data["proofs"]) == 3
    return data


def test_keys_a_matrix_proof_says_beyond_its_value_are_not_certified(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, two_player: dict[str, Any],
        bundle: dict[str, Any]) -> None:
    assert cli(capsys, "verify", write(tmp_path, "genuine.json", two_player))[0] == 0
    forged = dict(two_player, claim={"optimal": True}, exact=True)
    code, out, _ = cli(capsys, "verify", write(tmp_path, "extra.json", forged), "--json")
    assert code == 3, out  # was 0, "proof valid"
    claims = json.loads(out)["claims"]
    assert [c["status"] for c in claims] == ["certified", "not-certified", "not-certified"]
    assert claims[1]["statement"] == "the record's claim 'claim': {\"optimal\": true}"
    assert claims[2]["statement"] == "the record's claim 'exact': true"
    assert claims[2]["why"] == "not a claim verify checks in a matrix proof (it checks value)"

    inner = copy.deepcopy(bundle)
    inner["proofs"][2]["optimal_strategies"] = True
    inner["exact"] = True
    code, out, _ = cli(capsys, "verify", write(tmp_path, "inner.json", inner))
    assert code == 3
    assert "not certified: the record's claim 'exact': true" in out
    assert "not certified: the record's claim 'proofs[2].optimal_strategies': true" in out

    valued = dict(bundle, value="99")  # a bundle's own value: each proof's is checked, this one never was
    code, out, _ = cli(capsys, "verify", write(tmp_path, "valued.json", valued))
    assert code == 3 and "not certified: the record's claim 'value': \"99\"" in out, out


def test_a_bundle_is_one_proof_per_player_in_order(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, bundle: dict[str, Any]) -> None:
    assert cli(capsys, "verify", write(tmp_path, "genuine.json", bundle))[0] == 0
    proofs = bundle["proofs"]
    twice = dict(bundle, proofs=[proofs[0], proofs[0], proofs[2]])  # player 1 twice, player 2 missing: exit 0
    bad_input(cli(capsys, "verify", write(tmp_path, "twice.json", twice)),
              "twice.json: proofs[1].player: is 0, but a bundle holds one proof per player in player order: "
              "proofs[1] is player 2's")
    one = dict(bundle, proofs=[proofs[0]])  # exit 0 too
    bad_input(cli(capsys, "verify", write(tmp_path, "one.json", one)),
              "one.json: proofs: holds 1 proof; a bundle holds one per player of this 3-player game")
    swapped = dict(bundle, proofs=[proofs[1], proofs[0], proofs[2]])
    bad_input(cli(capsys, "verify", write(tmp_path, "swapped.json", swapped)), "swapped.json: proofs[0].player")


def test_places_inside_a_bundle_are_named_from_the_bundle(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, bundle: dict[str, Any]) -> None:
    game = copy.deepcopy(bundle)
    game["proofs"][0]["game"] = "cardclash"
    bad_input(cli(capsys, "verify", write(tmp_path, "game.json", game)),
              "game.json: proofs[0].game: the proof is for 'cardclash', not 'stackattack'")
    nested = dict(bundle, proofs=[bundle, *bundle["proofs"][1:]])
    bad_input(cli(capsys, "verify", write(tmp_path, "nested.json", nested)),
              "nested.json: proofs[0].format: expected 'stratagem/matrixproof@2' or 'stratagem/matrixproof@1', "
              "found 'stratagem/matrixproofs@1'")
    node = copy.deepcopy(bundle)
    node["proofs"][1]["nodes"][0][2] = 0.5
    bad_input(cli(capsys, "verify", write(tmp_path, "node.json", node)), "node.json: proofs[1].nodes[0][2]: ")
    information = copy.deepcopy(bundle)
    information["proofs"][2]["information"] = "hidden"
    bad_input(cli(capsys, "verify", write(tmp_path, "hidden.json", information)), "hidden.json: proofs[2].information:")


# --- a proof tree's claim ---------------------------------------------------------------------------


@pytest.mark.parametrize(("key", "value", "place"), [
    ("value", True, "claim.value: expected a number or an exact fraction \"p/q\", found true"),
    ("value", "1/0", "claim.value: expected a number or an exact fraction \"p/q\", found \"1/0\""),
    ("value", [1], "claim.value: "),
    ("player", "0", "claim.player: not a player of a 2-player game (counted from 0): \"0\""),
    ("player", 2, "claim.player: "),
    ("bound", "about", "claim.bound: must be 'at least', 'at most' or 'exactly', found \"about\""),
])
def test_a_proof_tree_claim_that_does_not_read_is_bad_input(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, key: str, value: Any, place: str) -> None:
    record = made(capsys, tmp_path, PUZZLES / "cardclash" / "square-in-1.toml", "tree.json")
    record["claim"][key] = value  # was INVALID (exit 1) for a value, as if a claim had been refuted
    bad_input(cli(capsys, "verify", write(tmp_path, "claim.json", record)), f"claim.json: {place}")


def test_a_proof_tree_problem_counts_players_from_one(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = made(capsys, tmp_path, PUZZLES / "cardclash" / "square-in-1.toml", "tree.json")
    assert record["claim"] == {"player": 0, "bound": "at least", "value": 1}
    record["claim"]["bound"] = "exactly"  # without the 'at most' half it needs
    code, out, err = cli(capsys, "verify", write(tmp_path, "half.json", record))
    assert code == 1
    assert err.strip().endswith("half.json: halves: the claim 'player 1 exactly 1' needs an 'at most' half")  # player 0
    assert "INVALID: player 1 exactly 1 — halves: the claim 'player 1 exactly 1'" in out
