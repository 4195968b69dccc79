"""Results printed to a file or a pipe are the same bytes whatever terminal or ``COLUMNS`` the command ran
under: rich took its width from ``COLUMNS`` or from stdin or stderr when those were a terminal, so
``stratagem play ... > games.txt`` typed in a narrow window wrote a folded table."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios

import pytest

from stratagem.cli.main import run

PLAY = ["play", "stratatak", "--agents", "greedy,random", "--count", "4", "--seed", "1", "--quiet"]


def test_columns_does_not_fold_piped_output(capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    assert run(PLAY) == 0
    plain = capsys.readouterr().out
    monkeypatch.setenv("COLUMNS", "30")
    assert run(PLAY) == 0
    narrow = capsys.readouterr().out
    assert "greedy" in plain and narrow == plain


def test_the_typing_terminal_does_not_fold_redirected_output() -> None:
    """stdout to a pipe, stdin and stderr a 40-column terminal (``stratagem play ... > file`` typed in a
    narrow window): the same bytes as with no terminal at all."""
    env = {key: value for key, value in os.environ.items() if key != "COLUMNS"}
    command = [sys.executable, "-m", "stratagem", *PLAY]
    alone = subprocess.run(command, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=120, check=True)
    leader, follower = pty.openpty()
    try:
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 40, 0, 0))
        typed = subprocess.run(command, env=env, stdin=follower, stdout=subprocess.PIPE, stderr=follower,
                               timeout=120, check=True)
    finally:
        os.close(follower)
        os.close(leader)
    assert b"greedy" in alone.stdout and typed.stdout == alone.stdout


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_the_locale_s_encoding_does_not_change_or_break_the_output(encoding: str) -> None:
    """stdout is UTF-8 whatever the locale says: with an ASCII or Latin-1 stdout, ``show`` (whose drawing
    has '·', '[R|W]' and '←') ended in an internal error (exit 70) at the first character it could not
    encode."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONIOENCODING"}
    command = [sys.executable, "-m", "stratagem", "show", "puzzles/strato/challenge-0.toml", "--deal", "duo-1"]
    root = os.path.join(os.path.dirname(__file__), "..", "..")
    plain = subprocess.run(command, env=env, cwd=root, capture_output=True, timeout=120, check=True)
    other = subprocess.run(command, env={**env, "PYTHONIOENCODING": encoding}, cwd=root, capture_output=True,
                           timeout=120)
    assert other.returncode == 0, other.stderr
    assert "←".encode() in plain.stdout and other.stdout == plain.stdout
