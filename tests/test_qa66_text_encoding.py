"""QA 66: every text file the package and the scripts read or write names its encoding.

Without ``encoding=``, Python reads and writes text in the locale's encoding, which on Windows is not
UTF-8 (cp1252 and others): a puzzle, record, table or proof with a character outside ASCII ("·", "←",
"✓" in the printed rows) would be written in another encoding there, or not read at all (cp1252 has no
character for the byte 0x90, which "←" holds in UTF-8). The same goes for a child process's output read
as text. The tests here check the source, through its syntax tree, so that none comes back: the package,
the scripts and setup.py.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted([*(ROOT / "stratagem").rglob("*.py"), *(ROOT / "scripts").rglob("*.py"), ROOT / "setup.py"])

#: The openers whose text mode decodes with the locale unless told otherwise, and the position of their
#: mode argument.
OPENERS = {"open": 1, "io.open": 1, "codecs.open": 1, "gzip.open": 1, "bz2.open": 1, "lzma.open": 1,
           "os.fdopen": 1, "tempfile.TemporaryFile": 0, "tempfile.NamedTemporaryFile": 0,
           "tempfile.SpooledTemporaryFile": 1}
#: Openers whose default mode is binary (the rest default to text).
BINARY_BY_DEFAULT = {"gzip.open", "bz2.open", "lzma.open", "tempfile.TemporaryFile", "tempfile.NamedTemporaryFile",
                     "tempfile.SpooledTemporaryFile"}
SUBPROCESS = {"subprocess.run", "subprocess.Popen", "subprocess.check_output", "subprocess.call",
              "subprocess.check_call"}


def _mode(call: ast.Call, position: int) -> str | None:
    """The mode a call gives as a literal (positional or ``mode=``); ``None`` when it gives none, ``"?"`` when
    it is not a literal."""
    given: ast.expr | None = call.args[position] if len(call.args) > position else None
    for keyword in call.keywords:
        if keyword.arg == "mode":
            given = keyword.value
    if given is None:
        return None
    return given.value if isinstance(given, ast.Constant) and isinstance(given.value, str) else "?"


def _named(call: ast.Call, name: str) -> bool:
    return any(keyword.arg == name for keyword in call.keywords)


def _imported_names(tree: ast.AST) -> dict[str, str]:
    """``from tempfile import TemporaryFile``: the local name and the dotted one (to read calls by)."""
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return names


def text_without_encoding(source: str) -> list[tuple[int, str]]:
    """The lines of ``source`` that read or write text without naming its encoding, each with the call."""
    tree = ast.parse(source)
    imported = _imported_names(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        function = ast.unparse(node.func)
        function = imported.get(function, function)
        if _named(node, "encoding"):
            continue
        method = node.func.attr if isinstance(node.func, ast.Attribute) else None
        bad = False
        if function in OPENERS:
            if function == "open" and len(node.args) > 3:  # open(file, mode, buffering, encoding)
                continue
            mode = _mode(node, OPENERS[function])
            if mode is None:
                bad = function not in BINARY_BY_DEFAULT
            elif function in ("gzip.open", "bz2.open", "lzma.open"):  # binary unless "t": "w" is "wb"
                bad = "t" in mode
            else:
                bad = mode != "?" and "b" not in mode
        elif function in SUBPROCESS:
            bad = any(keyword.arg in ("text", "universal_newlines") and not (
                isinstance(keyword.value, ast.Constant) and keyword.value.value is False) for keyword in node.keywords)
        elif function == "io.TextIOWrapper":
            bad = len(node.args) < 2
        elif method == "read_text":  # Path.read_text(encoding=None, errors=None); not stratagem's read_text(path)
            bad = not node.args
        elif method == "write_text":  # Path.write_text(data, encoding=None, ...)
            bad = len(node.args) == 1
        elif method == "open" and function != "os.open":
            mode = _mode(node, 0)  # Path.open(mode="r", ...); an open() of another kind gives no mode string
            bad = mode is not None and mode != "?" and "b" not in mode
        if bad:
            found.append((node.lineno, ast.unparse(node)[:100]))
    return found


def test_the_checker_finds_each_kind_of_call() -> None:
    source = "\n".join([
        "open(p)", "open(p, 'w')", "io.open(p, 'rt')", "gzip.open(p, 'rt')", "os.fdopen(fd, 'w')",
        "tempfile.TemporaryFile('w+')", "TemporaryFile('w+')", "Path(p).read_text()", "Path(p).write_text(t)",
        "Path(p).open('a')", "subprocess.run(a, text=True)", "subprocess.Popen(a, universal_newlines=True)",
        "io.TextIOWrapper(b)",
    ])
    assert [line for line, _ in text_without_encoding("from tempfile import TemporaryFile\n" + source)] == list(
        range(2, 15))
    fine = "\n".join([
        "open(p, encoding='utf-8')", "open(p, 'rb')", "gzip.open(p)", "gzip.open(p, 'wb')", "os.fdopen(fd, 'wb')",
        "tempfile.TemporaryFile()", "tempfile.NamedTemporaryFile('wb')", "Path(p).read_text(encoding='utf-8')",
        "Path(p).write_text(t, encoding='utf-8')", "Path(p).open('rb')", "Path(p).read_bytes()",
        "subprocess.run(a, encoding='utf-8')", "subprocess.run(a, capture_output=True)", "read_text(p)",
        "core_io.read_text(p)", "results.open()", "os.open(p, os.O_RDONLY)", "open(p, 'r', -1, 'utf-8')",
        "io.TextIOWrapper(b, 'utf-8')", "subprocess.run(a, text=False)",
    ])
    assert text_without_encoding(fine) == []


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_text_file_names_its_encoding(path: Path) -> None:
    found = text_without_encoding(path.read_text(encoding="utf-8"))
    assert not found, "\n".join(f"{path.relative_to(ROOT)}:{line}: {call} (give encoding='utf-8')"
                                for line, call in found)
