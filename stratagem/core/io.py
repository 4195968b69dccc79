"""Reading puzzle files and writing records, with every problem located by file and key.

Puzzle files are hand-written TOML; records (lines, proofs, analyses) are JSON with sorted keys and
no timestamps, so the same input always gives byte-identical output. Files are written atomically:
a failed run never leaves half a file behind.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import tomllib
from pathlib import Path
from typing import Any, TypeVar

from stratagem.core.errors import BadInput

T = TypeVar("T")


def read_text(path: str | Path) -> str:
    """A file's UTF-8 text, or :class:`BadInput` saying why it cannot be read."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BadInput(str(path), "", "no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(str(path), "", f"cannot read: {exc}") from None


def load_toml(path: str | Path) -> dict[str, Any]:
    """Parse a TOML file, turning every failure into :class:`BadInput` naming the file and line."""
    source = str(path)
    text = read_text(path)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = re.search(r"\(at line (\d+), column (\d+)\)", message)
        place = f"line {match.group(1)}, column {match.group(2)}" if match else ""
        problem = re.sub(r"\s*\(at line \d+, column \d+\)", "", message) or "malformed TOML"
        raise BadInput(source, place, f"malformed TOML: {problem}") from None


def load_json(path: str | Path) -> dict[str, Any]:
    """Parse a JSON record, turning every failure into :class:`BadInput`."""
    source = str(path)
    text = read_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadInput(source, f"line {exc.lineno}, column {exc.colno}", f"malformed JSON: {exc.msg}") from None
    if not isinstance(data, dict):
        raise BadInput(source, "", "a record must be a JSON object")
    return data


class Section:
    """A TOML table with typed accessors that report ``file: key.path: problem`` on every mistake."""

    def __init__(self, data: dict[str, Any], source: str, path: str = "") -> None:
        self.data = data
        self.source = source
        self.path = path

    def where(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def error(self, key: str, problem: str) -> BadInput:
        return BadInput(self.source, self.where(key), problem)

    def has(self, key: str) -> bool:
        return key in self.data

    def get(self, key: str, kind: type[T], default: T | None = None, *, required: bool = False) -> T:
        """The value at ``key``, checked to be of ``kind`` (bool is never accepted as int)."""
        if key not in self.data:
            if required or default is None:
                raise self.error(key, "missing")
            return default
        value = self.data[key]
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
        if not ok:
            raise self.error(key, f"must be {_kind_name(kind)}, not {_kind_name(type(value))}")
        return value  # type: ignore[no-any-return]

    def table(self, key: str) -> Section:
        value = self.get(key, dict)
        return Section(value, self.source, self.where(key))

    def tables(self, key: str) -> list[Section]:
        value = self.get(key, list)
        out = []
        for i, item in enumerate(value):
            if not isinstance(item, dict):
                raise BadInput(self.source, f"{self.where(key)}[{i}]", "must be a table")
            out.append(Section(item, self.source, f"{self.where(key)}[{i}]"))
        return out

    def reject_unknown(self, allowed: set[str]) -> None:
        """Unknown keys are errors: a misspelt option must never be silently ignored."""
        for key in self.data:
            if key not in allowed:
                raise self.error(key, f"unknown key (expected one of: {', '.join(sorted(allowed))})")


def _kind_name(kind: type) -> str:
    return {
        int: "an integer",
        str: "a string",
        bool: "true or false",
        list: "an array",
        dict: "a table",
        float: "a number",
    }.get(kind, kind.__name__)


def dumps_record(record: dict[str, Any]) -> str:
    """The canonical JSON text of a record: sorted keys, two-space indent, trailing newline."""
    return json.dumps(record, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def write_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see either the old file or the whole new one."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
