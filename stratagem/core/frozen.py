"""Read-only dicts and lists for the plain data that frozen results hold.

A frozen dataclass stops its fields from being reassigned, not a dict or list it holds from being changed:
``analysis.setup["players"] = 5`` used to change what ``analysis.to_json()`` then wrote. :func:`freeze` turns
plain data (what ``json`` reads) into :class:`FrozenDict` and :class:`FrozenList`, which are a ``dict`` and
a ``list`` to every reader (``==`` with plain ones, ``isinstance``, ``json.dumps``) but refuse every change
with a :class:`TypeError`, and hash, so that a result holding them can be a set member or a dict key.
They pickle and deep-copy as themselves; :func:`thaw` gives plain, mutable copies back (for a record the
caller may edit).
"""

from __future__ import annotations

from typing import Any, NoReturn


def _refuse(self: Any, *args: Any, **kwargs: Any) -> NoReturn:
    raise TypeError(f"a {type(self).__name__} cannot be changed: it belongs to a result (thaw() gives a copy)")


class FrozenDict(dict):  # type: ignore[type-arg]  # holds any plain data
    """A ``dict`` that refuses every change and hashes (its values must hash: :func:`freeze` sees to it)."""

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _refuse

    def __hash__(self) -> int:  # type: ignore[override]  # dict sets __hash__ to None
        return hash(frozenset(self.items()))

    def __reduce__(self) -> tuple[Any, ...]:
        """Rebuilt from a plain dict of its items (the default put each item back by ``__setitem__``)."""
        return (type(self), (dict(self),))

    def __copy__(self) -> FrozenDict:
        return self

    def __repr__(self) -> str:
        return dict.__repr__(self)


class FrozenList(list):  # type: ignore[type-arg]  # holds any plain data
    """A ``list`` that refuses every change and hashes as the tuple of its items."""

    __setitem__ = __delitem__ = append = extend = insert = pop = remove = clear = sort = reverse = _refuse
    __iadd__ = __imul__ = _refuse

    def __hash__(self) -> int:  # type: ignore[override]  # list sets __hash__ to None
        return hash(tuple(self))

    def __reduce__(self) -> tuple[Any, ...]:
        """Rebuilt from a plain list of its items (the default put each item back by ``append``)."""
        return (type(self), (list(self),))

    def __copy__(self) -> FrozenList:
        return self

    def __repr__(self) -> str:
        return list.__repr__(self)


def freeze(data: Any) -> Any:
    """``data`` with every dict a :class:`FrozenDict` and every list a :class:`FrozenList`, all the way down
    (other values as they are)."""
    if isinstance(data, dict):
        return FrozenDict({key: freeze(value) for key, value in data.items()})
    if isinstance(data, list):
        return FrozenList(freeze(value) for value in data)
    return data


def thaw(data: Any) -> Any:
    """A plain, mutable copy of ``data``: every dict a ``dict``, every list a ``list``, all the way down."""
    if isinstance(data, dict):
        return {key: thaw(value) for key, value in data.items()}
    if isinstance(data, list):
        return [thaw(value) for value in data]
    return data


__all__ = ["FrozenDict", "FrozenList", "freeze", "thaw"]
