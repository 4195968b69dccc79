"""QA pass 56 on ``stratagem analyze`` and ``stratagem verify`` of game-value records (STAKD, Stratatak,
Stack Attack, Card Clash): what an analysis proves, what a hand-edited record gets past ``verify``, limits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stratagem.analysis import analyze
from stratagem.core.errors import BadInput
from stratagem.engines import resolve
from stratagem.loading import load_position
from tests.cli.conftest import ROOT, assert_bad_input

ENDGAMES = ROOT / "puzzles"

#: Three STAKD players, one piece each: max^n says player 1 wins (player 2, lost whatever it does, is
#: taken to break its tie in player 1's favour), but players 2 and 3 together hold player 1 to a loss.
MAXN_AND_PARANOID_DIFFER = """game = "stakd"
[position]
layers = "1B@6,2h;2B@5,3h;3B@7,1h"
pieces = ["U1", "X1", "U1"]
"""


def test_a_max_n_value_of_three_players_is_refused_a_proof_before_the_search(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """``--method maxn --proof`` printed "player 1 to move wins (max^n)" and wrote a proof tree of the paranoid
    bound, "player 1 at most -1", which verify certified: the proof said the opposite of the answer above it.
    A max^n value has no proof tree; the option is refused before any search, and nothing is written."""
    position = tmp_path / "three.toml"
    position.write_text(MAXN_AND_PARANOID_DIFFER)
    proof = tmp_path / "p.json"
    assert_bad_input(cli("analyze", str(position), "--method", "maxn", "--proof", str(proof)), "--proof", "max^n")
    assert not proof.exists()
    answer = analyze(str(position), method="maxn", rank=False)
    assert (answer.status, answer.value) == ("solved", 1)  # the max^n answer itself is still given
    with pytest.raises(BadInput, match="max\\^n"):
        answer.write_proof(tmp_path / "q.json")
    assert analyze(str(position), rank=False).value == -1  # paranoid, the default: the value with a proof
    done = cli("analyze", str(position), "--proof", str(proof), "--json")
    assert done.code == 0 and json.loads(done.out)["value"] == -1
    assert cli("verify", str(proof)).code == 0
    # one player: max^n is the exhaustive search, and its value is proved
    solo = cli("analyze", str(ENDGAMES / "stakd" / "solo-1-tiny.toml"), "--proof", str(tmp_path / "s.json"))
    assert solo.code == 0 and cli("verify", str(tmp_path / "s.json")).code == 0


def _proof(cli, tmp_path: Path, puzzle: str, name: str = "p.json") -> Path:  # type: ignore[no-untyped-def]
    """The proof ``analyze --proof`` writes for a shipped position."""
    proof = tmp_path / name
    assert cli("analyze", str(ENDGAMES / puzzle), "--proof", str(proof), "--quiet").code == 0
    return proof


def test_verify_time_limit_bounds_the_check_of_a_proof_tree(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """``verify --time-limit`` bounded a matrix proof's check but not a proof tree's: square-in-7's 3,615
    nodes took 2.5 s under ``--time-limit 0.1`` and were certified (and the record decides how many nodes
    there are). The check now stops at the deadline and leaves the claim unknown (exit 3)."""
    from stratagem.verification import verify

    proof = _proof(cli, tmp_path, "cardclash/square-in-5.toml")
    stopped = verify(proof, time_limit=1e-9)
    assert stopped.status == "unknown" and [c.status for c in stopped.claims] == ["unknown"]
    assert "time limit" in stopped.claims[0].reason and stopped.claims[0].statement == "player 1 at least 1"
    shown = cli("verify", str(proof), "--time-limit", "1e-9")
    assert shown.code == 3 and "unknown: player 1 at least 1 — the time limit" in shown.out
    assert verify(proof, time_limit=600).valid


def test_what_a_proof_tree_says_beyond_its_fields_is_reported_not_certified(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A key outside a proof tree's fields, a half its claim does not need, a second half of one side and a
    key of a half or node beyond its fields were passed over: the proof stayed "valid: every claim certified"
    (a matrix proof's extra keys were already reported). Each is now reported not certified (exit 3)."""
    from stratagem.verification import verify

    data = json.loads(_proof(cli, tmp_path, "cardclash/three-players.toml").read_text())
    assert verify(data).valid
    edits = {
        "optimal": lambda d: d.update(optimal=True),
        "halves[1]": lambda d: d["halves"].append({"side": "at most", "root": 0, "plies": 1}),
        "halves[0]": lambda d: d["halves"].append(dict(d["halves"][0])),  # the check reads the last
        "halves[0].fastest": lambda d: d["halves"][0].update(fastest=True),
        "nodes": lambda d: d["nodes"][3].update(best=True),
    }
    for claim, edit in edits.items():
        forged = json.loads(json.dumps(data))
        edit(forged)
        verdict = verify(forged)
        assert verdict.status == "not-certified", claim
        assert [(c.claim, c.status) for c in verdict.claims] == [("claim", "certified"), (claim, "not-certified")]
    path = tmp_path / "forged.json"
    forged = json.loads(json.dumps(data))
    forged["halves"].append({"side": "at most", "root": 0, "plies": 1})
    path.write_text(json.dumps(forged))
    shown = cli("verify", str(path))
    assert shown.code == 3 and "not certified: the record's halves[1]" in shown.out
    assert "a half the claim (at least) does not need: not checked" in shown.out


