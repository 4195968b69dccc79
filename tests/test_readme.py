"""README.md's and the guides' (docs/guide/*.md) tour, run: every ``$ stratagem ...`` command shown in a
fenced block is run and its output compared with the lines printed under it, and every ```` ```python ````
block is executed. Every example command in a README table is one of those fenced commands, so it is
run too.

Commands run in document order, one section (a file's ``##``/``###`` heading) at a time, in one temporary
working directory per section with a ``puzzles`` link to the repository's ``puzzles/``, so a file one
command writes (``--proof four-2.json``) is there for the next (``verify four-2.json``).

The comparison is strict except for this normalisation (:func:`matches`), which the README relies on:

1. trailing whitespace on each line and blank lines at the end of the output are ignored (rich pads its
   tables with spaces);
2. a number followed by `` s`` (``0.37 s``, ``8.5 s``) is a wall time and matches any number followed
   by `` s``;
3. ``(varies)``, also written ``"(varies)"`` as a JSON value, stands for any non-empty text (a timing in
   JSON, or the node count of a search stopped by its time limit);
4. an output line that is exactly ``...`` stands for any number of omitted lines (an output abridged on
   purpose); the lines between such markers must appear contiguously and in order, and the first and
   last shown lines must be the first and last printed unless a ``...`` stands before or after them.

The documents show what the compiled core prints. Where it is not built (an install without a C compiler,
or ``STRATAGEM_PURE_PYTHON=1``), the commands give the same answers and say so, and their outputs are
compared with three more things forgiven, there only (:func:`matches` with ``pure``): (5) the lines that
say the core is missing (``stratagem: the compiled core is missing (...`` and analyze's ``note: the
compiled core is not built or out of date (...``); (6) the node count that starts a line (the reference
engine searches in its own move order) and the count of lemmas a DRUP check checked, with the name of the
checker's engine (``compiled engine``, ``python engine``): the Python checker checks another set.
Values, lines, moves, proofs' sizes and every other word are held as strictly as with the compiled core.

The output shown is what a terminal shows: stdout, then stderr (no command of the tour interleaves the
two; ``generate`` reports on stderr). Every command must exit with a code that is an answer (0, 1 or
3), not bad input or a crash. A ``print(...)`` line of a Python block ending in ``# TEXT`` declares a line the block
prints: those lines must appear in the block's output, in order.

Blocks with a command that takes more than about three seconds (:data:`SLOW_COMMANDS`) run only in the
``slow`` test; no fast block reads a file that a slow block writes.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from stratagem.cli.main import run
from stratagem.core.compiled import status

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
GUIDES = sorted((REPO / "docs" / "guide").glob("*.md"))
#: Every document whose commands are run: the README, then the guides it links to.
DOCUMENTS = [README, *GUIDES]

#: Commands whose run takes more than about three seconds on 2 loaded cores (measured): challenge 1's
#: solo-1 with the relaxation (6-7 s; its verify then 4 s), the A* run stopped by ``--time-limit 5``,
#: the STAKD solo set's SAT witness (3.5 s), and the level-2 example's duo-1 (2-4 s, its verify 2 s); the
#: "Seeing the answer" section's own solve of solo-1 and check of the solo set (6-10 s).
SLOW_COMMANDS = (
    "stratagem solve puzzles/strato/challenge-1.toml --deal solo-1 --proof c1s1.json",
    "stratagem solve puzzles/strato/challenge-1.toml --deal solo-1 --method astar --time-limit 5",
    "stratagem check puzzles/stakd/solo.toml",
    "stratagem solve puzzles/strato/level-2-example.toml --deal duo-1 --proof l2d1.json",
    "stratagem solve puzzles/strato/challenge-1.toml --deal solo-1 --proof solo-1.json --html solo-1.html",
    "stratagem check puzzles/stakd/solo.toml --proof stakd-solo.json",
)

OMITTED = "..."
_TIME = re.compile(r"\d+(?:\.\d+)? s\b")
_VARIES = re.compile(r'"\(varies\)"|\(varies\)')
#: Rule 5: the lines that say the compiled core is missing (stderr's notice, analyze's note).
_CORE_MISSING = ("stratagem: the compiled core is missing (", "note: the compiled core is not built or out of date (")
#: Rule 6: what the reference engine and the Python DRUP checker count in their own way.
_ENGINE_COUNTS = re.compile(r"^[\d,]+ nodes\b|\b[\d,]+ lemmas\b|\b(?:compiled|python) engine\b")


@dataclass
class Command:
    """One ``$ stratagem ...`` line of a README block and the output shown under it."""

    line: str
    expected: list[str] = field(default_factory=list)


@dataclass
class Block:
    """A fenced block: its commands (shell tour blocks) or its code (``python`` blocks)."""

    section: str
    lineno: int
    language: str
    source: str = "README.md"
    commands: list[Command] = field(default_factory=list)
    code: str = ""

    @property
    def slow(self) -> bool:
        return any(command.line in SLOW_COMMANDS for command in self.commands)


def readme_blocks(text: str, source: str = "README.md") -> list[Block]:
    """Every fenced block of a document (``source``, the README or a guide) that shows ``$ stratagem``
    commands or is ``python``, in order; a block's section is named with its document."""
    blocks: list[Block] = []
    section = f"{source}: (top)"
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("#"):
            section = f"{source}: {line.lstrip('#').strip()}"
        if not line.startswith("```"):
            i += 1
            continue
        language = line[3:].strip()
        end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
        body = lines[i + 1 : end]
        block = Block(section, i + 1, language, source)
        if language == "python":
            block.code = "\n".join(body) + "\n"
            blocks.append(block)
        elif body and body[0].startswith("$ stratagem "):
            for row in body:
                if row.startswith("$ "):
                    block.commands.append(Command(row[2:]))
                else:
                    block.commands[-1].expected.append(row)
            blocks.append(block)
        i = end + 1
    return blocks


