"""Caches that last one library call (:mod:`stratagem.core.callcaches`): emptied as the last open call ends.

The notation's caches (``format_rows``, ``parse_rows``, ``parse_move``, the hidden notation's fields) kept
what an ``odds`` or a ``verify`` had parsed and formatted after it returned: of no use to the next deal,
and made at the call's peak, 194 formatted tables held 26 MB of the allocator's memory after three
``odds`` of challenge 0 were dropped."""

from __future__ import annotations

import threading
from functools import lru_cache
from pathlib import Path

import stratagem
from stratagem.core import callcaches
from stratagem.models.strato.rules.notation import parse_move
from stratagem.models.strato.rules.position import format_rows, parse_rows

ROOT = Path(__file__).parents[2]


def test_the_notation_caches_are_emptied_as_odds_returns() -> None:
    assert {format_rows, parse_rows, parse_move} <= set(callcaches.registered())
    odds = stratagem.odds(ROOT / "puzzles" / "strato" / "challenge-0.toml", position="RRWR(RW)WWRW RRR WRR 1 -")
    assert odds.status == "solved"
    assert [cache.cache_info().currsize for cache in callcaches.registered()] == [0] * len(callcaches.registered())


def test_a_solve_and_a_verify_leave_them_empty_too(tmp_path: Path) -> None:
    proof = tmp_path / "solo-1.json"
    solution = stratagem.solve(ROOT / "puzzles" / "strato" / "challenge-0.toml")
    assert format_rows.cache_info().currsize == parse_rows.cache_info().currsize == 0
    solution.write_proof(str(proof))  # outside a call: what it formats is kept, as before
    assert stratagem.verify(proof).status == "certified"
    assert [cache.cache_info().currsize for cache in callcaches.registered()] == [0] * len(callcaches.registered())


def test_entries_last_until_the_outermost_call_ends_in_any_thread() -> None:
    calls = []

    @callcaches.per_call
    @lru_cache(maxsize=8)
    def square(n: int) -> int:
        calls.append(n)
        return n * n

    try:
        square(2)  # outside any call: kept, as before
        with callcaches.call_scope():
            square(3)
            inner_done = threading.Event()

            def other() -> None:
                with callcaches.call_scope():
                    square(4)
                inner_done.set()

            threading.Thread(target=other).start()
            assert inner_done.wait(10)
            assert square.cache_info().currsize == 3  # another call still open: nothing emptied
            square(3)
            assert calls == [2, 3, 4]
        assert square.cache_info().currsize == 0
    finally:
        callcaches._caches.remove(square)


def test_verify_s_own_relaxation_keeps_its_moves_for_one_call(tmp_path: Path) -> None:
    """verify's relaxation (``verification.relaxed``) remembers the changes of a half-row; kept after the
    call, those of six checked challenge-1 proofs held 123 MB of the allocator."""
    from stratagem.verification import relaxed

    proof = tmp_path / "solo-1.json"
    stratagem.solve(ROOT / "puzzles" / "strato" / "challenge-0.toml").write_proof(str(proof))
    with callcaches.call_scope():  # a call around it: what verify remembers stays until that one ends
        assert stratagem.verify(proof).status == "certified"
        assert relaxed._wind_in.cache_info().currsize > 0
    assert relaxed._remove.cache_info().currsize == relaxed._wind_in.cache_info().currsize == 0
    assert {relaxed._remove, relaxed._wind_in, relaxed._end_swaps} <= set(callcaches.registered())
