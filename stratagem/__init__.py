"""stratagem: optimal lines and proofs for five tabletop games.

The library's entry points, each one call returning a typed result that serialises to the record
formats of docs/formats.md (docs/api.md shows each with an example):

- :func:`load` a puzzle or position file, :func:`from_notation` a position in a game's notation;
- :func:`solve` a Strato deal (a shortest line and how it is known, a proof record);
- :func:`check` a puzzle (solvable? a STAKD solo set, a Strato deal);
- :func:`analyze` a position of a game (its value, best moves, a proof);
- :func:`odds`: the exact solo win probability of a Strato deal with the pile's order hidden (a policy proof);
- :func:`verify` a line or proof record with the rules engine alone.

Input they cannot use (a file that does not parse, a deal that does not exist, an argument of the wrong
kind) raises :class:`BadInput` naming the file or parameter, the place and what is wrong; a limit out of
range (``time_limit``, ``max_nodes`` ...) is a :class:`ValueError`.

They are imported on first use (module ``__getattr__``), so ``import stratagem`` stays fast and loads
none of the solvers' heavy dependencies (the compiled core, OR-Tools, networkx).
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

# The error every entry point raises for input it cannot use (a few lines, no imports): loaded with the
# package so that ``except stratagem.BadInput`` (or its full name, ``stratagem.core.errors.BadInput``)
# works before any entry point has run.
from stratagem.core.errors import BadInput, StratagemError

__version__ = "0.1.0"

#: Each public name and the module that defines it.
_LAZY = {
    "load": "stratagem.loading",
    "from_notation": "stratagem.loading",
    "Position": "stratagem.loading",
    "StratoDeal": "stratagem.loading",
    "solve": "stratagem.solving",
    "DealSolution": "stratagem.solving",
    "check": "stratagem.checking",
    "SoloCheck": "stratagem.checking",
    "verify": "stratagem.verification",
    "Verdict": "stratagem.verification.verdict",
    "ClaimReport": "stratagem.verification.verdict",
    "analyze": "stratagem.analysis",
    "Analysis": "stratagem.analysis.result",
    "odds": "stratagem.winprobability",
    "DealOdds": "stratagem.winprobability",
}

__all__ = [
    "Analysis",
    "BadInput",
    "ClaimReport",
    "DealOdds",
    "DealSolution",
    "Position",
    "SoloCheck",
    "StratagemError",
    "StratoDeal",
    "Verdict",
    "__version__",
    "analyze",
    "check",
    "from_notation",
    "load",
    "odds",
    "solve",
    "verify",
]

if TYPE_CHECKING:
    from stratagem.analysis import analyze
    from stratagem.analysis.result import Analysis
    from stratagem.checking import SoloCheck, check
    from stratagem.loading import Position, StratoDeal, from_notation, load
    from stratagem.solving import DealSolution, solve
    from stratagem.verification import verify
    from stratagem.verification.verdict import ClaimReport, Verdict
    from stratagem.winprobability import DealOdds, odds


def __getattr__(name: str) -> Any:
    """Import the module of a public name on first use and keep the name here.

    A subpackage or module (``stratagem.core``, ``stratagem.analysis``, ``stratagem.matches`` ...) is
    imported on first use too, so that the names the documentation spells out in full --
    ``except stratagem.core.errors.BadInput``, ``stratagem.analysis.ProofNotWritten`` -- work after a
    plain ``import stratagem`` whatever was called before (an ``except`` clause naming a module not yet
    loaded raised AttributeError over the error it was meant to catch).
    """
    module = _LAZY.get(name)
    if module is None:
        if not name.startswith("_") and importlib.util.find_spec(f"{__name__}.{name}") is not None:
            return importlib.import_module(f"{__name__}.{name}")  # the import binds it here
        raise AttributeError(f"module 'stratagem' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names (``dir(stratagem)``, tab completion), loaded or not."""
    return sorted(__all__)