def _trimmed(lines: list[str]) -> list[str]:
    out = [line.rstrip() for line in lines]
    while out and not out[-1]:
        out.pop()
    return out


def _engine_counted(line: str) -> str:
    """``line`` with rule 6's counts and engine names made one text, as both sides are compared without the
    compiled core."""
    return _ENGINE_COUNTS.sub(lambda found: "(engine's)", line)


def _line_matches(expected: str, actual: str) -> bool:
    """One line under rules 2 and 3 of the module docstring; everything else must be equal."""
    pattern = ""
    position = 0
    for marker in _VARIES.finditer(expected):
        pattern += _timed(expected[position : marker.start()]) + ".+?"
        position = marker.end()
    pattern += _timed(expected[position:])
    return re.fullmatch(pattern, _TIME.sub("0 s", actual)) is not None


def _timed(text: str) -> str:
    """``text`` as a regular expression, its wall times read as ``0 s`` (actual output is normalised so)."""
    return re.escape(_TIME.sub("0 s", text))


def matches(expected: list[str], actual: list[str], pure: bool = False) -> bool:
    """Whether the printed ``actual`` lines fit the README's ``expected`` lines (module docstring); ``pure``:
    printed without the compiled core (rules 5 and 6)."""
    if pure:
        actual = [_engine_counted(line) for line in actual if not line.startswith(_CORE_MISSING)]
        expected = [_engine_counted(line) for line in expected]
    expected, actual = _trimmed(expected), _trimmed(actual)
    segments: list[list[str]] = [[]]
    for line in expected:
        if line == OMITTED:
            segments.append([])
        else:
            segments[-1].append(line)
    if len(segments) == 1:
        return len(expected) == len(actual) and all(map(_line_matches, expected, actual))
    head, *middle, tail = segments
    if not _fits(head, actual, 0) or len(head) + len(tail) > len(actual) or not _fits(
            tail, actual, len(actual) - len(tail)):
        return False
    position = len(head)
    for segment in middle:
        found = next((start for start in range(position, len(actual) - len(tail) - len(segment) + 1)
                      if _fits(segment, actual, start)), None)
        if found is None:
            return False
        position = found + len(segment)
    return True


def _fits(segment: list[str], actual: list[str], start: int) -> bool:
    return start + len(segment) <= len(actual) and all(
        _line_matches(line, actual[start + k]) for k, line in enumerate(segment))


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty working directory in which ``puzzles/...`` names the repository's puzzles."""
    (tmp_path / "puzzles").symlink_to(REPO / "puzzles")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run_blocks(blocks: list[Block], capsys: pytest.CaptureFixture[str]) -> None:
    """Run the commands of ``blocks`` in order in the current directory; fail listing every mismatch."""
    problems: list[str] = []
    pure = bool(status().missing)
    for block in blocks:
        for command in block.commands:
            code = run(shlex.split(command.line)[1:])
            out, err = capsys.readouterr()
            out += err
            if code not in (0, 1, 3):
                problems.append(f"{block.source} line {block.lineno}: `{command.line}` exit {code}: {err!r}")
            elif not matches(command.expected, out.split("\n"), pure):
                problems.append(f"{block.source} line {block.lineno}: `{command.line}` printed:\n{out}"
                                f"{block.source} shows:\n" + "\n".join(command.expected))
    assert not problems, "\n\n".join(problems)


BLOCKS = [block for document in DOCUMENTS
          for block in readme_blocks(document.read_text(encoding="utf-8"), str(document.relative_to(REPO)))]
SECTIONS = list(dict.fromkeys(block.section for block in BLOCKS if block.commands))


def test_the_readme_tour_is_found() -> None:
    """The parser sees the tour: commands in most sections, and the abridged outputs marked."""
    commands = [command for block in BLOCKS for command in block.commands]
    assert len(commands) >= 20 and len(SECTIONS) >= 6
    assert any(OMITTED in command.expected for command in commands)
    assert any(block.language == "python" for block in BLOCKS)
    assert all(command.expected for command in commands), "a README command shows no output"
    shown = {command.line for command in commands}
    assert set(SLOW_COMMANDS) <= shown, "SLOW_COMMANDS names a command the README no longer shows"


