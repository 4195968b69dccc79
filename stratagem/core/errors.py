"""Error types that the CLI turns into one line on stderr and exit code 2.

Every problem with user input names *where* it is (a file, and a place inside it such as a TOML key
or a move index) and *what* is wrong, so the message can be acted on without a traceback.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, TypeAlias


class StratagemError(Exception):
    """Base class of every error the tool reports to a user."""


def number_text(value: float) -> str:
    """How a message spells a number: the shortest text that reads back as ``value`` (``120`` for 120.0,
    ``123.4567`` as given, where ``:g`` wrote ``123.457``). For a number a user is told to give again (a
    time limit in a resume command or in a refusal): six significant digits named another limit, and the
    sweep refused it once more."""
    return str(int(value)) if value.is_integer() else repr(value)


@dataclass(frozen=True)
class Param:
    """One of the API's parameters named in a message, with the value the message suggests (``...``: the
    name alone). A library caller reads it as its keyword (``force_settings=True``, ``time_limit=120``,
    ``deal``); the CLI as its option (``--force-settings``, ``--time-limit 120``, ``--deal``), through
    :meth:`BadInput.worded`. A message that spelt the option told a library caller of a name it never
    typed ("--force-settings to mix limits" from :func:`stratagem.sweep.sweep`)."""

    name: str
    value: object = ...

    def keyword(self) -> str:
        """The parameter as a call spells it: ``force_settings=True``, ``time_limit=120``, ``deal``."""
        if self.value is ...:
            return self.name
        if isinstance(self.value, float):
            return f"{self.name}={number_text(self.value)}"
        return f"{self.name}={self.value!r}"


#: A message's words: text, and the parameters it names (:class:`Param`), spelt for whoever reads it.
Words: TypeAlias = tuple["str | Param", ...]


def worded(words: Words, name: Callable[[Param], str] = Param.keyword) -> str:
    """``words`` as one text, each parameter spelt by ``name`` (by default as a keyword argument)."""
    return "".join(part if isinstance(part, str) else name(part) for part in words)


class BadInput(StratagemError):
    """Input that cannot be used: malformed file, impossible position, unknown option, illegal move.

    ``source`` is the file (or "<argument>" for command-line text), ``place`` a key path, line or
    move index inside it, ``problem`` what is wrong: text, or :data:`Words` when it names parameters of the
    API (kept in :attr:`words`, so that the CLI can name its options instead: :meth:`worded`).
    """

    def __init__(self, source: str, place: str, problem: str | Words) -> None:
        self.source = source
        self.place = place
        self.words: Words | None = problem if isinstance(problem, tuple) else None
        self.problem = worded(problem) if isinstance(problem, tuple) else problem
        super().__init__(self.line())

    def worded(self, name: Callable[[Param], str]) -> BadInput:
        """The same refusal with the parameters it names spelt by ``name`` (the CLI's options); itself
        when it names none."""
        if self.words is None:
            return self
        return BadInput(self.source, self.place, worded(self.words, name))

    def line(self) -> str:
        where = f"{self.source}: {self.place}" if self.place else self.source
        return f"{where}: {self.problem}"


class BadArgument(BadInput):
    """A value given for one parameter that cannot be used: a function's argument in the API, the same
    value given with an option on the command line.

    ``parameter`` is the API's name for it (``deal``, ``max_states``) and is the place a library user
    reads; the CLI shows the option instead (:func:`stratagem.cli.options.option_for`: ``--deal``,
    ``--max-nodes``), so neither reader is told of a name they never typed. ``source`` is the file the
    value was looked up in, or "<argument>"; a ``parameter`` with words after it (``proof (the
    refutation's CNF)``) keeps them after the option.
    """

    def __init__(self, source: str, parameter: str, problem: str | Words) -> None:
        self.parameter = parameter
        super().__init__(source, parameter, problem)


def check_switch(value: object, parameter: str) -> bool:
    """``value`` for an on/off ``parameter`` (``rank``, ``recheck``) as a ``bool``; :class:`BadArgument`
    for anything else. A switch read by truthiness took ``rank="no"`` as yes."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":  # numpy's bool too
        return bool(value)
    raise BadArgument("<argument>", parameter, f"True or False, not {type(value).__name__} {value!r:.40}")


class NotationError(ValueError):
    """Text that does not parse in a game's notation; callers wrap it into :class:`BadInput`."""


class IllegalMove(ValueError):
    """A well-formed move that the rules do not allow in the given state."""


class UnsupportedGame(StratagemError):
    """A solver was asked about a game, or a position, of a kind it does not handle.

    Solvers check the capabilities they need (core.game's optional protocols) and refuse the rest
    with this error, so the CLI reports one clear line instead of failing deep inside a search.
    """


class RepeatingPosition(UnsupportedGame):
    """A minimax search met a position twice on one line: the game as set up can go on for ever (Stratatak
    without a battle limit), which the exact searches cannot value."""


class Terminated(BaseException):
    """SIGTERM, raised in the main thread by the handler that ``stratagem``'s entry point installs.

    Like :class:`KeyboardInterrupt` for SIGINT, it unwinds the stack, so ``finally`` blocks run and an
    atomic write in progress removes its temporary file; the CLI then exits 143. It derives from
    :class:`BaseException` so that no ``except Exception`` on the way swallows it.

    A bare ``except:`` in a library can still swallow it (networkx's GraphML writer has one around an
    import), so the handler also sets :attr:`requested`: atomic writes check it before they replace
    their target (:func:`check_termination`), and the CLI exits 143 at the end whatever happened.
    """

    requested: ClassVar[bool] = False
    #: The request was a hang-up (:class:`HungUp`), not SIGTERM.
    hung_up: ClassVar[bool] = False


class HungUp(Terminated):
    """SIGHUP: the terminal the command ran in was closed (or the connection to it dropped). The command
    unwinds as for SIGTERM, and the CLI exits 129. Under ``nohup``, which ignores SIGHUP, none is raised."""


def check_termination() -> None:
    """Raise :class:`Terminated` (:class:`HungUp` after a hang-up) if SIGTERM or SIGHUP arrived, even if
    its first exception was swallowed."""
    if Terminated.requested:
        raise HungUp() if Terminated.hung_up else Terminated()
