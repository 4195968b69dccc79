"""The library entry points give what the commands print: ``stratagem solve/check/verify --json`` are the
``to_json()`` of ``stratagem.solve/check/verify``, and the commands are thin shells over them."""

from __future__ import annotations

import ast
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import PUZZLES, ROOT

import stratagem
from stratagem.core.errors import BadInput

CHALLENGE_0 = str(PUZZLES / "challenge-0.toml")
STAKD = ROOT / "puzzles" / "stakd"


def _without_timings(data: object) -> object:
    """``data`` with every ``...seconds`` key dropped (wall times differ from run to run)."""
    if isinstance(data, dict):
        return {k: _without_timings(v) for k, v in data.items() if not k.endswith("seconds")}
    if isinstance(data, list):
        return [_without_timings(v) for v in data]
    return data


def test_solve_json_is_the_library_solution(cli, tmp_path: Path) -> None:
    shown = cli("solve", CHALLENGE_0, "--deal", "four-2", "--json", "--proof", str(tmp_path / "cli.json"))
    assert shown.code == 0
    solution = stratagem.solve(CHALLENGE_0, "four-2")
    assert _without_timings(json.loads(shown.out)) == _without_timings(solution.to_json())
    assert solution.write_proof(tmp_path / "api.json")
    cli_record = json.loads((tmp_path / "cli.json").read_text())
    api_record = json.loads((tmp_path / "api.json").read_text())
    assert _without_timings(cli_record) == _without_timings(api_record)
    assert api_record["claim"] == solution.claim() == {"solvable": True, "length": 5, "optimal": True,
                                                        "information": "open"}


def test_check_and_verify_json_are_the_library_results(cli, tmp_path: Path) -> None:
    puzzle = str(STAKD / "solo-4-impossible.toml")
    record = tmp_path / "imp.json"
    shown = cli("check", puzzle, "--json", "--proof", str(record))
    assert shown.code == 1
    answer = stratagem.check(puzzle)
    assert isinstance(answer, stratagem.SoloCheck) and answer.winnable is False
    assert json.loads(shown.out) == {**answer.to_json(), "proof": str(record)}
    verdict = stratagem.verify(record)
    assert verdict.valid and [c.claim for c in verdict.claims] == ["winnable"]
    printed = cli("verify", str(record), "--json")
    assert printed.code == 0 and json.loads(printed.out) == verdict.to_json()


def test_a_record_given_as_data_is_verified_like_its_file(tmp_path: Path) -> None:
    solution = stratagem.solve(CHALLENGE_0, "solo-1", method="astar")
    path = tmp_path / "astar.json"
    solution.write_proof(path)
    from_file = stratagem.verify(path)
    from_data = stratagem.verify(json.loads(path.read_text()), source=str(path))
    assert from_file.to_json() == from_data.to_json()
    assert from_file.status == "not-certified" and from_file.open_claims[0].claim == "optimal"


def test_check_of_a_strato_deal_is_its_solution() -> None:
    answer = stratagem.check(CHALLENGE_0, deal="solo-2")
    assert isinstance(answer, stratagem.DealSolution)
    assert answer.deal.name == "solo-2" and answer.status == "solved" and answer.moves


def test_load_and_from_notation_agree() -> None:
    deal = stratagem.load(CHALLENGE_0, deal="duo-1")
    assert isinstance(deal, stratagem.StratoDeal) and deal.game.num_players == 2
    again = stratagem.from_notation("strato", deal.game.format_state(deal.start), deal.setup())
    assert again.state == deal.start and again.game_name == "strato"
    position = stratagem.load(STAKD / "solo-1-tiny.toml")
    assert isinstance(position, stratagem.Position) and position.game_name == "stakd"


def test_the_library_refuses_what_cannot_be_done() -> None:
    with pytest.raises(BadInput, match="<argument>: method: unknown method 'guess'"):  # was a ValueError
        stratagem.solve(CHALLENGE_0, method="guess")
    with pytest.raises(BadInput, match="<argument>: method: check takes the methods"):  # as analyze's
        stratagem.check(CHALLENGE_0, method="guess")
    with pytest.raises(BadInput, match="<argument>: method: STAKD solo puzzles are solved by sat or cpsat"):
        stratagem.checking.check_solo(STAKD / "solo-1-tiny.toml", method="bfs")
    with pytest.raises(ValueError, match="max_nodes"):
        stratagem.solve(CHALLENGE_0, method="sat", max_nodes=10)
    with pytest.raises(ValueError, match="time_limit"):
        stratagem.verify({"format": "stratagem/line@1"}, time_limit=math.nan)
    with pytest.raises(BadInput, match="deal and players are for Strato"):
        stratagem.load(STAKD / "solo-1-tiny.toml", deal="solo-1")
    with pytest.raises(BadInput, match="no deal named 'nine-9'"):
        stratagem.solve(CHALLENGE_0, "nine-9")
    with pytest.raises(BadInput, match="check answers puzzles"):
        stratagem.check(ROOT / "puzzles" / "stratatak" / "lone-star.toml")