@pytest.mark.parametrize("section", SECTIONS)
def test_readme_commands(section: str, workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The quick commands of one README section print what the README shows."""
    blocks = [block for block in BLOCKS if block.section == section and block.commands and not block.slow]
    if not blocks:
        pytest.skip("every block of this section is slow")
    run_blocks(blocks, capsys)


@pytest.mark.slow
def test_readme_slow_commands(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The long commands (:data:`SLOW_COMMANDS`, with their blocks) print what the README shows."""
    run_blocks([block for block in BLOCKS if block.slow], capsys)


def test_readme_python_blocks(workdir: Path) -> None:
    """Every ``python`` block runs, in order, in one namespace, and prints the lines its comments show."""
    namespace: dict[str, object] = {"__name__": "__readme__"}
    for block in (block for block in BLOCKS if block.language == "python"):
        shown = [line.rsplit("  # ", 1)[1].strip() for line in block.code.split("\n")
                 if line.lstrip().startswith("print(") and "  # " in line]
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            exec(compile(block.code, f"{block.source}:{block.lineno}", "exec"), namespace)
        printed = iter(buffer.getvalue().split("\n"))
        missing = [line for line in shown if not any(line == out.rstrip() for out in printed)]
        assert not missing, f"{block.source} line {block.lineno}: not printed in order: {missing}"


def test_the_readme_is_a_front_door() -> None:
    """The README stays short (at most 250 lines) and links every guide, and every guide it links exists."""
    text = README.read_text(encoding="utf-8")
    assert len(text.split("\n")) <= 250
    linked = set(re.findall(r"\]\((docs/guide/[\w.-]+\.md)\)", text))
    assert linked == {str(guide.relative_to(REPO)) for guide in GUIDES}
    assert len(GUIDES) >= 8


def test_every_table_example_is_a_command_the_tour_runs() -> None:
    """An example command in a table row of the README or a guide (``stratagem COMMAND ARGUMENTS`` in
    backticks in a cell) is one of the fenced commands above, so it is run and its output compared too."""
    fenced = {command.line for block in BLOCKS for command in block.commands}
    examples = [(document.name, example) for document in DOCUMENTS
                for row in document.read_text(encoding="utf-8").split("\n") if row.startswith("|")
                for example in re.findall(r"`(stratagem [a-z]+ [^`]+)`", row)]
    assert len(examples) >= 8
    missing = [f"{name}: {example}" for name, example in examples if example not in fenced]
    assert not missing, "table examples no fenced block runs:\n" + "\n".join(missing)


def test_normalisation_is_strict() -> None:
    """The normalisation forgives wall times, ``(varies)`` and ``...`` lines, and nothing else."""
    assert matches(["method relaxed, 4 nodes expanded, 0.37 s"], ["method relaxed, 4 nodes expanded, 12.05 s"])
    assert not matches(["method relaxed, 4 nodes expanded, 0.37 s"], ["method relaxed, 5 nodes expanded, 0.37 s"])
    assert matches(['  "seconds": "(varies)",'], ['  "seconds": 0.42,'])
    assert not matches(['  "seconds": "(varies)",'], ['  "seconds": 0.42'])
    assert matches(["a", "...", "c", "...", "e"], ["a", "b", "c", "d", "e", ""])
    assert not matches(["a", "...", "e"], ["a", "b", "e", "f"])
    assert not matches(["...", "c", "b"], ["a", "b", "c"])
    assert matches(["table  x"], ["table  x   ", "   "])
    assert not matches(["a", "b"], ["a", "c", "b"])


def test_without_the_compiled_core_only_its_notices_and_the_engines_counts_are_forgiven() -> None:
    """Rules 5 and 6, and only where the compiled core is not built: there the tour's commands printed
    the core's notice and the reference engine's node counts, and failed (stop 67's run without a compiler)."""
    shown = ["result    player 1 to move wins in 5 plies", "9,638 nodes, 0.86 s",
             "checked: 1,157 lemmas (stratagem's checker, compiled engine)"]
    printed = ["result    player 1 to move wins in 5 plies", "6,070 nodes, 5.47 s",
               "checked: 907 lemmas (stratagem's checker, python engine)",
               "note: the compiled core is not built or out of date (core.packed, cardclash.engine): running on the "
               "reference engine", "stratagem: the compiled core is missing (24 of 24 kernels run as plain Python)"]
    assert matches(shown, printed, pure=True)
    assert not matches(shown, printed)  # with the compiled core every count and line is the document's
    assert not matches(shown, printed[:3])
    assert not matches(["result    player 1 to move wins in 5 plies"], ["result    player 1 to move wins in 7 plies"],
                       pure=True)
    assert not matches(["line      B6* G4"], ["line      B6* G9"], pure=True)
    assert not matches(["(stratagem/prooftree@1, 4,165 nodes)"], ["(stratagem/prooftree@1, 4,166 nodes)"], pure=True)
    assert not matches(["a"], ["a", "stratagem: a problem"], pure=True)
