"""One spelling per concept across commands (issue 32).

The test walks the command tree (every command :data:`stratagem.cli.main.COMMANDS` names, loaded through
the CLI's own lazy group) and lists every option each one takes. It fails when one concept is spelled two
ways: an option named with a known synonym of a concept (``--nodes`` where ``--max-nodes`` is meant,
``--games`` where ``--count`` is), unless it is a :class:`~stratagem.cli.options.Renamed` option's old
spelling, kept for one release. Every command takes ``--quiet`` and ``--json``. The old spellings still
parse, with one deprecation line on stderr.
"""

from __future__ import annotations

import json

import click
import pytest

from stratagem.cli.main import COMMANDS, cli
from stratagem.cli.options import CONCEPTS, Renamed


def commands() -> dict[str, click.Command]:
    """Every command of ``stratagem``, by name, as the CLI loads it."""
    ctx = click.Context(cli)
    found = {}
    for name in cli.list_commands(ctx):
        command = cli.get_command(ctx, name)
        assert command is not None, name
        found[name] = command
    assert set(found) == set(COMMANDS)
    return found


def spellings(command: click.Command) -> list[tuple[str, click.Option]]:
    """Every name an option of ``command`` answers to on the command line (old spellings included)."""
    names = []
    for param in command.params:
        if isinstance(param, click.Option):
            for name in (*param.opts, *param.secondary_opts, *getattr(param, "old", ())):
                names.append((name, param))
    return names


def test_the_walk_sees_every_command_and_its_options() -> None:
    found = commands()
    assert {"solve", "verify", "bench", "reach", "odds", "sweep", "play"} <= set(found)
    assert any(name == "--max-nodes" for name, _ in spellings(found["solve"]))


def test_no_concept_is_spelled_two_ways() -> None:
    """A synonym of a concept may only be a Renamed option's old spelling, and that option must then carry
    the concept's canonical name."""
    synonyms = {synonym: (concept, canonical) for concept, (canonical, others) in CONCEPTS.items()
                for synonym in others}
    wrong = []
    for name, command in commands().items():
        for spelling, option in spellings(command):
            if spelling not in synonyms:
                continue
            concept, canonical = synonyms[spelling]
            old = isinstance(option, Renamed) and spelling in option.old
            if not old or canonical not in option.opts:
                wrong.append(f"{name} {spelling}: {concept} is spelled {canonical}")
    assert not wrong, "\n".join(wrong)


def test_every_renamed_option_keeps_a_synonym_of_its_own_concept() -> None:
    """An old spelling is a known synonym of the concept whose canonical name the option now has (so the
    table above is what the command line really offers)."""
    canonical_of = {canonical: others for canonical, others in CONCEPTS.values()}
    for name, command in commands().items():
        for option in command.params:
            if isinstance(option, Renamed) and option.old:
                assert option.opts[0] in canonical_of, (name, option.opts)
                assert set(option.old) <= set(canonical_of[option.opts[0]]), (name, option.old)


@pytest.mark.parametrize("flag", ["--quiet", "--json"])
def test_every_command_takes(flag: str) -> None:
    missing = [name for name, command in commands().items() if flag not in {n for n, _ in spellings(command)}]
    assert not missing, f"{flag} missing on: {', '.join(missing)}"


def test_the_checker_fails_on_a_second_spelling() -> None:
    """The check above is not vacuous: a command with ``--nodes`` as its own (not old) name is caught."""
    @click.command()
    @click.option("--nodes", type=int)
    def bad(nodes: int) -> None:
        """A command that spells the node limit the old way."""

    synonyms = {synonym for _, others in CONCEPTS.values() for synonym in others}
    assert [spelling for spelling, option in spellings(bad)
            if spelling in synonyms and not (isinstance(option, Renamed) and spelling in option.old)] == ["--nodes"]


def test_an_old_spelling_still_works_with_one_line_on_stderr(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from conftest import PUZZLES

    puzzle = str(PUZZLES / "challenge-0.toml")
    new = cli("reach", puzzle, "--max-nodes", "50", "--json")
    old = cli("reach", puzzle, "--max-states", "50", "--json")
    assert new.code == old.code == 3, old.err  # truncated at 50 states
    assert json.loads(new.out) == json.loads(old.out)  # the same limit, so the same truncated graph
    assert new.err == ""
    assert old.err.strip().splitlines() == [
        "stratagem reach: --max-states is deprecated, use --max-nodes (the old spelling goes in the next release)"]
    both = cli("reach", puzzle, "--max-nodes", "50", "--max-states", "60")
    assert both.code == 2 and "--max-nodes" in both.err


def test_agent_errors_name_the_agent_and_the_choices_once(cli) -> None:  # type: ignore[no-untyped-def]
    from conftest import PUZZLES

    unknown = cli("play", "stakd", "--agents", "foo,random", "--count", "1")
    assert unknown.code == 2
    assert unknown.err.strip() == ("stratagem play: --agents[1]: unknown agent 'foo'; known agents: duct, greedy, "
                                   "ismcts, mcts, pimc, random")
    strato = cli("play", "strato", str(PUZZLES / "challenge-0.toml"), "--agents", "foo", "--count", "1")
    assert strato.code == 2 and strato.err.count("greedy") == 1 and strato.err.startswith("stratagem play: --agents")
    parameter = cli("play", "stakd", "--agents", "mcts:foo=1,random", "--count", "1")
    assert parameter.code == 2 and parameter.err.count("\n") == 1
    assert "agent 'mcts': no parameter 'foo'; its parameters: iterations, time_limit" in parameter.err
    short = cli("play", "stratatak", "--agents", "greedy", "--count", "1")
    assert short.code == 2 and "--players" not in short.err and short.err.startswith("stratagem play: --agents: ")