@pytest.mark.parametrize("limits", [{"max_nodes": 1.5}, {"max_nodes": 0}, {"max_nodes": True}, {"time_limit": -1},
                                    {"time_limit": 0}, {"time_limit": math.inf}, {"time_limit": "5"}])
def test_the_library_refuses_limits_the_command_line_refuses(limits: dict[str, object]) -> None:
    """``solve(max_nodes=1.5)`` once never returned (a last budget of half a node never ran out), and
    ``solve(time_limit=-1)`` answered ``unknown`` where ``verify`` refused the same limit."""
    key = next(iter(limits))
    with pytest.raises(ValueError, match=key):
        stratagem.solve(CHALLENGE_0, **limits)  # type: ignore[arg-type]
    calls = [lambda: stratagem.odds(CHALLENGE_0, **{"max_states" if key == "max_nodes" else key: limits[key]}),
             lambda: stratagem.analyze(ROOT / "puzzles" / "stratatak" / "lone-star.toml", **limits)]
    if key == "time_limit":
        calls += [lambda: stratagem.check(STAKD / "solo-1-tiny.toml", time_limit=limits[key]),
                  lambda: stratagem.verify({"format": "stratagem/line@1"}, time_limit=limits[key])]
    for call in calls:
        with pytest.raises(ValueError, match="max_states|max_nodes|time_limit"):
            call()


def test_odds_of_another_games_file_is_bad_input() -> None:
    """``stratagem.odds`` of a Card Clash or STAKD file was a bare AssertionError (the command checked it)."""
    for path in (ROOT / "puzzles" / "cardclash" / "square-in-3.toml", STAKD / "solo-1-tiny.toml"):
        with pytest.raises(BadInput, match="game: odds are for Strato puzzles"):
            stratagem.odds(path)


@pytest.mark.parametrize(("parameters", "fragment"), [
    ({"method": "mcts", "iterations": 0}, "iterations must be a whole number from 1"),
    ({"method": "duct", "iterations": -5}, "iterations must be a whole number from 1"),
    ({"method": "pimc", "as_player": 1, "samples": -1}, "samples must be a whole number from 1"),
    ({"method": "mcts", "seed": "x"}, "seed must be a whole number from 0"),
    ({"method": "pimc", "as_player": "1"}, "as_player must be a player's number"),
])
def test_analyze_refuses_the_numbers_the_command_line_refuses(parameters: dict[str, object], fragment: str) -> None:
    """``iterations=0`` gave an "estimate" of no search, ``samples=-1`` one over no deal, ``seed="x"`` was
    taken, and ``as_player="1"`` was a TypeError."""
    with pytest.raises(ValueError, match=fragment):
        stratagem.analyze(ROOT / "puzzles" / "stratatak" / "lone-star.toml", **parameters)  # type: ignore[arg-type]


def test_a_match_names_its_game_and_its_agents_as_a_list() -> None:
    """A rules object as the game was refused as "agents: ... unknown game <...object at 0x...>", and the
    string "greedy,random" was read as 13 agents."""
    import stratagem.matches

    game = stratagem.load(ROOT / "puzzles" / "stratatak" / "lone-star.toml").game  # type: ignore[union-attr]
    with pytest.raises(BadInput, match="game_name: a game's name"):
        stratagem.matches.play(game, ["greedy", "random"], games=2)
    with pytest.raises(BadInput, match="agents: a list of agent specs"):
        stratagem.matches.play("stratatak", "greedy,random", games=2)


@pytest.mark.parametrize("position", [(1, 2), 5, None])
def test_analyze_refuses_what_is_not_a_position(position: object) -> None:
    """Once an AttributeError or a TypeError; the docstring promises BadInput naming the parameter."""
    with pytest.raises(BadInput, match="position: a position file, a loaded Position or a"):
        stratagem.analyze(position)  # type: ignore[arg-type]


def test_a_search_stopped_without_a_line_claims_nothing() -> None:
    """Not ``solvable: false``, which is unsolvability: ``claim()`` of a stopped search was the same as a
    proven unsolvable deal's."""
    stopped = stratagem.solve(ROOT / "puzzles" / "strato" / "challenge-1.toml", "solo-1", method="bfs", max_nodes=5)
    assert (stopped.status, stopped.line_text) == ("unknown", ())
    assert stopped.claim() == {}


