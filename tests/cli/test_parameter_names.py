"""A value refused for one parameter is named as its reader gave it: the library's errors name the API's
parameter (``deal``, ``seeds``), which a library user typed; the CLI shows the option a command-line user
typed (``--deal``, ``--seeds`` or ``--count``). Before, the library's errors named the options, so
``stratagem.load(path, deal="nope")`` said ``--deal: no deal named 'nope'``."""

from __future__ import annotations

import pytest
from conftest import PUZZLES

import stratagem
from stratagem.cli.options import option_for
from stratagem.core.errors import BadArgument, BadInput
from stratagem.sweep import plan
from stratagem.sweepcluster import connect

CHALLENGE_0 = str(PUZZLES / "challenge-0.toml")


@pytest.mark.parametrize(("call", "parameter"), [
    (lambda: stratagem.load(CHALLENGE_0, deal="nope"), "deal"),
    (lambda: stratagem.load(CHALLENGE_0, deal=str(2**64)), "deal"),
    (lambda: stratagem.odds(CHALLENGE_0, "duo-1"), "deal"),
    (lambda: plan([CHALLENGE_0], seeds=[-1], players=[1]), "seeds"),
    (lambda: plan([CHALLENGE_0], seeds=[0], players=[1], methods=["nosuch"]), "methods"),
    (lambda: plan([CHALLENGE_0], seeds=[0], players=[9]), "players"),
    (lambda: connect(None, "not an address"), "scheduler"),
])
def test_the_library_names_its_parameter(call, parameter: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(BadInput) as raised:
        call()
    assert isinstance(raised.value, BadArgument) and raised.value.parameter == parameter
    assert raised.value.place == parameter and "--" not in str(raised.value).split(": ")[1]


@pytest.mark.parametrize(("args", "shown"), [
    (("solve", CHALLENGE_0, "--deal", "nope"), f"{CHALLENGE_0}: --deal: no deal named 'nope'"),
    (("odds", CHALLENGE_0, "--deal", "duo-1"), f"{CHALLENGE_0}: --deal: deal 'duo-1' has 2 players"),
    (("sweep", CHALLENGE_0, "--seeds", "0..3", "--method", "nosuch", "--workers", "0", "--out", "x.jsonl"),
     "stratagem sweep: --method: unknown method 'nosuch'"),
    (("sweep", CHALLENGE_0, "--count", "100000", "--players", "1,2,3", "--method", "bfs", "--method", "sat",
      "--workers", "0", "--out", "x.jsonl"), "stratagem sweep: --count: 1 puzzle(s) x 100,000 seed(s)"),
    (("sweep", CHALLENGE_0, "--seeds", "0..99999", "--players", "1,2,3", "--method", "bfs", "--method", "sat",
      "--workers", "0", "--out", "x.jsonl"), "stratagem sweep: --seeds: 1 puzzle(s) x 100,000 seed(s)"),
])
def test_the_command_line_names_the_option(cli, tmp_path, monkeypatch, args, shown: str) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    result = cli(*args)
    assert result.code == 2 and result.err.startswith(shown), result.err


def test_option_for_spells_each_parameter_as_its_option() -> None:
    assert [option_for(p) for p in ("deal", "time_limit", "max_states", "games", "methods", "--out",
                                    "proof (the refutation's CNF)")] == [
        "--deal", "--time-limit", "--max-nodes", "--count", "--method", "--out", "--proof (the refutation's CNF)"]


def test_play_and_analyze_name_the_parameter_or_the_option(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # analyze said "say which with --as" to a library user, play "--players says 3" of a position file
    from stratagem.matches import play

    position = str(PUZZLES.parent / "cardclash" / "square-in-1.toml")
    with pytest.raises(BadArgument) as raised:
        stratagem.analyze(position, method="pimc")
    assert raised.value.line() == "<argument>: as_player: pimc analyses one player's observation: say whose"
    shown = cli("analyze", position, "--method", "pimc")
    assert shown.code == 2 and shown.err == ("stratagem analyze: --as: pimc analyses one player's observation: "
                                             "say whose\n")
    with pytest.raises(BadArgument) as raised:
        play("cardclash", ["greedy", "random"], position=position, players=3)
    assert raised.value.line() == f"{position}: players: the position has 2 players, not 3"
    shown = cli("play", "cardclash", "--agents", "greedy,random", "--position", position, "--players", "3")
    assert shown.code == 2 and shown.err == f"{position}: --players: the position has 2 players, not 3\n"
