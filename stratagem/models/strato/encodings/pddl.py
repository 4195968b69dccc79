"""A Strato deal as a classical planning task (PDDL, ADL with action costs), for planners such as Fast Downward.

A turn is split into stages so that each PDDL action stays small: ``play``/``redraw`` (cost 1: the
card goes to the outer end of a half-row, the hand or pile changes), ``resolve-*`` (cost 0: the weather
the card acts as; Cloud copies the last one), one effect action per target choice or ``no-effect-*``
when the action has no changing choice (cost 0), and ``end-turn`` (cost 0: the card limit, the draw,
the next player). So a plan's cost is its number of turns, and an optimal plan is a shortest line.

Half-rows are objects ``h0 .. h{2R-1}`` (``2 * row + side``), places ``p0 ..`` count outward from the
tornado, ``(len ?h ?p)`` names a half-row's first free place, ``(current ?h ?p)`` where this turn's card
lies (an action may not target it) and ``(current-half ?h)`` its half-row. Effect actions take only the
places they touch as parameters (never the played card's place), which keeps grounding small enough
for two-row deals. Shifting (a gap closes toward the tornado, an insertion pushes outward) is written
with quantified conditional effects: all deletes of a PDDL effect happen before its adds, so moving
every card of a stretch one place is a single effect.

Two variants, the same turns and the same plan costs:

- the default writes "no changing choice", the card limit and the victory condition as quantified or
  disjunctive conditions, which planners compile into derived predicates (Fast Downward: axioms);
- ``axiom_free=True`` writes every such condition as a chain of cost-0 check actions over finite cases
  (scan the half-rows or the columns one at a time; the victory is claimed after a turn by actions
  that each check one part of the goal and then require all parts), so planners whose heuristics do
  not support axioms (Fast Downward's ``lmcut``) accept it. Its domain carries the deal's victory
  checks (they name the deal's tornado weathers), so it belongs to one deal.

The rules are those of the engine (docs/rules/strato.md, both options); the tests compare planner costs
with the optimal lengths found by search.

Why one module of over 600 lines: it is one concept, the planning task's text; its stages and the
shifting effects are written against one set of predicates and read together with this description.
"""

from __future__ import annotations

import re
from collections import Counter
from itertools import combinations

from stratagem.models.strato.rules.cards import CLOUD, HAND_SIZE, WEATHERS
from stratagem.models.strato.rules.challenge import CountGoal, SequenceGoal
from stratagem.models.strato.rules.notation import Move
from stratagem.models.strato.rules.position import LOST, WON, Coord
from stratagem.models.strato.rules.turns import StratoGame

ACTING = ("W", "R", "S", "F", "T")


def domain(game: StratoGame, axiom_free: bool = False) -> str:
    """The domain; options (``strict_effect``, ``wind_crosses_tornado``) decide which actions exist.

    With ``axiom_free`` the conditions that would become derived predicates are check actions instead,
    and the domain holds the deal's victory checks (see the module docstring)."""
    strict = game.options.strict_effect
    cross = game.options.wind_crosses_tornado
    weathers = " ".join(WEATHERS)
    types = "half pos weather player count pidx" + (" stage column" if axiom_free else "")
    predicates = [
        "    (at ?h - half ?p - pos ?w - weather) (len ?h - half ?p - pos)",
        "    (succ ?p ?q - pos) (less ?p ?q - pos) (within-limit ?p - pos)",
        "    (partner ?h ?g - half) (column-pair ?h ?g - half)",
        "    (hand ?pl - player ?w - weather ?c - count) (cnext ?c ?d - count)",
        "    (top ?i - pidx) (pile-card ?i - pidx ?w - weather) (pnext ?i ?j - pidx) (pile-end ?i - pidx)",
        "    (refill ?i - pidx ?w - weather ?c - count) (after-redraw ?i ?j - pidx)",
        "    (turn ?pl - player) (next-player ?pl ?q - player)",
        "    (last ?w - weather) (no-last) (ready) (started)",
        "    (placed ?w - weather) (redrawn) (current ?h - half ?p - pos) (current-half ?h - half)",
        "    (resolving ?w - weather) (resolving-none) (resolved)",
    ]
    if axiom_free:
        predicates += [
            "    (scan-start ?k - stage) (scan-end ?k - stage) (half-scan ?k - stage ?h - half ?k2 - stage)",
            "    (column-start ?x - column) (column-end ?x - column) (column-of ?x - column ?a ?b - half)",
            "    (column-next ?x ?x2 - column) (last-place ?p - pos)",
            "    (limit-scan ?k - stage) (storm-scan ?k - stage ?c - weather) (fog-scan ?x - column ?p - pos)",
            "    (wind-near-scan ?p - pos ?c - weather) (wind-far-scan ?p - pos ?c - weather)",
            "    (claiming) (won)",
            "    (closing ?h - half ?p - pos) (closed) (insert-pending) (to-insert ?h - half ?p - pos ?w - weather)",
            "    (inserting ?h - half ?p - pos ?w - weather) (gap ?h - half ?p - pos)",
            "    (wnext ?w ?x - weather) (wlast ?w - weather) (rehand ?i - pidx ?w - weather) (rehand-pending)",
        ]
        victory_parts, victory_actions = _victory_actions(game)
        predicates += ["    " + " ".join(f"({part})" for part in victory_parts)] if victory_parts else []
    constants = f"{weathers} - weather p0 - pos c0 - count"
    if axiom_free:  # the victory checks name half-rows and places: constants of this deal's domain
        halves, places = _sizes(game)
        constants = (f"{weathers} - weather {' '.join(f'h{h}' for h in range(halves))} - half "
                     f"{' '.join(f'p{p}' for p in range(places))} - pos c0 - count")
    parts = [
        "(define (domain strato)",
        "  (:requirements :typing :adl :action-costs)",
        f"  (:types {types})",
        f"  (:constants {constants})",
        "  (:predicates",
        "\n".join(predicates) + ")",
        "  (:functions (total-cost) - number)",
        _play(),
    ]
    if axiom_free:
        parts += [_redraw_unconditional(), _resolve_unconditional(), _effects_unconditional(cross), _moves()]
    else:
        parts += [_redraw(), _resolve(), _wind(cross), _rain(), _sun(), _fog()]
    parts.append(_storm())
    if not strict:
        parts.append(_no_effect_checks(cross) if axiom_free else _no_effect(cross))
    if axiom_free:
        parts.append(_limit_checks())
        parts.append(_end_turn(axiom_free=True))
        parts += victory_actions
    else:
        parts.append(_end_turn(axiom_free=False))
    parts.append(")")
    return "\n".join(parts) + "\n"