def test_import_stratagem_is_light_and_lists_its_names() -> None:
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, stratagem; print(sorted(m for m in sys.modules if m.split('.')[0] in "
         "('numpy', 'ortools', 'networkx', 'pysat') or m.startswith('stratagem.')))"],
        capture_output=True, text=True, check=True)
    # Only the error type every entry point raises (no imports of its own), so that `except stratagem.BadInput`
    # and its full name work before any call.
    assert loaded.stdout.strip() == "['stratagem.core', 'stratagem.core.errors']"
    assert dir(stratagem) == sorted(stratagem.__all__)
    for name in stratagem.__all__:
        assert getattr(stratagem, name) is not None, name
    with pytest.raises(AttributeError):
        stratagem.no_such_name  # noqa: B018


def test_no_command_module_imports_another() -> None:
    """Commands share library calls and the CLI's support modules (reports, render, progress ...), never
    each other; cli/main.py, the group, is the one module that names them all."""
    folder = ROOT / "stratagem" / "cli"
    commands = {p.stem for p in folder.glob("*.py") if "@click.command" in p.read_text(encoding="utf-8")}
    assert {"solve", "check", "verify", "generate", "bench"} <= commands
    for path in sorted(folder.glob("*.py")):
        if path.stem == "main":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                [a.name for a in node.names] if isinstance(node, ast.Import) else []
            for name in names:
                parts = name.split(".")
                assert not (parts[:2] == ["stratagem", "cli"] and len(parts) > 2 and parts[2] in commands), \
                    f"{path.name} imports {name}"


def test_the_package_ships_its_type_hints() -> None:
    """PEP 561: without ``py.typed`` in the installed package, a user's mypy found no types in stratagem."""
    import tomllib

    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "py.typed" in data["tool"]["setuptools"]["package-data"]["stratagem"]
    assert (Path(stratagem.__file__).parent / "py.typed").is_file()


def test_arguments_of_the_wrong_type_are_bad_input_naming_the_parameter() -> None:
    """``from_notation(game, None)`` was an AttributeError, ``setup="x"`` a ValueError from dict(), and
    ``verify([1, 2])`` a TypeError from open()."""
    with pytest.raises(BadInput, match="text: a position in the game's notation, not NoneType"):
        stratagem.from_notation("stratatak", None)  # type: ignore[arg-type]
    with pytest.raises(BadInput, match="setup: a table of the rules' options, not str"):
        stratagem.from_notation("stratatak", "B9R1,B1G2 - - - A1", setup="x")  # type: ignore[arg-type]
    with pytest.raises(BadInput, match="record: a record's file or its JSON data, not list"):
        stratagem.verify([1, 2])  # type: ignore[arg-type]


def test_odds_takes_a_deal_already_chosen_as_solve_does(tmp_path: Path) -> None:
    # odds and odds_bounds took only a puzzle's file (odds) or a StratoDeal (odds_bounds): a Position from
    # from_notation, which solve takes, was "not a file's path"
    from fractions import Fraction

    from stratagem.winprobability import odds_bounds

    deal = stratagem.load(CHALLENGE_0, "solo-1")
    met = stratagem.from_notation("strato", "RRWR(RW)WWRW RRR WRR 1 -", deal.setup())
    assert stratagem.odds(met).result.value == Fraction(2, 3) == stratagem.odds(
        CHALLENGE_0, position="RRWR(RW)WWRW RRR WRR 1 -").result.value
    chosen = stratagem.loading.as_deal(met)  # a StratoDeal, as stratagem.load gives one
    game = type(deal.game)(deal.game.challenge, deal.game.options, met.state)
    assert stratagem.odds(chosen).result.value == stratagem.odds(game).result.value == Fraction(2, 3)
    bounds = odds_bounds(met, tmp_path / "t.gz", time_limit=30)
    assert bounds.lower == bounds.upper == Fraction(2, 3)
    with pytest.raises(BadInput, match="deal: deal 'duo-1' has 2 players"):
        stratagem.odds(stratagem.load(CHALLENGE_0, "duo-1"))
    with pytest.raises(BadInput, match="puzzle: odds takes Strato deals, not a stakd position"):
        stratagem.odds(stratagem.load(STAKD / "solo-1-tiny.toml"))
    with pytest.raises(BadInput, match="deal: a loaded Strato deal .* not str"):
        odds_bounds("solo-1", tmp_path / "u.gz")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="this is a deal already"):
        stratagem.odds(deal, "solo-2")
    with pytest.raises(ValueError, match="give the puzzle's file"):
        stratagem.odds(deal, position="RRWR(RW)WWRW RRR WRR 1 -")
