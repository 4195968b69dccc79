"""A Strato deal as a classical planning task (PDDL, ADL with action costs), for planners such as Fast Downward.

A turn is split into stages so that each PDDL action stays small: ``play``/``redraw`` (cost 1: the
card goes to the outer end of a half-row, the hand or pile changes), ``resolve-*`` (cost 0: the weather
the card acts as; Cloud copies the last one), one effect action per target choice or ``no-effect-*``
when the action has no changing choice (cost 0), and ``end-turn`` (cost 0: the card limit, the draw,
the next player). So a plan's cost is its number of turns, and an optimal plan is a shortest line.

Half-rows are objects ``h0 .. h{2R-1}`` (``2 * row + side``), places ``p0 ..`` count outward from the
tornado, ``(len ?h ?p)`` names a half-row's first free place. Shifting (a gap closes toward the
tornado, an insertion pushes outward) is written with quantified conditional effects: all deletes of a
PDDL effect happen before its adds, so moving every card of a stretch one place is a single effect.
The rules are those of the engine (docs/rules/strato.md, both options); the tests compare planner costs with the
optimal lengths found by search and SAT.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from stratagem.models.strato.cards import CLOUD, HAND_SIZE, WEATHERS
from stratagem.models.strato.challenge import CountGoal, SequenceGoal
from stratagem.models.strato.rules import StratoGame

ACTING = ("W", "R", "S", "F", "T")


def domain(game: StratoGame) -> str:
    """The domain; options (``strict_effect``, ``wind_crosses_tornado``) decide which actions exist."""
    strict = game.options.strict_effect
    cross = game.options.wind_crosses_tornado
    weathers = " ".join(WEATHERS)
    parts = [
        "(define (domain strato)",
        "  (:requirements :typing :adl :action-costs)",
        "  (:types half pos weather player count pidx)",
        f"  (:constants {weathers} - weather p0 - pos c0 - count)",
        "  (:predicates",
        "    (at ?h - half ?p - pos ?w - weather) (len ?h - half ?p - pos)",
        "    (succ ?p ?q - pos) (less ?p ?q - pos) (within-limit ?p - pos)",
        "    (partner ?h ?g - half) (column-pair ?h ?g - half)",
        "    (hand ?pl - player ?w - weather ?c - count) (cnext ?c ?d - count)",
        "    (top ?i - pidx) (pile-card ?i - pidx ?w - weather) (pnext ?i ?j - pidx) (pile-end ?i - pidx)",
        "    (refill ?i - pidx ?w - weather ?c - count) (after-redraw ?i ?j - pidx)",
        "    (turn ?pl - player) (next-player ?pl ?q - player)",
        "    (last ?w - weather) (no-last) (ready) (started)",
        "    (placed ?h - half ?p - pos ?w - weather) (redrawn)",
        "    (resolving ?h - half ?p - pos ?w - weather) (resolving-none) (resolved))",
        "  (:functions (total-cost) - number)",
        _play(),
        _redraw(),
        _resolve(),
        _wind(cross),
        _rain(),
        _sun(),
        _fog(),
        _storm(),
    ]
    if not strict:
        parts.append(_no_effect(cross))
    parts.append(_end_turn())
    parts.append(")")
    return "\n".join(parts) + "\n"


def _play() -> str:
    return """  (:action play
    :parameters (?pl - player ?w - weather ?c ?d - count ?h - half ?p ?q - pos)
    :precondition (and (ready) (turn ?pl) (hand ?pl ?w ?d) (cnext ?c ?d) (len ?h ?p) (succ ?p ?q))
    :effect (and (not (ready)) (not (hand ?pl ?w ?d)) (hand ?pl ?w ?c) (not (len ?h ?p)) (len ?h ?q)
                 (at ?h ?p ?w) (placed ?h ?p ?w) (increase (total-cost) 1)))"""


def _redraw() -> str:
    return """  (:action redraw
    :parameters (?pl - player ?i ?j - pidx ?w - weather ?h - half ?p ?q - pos)
    :precondition (and (ready) (turn ?pl) (top ?i) (not (pile-end ?i)) (pile-card ?i ?w) (after-redraw ?i ?j)
                       (len ?h ?p) (succ ?p ?q))
    :effect (and (not (ready)) (not (top ?i)) (top ?j) (redrawn)
                 (forall (?x - weather ?c - count) (when (hand ?pl ?x ?c) (not (hand ?pl ?x ?c))))
                 (forall (?x - weather ?c - count) (when (refill ?i ?x ?c) (hand ?pl ?x ?c)))
                 (not (len ?h ?p)) (len ?h ?q) (at ?h ?p ?w) (placed ?h ?p ?w) (increase (total-cost) 1)))"""


def _resolve() -> str:
    acting = " ".join(f"(= ?w {w})" for w in ACTING)
    return f"""  (:action resolve-card
    :parameters (?h - half ?p - pos ?w - weather)
    :precondition (and (placed ?h ?p ?w) (or {acting}))
    :effect (and (not (placed ?h ?p ?w)) (resolving ?h ?p ?w)
                 (forall (?x - weather) (when (last ?x) (not (last ?x)))) (not (no-last)) (last ?w)))
  (:action resolve-cloud
    :parameters (?h - half ?p - pos ?a - weather)
    :precondition (and (placed ?h ?p {CLOUD}) (last ?a))
    :effect (and (not (placed ?h ?p {CLOUD})) (resolving ?h ?p ?a)))
  (:action resolve-cloud-without-last
    :parameters (?h - half ?p - pos)
    :precondition (and (placed ?h ?p {CLOUD}) (no-last))
    :effect (and (not (placed ?h ?p {CLOUD})) (resolving-none)))"""


# -- shifting helpers (PDDL text) -------------------------------------------------------------------

def _shift_out(h: str, lo: str, hi_excl: str) -> str:
    """Every card of ``h`` at a place in [lo, hi) moves one place outward."""
    return (f"(forall (?sz ?sz2 - pos ?sc - weather) (when (and (not (less ?sz {lo})) (less ?sz {hi_excl}) "
            f"(succ ?sz ?sz2) (at {h} ?sz ?sc)) (and (not (at {h} ?sz ?sc)) (at {h} ?sz2 ?sc))))")


def _shift_out_from(h: str, lo: str) -> str:
    """Every card of ``h`` at a place >= lo moves one place outward."""
    return (f"(forall (?sz ?sz2 - pos ?sc - weather) (when (and (not (less ?sz {lo})) (succ ?sz ?sz2) "
            f"(at {h} ?sz ?sc)) (and (not (at {h} ?sz ?sc)) (at {h} ?sz2 ?sc))))")


def _shift_in_after(h: str, x: str) -> str:
    """Every card of ``h`` beyond place x moves one place inward (closing the gap at x)."""
    return (f"(forall (?sz ?sz2 - pos ?sc - weather) (when (and (less {x} ?sz2) (succ ?sz ?sz2) (at {h} ?sz2 ?sc)) "
            f"(and (not (at {h} ?sz2 ?sc)) (at {h} ?sz ?sc))))")


def _shift_in_between(h: str, x: str, y: str) -> str:
    """Cards of ``h`` at places in (x, y] move one place inward."""
    return (f"(forall (?sz ?sz2 - pos ?sc - weather) (when (and (less {x} ?sz2) (not (less {y} ?sz2)) (succ ?sz ?sz2) "
            f"(at {h} ?sz2 ?sc)) (and (not (at {h} ?sz2 ?sc)) (at {h} ?sz ?sc))))")


def _len_down(h: str) -> str:
    return f"(forall (?la ?lb - pos) (when (and (len {h} ?lb) (succ ?la ?lb)) (and (not (len {h} ?lb)) (len {h} ?la))))"


def _len_up(h: str) -> str:
    return f"(forall (?la ?lb - pos) (when (and (len {h} ?la) (succ ?la ?lb)) (and (not (len {h} ?la)) (len {h} ?lb))))"


def _wind(cross: bool) -> str:
    near = f"""  (:action wind-near
    :parameters (?h - half ?p ?x ?y - pos ?cx - weather)
    :precondition (and (resolving ?h ?p W) (at ?h ?x ?cx) (less ?y ?x) (not (= ?x ?p))
                       (exists (?z - pos ?c - weather) (and (not (less ?z ?y)) (less ?z ?x) (at ?h ?z ?c)
                                                            (not (= ?c ?cx)))))
    :effect (and (not (resolving ?h ?p W)) (resolved) (not (at ?h ?x ?cx)) (at ?h ?y ?cx)
                 {_shift_out("?h", "?y", "?x")}))"""
    far = f"""  (:action wind-far
    :parameters (?h ?g - half ?p ?x ?y - pos ?cx - weather)
    :precondition (and (resolving ?h ?p W) (partner ?h ?g) (at ?g ?x ?cx) (less ?x ?y)
                       (exists (?c - weather) (at ?g ?y ?c))
                       (exists (?z - pos ?c - weather) (and (less ?x ?z) (not (less ?y ?z)) (at ?g ?z ?c)
                                                            (not (= ?c ?cx)))))
    :effect (and (not (resolving ?h ?p W)) (resolved) (not (at ?g ?x ?cx)) (at ?g ?y ?cx)
                 {_shift_in_between("?g", "?x", "?y")}))"""
    out = near + "\n" + far
    if cross:
        out += f"""
  (:action wind-cross
    :parameters (?h ?g - half ?p ?x ?y ?n - pos ?cx - weather)
    :precondition (and (resolving ?h ?p W) (partner ?h ?g) (at ?h ?x ?cx) (not (= ?x ?p)) (len ?g ?n)
                       (not (less ?n ?y)))
    :effect (and (not (resolving ?h ?p W)) (resolved) (not (at ?h ?x ?cx)) {_shift_in_after("?h", "?x")}
                 {_len_down("?h")} (at ?g ?y ?cx) {_shift_out_from("?g", "?y")} {_len_up("?g")}))"""
    return out


def _rain() -> str:
    # Source: the far half-row's outer end card (place e, with len = e + 1); insert next to a tornado.
    return f"""  (:action rain-near
    :parameters (?h ?g - half ?p ?e ?n - pos ?c - weather)
    :precondition (and (resolving ?h ?p R) (partner ?h ?g) (len ?g ?n) (succ ?e ?n) (at ?g ?e ?c))
    :effect (and (not (resolving ?h ?p R)) (resolved) (not (at ?g ?e ?c)) {_len_down("?g")}
                 (at ?h p0 ?c) {_shift_out_from("?h", "p0")} {_len_up("?h")}))
  (:action rain-far
    :parameters (?h ?g - half ?p ?e ?n - pos ?c - weather)
    :precondition (and (resolving ?h ?p R) (partner ?h ?g) (len ?g ?n) (succ ?e ?n) (at ?g ?e ?c)
                       (exists (?z - pos ?d - weather) (and (less ?z ?e) (at ?g ?z ?d) (not (= ?d ?c)))))
    :effect (and (not (resolving ?h ?p R)) (resolved) (not (at ?g ?e ?c)) (at ?g p0 ?c)
                 {_shift_out("?g", "p0", "?e")}))"""


def _sun() -> str:
    return f"""  (:action sun
    :parameters (?h ?t - half ?p ?x - pos ?c - weather)
    :precondition (and (resolving ?h ?p S) (or (= ?t ?h) (partner ?h ?t)) (at ?t ?x ?c)
                       (not (and (= ?t ?h) (= ?x ?p))))
    :effect (and (not (resolving ?h ?p S)) (resolved) (not (at ?t ?x ?c)) {_shift_in_after("?t", "?x")}
                 {_len_down("?t")}))"""


def _fog() -> str:
    return f"""  (:action fog-swap
    :parameters (?h ?a ?b - half ?p ?d - pos ?ca ?cb - weather)
    :precondition (and (resolving ?h ?p F) (column-pair ?a ?b) (at ?a ?d ?ca) (at ?b ?d ?cb) (not (= ?ca ?cb))
                       (not (and (= ?a ?h) (= ?d ?p))) (not (and (= ?b ?h) (= ?d ?p))))
    :effect (and (not (resolving ?h ?p F)) (resolved) (not (at ?a ?d ?ca)) (not (at ?b ?d ?cb))
                 (at ?a ?d ?cb) (at ?b ?d ?ca)))
  (:action fog-move
    :parameters (?h ?a ?b - half ?p ?d ?n - pos ?c - weather)
    :precondition (and (resolving ?h ?p F) (column-pair ?a ?b) (at ?a ?d ?c) (len ?b ?n) (not (less ?d ?n))
                       (not (and (= ?a ?h) (= ?d ?p))))
    :effect (and (not (resolving ?h ?p F)) (resolved) (not (at ?a ?d ?c)) {_shift_in_after("?a", "?d")}
                 {_len_down("?a")} (at ?b ?n ?c) {_len_up("?b")}))"""


def _storm() -> str:
    return """  (:action storm
    :parameters (?h ?a ?b - half ?p ?ea ?na ?eb ?nb - pos ?ca ?cb - weather)
    :precondition (and (resolving ?h ?p T) (not (= ?a ?b)) (len ?a ?na) (succ ?ea ?na) (len ?b ?nb) (succ ?eb ?nb)
                       (at ?a ?ea ?ca) (at ?b ?eb ?cb) (not (= ?ca ?cb))
                       (not (and (= ?a ?h) (= ?ea ?p))) (not (and (= ?b ?h) (= ?eb ?p))))
    :effect (and (not (resolving ?h ?p T)) (resolved) (not (at ?a ?ea ?ca)) (not (at ?b ?eb ?cb))
                 (at ?a ?ea ?cb) (at ?b ?eb ?ca)))"""


def _uniform(h: str, p: str) -> str:
    """All cards of ``h`` other than the one at place ``p`` share one weather."""
    return (f"(forall (?x ?y - pos ?c ?d - weather) (imply (and (at {h} ?x ?c) (at {h} ?y ?d) (not (= ?x {p})) "
            f"(not (= ?y {p}))) (= ?c ?d)))")


def _no_effect(cross: bool) -> str:
    near_wind = "(exists (?q - pos) (and (len ?h ?q) (succ p0 ?q)))" if cross else _uniform("?h", "?p")
    return f"""  (:action no-effect-wind
    :parameters (?h ?g - half ?p - pos)
    :precondition (and (resolving ?h ?p W) (partner ?h ?g) {near_wind} {_uniform("?g", "?p")})
    :effect (and (not (resolving ?h ?p W)) (resolved)))
  (:action no-effect-rain
    :parameters (?h ?g - half ?p - pos)
    :precondition (and (resolving ?h ?p R) (partner ?h ?g) (len ?g p0))
    :effect (and (not (resolving ?h ?p R)) (resolved)))
  (:action no-effect-sun
    :parameters (?h ?g - half ?p - pos)
    :precondition (and (resolving ?h ?p S) (partner ?h ?g) (len ?g p0) (= ?p p0))
    :effect (and (not (resolving ?h ?p S)) (resolved)))
  (:action no-effect-fog
    :parameters (?h - half ?p - pos)
    :precondition (and (resolving ?h ?p F)
                       (forall (?a ?b - half ?d - pos ?c - weather)
                         (imply (and (column-pair ?a ?b) (at ?a ?d ?c) (not (and (= ?a ?h) (= ?d ?p))))
                                (exists (?e - weather) (at ?b ?d ?e))))
                       (forall (?a ?b - half ?d - pos ?c ?e - weather)
                         (imply (and (column-pair ?a ?b) (at ?a ?d ?c) (at ?b ?d ?e) (not (and (= ?a ?h) (= ?d ?p)))
                                     (not (and (= ?b ?h) (= ?d ?p))))
                                (= ?c ?e))))
    :effect (and (not (resolving ?h ?p F)) (resolved)))
  (:action no-effect-storm
    :parameters (?h - half ?p - pos)
    :precondition (and (resolving ?h ?p T)
                       (forall (?a ?b - half ?ea ?na ?eb ?nb - pos ?ca ?cb - weather)
                         (imply (and (not (= ?a ?b)) (len ?a ?na) (succ ?ea ?na) (len ?b ?nb) (succ ?eb ?nb)
                                     (at ?a ?ea ?ca) (at ?b ?eb ?cb)
                                     (not (and (= ?a ?h) (= ?ea ?p))) (not (and (= ?b ?h) (= ?eb ?p))))
                                (= ?ca ?cb))))
    :effect (and (not (resolving ?h ?p T)) (resolved)))
  (:action no-effect-cloud
    :parameters ()
    :precondition (resolving-none)
    :effect (and (not (resolving-none)) (resolved)))"""


def _end_turn() -> str:
    return """  (:action end-turn
    :parameters (?pl ?q - player)
    :precondition (and (resolved) (turn ?pl) (next-player ?pl ?q)
                       (forall (?h - half ?n - pos) (imply (len ?h ?n) (within-limit ?n))))
    :effect (and (not (resolved)) (ready) (started) (not (redrawn)) (not (turn ?pl)) (turn ?q)
                 (forall (?i ?j - pidx ?x - weather ?c ?d - count)
                   (when (and (not (redrawn)) (top ?i) (pnext ?i ?j) (pile-card ?i ?x) (hand ?pl ?x ?c)
                              (cnext ?c ?d))
                         (and (not (top ?i)) (top ?j) (not (hand ?pl ?x ?c)) (hand ?pl ?x ?d))))))"""


def problem(game: StratoGame, name: str = "deal") -> str:
    """The problem: objects sized for the deal, its start position, and the victory condition."""
    start = game.initial_state()
    challenge = game.challenge
    halves = 2 * len(start.rows)
    places = challenge.limit + 3  # p0 .. p(limit+2): lengths up to limit + 2 occur within a turn
    size = HAND_SIZE[len(start.hands)]
    pile = start.pile
    pos = [f"p{i}" for i in range(places)]
    objects = [
        " ".join(f"h{h}" for h in range(halves)) + " - half",
        " ".join(pos[1:]) + " - pos",
        " ".join(f"pl{i}" for i in range(len(start.hands))) + " - player",
        " ".join(f"c{i}" for i in range(1, size + 1)) + " - count",
        " ".join(f"i{i}" for i in range(len(pile) + 1)) + " - pidx",
    ]
    init = ["(ready)", "(= (total-cost) 0)"]
    init += [f"(succ p{i} p{i + 1})" for i in range(places - 1)]
    init += [f"(less p{i} p{j})" for i in range(places) for j in range(i + 1, places)]
    init += [f"(within-limit p{i})" for i in range(challenge.limit + 1)]
    for r in range(len(start.rows)):
        init += [f"(partner h{2 * r} h{2 * r + 1})", f"(partner h{2 * r + 1} h{2 * r})"]
    init += [f"(column-pair h{2 * a + s} h{2 * b + s})" for s in (0, 1) for a in range(len(start.rows))
             for b in range(len(start.rows)) if a != b]
    for h in range(halves):
        cards = start.rows[h // 2].half(h % 2)
        init += [f"(at h{h} p{j} {c})" for j, c in enumerate(cards)]
        init.append(f"(len h{h} p{len(cards)})")
    init += [f"(cnext c{i} c{i + 1})" for i in range(size)]
    for p, hand in enumerate(start.hands):
        counts = Counter(hand)
        init += [f"(hand pl{p} {w} c{counts[w]})" for w in WEATHERS]
    n = len(start.hands)
    init += [f"(next-player pl{p} pl{(p + 1) % n})" for p in range(n)]
    init.append(f"(turn pl{start.to_move})")
    init.append("(top i0)")
    init.append(f"(pile-end i{len(pile)})")
    for i, card in enumerate(pile):
        init += [f"(pile-card i{i} {card})", f"(pnext i{i} i{i + 1})"]
        refill = Counter(pile[i + 1 : i + 1 + size])
        init += [f"(refill i{i} {w} c{refill[w]})" for w in WEATHERS]
        init.append(f"(after-redraw i{i} i{min(i + 1 + size, len(pile))})")
    init.append(f"(last {start.last})" if start.last else "(no-last)")
    goal = f"(and (ready) (started) {_victory(game)})"
    return (
        f"(define (problem {name}) (:domain strato)\n  (:objects {' '.join(objects)})\n"
        f"  (:init {' '.join(init)})\n  (:goal {goal})\n  (:metric minimize (total-cost)))\n"
    )


def _victory(game: StratoGame) -> str:
    challenge = game.challenge
    start = game.initial_state()
    goal = challenge.goal
    rows = []
    for r, row in enumerate(start.rows):
        if not goal.eligible(row):
            continue
        conds = []
        for side, half_goal in goal.halves():
            h = f"h{2 * r + side}"
            if isinstance(half_goal, SequenceGoal):
                for i, token in enumerate(half_goal.pattern):
                    if token == "?":
                        conds.append(f"(exists (?c - weather) (at {h} p{i} ?c))")
                    else:
                        w = row.left_tornado if token == "<" else row.right_tornado if token == ">" else token
                        conds.append(f"(at {h} p{i} {w})")
            else:
                assert isinstance(half_goal, CountGoal)
                for w, n in sorted(half_goal.needs(row).items()):
                    options = [" ".join(f"(at {h} p{i} {w})" for i in chosen)
                               for chosen in combinations(range(half_goal.nearest), n)]
                    conds.append("(or " + " ".join(f"(and {o})" for o in options) + ")")
        rows.append("(and " + " ".join(conds) + ")")
    needed = challenge.rows_required
    if needed > len(rows):
        return "(and (ready) (not (ready)))"
    return "(or " + " ".join("(and " + " ".join(c) + ")" for c in combinations(rows, needed)) + ")"
