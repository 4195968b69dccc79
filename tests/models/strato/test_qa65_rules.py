"""Session 65's second rules audit of Strato: readings that no earlier test held on their own.

Mutating the rules engine one reading at a time (in a copy of the tree) left two readings that every
Strato rules test still passed: a Redraw that finds fewer cards in the pile than the hand size refilling
nothing at all (only the random playouts' card count caught it), and a count goal read as *exactly* its
counts among the nearest cards instead of *at least* (docs/formats.md, "Counts"). Each test below holds
the reading in the rules engine and in the compiled move generator that the searches use.
"""

from __future__ import annotations

from stratagem.models.strato.encodings.sat import StratoCNF
from stratagem.models.strato.rules.challenge import CountGoal
from stratagem.models.strato.rules.notation import format_move
from stratagem.models.strato.rules.position import ONGOING, WON, format_state, parse_row
from stratagem.models.strato.search.packed import Packing, compiled_plays
from stratagem.solvers.satplan import horizon_search

from .support import apply_text, game, make_challenge


def test_seed_redraw_refills_the_hand_with_what_a_short_pile_still_holds() -> None:
    """Seed, "Redraw!": "After you have redrawn cards like this, refill the rest of your hand." Solo, the
    hand RRW is discarded and the pile's top W played; the two cards left (R, W) are drawn, one short of
    the hand size 3, and the game goes on (the player still holds cards)."""
    g, s = game("RW(RW)RW RRW WRW 1 -")
    after = apply_text(g, s, "!W1R:1R2>1R1")
    assert format_state(after) == "RW(RW)WRW RW - 1 W"
    assert after.status == ONGOING
    assert compiled_plays(Packing(g), s) == g.plays(s)


def test_ruling_a_count_goal_asks_for_at_least_its_counts_among_the_nearest_cards() -> None:
    """Docs (rules/strato.md "Challenges", formats.md "Counts"): among the ``K`` nearest cards there are *at
    least* the given counts. "A rain among the 3 cards nearest the left tornado": the rain played at the
    left end of ``W(RW)R`` brings the right end's rain next to the left tornado, two rains, and wins -- in
    the rules engine, the compiled move generator and the SAT model alike; no other play wins."""
    goal = CountGoal(3, (("R", 1),))
    row = parse_row("RWR(RW)")
    assert goal.met(row.left, row)
    challenge = make_challenge(limit=6, left=goal)
    g, s = game("W(RW)R RWW W 1 -", challenge)
    after = apply_text(g, s, "R1L:1R1>1L1")
    assert format_state(after) == "RWR(RW) WWW - 1 R won"
    assert [format_move(m) for m, a in g.plays(s) if a.status == WON] == ["R1L:1R1>1L1"]
    assert [(format_move(m), a) for m, a in compiled_plays(Packing(g), s)] == \
        [(format_move(m), a) for m, a in g.plays(s)]
    result = horizon_search(lambda k: StratoCNF(g, k), first=0, last=1)
    assert result.status == "solved" and [format_move(m) for m in result.moves or ()] == ["R1L:1R1>1L1"]
