"""Agreement of verify's relaxation (verification/relaxed.py) with the solver's (models/strato/search/relaxation.py).

The same comparison as tests/verification/test_relaxed_agreement.py (all 27 shipped deals, then seeded deals
of every shape of tests/verification/shapes.py), with the other rows' ends tracked and unknown, counted and
timed deal by deal: each deal's two bounds either agree, disagree, or verify's search ran past
``--per-deal`` CPU seconds (reported as not finished, never as agreeing).

    python scripts/relaxation_agreement.py [--per-shape 20] [--per-deal 120]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from stratagem.models.strato.rules.position import format_state  # noqa: E402
from stratagem.models.strato.search.relaxation import relaxation_bound  # noqa: E402
from stratagem.verification.relaxed import Stopped, relaxed_bound  # noqa: E402
from tests.verification.shapes import SHAPES  # noqa: E402
from tests.verification.test_relaxed_agreement import seeded, shipped  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-shape", type=int, default=20)
    parser.add_argument("--per-deal", type=float, default=120.0)
    options = parser.parse_args()
    deals = [("shipped " + shape, shape, start) for shape, start in shipped()]
    deals += [(f"seeded {name}", name, start) for name in sorted(SHAPES)
              for start in seeded(name, options.per_shape, 1)]
    agree = differ = unfinished = 0
    for label, shape, start in deals:
        challenge, rules = SHAPES[shape]
        for track in (True, False):
            solver = relaxation_bound(challenge, rules, start, track_ends=track).bound
            began = time.process_time()

            def late(began: float = began) -> bool:
                return bool(time.process_time() - began > options.per_deal)

            try:
                ours = relaxed_bound(challenge, rules, start, track_ends=track, stop=late).bound
            except Stopped:
                unfinished += 1
                print(f"NOT FINISHED {label} {format_state(start)} tracked={track}", flush=True)
                continue
            seconds = time.process_time() - began
            if ours == solver:
                agree += 1
            else:
                differ += 1
                print(f"DIFFER {label} {format_state(start)} tracked={track}: ours {ours}, solver {solver}", flush=True)
            if seconds > 5:
                print(f"slow {label} {format_state(start)} tracked={track}: {seconds:.1f} CPU s", flush=True)
    print(f"{len(deals)} deals ({len(deals) - 27} seeded), {agree + differ + unfinished} bound pairs: {agree} agree, "
          f"{differ} differ, {unfinished} not finished within {options.per_deal:g} CPU s")


if __name__ == "__main__":
    main()