def _play() -> str:
    return """  (:action play
    :parameters (?pl - player ?w - weather ?c ?d - count ?h - half ?p ?q - pos)
    :precondition (and (ready) (turn ?pl) (hand ?pl ?w ?d) (cnext ?c ?d) (len ?h ?p) (succ ?p ?q))
    :effect (and (not (ready)) (not (hand ?pl ?w ?d)) (hand ?pl ?w ?c) (not (len ?h ?p)) (len ?h ?q)
                 (at ?h ?p ?w) (placed ?w) (current ?h ?p) (current-half ?h) (increase (total-cost) 1)))"""


def _redraw() -> str:
    return """  (:action redraw
    :parameters (?pl - player ?i ?j - pidx ?w - weather ?h - half ?p ?q - pos)
    :precondition (and (ready) (turn ?pl) (top ?i) (not (pile-end ?i)) (pile-card ?i ?w) (after-redraw ?i ?j)
                       (len ?h ?p) (succ ?p ?q))
    :effect (and (not (ready)) (not (top ?i)) (top ?j) (redrawn)
                 (forall (?x - weather ?c - count) (when (hand ?pl ?x ?c) (not (hand ?pl ?x ?c))))
                 (forall (?x - weather ?c - count) (when (refill ?i ?x ?c) (hand ?pl ?x ?c)))
                 (not (len ?h ?p)) (len ?h ?q) (at ?h ?p ?w) (placed ?w) (current ?h ?p) (current-half ?h)
                 (increase (total-cost) 1)))"""


