"""``stratagem show``: draw a puzzle's deal, or replay a line or proof record turn by turn.

``--json`` prints the same facts as one ``stratagem/show@1`` object (docs/formats.md section 10.5): the
positions in the game's notation instead of drawings, so a script can read a deal without parsing them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click
from rich.markup import escape

from stratagem.cli.limits import WholeRange
from stratagem.cli.options import json_option, quiet_option
from stratagem.cli.render import describe_challenge, draw_rows, draw_state
from stratagem.core.errors import BadInput
from stratagem.core.io import load_json
from stratagem.core.outputs import dumps_record
from stratagem.core.records import LINE_FORMAT, PROOF_FORMAT, Line, Proof, quoted
from stratagem.loading import game_from_record, game_module, game_of_file, load_position, load_strato
from stratagem.models.strato.rules.position import format_state
from stratagem.solvers.replay import replay

#: The format name of ``show --json`` (docs/formats.md section 10.5).
SHOW_FORMAT = "stratagem/show@1"

#: How many deal names the text lists (a generated puzzle may hold thousands: 101 KB on one line).
LISTED_DEALS = 20


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--deal", "deal_key", metavar="NAME|SEED", default=None,
              help="A deal named in the puzzle file, or an integer seed (default: the first deal).")
@click.option("--players", type=WholeRange(1, 4), default=None, help="Player count for a seeded deal.")
@json_option(f"Print one JSON object ({SHOW_FORMAT}).")
@quiet_option("Accepted for uniformity: show prints nothing on stderr but errors.")
def show(file: str, deal_key: str | None, players: int | None, as_json: bool, quiet: bool) -> int:
    """Draw a puzzle or position file, or a line/proof record (.json) move by move."""
    from stratagem.cli.output import stdout

    out = stdout()
    if file.lower().endswith(".json"):
        if deal_key is not None or players is not None:
            raise BadInput(file, "--deal" if deal_key is not None else "--players", "--deal and --players choose "
                           "a deal of a Strato puzzle; a record holds its own start")
        line, where = _line_of(file)
        game, start = game_from_record(line.game, line.setup, line.start, file)
        result = replay(game, start, line.moves)
        if not result.ok:
            raise BadInput(file, f"{where}moves[{result.error_at}]", result.error)
        if as_json:
            notation = format_state if line.game == "strato" else game.format_state
            return _print_json({"kind": "line", "game": line.game, "file": file, "setup": line.setup,
                                "start": notation(start), "moves": list(line.moves),
                                "positions": [notation(state) for state in result.states[1:]],
                                "end": notation(result.final)})
        if line.game != "strato":
            return _show_position_line(line.game, game, start, line.moves, result.states)
        out.print(describe_challenge(game.challenge))
        out.print(f"start  [dim]{format_state(start)}[/]")
        for text in draw_state(start, game.challenge):
            out.print(text)
        for turn, text in enumerate(line.moves, start=1):
            out.print(f"turn {turn}  player {result.states[turn - 1].to_move + 1}  [bold]{text}[/]")
            for row_text in draw_rows(result.states[turn], game.challenge):
                out.print(row_text)
        out.print(f"end    [dim]{format_state(result.final)}[/]")
        return 0
    if game_of_file(file) != "strato":
        loaded = load_position(file)
        if deal_key is not None or players is not None:
            raise BadInput(file, "--deal" if deal_key is not None else "--players",
                           f"--deal and --players are for Strato puzzles, not {loaded.game_name}")
        if as_json:
            return _print_json({"kind": "position", "game": loaded.game_name, "file": file, "name": loaded.name,
                                "description": loaded.description, "setup": loaded.game.setup(),
                                "start": loaded.game.format_state(loaded.state)})
        title = loaded.game_name + (f" — {loaded.name}" if loaded.name else "")
        out.print(f"[bold]{escape(title)}[/]")
        if loaded.description:
            out.print(escape(loaded.description))
        _draw_position(loaded.game_name, loaded.game, loaded.state)
        return 0
    puzzle = load_strato(file)
    spec = puzzle.find_deal(deal_key, players)
    state = puzzle.deal(spec)
    if as_json:
        return _print_json({"kind": "deal", "game": "strato", "file": file,
                            "challenge": describe_challenge(puzzle.challenge, markup=False), "setup": puzzle.setup(),
                            "deal": spec.name, "seed": spec.seed, "players": len(state.hands),
                            "start": format_state(state), "deals": [d.name for d in puzzle.deals]})
    out.print(describe_challenge(puzzle.challenge))
    options = [name for name, on in puzzle.options.to_data().items() if on]
    if options:
        out.print(f"options: {', '.join(options)}")
    seed = f"seed {spec.seed}, " if spec.seed is not None else ""
    out.print(f"deal {escape(spec.name)} ({seed}{len(state.hands)} player(s))  [dim]{format_state(state)}[/]")
    for text in draw_state(state, puzzle.challenge):
        out.print(text)
    if len(puzzle.deals) > 1:
        names = [escape(d.name) for d in puzzle.deals[:LISTED_DEALS]]
        more = len(puzzle.deals) - len(names)
        out.print("deals in this file: " + ", ".join(names)
                  + (f", and {more:,} more (--json lists them all)" if more else ""))
    return 0


def _print_json(report: dict[str, Any]) -> int:
    """Print ``report`` as the one ``stratagem/show@1`` document of the command's output."""
    click.echo(dumps_record({"format": SHOW_FORMAT, **report}), nl=False)
    return 0


