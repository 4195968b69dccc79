"""The ``--seed`` option every command shares: a whole number from 0 to 2^63-1.

Seeds are written into records and generated TOML files, which hold 64-bit integers; a larger seed
(``--seed 1000000000000000000000000000000``) made ``generate`` write a file its own loader refuses. So
every command reads its seed with :data:`SEED`, and a seed outside the range, or not a whole number
(``1e30``, ``0.5``), is a usage error (exit 2, one line), whatever the command.
"""

from __future__ import annotations

from typing import Any

import click

from stratagem.core.io import MAX_SEED


class Seed(click.ParamType):  # type: ignore[type-arg]
    """A whole number from 0 to :data:`~stratagem.core.io.MAX_SEED`; anything else fails in one line."""

    name = "seed"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            seed = value
        else:
            text = str(value).strip()
            shown = text if len(text) <= 30 else text[:27] + "..."
            if not (text.isascii() and text.isdigit()) or len(text) > 30:
                self.fail(f"{shown!r} is not a seed: give a whole number from 0 to {MAX_SEED} (2^63-1)", param, ctx)
            seed = int(text)
        if not 0 <= seed <= MAX_SEED:
            self.fail(f"{seed if seed.bit_length() < 100 else 'the number'} is not a seed: seeds go from 0 to "
                      f"{MAX_SEED} (2^63-1)", param, ctx)
        return seed


#: The parameter type of every command's ``--seed``.
SEED = Seed()

__all__ = ["SEED", "Seed"]