def _resolve() -> str:
    acting = " ".join(f"(= ?w {w})" for w in ACTING)
    return f"""  (:action resolve-card
    :parameters (?w - weather)
    :precondition (and (placed ?w) (or {acting}))
    :effect (and (not (placed ?w)) (resolving ?w)
                 (forall (?x - weather) (when (last ?x) (not (last ?x)))) (not (no-last)) (last ?w)))
  (:action resolve-cloud
    :parameters (?a - weather)
    :precondition (and (placed {CLOUD}) (last ?a))
    :effect (and (not (placed {CLOUD})) (resolving ?a)))
  (:action resolve-cloud-without-last
    :parameters ()
    :precondition (and (placed {CLOUD}) (no-last))
    :effect (and (not (placed {CLOUD})) (resolving-none)))"""


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
    :parameters (?h - half ?x ?y - pos ?cx - weather)
    :precondition (and (resolving W) (current-half ?h) (at ?h ?x ?cx) (less ?y ?x) (not (current ?h ?x))
                       (exists (?z - pos ?c - weather) (and (not (less ?z ?y)) (less ?z ?x) (at ?h ?z ?c)
                                                            (not (= ?c ?cx)))))
    :effect (and (not (resolving W)) (resolved) (not (at ?h ?x ?cx)) (at ?h ?y ?cx)
                 {_shift_out("?h", "?y", "?x")}))"""
    far = f"""  (:action wind-far
    :parameters (?h ?g - half ?x ?y - pos ?cx - weather)
    :precondition (and (resolving W) (current-half ?h) (partner ?h ?g) (at ?g ?x ?cx) (less ?x ?y)
                       (exists (?c - weather) (at ?g ?y ?c))
                       (exists (?z - pos ?c - weather) (and (less ?x ?z) (not (less ?y ?z)) (at ?g ?z ?c)
                                                            (not (= ?c ?cx)))))
    :effect (and (not (resolving W)) (resolved) (not (at ?g ?x ?cx)) (at ?g ?y ?cx)
                 {_shift_in_between("?g", "?x", "?y")}))"""
    out = near + "\n" + far
    if cross:
        out += f"""
  (:action wind-cross
    :parameters (?h ?g - half ?x ?y ?n - pos ?cx - weather)
    :precondition (and (resolving W) (current-half ?h) (partner ?h ?g) (at ?h ?x ?cx) (not (current ?h ?x))
                       (len ?g ?n) (not (less ?n ?y)))
    :effect (and (not (resolving W)) (resolved) (not (at ?h ?x ?cx)) {_shift_in_after("?h", "?x")}
                 {_len_down("?h")} (at ?g ?y ?cx) {_shift_out_from("?g", "?y")} {_len_up("?g")}))"""
    return out


def _rain() -> str:
    # Source: the far half-row's outer end card (place e, with len = e + 1); insert next to a tornado.
    return f"""  (:action rain-near
    :parameters (?h ?g - half ?e ?n - pos ?c - weather)
    :precondition (and (resolving R) (current-half ?h) (partner ?h ?g) (len ?g ?n) (succ ?e ?n) (at ?g ?e ?c))
    :effect (and (not (resolving R)) (resolved) (not (at ?g ?e ?c)) {_len_down("?g")}
                 (at ?h p0 ?c) {_shift_out_from("?h", "p0")} {_len_up("?h")}))
  (:action rain-far
    :parameters (?h ?g - half ?e ?n - pos ?c - weather)
    :precondition (and (resolving R) (current-half ?h) (partner ?h ?g) (len ?g ?n) (succ ?e ?n) (at ?g ?e ?c)
                       (exists (?z - pos ?d - weather) (and (less ?z ?e) (at ?g ?z ?d) (not (= ?d ?c)))))
    :effect (and (not (resolving R)) (resolved) (not (at ?g ?e ?c)) (at ?g p0 ?c)
                 {_shift_out("?g", "p0", "?e")}))"""


def _sun() -> str:
    return f"""  (:action sun
    :parameters (?h ?t - half ?x - pos ?c - weather)
    :precondition (and (resolving S) (current-half ?h) (or (= ?t ?h) (partner ?h ?t)) (at ?t ?x ?c)
                       (not (current ?t ?x)))
    :effect (and (not (resolving S)) (resolved) (not (at ?t ?x ?c)) {_shift_in_after("?t", "?x")}
                 {_len_down("?t")}))"""


def _fog_swap() -> str:
    """Fog swapping two cards of a column: the same action in both variants (no conditional effect)."""
    return """  (:action fog-swap
    :parameters (?a ?b - half ?d - pos ?ca ?cb - weather)
    :precondition (and (resolving F) (column-pair ?a ?b) (at ?a ?d ?ca) (at ?b ?d ?cb) (not (= ?ca ?cb))
                       (not (current ?a ?d)) (not (current ?b ?d)))
    :effect (and (not (resolving F)) (resolved) (not (at ?a ?d ?ca)) (not (at ?b ?d ?cb))
                 (at ?a ?d ?cb) (at ?b ?d ?ca)))"""


def _fog() -> str:
    return _fog_swap() + f"""
  (:action fog-move
    :parameters (?a ?b - half ?d ?n - pos ?c - weather)
    :precondition (and (resolving F) (column-pair ?a ?b) (at ?a ?d ?c) (len ?b ?n) (not (less ?d ?n))
                       (not (current ?a ?d)))
    :effect (and (not (resolving F)) (resolved) (not (at ?a ?d ?c)) {_shift_in_after("?a", "?d")}
                 {_len_down("?a")} (at ?b ?n ?c) {_len_up("?b")}))"""


def _storm() -> str:
    return """  (:action storm
    :parameters (?a ?b - half ?ea ?na ?eb ?nb - pos ?ca ?cb - weather)
    :precondition (and (resolving T) (not (= ?a ?b)) (len ?a ?na) (succ ?ea ?na) (len ?b ?nb) (succ ?eb ?nb)
                       (at ?a ?ea ?ca) (at ?b ?eb ?cb) (not (= ?ca ?cb))
                       (not (current ?a ?ea)) (not (current ?b ?eb)))
    :effect (and (not (resolving T)) (resolved) (not (at ?a ?ea ?ca)) (not (at ?b ?eb ?cb))
                 (at ?a ?ea ?cb) (at ?b ?eb ?ca)))"""


# -- the axiom-free variant's effects: no conditional effect either --------------------------------
# Fast Downward's lmcut supports neither axioms nor conditional effects, so this variant moves cards
# one place per cost-0 action: an effect removes its card and opens a gap (``closing``), the cards
# beyond it step inward one by one; an insertion (``to-insert``) then opens a gap at the outer end and
# steps the cards outward down to its place. Each micro-step has exactly one applicable grounding.

def _redraw_unconditional() -> str:
    return f"""  (:action redraw
    :parameters (?pl - player ?i ?j - pidx ?w - weather ?h - half ?p ?q - pos)
    :precondition (and (ready) (turn ?pl) (top ?i) (not (pile-end ?i)) (pile-card ?i ?w) (after-redraw ?i ?j)
                       (len ?h ?p) (succ ?p ?q))
    :effect (and (not (ready)) (not (top ?i)) (top ?j) (redrawn) (rehand ?i {WEATHERS[0]}) (rehand-pending)
                 (not (len ?h ?p)) (len ?h ?q) (at ?h ?p ?w) (placed ?w) (current ?h ?p) (current-half ?h)
                 (increase (total-cost) 1)))
  (:action rehand-step
    :parameters (?pl - player ?i - pidx ?w ?x - weather ?c ?d - count)
    :precondition (and (rehand ?i ?w) (wnext ?w ?x) (turn ?pl) (hand ?pl ?w ?c) (refill ?i ?w ?d))
    :effect (and (not (rehand ?i ?w)) (rehand ?i ?x) (not (hand ?pl ?w ?c)) (hand ?pl ?w ?d)))
  (:action rehand-last
    :parameters (?pl - player ?i - pidx ?w - weather ?c ?d - count)
    :precondition (and (rehand ?i ?w) (wlast ?w) (turn ?pl) (hand ?pl ?w ?c) (refill ?i ?w ?d))
    :effect (and (not (rehand ?i ?w)) (not (rehand-pending)) (not (hand ?pl ?w ?c)) (hand ?pl ?w ?d)))"""


def _resolve_unconditional() -> str:
    acting = " ".join(f"(= ?w {w})" for w in ACTING)
    return f"""  (:action resolve-card
    :parameters (?w ?old - weather)
    :precondition (and (placed ?w) (or {acting}) (last ?old))
    :effect (and (not (placed ?w)) (resolving ?w) (not (last ?old)) (last ?w)))
  (:action resolve-first-card
    :parameters (?w - weather)
    :precondition (and (placed ?w) (or {acting}) (no-last))
    :effect (and (not (placed ?w)) (resolving ?w) (not (no-last)) (last ?w)))
  (:action resolve-cloud
    :parameters (?a - weather)
    :precondition (and (placed {CLOUD}) (last ?a))
    :effect (and (not (placed {CLOUD})) (resolving ?a)))
  (:action resolve-cloud-without-last
    :parameters ()
    :precondition (and (placed {CLOUD}) (no-last))
    :effect (and (not (placed {CLOUD})) (resolving-none)))"""


def _effects_unconditional(cross: bool) -> str:
    """The effect actions of :func:`_wind` .. :func:`_fog` with the same preconditions; each takes its
    card out (``closing``) and, when the card goes elsewhere, leaves it ``to-insert``."""
    wind_near_pre = ("(and (resolving W) (current-half ?h) (at ?h ?x ?cx) (less ?y ?x) (not (current ?h ?x))\n"
                     "                       (exists (?z - pos ?c - weather) (and (not (less ?z ?y)) (less ?z ?x) "
                     "(at ?h ?z ?c) (not (= ?c ?cx)))))")
    wind_far_pre = ("(and (resolving W) (current-half ?h) (partner ?h ?g) (at ?g ?x ?cx) (less ?x ?y)\n"
                    "                       (exists (?c - weather) (at ?g ?y ?c))\n"
                    "                       (exists (?z - pos ?c - weather) (and (less ?x ?z) (not (less ?y ?z)) "
                    "(at ?g ?z ?c) (not (= ?c ?cx)))))")
    out = f"""  (:action wind-near
    :parameters (?h - half ?x ?y - pos ?cx - weather)
    :precondition {wind_near_pre}
    :effect (and (not (resolving W)) (not (at ?h ?x ?cx)) (closing ?h ?x) (insert-pending) (to-insert ?h ?y ?cx)))
  (:action wind-far
    :parameters (?h ?g - half ?x ?y - pos ?cx - weather)
    :precondition {wind_far_pre}
    :effect (and (not (resolving W)) (not (at ?g ?x ?cx)) (closing ?g ?x) (insert-pending) (to-insert ?g ?y ?cx)))"""
    if cross:
        out += """
  (:action wind-cross
    :parameters (?h ?g - half ?x ?y ?n - pos ?cx - weather)
    :precondition (and (resolving W) (current-half ?h) (partner ?h ?g) (at ?h ?x ?cx) (not (current ?h ?x))
                       (len ?g ?n) (not (less ?n ?y)))
    :effect (and (not (resolving W)) (not (at ?h ?x ?cx)) (closing ?h ?x) (insert-pending) (to-insert ?g ?y ?cx)))"""
    return out + """
  (:action rain-near
    :parameters (?h ?g - half ?e ?n - pos ?c - weather)
    :precondition (and (resolving R) (current-half ?h) (partner ?h ?g) (len ?g ?n) (succ ?e ?n) (at ?g ?e ?c))
    :effect (and (not (resolving R)) (not (at ?g ?e ?c)) (closing ?g ?e) (insert-pending) (to-insert ?h p0 ?c)))
  (:action rain-far
    :parameters (?h ?g - half ?e ?n - pos ?c - weather)
    :precondition (and (resolving R) (current-half ?h) (partner ?h ?g) (len ?g ?n) (succ ?e ?n) (at ?g ?e ?c)
                       (exists (?z - pos ?d - weather) (and (less ?z ?e) (at ?g ?z ?d) (not (= ?d ?c)))))
    :effect (and (not (resolving R)) (not (at ?g ?e ?c)) (closing ?g ?e) (insert-pending) (to-insert ?g p0 ?c)))
  (:action sun
    :parameters (?h ?t - half ?x - pos ?c - weather)
    :precondition (and (resolving S) (current-half ?h) (or (= ?t ?h) (partner ?h ?t)) (at ?t ?x ?c)
                       (not (current ?t ?x)))
    :effect (and (not (resolving S)) (not (at ?t ?x ?c)) (closing ?t ?x)))