def _draw_position(game_name: str, game: Any, state: Any) -> None:
    """The position's notation, whose turn it is, and the game's own drawing of it."""
    from stratagem.cli.output import stdout

    out = stdout()
    out.print(f"position  [dim]{escape(game.format_state(state))}[/]")
    render = game_module(game_name, "render", "<game>")
    for text in render.draw(game, state):
        out.print(text)


def _show_position_line(game_name: str, game: Any, start: Any, moves: tuple[str, ...], states: Sequence[Any]) -> int:
    from stratagem.cli.output import stdout

    out = stdout()
    out.print(f"[bold]{game_name}[/]")
    _draw_position(game_name, game, start)
    for ply, text in enumerate(moves, start=1):
        out.print(f"ply {ply}  [bold]{escape(text)}[/]")
        _draw_position(game_name, game, states[ply])
    return 0


def _line_of(file: str) -> tuple[Line, str]:
    """The record's line, and where its moves are in the file (``line.`` in a proof record, so that a
    bad move is named by its place there, ``line.moves[2]``)."""
    from stratagem.verification.gameproofs import GAME_PROOFS

    data = load_json(file)
    if data.get("format") == LINE_FORMAT:
        return Line.from_json(data, file), ""
    if data.get("format") in GAME_PROOFS:  # a proof tree or matrix proof: its position, each field named
        for key, kind in (("game", str), ("setup", dict), ("start", str)):
            if not isinstance(data.get(key), kind):
                raise BadInput(file, key, f"missing or of the wrong type (a {data['format']} record names its "
                               "game, setup and start position)")
        if data["game"] == "strato":
            raise BadInput(file, "game", f"a {data['format']} record is of a card game or STAKD, not Strato")
        return Line(data["game"], data["setup"], data["start"], ()), ""
    if isinstance(data.get("start"), str) and isinstance(data.get("setup"), dict) and data.get("game") != "strato":
        # a proof tree or LP certificate: show the position it is about
        return Line(str(data.get("game")), data["setup"], data["start"], ()), ""
    if data.get("format") == PROOF_FORMAT:
        proof = Proof.from_json(data, file)
        if proof.line is None:
            raise BadInput(file, "line", "this proof record holds no line to show")
        return proof.line, "line."
    raise BadInput(file, "format", f"not a line or proof record (format {quoted(data.get('format'))})")
