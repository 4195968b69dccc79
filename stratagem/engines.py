"""Which rules engine a search runs on: a game's compiled engine, or its Python reference engine.

``analyze``, ``play`` and ``bench`` take ``engine="compiled"`` (the default) or ``"reference"``.
Compiled means the game's :class:`~stratagem.core.packed.PackedGame` engine, found through the
``compiled_engine(game)`` function of the game's package (docs/design.md, "Compiled engines of the
competitive games"); the searches that have a compiled form (:mod:`stratagem.solvers.packed_uct`, ...)
then run on it. Where there is none -- the game has no compiled engine, the engine does not cover
this game's options, or the compiled core was not built (the engine and the searches would run as
plain Python, slower than the reference engine) -- the reference engine is used and :func:`resolve`
says so in one line, so that an answer is never silently from another engine than asked.

Every answer can be reproduced on the reference engine (``engine="reference"``); ``verify`` always
checks on it.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

#: The engines a caller may ask for.
ENGINES = ("compiled", "reference")
COMPILED = "compiled"
REFERENCE = "reference"

#: The kernels a compiled search needs besides the game's own engine.
_SEARCH_KERNELS = ("stratagem.core.packed", "stratagem.solvers.packed_playout", "stratagem.solvers.packed_uct",
                   "stratagem.solvers.packed_exact", "stratagem.solvers.packed_alphabeta")


@dataclass(frozen=True)
class EngineChoice:
    """The engine a search runs on: ``name`` (``compiled`` or ``reference``), the compiled engine when it
    is ``compiled``, and ``note``: one line when the engine asked for could not be used (else empty).
    ``core_missing`` marks the note that the compiled core was not built (said even when ``compiled`` was
    only the default); the other notes (no engine for this game, no compiled search for this method) are
    worth saying only to a caller who asked for ``compiled`` by name."""

    name: str
    engine: Any = None
    note: str = ""
    core_missing: bool = False


def compiled_engine(game: Any) -> Any:
    """The compiled engine of ``game`` (a reference game object), or None when its package has none or
    the engine does not cover the game's options."""
    package = type(game).__module__.rsplit(".", 1)[0]
    try:
        finder = getattr(importlib.import_module(package), "compiled_engine", None)
    except ImportError:
        return None
    if finder is None:
        return None
    return finder(game)


def resolve(game: Any, engine: str = COMPILED) -> EngineChoice:
    """The engine to run ``game``'s searches on when ``engine`` is asked for (see the module docstring)."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r} (one of {', '.join(ENGINES)})")
    if engine == REFERENCE:
        return EngineChoice(REFERENCE)
    name = str(getattr(game, "name", type(game).__name__))
    found = compiled_engine(game)
    if found is None:
        return EngineChoice(REFERENCE, None, f"{name} has no compiled engine for these options: "
                                             "running on the reference engine")
    from stratagem.core.compiled import label, status

    core = status()
    needed = (*_SEARCH_KERNELS, type(found).__module__)
    missing = [label(module) for module in needed if module in core.missing or module in core.stale]
    if missing:
        return EngineChoice(REFERENCE, None, f"the compiled core is not built or out of date ({', '.join(missing)}): "
                                             "running on the reference engine", True)
    return EngineChoice(COMPILED, found)


__all__ = ["COMPILED", "ENGINES", "REFERENCE", "EngineChoice", "compiled_engine", "resolve"]