""" + _fog_swap() + """
  (:action fog-move
    :parameters (?a ?b - half ?d ?n - pos ?c - weather)
    :precondition (and (resolving F) (column-pair ?a ?b) (at ?a ?d ?c) (len ?b ?n) (not (less ?d ?n))
                       (not (current ?a ?d)))
    :effect (and (not (resolving F)) (not (at ?a ?d ?c)) (closing ?a ?d) (insert-pending) (to-insert ?b ?n ?c)))"""


def _moves() -> str:
    """The micro-steps that close a gap and open one (axiom-free variant), all cost 0."""
    return """  (:action close-step
    :parameters (?t - half ?z ?z2 - pos ?c - weather)
    :precondition (and (closing ?t ?z) (succ ?z ?z2) (at ?t ?z2 ?c))
    :effect (and (not (closing ?t ?z)) (closing ?t ?z2) (not (at ?t ?z2 ?c)) (at ?t ?z ?c)))
  (:action close-end
    :parameters (?t - half ?z ?n - pos)
    :precondition (and (closing ?t ?z) (len ?t ?n) (succ ?z ?n))
    :effect (and (not (closing ?t ?z)) (not (len ?t ?n)) (len ?t ?z) (closed)))
  (:action removed
    :parameters ()
    :precondition (and (closed) (not (insert-pending)))
    :effect (and (not (closed)) (resolved)))
  (:action start-insert
    :parameters (?t - half ?y ?n ?n2 - pos ?c - weather)
    :precondition (and (closed) (insert-pending) (to-insert ?t ?y ?c) (len ?t ?n) (succ ?n ?n2))
    :effect (and (not (closed)) (not (insert-pending)) (not (to-insert ?t ?y ?c)) (inserting ?t ?y ?c) (gap ?t ?n)
                 (not (len ?t ?n)) (len ?t ?n2)))
  (:action open-step
    :parameters (?t - half ?y ?g ?g1 - pos ?c ?d - weather)
    :precondition (and (inserting ?t ?y ?c) (gap ?t ?g) (less ?y ?g) (succ ?g1 ?g) (at ?t ?g1 ?d))
    :effect (and (not (gap ?t ?g)) (gap ?t ?g1) (not (at ?t ?g1 ?d)) (at ?t ?g ?d)))
  (:action inserted
    :parameters (?t - half ?y - pos ?c - weather)
    :precondition (and (inserting ?t ?y ?c) (gap ?t ?y))
    :effect (and (not (inserting ?t ?y ?c)) (not (gap ?t ?y)) (at ?t ?y ?c) (resolved)))"""


# -- "no changing choice": quantified conditions (default) -----------------------------------------

def _uniform(h: str, skip_current: bool) -> str:
    """All cards of ``h`` (but this turn's card, with ``skip_current``) share one weather."""
    skip = f" (not (current {h} ?x)) (not (current {h} ?y))" if skip_current else ""
    return (f"(forall (?x ?y - pos ?c ?d - weather) (imply (and (at {h} ?x ?c) (at {h} ?y ?d){skip}) "
            f"(= ?c ?d)))")


def _no_effect(cross: bool) -> str:
    near_wind = "(current ?h p0)" if cross else _uniform("?h", skip_current=True)
    return f"""  (:action no-effect-wind
    :parameters (?h ?g - half)
    :precondition (and (resolving W) (current-half ?h) (partner ?h ?g) {near_wind} {_uniform("?g", skip_current=False)})
    :effect (and (not (resolving W)) (resolved)))
  (:action no-effect-rain
    :parameters (?h ?g - half)
    :precondition (and (resolving R) (current-half ?h) (partner ?h ?g) (len ?g p0))
    :effect (and (not (resolving R)) (resolved)))
  (:action no-effect-sun
    :parameters (?h ?g - half)
    :precondition (and (resolving S) (current-half ?h) (partner ?h ?g) (len ?g p0) (current ?h p0))
    :effect (and (not (resolving S)) (resolved)))
  (:action no-effect-fog
    :parameters ()
    :precondition (and (resolving F)
                       (forall (?a ?b - half ?d - pos ?c - weather)
                         (imply (and (column-pair ?a ?b) (at ?a ?d ?c) (not (current ?a ?d)))
                                (exists (?e - weather) (at ?b ?d ?e))))
                       (forall (?a ?b - half ?d - pos ?c ?e - weather)
                         (imply (and (column-pair ?a ?b) (at ?a ?d ?c) (at ?b ?d ?e) (not (current ?a ?d))
                                     (not (current ?b ?d)))
                                (= ?c ?e))))
    :effect (and (not (resolving F)) (resolved)))
  (:action no-effect-storm
    :parameters ()
    :precondition (and (resolving T)
                       (forall (?a ?b - half ?ea ?na ?eb ?nb - pos ?ca ?cb - weather)
                         (imply (and (not (= ?a ?b)) (len ?a ?na) (succ ?ea ?na) (len ?b ?nb) (succ ?eb ?nb)
                                     (at ?a ?ea ?ca) (at ?b ?eb ?cb) (not (current ?a ?ea)) (not (current ?b ?eb)))
                                (= ?ca ?cb))))
    :effect (and (not (resolving T)) (resolved)))
  (:action no-effect-cloud
    :parameters ()
    :precondition (resolving-none)
    :effect (and (not (resolving-none)) (resolved)))"""


# -- "no changing choice": chains of check actions (axiom-free) ------------------------------------

def _no_effect_checks(cross: bool) -> str:
    """The same conditions as :func:`_no_effect`, each checked one place or half-row at a time.

    Wind: the planner names a weather, then the near half-row (but this turn's card) and the far one
    are scanned outward, every card of that weather (with the crossing option the near half-row holds
    only this turn's card). Storm: the planner names a weather, then every half-row in turn is empty,
    ends with this turn's card, or ends with that weather. Fog: every column pair, every place, in
    turn: both empty, equal cards, or one of them this turn's card. A check that fails has no action,
    so ``no-effect`` is reachable exactly when the quantified condition holds."""
    if cross:
        wind_start = """  (:action no-effect-wind
    :parameters (?h - half ?c - weather)
    :precondition (and (resolving W) (current ?h p0))
    :effect (and (not (resolving W)) (wind-far-scan p0 ?c)))"""
    else:
        wind_start = """  (:action no-effect-wind
    :parameters (?c - weather)
    :precondition (resolving W)
    :effect (and (not (resolving W)) (wind-near-scan p0 ?c)))
  (:action wind-near-same
    :parameters (?h - half ?p ?q - pos ?c - weather)
    :precondition (and (wind-near-scan ?p ?c) (current-half ?h) (at ?h ?p ?c) (not (current ?h ?p)) (succ ?p ?q))
    :effect (and (not (wind-near-scan ?p ?c)) (wind-near-scan ?q ?c)))
  (:action wind-near-done
    :parameters (?h - half ?p - pos ?c ?d - weather)
    :precondition (and (wind-near-scan ?p ?c) (current ?h ?p))
    :effect (and (not (wind-near-scan ?p ?c)) (wind-far-scan p0 ?d)))"""
    return wind_start + """
  (:action wind-far-same
    :parameters (?h ?g - half ?p ?q - pos ?c - weather)
    :precondition (and (wind-far-scan ?p ?c) (current-half ?h) (partner ?h ?g) (at ?g ?p ?c) (succ ?p ?q))
    :effect (and (not (wind-far-scan ?p ?c)) (wind-far-scan ?q ?c)))
  (:action wind-far-done
    :parameters (?h ?g - half ?p - pos ?c - weather)
    :precondition (and (wind-far-scan ?p ?c) (current-half ?h) (partner ?h ?g) (len ?g ?p))
    :effect (and (not (wind-far-scan ?p ?c)) (resolved)))
  (:action no-effect-rain
    :parameters (?h ?g - half)
    :precondition (and (resolving R) (current-half ?h) (partner ?h ?g) (len ?g p0))
    :effect (and (not (resolving R)) (resolved)))
  (:action no-effect-sun
    :parameters (?h ?g - half)
    :precondition (and (resolving S) (current-half ?h) (partner ?h ?g) (len ?g p0) (current ?h p0))
    :effect (and (not (resolving S)) (resolved)))
  (:action no-effect-fog
    :parameters (?x - column)
    :precondition (and (resolving F) (column-start ?x))
    :effect (and (not (resolving F)) (fog-scan ?x p0)))
  (:action fog-scan-empty
    :parameters (?x - column ?a ?b - half ?d ?e ?na ?nb - pos)
    :precondition (and (fog-scan ?x ?d) (column-of ?x ?a ?b) (succ ?d ?e) (len ?a ?na) (not (less ?d ?na))
                       (len ?b ?nb) (not (less ?d ?nb)))
    :effect (and (not (fog-scan ?x ?d)) (fog-scan ?x ?e)))
  (:action fog-scan-equal
    :parameters (?x - column ?a ?b - half ?d ?e - pos ?c - weather)
    :precondition (and (fog-scan ?x ?d) (column-of ?x ?a ?b) (succ ?d ?e) (at ?a ?d ?c) (at ?b ?d ?c))
    :effect (and (not (fog-scan ?x ?d)) (fog-scan ?x ?e)))
  (:action fog-scan-current
    :parameters (?x - column ?a ?b - half ?d ?e - pos)
    :precondition (and (fog-scan ?x ?d) (column-of ?x ?a ?b) (succ ?d ?e) (or (current ?a ?d) (current ?b ?d)))
    :effect (and (not (fog-scan ?x ?d)) (fog-scan ?x ?e)))
  (:action fog-scan-next
    :parameters (?x ?x2 - column ?d - pos)
    :precondition (and (fog-scan ?x ?d) (last-place ?d) (column-next ?x ?x2))
    :effect (and (not (fog-scan ?x ?d)) (fog-scan ?x2 p0)))
  (:action fog-scan-done
    :parameters (?x - column)
    :precondition (and (fog-scan ?x p0) (column-end ?x))
    :effect (and (not (fog-scan ?x p0)) (resolved)))
  (:action no-effect-storm
    :parameters (?k - stage ?c - weather)
    :precondition (and (resolving T) (scan-start ?k))
    :effect (and (not (resolving T)) (storm-scan ?k ?c)))
  (:action storm-scan-empty
    :parameters (?k ?k2 - stage ?h - half ?c - weather)
    :precondition (and (storm-scan ?k ?c) (half-scan ?k ?h ?k2) (len ?h p0))
    :effect (and (not (storm-scan ?k ?c)) (storm-scan ?k2 ?c)))
  (:action storm-scan-end
    :parameters (?k ?k2 - stage ?h - half ?e ?n - pos ?c ?d - weather)
    :precondition (and (storm-scan ?k ?c) (half-scan ?k ?h ?k2) (len ?h ?n) (succ ?e ?n) (at ?h ?e ?d)
                       (or (= ?c ?d) (current ?h ?e)))
    :effect (and (not (storm-scan ?k ?c)) (storm-scan ?k2 ?c)))
  (:action storm-scan-done
    :parameters (?k - stage ?c - weather)
    :precondition (and (storm-scan ?k ?c) (scan-end ?k))
    :effect (and (not (storm-scan ?k ?c)) (resolved)))
  (:action no-effect-cloud
    :parameters ()
    :precondition (resolving-none)
    :effect (and (not (resolving-none)) (resolved)))"""


def _limit_checks() -> str:
    """The card limit, one half-row at a time (axiom-free); ``end-turn`` needs the scan's end."""
    return """  (:action start-limit-scan
    :parameters (?k - stage)
    :precondition (and (resolved) (scan-start ?k))
    :effect (and (not (resolved)) (limit-scan ?k)))
  (:action limit-ok
    :parameters (?k ?k2 - stage ?h - half ?n - pos)
    :precondition (and (limit-scan ?k) (half-scan ?k ?h ?k2) (len ?h ?n) (within-limit ?n))
    :effect (and (not (limit-scan ?k)) (limit-scan ?k2)))"""


def _end_turn(axiom_free: bool) -> str:
    if axiom_free:  # after the limit scan; whether a card is drawn is the choice of action
        head = """    :precondition (and (limit-scan ?k) (scan-end ?k) (not (rehand-pending)) (turn ?pl)
                       (next-player ?pl ?q) (current ?h ?p) (current-half ?h)"""
        done = """(not (limit-scan ?k)) (ready) (started) (not (redrawn)) (not (turn ?pl)) (turn ?q)
                 (not (current ?h ?p)) (not (current-half ?h))"""
        return f"""  (:action end-turn-draw
    :parameters (?pl ?q - player ?k - stage ?h - half ?p - pos ?i ?j - pidx ?x - weather ?c ?d - count)
{head} (not (redrawn)) (top ?i) (pnext ?i ?j) (pile-card ?i ?x)
                       (hand ?pl ?x ?c) (cnext ?c ?d))
    :effect (and {done} (not (top ?i)) (top ?j) (not (hand ?pl ?x ?c)) (hand ?pl ?x ?d)))
  (:action end-turn
    :parameters (?pl ?q - player ?k - stage ?h - half ?p - pos)
{head} (or (redrawn) (exists (?i - pidx) (and (top ?i) (pile-end ?i)))))
    :effect (and {done}))"""
    return """  (:action end-turn
    :parameters (?pl ?q - player)
    :precondition (and (resolved) (turn ?pl) (next-player ?pl ?q)
                       (forall (?h - half ?n - pos) (imply (len ?h ?n) (within-limit ?n))))
    :effect (and (not (resolved)) (ready) (started) (not (redrawn)) (not (turn ?pl)) (turn ?q)
                 (forall (?h - half ?p - pos) (when (current ?h ?p) (not (current ?h ?p))))
                 (forall (?h - half) (when (current-half ?h) (not (current-half ?h))))
                 (forall (?i ?j - pidx ?x - weather ?c ?d - count)
                   (when (and (not (redrawn)) (top ?i) (pnext ?i ?j) (pile-card ?i ?x) (hand ?pl ?x ?c)
                              (cnext ?c ?d))
                         (and (not (top ?i)) (top ?j) (not (hand ?pl ?x ?c)) (hand ?pl ?x ?d))))))"""


def _sizes(game: StratoGame) -> tuple[int, int]:
    """Half-rows and places: ``p0 .. p(limit+2)``, since lengths up to limit + 2 occur within a turn."""
    return 2 * len(game.initial_state().rows), game.challenge.limit + 3


def pddl_name(name: str) -> str:
    """``name`` as a PDDL name: a letter, then letters, digits, ``-`` and ``_`` (every other run of
    characters becomes ``-``; a name not starting with a letter gets ``deal-`` in front). A deal may be
    named anything in a puzzle file (``"hard one (v2)"``, ``"2p"``), which written as it is made the
    problem's ``(define (problem ...))`` unreadable to every planner."""
    cleaned = re.sub(r"[^A-Za-z0-9_-]+", "-", name.encode("ascii", "replace").decode("ascii")).strip("-")
    return cleaned if re.match(r"[A-Za-z]", cleaned) else f"deal-{cleaned}".rstrip("-")


def problem(game: StratoGame, name: str = "deal", axiom_free: bool = False) -> str:
    """The problem: objects sized for the deal, its start position, and the victory condition (with
    ``axiom_free``: the scan order of the check actions, and the goal ``(won)``). ``name`` is made a PDDL
    name by :func:`pddl_name`."""
    start = game.initial_state()
    challenge = game.challenge
    halves, places = _sizes(game)
    size = HAND_SIZE[len(start.hands)]
    pile = start.pile
    objects = [] if axiom_free else [  # axiom-free: half-rows and places are the domain's constants
        " ".join(f"h{h}" for h in range(halves)) + " - half",
        " ".join(f"p{i}" for i in range(1, places)) + " - pos",
    ]
    objects += [
        " ".join(f"pl{i}" for i in range(len(start.hands))) + " - player",
        " ".join(f"c{i}" for i in range(1, size + 1)) + " - count",
        " ".join(f"i{i}" for i in range(len(pile) + 1)) + " - pidx",
    ]
    # A start the rules say has ended is no game to play on: lost, no turn may begin ((ready) is left
    # out, so no plan exists); won, the goal already holds (the empty plan, cost 0). Without this a plan
    # played on from it: a turn from a won start (cost 1 where the optimum is 0 turns).
    init = ([] if start.status == LOST else ["(ready)"]) + ["(= (total-cost) 0)"]
    if start.status == WON:
        init.append("(won)" if axiom_free else "(started)")
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
    if axiom_free:
        objects.append(" ".join(f"k{k}" for k in range(halves + 1)) + " - stage")
        init += ["(scan-start k0)", f"(scan-end k{halves})"]
        init += [f"(half-scan k{h} h{h} k{h + 1})" for h in range(halves)]
        columns = [(2 * a + s, 2 * b + s) for s in (0, 1) for a, b in combinations(range(len(start.rows)), 2)]
        objects.append(" ".join(f"x{x}" for x in range(len(columns) + 1)) + " - column")
        init += ["(column-start x0)", f"(column-end x{len(columns)})", f"(last-place p{places - 1})"]
        init += [f"(column-of x{x} h{a} h{b})" for x, (a, b) in enumerate(columns)]
        init += [f"(column-next x{x} x{x + 1})" for x in range(len(columns))]
        init += [f"(wnext {a} {b})" for a, b in zip(WEATHERS, WEATHERS[1:], strict=False)]
        init.append(f"(wlast {WEATHERS[-1]})")
        goal = "(won)"
    else:
        goal = f"(and (ready) (started) {_victory(game)})"
    return (
        f"(define (problem {pddl_name(name)}) (:domain strato)\n  (:objects {' '.join(objects)})\n"
        f"  (:init {' '.join(init)})\n  (:goal {goal})\n  (:metric minimize (total-cost)))\n"
    )


def _row_conditions(game: StratoGame) -> list[list[list[str]]]:
    """Per eligible row, its goal's conditions, each a list of alternatives (a conjunction of atoms in
    PDDL text, ``?c`` free for "any card"): the victory condition is, for ``rows_required`` of these
    rows, every condition with one alternative true."""
    goal = game.challenge.goal
    start = game.initial_state()
    rows = []
    for r, row in enumerate(start.rows):
        if not goal.eligible(row):
            continue
        conds: list[list[str]] = []
        for side, half_goal in goal.halves():
            h = f"h{2 * r + side}"
            if isinstance(half_goal, SequenceGoal):
                for i, token in enumerate(half_goal.pattern):
                    if token == "?":
                        conds.append([f"(at {h} p{i} ?c)"])
                    else:
                        w = row.left_tornado if token == "<" else row.right_tornado if token == ">" else token
                        conds.append([f"(at {h} p{i} {w})"])
            else:
                assert isinstance(half_goal, CountGoal)
                for w, n in sorted(half_goal.needs(row).items()):
                    conds.append([" ".join(f"(at {h} p{i} {w})" for i in chosen)
                                  for chosen in combinations(range(half_goal.nearest), n)])
        rows.append(conds)
    return rows


def _victory(game: StratoGame) -> str:
    rows = []
    for conds in _row_conditions(game):
        parts = []
        for alternatives in conds:
            if len(alternatives) == 1 and "?c" in alternatives[0]:
                parts.append(f"(exists (?c - weather) {alternatives[0]})")
            elif len(alternatives) == 1:
                parts.append(alternatives[0])
            else:
                parts.append("(or " + " ".join(f"(and {a})" for a in alternatives) + ")")
        rows.append("(and " + " ".join(parts) + ")")
    needed = game.challenge.rows_required
    if needed > len(rows):
        return "(and (ready) (not (ready)))"
    return "(or " + " ".join("(and " + " ".join(c) + ")" for c in combinations(rows, needed)) + ")"


def _victory_actions(game: StratoGame) -> tuple[list[str], list[str]]:
    """The axiom-free victory: after a turn (``ready``, ``started``) ``claim`` freezes the position,
    one action per alternative of each condition marks it met, one per row requires all the row's
    conditions, one per set of ``rows_required`` rows gives ``(won)``. Returns the 0-ary predicates
    and the actions."""
    rows = _row_conditions(game)
    predicates: list[str] = []
    actions = ["""  (:action claim
    :parameters ()
    :precondition (and (ready) (started))
    :effect (and (not (ready)) (claiming)))"""]
    for r, conds in enumerate(rows):
        for j, alternatives in enumerate(conds):
            met = f"met-{r}-{j}"
            predicates.append(met)
            for o, atoms in enumerate(alternatives):
                params = "?c - weather" if "?c" in atoms else ""
                actions.append(f"""  (:action meet-{r}-{j}-{o}
    :parameters ({params})
    :precondition (and (claiming) {atoms})
    :effect ({met}))""")
        predicates.append(f"row-met-{r}")
        needs = " ".join(f"(met-{r}-{j})" for j in range(len(conds)))
        actions.append(f"""  (:action row-{r}
    :parameters ()
    :precondition (and (claiming) {needs})
    :effect (row-met-{r}))""")
    needed = game.challenge.rows_required
    if needed <= len(rows):
        for i, chosen in enumerate(combinations(range(len(rows)), needed)):
            needs = " ".join(f"(row-met-{r})" for r in chosen)
            actions.append(f"""  (:action win-{i}
    :parameters ()
    :precondition (and (claiming) {needs})
    :effect (won))""")
    return predicates, actions


# -- reading a plan back ---------------------------------------------------------------------------

#: Per effect action, which of its parameters name the target's places: (half, place) index pairs
#: (place -1: the tornado's place p0).
EFFECT_ACTIONS: dict[str, tuple[tuple[int, int], ...]] = {
    "wind-near": ((0, 1), (0, 2)),
    "wind-far": ((1, 2), (1, 3)),
    "wind-cross": ((0, 2), (1, 3)),
    "rain-near": ((1, 2), (0, -1)),
    "rain-far": ((1, 2), (1, -1)),
    "sun": ((1, 2),),
    "fog-swap": ((0, 2), (1, 2)),
    "fog-move": ((0, 2), (1, 3)),
    "storm": ((0, 2), (1, 4)),
}


def plan_moves(game: StratoGame, plan: list[str]) -> list[Move]:
    """The moves of a plan for either variant (``(play pl0 r c0 c1 h2 p2 p3)`` lines, as Fast Downward
    writes them; ``;`` comments ignored), each checked against the rules engine: the turn's card, end
    and target places must name exactly one legal move. Raises ``ValueError`` otherwise, so a plan that
    breaks a rule never becomes a line."""
    state = game.initial_state()
    moves: list[Move] = []
    turns: list[list[list[str]]] = []
    for line in plan:
        line = line.strip()
        if not line or line.startswith(";"):
            continue
        words = line.strip("()").lower().split()
        if words[0] in ("play", "redraw"):
            turns.append([])
        elif not turns:
            raise ValueError(f"plan step {line!r} before any play")
        turns[-1].append(words)
    for steps in turns:
        first = steps[0]
        half = int(first[5][1:])  # play: pl w c d h p q; redraw: pl i j w h p q
        redraw = first[0] == "redraw"
        card = first[4].upper() if redraw else first[2].upper()
        effect = next((s for s in steps if s[0] in EFFECT_ACTIONS), None)
        targets: set[Coord] = set()
        if effect is not None:
            args = effect[1:]
            for h_arg, p_arg in EFFECT_ACTIONS[effect[0]]:
                h = int(args[h_arg][1:])
                targets.add(Coord(h // 2, h % 2, 0 if p_arg < 0 else int(args[p_arg][1:])))
        found = [(move, after) for move, after in game.plays(state)
                 if move.card == card and move.row == half // 2 and move.end == half % 2
                 and move.redraw == redraw and set(move.target) == targets]
        if len(found) != 1:
            raise ValueError(f"turn {len(moves) + 1} ({' '.join(first)}; {effect and ' '.join(effect)}) names "
                             f"{len(found)} legal moves")
        moves.append(found[0][0])
        state = found[0][1]
    return moves