def test_a_depth_cut_value_with_proof_asked_is_printed_and_says_no_proof_was_written(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """``--depth N --proof`` ran the whole search, then refused the option as bad input (exit 2) and threw
    the analysis away unprinted; whether the depth cuts the search is known only after it (a depth reaching
    every end gives a solved value and its proof). The analysis is printed, stderr says why no proof was
    written, exit 3, as when the time limit stops the proof."""
    lone = str(ENDGAMES / "stratatak" / "lone-star.toml")
    proof = tmp_path / "p.json"
    cut = cli("analyze", lone, "--depth", "1", "--proof", str(proof))
    assert cut.code == 3 and not proof.exists()
    assert "status: heuristic" in cut.out and "Traceback" not in cut.err
    assert cut.err.strip().splitlines() == [f"{proof}: no proof written: the search was cut by the depth limit "
                                            "before the end of play, so its value rests on the game's evaluation "
                                            "(status heuristic) and has no proof; analyse it without a depth "
                                            "limit (depth, --depth)"]
    whole = cli("analyze", lone, "--depth", "30", "--proof", str(proof))
    assert whole.code == 0 and cli("verify", str(proof)).code == 0


@pytest.mark.parametrize(("args", "option"), [
    (["--as", "1", "--method", "alphabeta"], "--as"),  # printed an open analysis, as if --as were not there
    (["--samples", "3"], "--samples"),
    (["--iterations", "5"], "--iterations"),
    (["--seed", "4"], "--seed"),
    (["--method", "mcts", "--depth", "2"], "--depth"),
    (["--method", "mcts", "--max-nodes", "5"], "--max-nodes"),
    (["--method", "mcts", "--rank"], "--rank"),
    (["--as", "1", "--iterations", "7"], "--iterations"),  # auto with --as is pimc
    (["--as", "1", "--max-nodes", "3"], "--max-nodes"),
    (["--as", "1", "--depth", "3"], "--depth"),  # a sampled deal of a game in turns is solved to the end
])
def test_an_option_the_method_does_not_use_is_refused(cli, args: list[str], option: str) -> None:  # type: ignore[no-untyped-def]
    """Each of these was accepted and did nothing (exit 0, the same answer as without it)."""
    assert_bad_input(cli("analyze", str(ENDGAMES / "stratatak" / "lone-star.toml"), *args), option, "leave it out")


def test_the_options_a_method_uses_are_still_taken(cli) -> None:  # type: ignore[no-untyped-def]
    lone = str(ENDGAMES / "stratatak" / "lone-star.toml")
    sa = str(ENDGAMES / "stackattack" / "2p-actions-3-turns.toml")
    for args in (["--method", "mcts", "--seed", "3", "--iterations", "20", "--no-rank"],
                 ["--as", "1", "--samples", "2", "--seed", "1", "--no-rank"], ["--max-nodes", "10", "--rank"],
                 ["--depth", "2"], ["--as", "1", "--method", "ismcts", "--iterations", "20"]):
        assert cli("analyze", lone, *args).code in (0, 3), args
    for args in (["--as", "1", "--depth", "1", "--samples", "2"], ["--depth", "1", "--no-rank"],
                 ["--method", "duct", "--iterations", "30", "--seed", "2"]):
        assert cli("analyze", sa, *args).code == 0, args


def test_pimc_card_advice_says_how_deep_each_sampled_deal_is_solved(cli) -> None:  # type: ignore[no-untyped-def]
    """PIMC on a Stack Attack position solves each sampled deal 2 simultaneous turns deep without --depth
    (the game's evaluation beyond), but its assumption said only "each sampled deal solved open by LP"."""
    three_turns = str(ENDGAMES / "stackattack" / "2p-actions-3-turns.toml")
    default = json.loads(cli("analyze", three_turns, "--as", "1", "--samples", "2", "--json").out)
    assert ("for at most 2 simultaneous turns (the game's evaluation beyond; the depth limit, depth or --depth, "
            "sets it)") in default["assumption"]
    deep = json.loads(cli("analyze", three_turns, "--as", "1", "--samples", "2", "--depth", "3", "--json").out)
    assert "for at most 3 simultaneous turns" in deep["assumption"]


def test_a_stakd_refutation_whose_line_says_won_is_invalid(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A STAKD solo proof of 'cannot all be placed' whose (empty) line says ``result: won`` contradicts
    itself; verify passed the flag over and called the proof valid."""
    from stratagem.verification import verify

    proof = tmp_path / "imp.json"
    assert cli("check", str(ENDGAMES / "stakd" / "solo-4-impossible.toml"), "--proof", str(proof),
               "--quiet").code == 1
    data = json.loads(proof.read_text())
    assert verify(data, source=str(proof)).valid
    data["line"]["result"] = "won"
    forged = verify(data, source=str(proof))
    assert forged.status == "invalid" and "line.result: says 'won'" in forged.problem


@pytest.mark.parametrize(("puzzle", "args", "words"), [
    ("stratatak/reshuffle-gamble.toml", ["--as", "1"], "no PIMC estimate"),
    ("stackattack/2p-numbers-6-turns.toml", ["--as", "1"], "no PIMC estimate"),
    ("stratatak/reshuffle-gamble.toml", ["--method", "mcts"], "no mcts estimate"),
])
def test_a_monte_carlo_method_stopped_before_its_first_sample_estimates_nothing(cli, puzzle: str, args: list[str],
                                                                               words: str) -> None:  # type: ignore[no-untyped-def]
    """Stopped by the time limit before one sample or iteration, PIMC and MCTS printed every move's 0.0 as
    an estimate and the first legal move as "best by the estimate", exit 0. Nothing was estimated: status
    unknown, no best move, exit 3."""
    done = cli("analyze", str(ENDGAMES / puzzle), *args, "--time-limit", "1e-9", "--json")
    report = json.loads(done.out)
    assert done.code == 3 and report["status"] == "unknown" and report["best_move"] is None
    assert report["summary"].startswith(words) and all(m["mean"] is None for m in report["moves"])
    shown = cli("analyze", str(ENDGAMES / puzzle), *args, "--time-limit", "1e-9")
    assert shown.code == 3 and "best by the estimate" not in shown.out and "(0.0)" not in shown.out


def test_duct_under_a_time_limit_runs_as_many_iterations_as_it_allows(cli) -> None:  # type: ignore[no-untyped-def]
    """--iterations' help: "default: 2000, or with --time-limit as many as the limit allows"; DUCT ran 2000
    all the same (0.07 s of a 2 s limit)."""
    six = str(ENDGAMES / "stackattack" / "2p-numbers-6-turns.toml")
    # Without the compiled core the whole command's 0.5 s left DUCT on the reference engine 1 iteration, and
    # 3 s 6,160 (2 s: 1,930-2,596): the limit counts from the process's start (stop 68, load 3).
    limit = "0.5" if resolve(load_position(six).game, "compiled").engine is not None else "3"
    timed = json.loads(cli("analyze", six, "--method", "duct", "--time-limit", limit, "--json").out)
    assert timed["iterations"] > 2000
    assert json.loads(cli("analyze", six, "--method", "duct", "--json").out)["iterations"] == 2000
    capped = cli("analyze", six, "--method", "duct", "--time-limit", "30", "--iterations", "300", "--json")
    assert json.loads(capped.out)["iterations"] == 300


def test_verify_of_a_commands_json_report_says_what_it_is(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """``analyze --json > a.json; verify a.json`` said only "unknown record format 'stratagem/analysis@1'"."""
    report = tmp_path / "a.json"
    report.write_text(cli("analyze", str(ENDGAMES / "stakd" / "endgame-2p-bomber.toml"), "--json").out)
    assert_bad_input(cli("verify", str(report)), "a.json: format: stratagem/analysis@1 is the report `stratagem "
                     "analyze --json` prints", "`stratagem analyze --proof FILE` writes that record")


def test_verify_says_a_three_player_upper_bound_is_the_coalitions(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """With three players the paranoid proof of a loss is an "at most" half: one move for the other players
    at once. verify certified the bare "player 1 at most -1", which reads as a loss however the others play,
    where max^n gives player 1 a win in the same position."""
    position = tmp_path / "three.toml"
    position.write_text(MAXN_AND_PARANOID_DIFFER)
    proof = tmp_path / "p.json"
    assert cli("analyze", str(position), "--proof", str(proof), "--quiet").code == 0
    shown = cli("verify", str(proof), "--json")
    statement = json.loads(shown.out)["claims"][0]["statement"]
    assert shown.code == 0 and statement.startswith("player 1 at most -1, a loss within 3 plies whatever player 1 "
                                                    "plays (an upper bound the other players hold them to by "
                                                    "acting together, the paranoid assumption;")
    win = cli("verify", str(_proof(cli, tmp_path, "cardclash/three-players.toml", "w.json")), "--json")
    assert json.loads(win.out)["claims"][0]["statement"] == (  # a guarantee: no words needed
        "player 1 at least 1, a win within 4 plies whatever the others play")


def test_verify_says_within_how_many_plies_a_proven_win_or_loss_comes(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A win's "at least" half (a loss's "at most" half) checks its longest line, recomputed from the rules,
    and a wrong ``plies`` is invalid, but the statement said only "player 1 at least 1": analyze's "wins in
    5 plies" had no part certified in words. A value that is neither a win nor a loss says no distance."""
    from stratagem.verification import verify

    win = verify(_proof(cli, tmp_path, "cardclash/square-in-5.toml"))
    assert win.claims[0].statement == "player 1 at least 1, a win within 5 plies whatever the others play"
    loss = verify(_proof(cli, tmp_path, "stakd/endgame-2p-lost.toml", "l.json"))
    assert loss.claims[0].statement == "player 1 at most -1, a loss within 6 plies whatever player 1 plays"
    odds = verify(_proof(cli, tmp_path, "stratatak/long-odds.toml", "o.json"))
    assert "within" not in odds.claims[0].statement.split(";")[0] and "plies" not in odds.claims[0].statement


def test_a_wins_distance_says_when_chance_events_count_as_plies(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from stratagem.verification import verify

    win = verify(_proof(cli, tmp_path, "stratatak/run-of-reds.toml"))  # a certain win through draws
    assert win.claims[0].statement.startswith("player 1 at least 1, a win within 8 plies (a chance event counted "
                                              "as a ply) whatever the others play")


def test_a_depth_cut_lp_value_of_three_players_is_not_called_a_guarantee(cli) -> None:  # type: ignore[no-untyped-def]
    """``--depth 1`` on a 3-player Stack Attack position said "player 1 guarantees -3 against the rest" with
    status heuristic: the cut values rest on the game's evaluation (two players already said so)."""
    three = str(ENDGAMES / "stackattack" / "3p-numbers-3-turns.toml")
    cut = json.loads(cli("analyze", three, "--depth", "1", "--json").out)
    assert cut["status"] == "heuristic" and "guarantees" not in cut["summary"]
    assert cut["summary"].startswith("depth-limited value (evaluation at the cut), each player against the rest: "
                                     "player 1 ")
    whole = json.loads(cli("analyze", three, "--json").out)
    assert whole["status"] == "solved" and "player 1 guarantees" in whole["summary"]


def test_an_exact_three_player_value_says_which_half_is_the_coalitions(tmp_path: Path) -> None:
    from stratagem.loading import load_position
    from stratagem.solvers.alphabeta import return_bounds
    from stratagem.solvers.prooftree import build_proof_tree
    from stratagem.verification import verify

    position = tmp_path / "three.toml"
    position.write_text(MAXN_AND_PARANOID_DIFFER)
    loaded = load_position(position)
    low, high = return_bounds(loaded.game)
    record = build_proof_tree(loaded.game, loaded.state, player=0, value=-1, bound="exactly", lo=low, hi=high)
    record["setup"] = loaded.game.setup()
    verdict = verify(record)
    assert verdict.valid and verdict.claims[0].statement == (
        "player 1 exactly -1 (the lower bound whatever the others do, the upper bound the other players hold "
        "them to by acting together, the paranoid assumption; each playing for themselves may give them more)")
