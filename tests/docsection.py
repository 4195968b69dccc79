"""One section of docs/formats.md, for tests that check the examples a section shows."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FORMATS = REPO / "docs" / "formats.md"


class FormatsSection:
    """The section of docs/formats.md whose heading line starts with ``heading`` (e.g. ``"## 7. "``).

    It reads like the path of a file (``read_text``), so tests can hold it where they held one.
    """

    def __init__(self, heading: str) -> None:
        self.heading = heading

    def read_text(self, encoding: str = "utf-8") -> str:
        """From the heading to the next heading of the same or a higher level (code blocks skipped)."""
        level = len(self.heading) - len(self.heading.lstrip("#"))
        lines = FORMATS.read_text(encoding=encoding).split("\n")
        start = next(i for i, line in enumerate(lines) if line.startswith(self.heading))
        in_code = False
        for end in range(start + 1, len(lines)):
            line = lines[end]
            if line.startswith("```"):
                in_code = not in_code
            elif not in_code and line.startswith("#") and len(line) - len(line.lstrip("#")) <= level:
                return "\n".join(lines[start:end]) + "\n"
        return "\n".join(lines[start:]) + "\n"
