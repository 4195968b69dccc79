"""The table searches' kernels run as plain Python with numpy 1.x's promotion of 64-bit scalars.

``pyproject.toml`` allows numpy 1.24. Run as plain Python (an install without a compiler), a kernel reads
its ``uint64`` arrays (the table's hashes, the hash multipliers) as ``np.uint64`` scalars. numpy 1.x
combines such a scalar with a Python int by value-based casting: uint64 with a signed integer becomes
float64, so ``&``, ``^`` and ``>>`` raise ``TypeError`` and ``+``/``*`` lose bits; an ``np.int64`` with a Python
int beyond int64 goes the same way. numpy 2 (NEP 50) keeps the Python int weak and the uint64 result,
which is why the suite passed here and the same kernels stopped with numpy 1.24.0.

This venv has numpy 2, so the test puts numpy 1's rule back where the difference lies: in a fresh
interpreter importing the package without its compiled modules, the kernels' own arrays (made through
their ``np`` and ``scratch``) hand out scalars that refuse, as numpy 1 does, to be combined with a Python
int out of their type's range or with the other signedness; every other operation is numpy's own. The
searches must then still run and give what the compiled kernels give.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.interpreted import interpreted_package, run_json

_NUMPY1 = '''
import numpy as np
from stratagem.core import scratch as _scratch_module

_RANGE = {np.dtype(np.uint64): (0, 2**64 - 1), np.dtype(np.int64): (-2**63, 2**63 - 1)}


class Numpy1Scalar:
    """An np.uint64 or np.int64 scalar combined with others as numpy 1.x combines them."""

    def __init__(self, value):
        self.value = value

    def _other(self, other):
        if isinstance(other, Numpy1Scalar):
            other = other.value
        if isinstance(other, np.generic):
            if other.dtype != self.value.dtype:  # int64 with uint64: float64 in numpy 1.x
                raise TypeError(f"numpy 1.x: {self.value.dtype} with {other.dtype} is float64")
            return other
        if isinstance(other, int) and not isinstance(other, bool):
            low, high = _RANGE[self.value.dtype]
            if self.value.dtype == np.uint64 or not low <= other <= high:
                raise TypeError(f"numpy 1.x: {self.value.dtype} with the Python int {other} is float64")
            return other
        return other

    def __int__(self):
        return int(self.value)

    __index__ = __int__

    def __hash__(self):
        return hash(int(self.value))

    def __bool__(self):
        return bool(self.value)

    def __repr__(self):
        return f"Numpy1Scalar({self.value!r})"


def _wrap(value):
    return Numpy1Scalar(value) if isinstance(value, (np.uint64, np.int64)) else value


def _binary(name):
    def forward(self, other):
        return _wrap(getattr(self.value, name)(self._other(other)))
    return forward


for _name in ("add", "sub", "mul", "floordiv", "mod", "and", "or", "xor", "lshift", "rshift"):
    setattr(Numpy1Scalar, f"__{_name}__", _binary(f"__{_name}__"))
    setattr(Numpy1Scalar, f"__r{_name}__", _binary(f"__r{_name}__"))
for _name in ("eq", "ne", "lt", "le", "gt", "ge"):  # comparisons are exact in numpy 1.x too
    setattr(Numpy1Scalar, f"__{_name}__",
            (lambda n: lambda self, other: getattr(self.value, n)(
                other.value if isinstance(other, Numpy1Scalar) else other))(f"__{_name}__"))
for _name in ("neg", "invert", "abs"):
    setattr(Numpy1Scalar, f"__{_name}__", (lambda n: lambda self: _wrap(getattr(self.value, n)()))(f"__{_name}__"))


class Numpy1Array(np.ndarray):
    """An array whose scalars are :class:`Numpy1Scalar`; its rows and slices are such arrays too."""

    def __getitem__(self, index):
        return _wrap(super().__getitem__(index))

    def __setitem__(self, index, value):
        super().__setitem__(index, value.value if isinstance(value, Numpy1Scalar) else value)


def _numpy1(array):
    return array.view(Numpy1Array) if isinstance(array, np.ndarray) and array.dtype in _RANGE else array


class Numpy1Numpy:
    """The module ``np`` as a kernel sees it: arrays it makes are :class:`Numpy1Array`."""

    def __getattr__(self, name):
        found = getattr(np, name)
        if name in ("zeros", "empty", "full", "array", "ones"):
            return lambda *args, **kwargs: _numpy1(found(*args, **kwargs))
        return found


def numpy1(module):
    """Make ``module`` (a kernel imported as plain Python) make its arrays with numpy 1's scalars."""
    module.np = Numpy1Numpy()
    if hasattr(module, "scratch"):
        module.scratch = lambda *args, **kwargs: _numpy1(_scratch_module.scratch(*args, **kwargs))
    if hasattr(module, "_MULTIPLIERS"):
        module._MULTIPLIERS.clear()


_word = Numpy1Numpy().zeros(1, np.uint64)[0]  # the rule bites: numpy 1.24.0's TypeError, on numpy 2 too
try:
    _word & 1
except TypeError:
    pass
else:
    raise AssertionError("numpy 1's promotion is not in place")
'''

_SCRIPT = """
import json, sys
from stratagem.core.packed_toys import PackedNim, PackedPig
from stratagem.solvers import packed_alphabeta, packed_expectimax, packed_maxn
compiled = [m.__file__.endswith(".so") for m in (packed_alphabeta, packed_expectimax, packed_maxn)]
if sys.argv[1] == "numpy1":
    exec(NUMPY1)
    for module in (packed_alphabeta, packed_expectimax, packed_maxn):
        numpy1(module)
out = {"compiled": compiled}
found = packed_alphabeta.solve(PackedNim(3), [2, 3, 4, 0], table_bits=2)  # small: the table rehashes
out["alphabeta"] = [found["value"], found["distance"], found["nodes"], found["hits"],
                    [[list(map(int, s)), list(map(int, m))] for s, m in found["pv"]]]
engine = PackedPig(5, 4)
start = [0, 0, 0, 0, 4, 0]
found = packed_expectimax.solve(engine, start, 0, star=2, table_bits=2)
out["expectimax"] = [str(found["value"]), found["nodes"], found["hits"],
                     [[list(map(int, s)), list(map(int, m))] for s, m in found["pv"]]]
found = packed_maxn.solve(engine, start, table_bits=2)
out["maxn"] = [[str(v) for v in found["vector"]], found["nodes"], found["hits"]]
print(json.dumps(out))
"""


def test_the_table_searches_run_as_plain_python_with_numpy_1_scalars(tmp_path: Path) -> None:
    """Failed before stop 67's fix with ``TypeError: numpy 1.x: uint64 with the Python int ...`` in
    alpha-beta's table hash (``h + word * self.mult[w]``), as numpy 1.24.0 failed for real."""
    script = f"NUMPY1 = {_NUMPY1!r}\n{_SCRIPT}"
    interpreted = run_json(script, interpreted_package(tmp_path), "numpy1")
    assert interpreted.pop("compiled") == [False, False, False]
    assert interpreted["alphabeta"][0] == 1 and interpreted["maxn"][0]  # searched to the end
    here = run_json(script, None, "plain")
    if here.pop("compiled") != [True, True, True]:
        pytest.skip("the compiled core is not built here: nothing to compare the interpreted kernels with")
    assert interpreted == here  # the same hashes: the same table hits and the same line
