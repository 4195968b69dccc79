"""What docs/verification.md says of ``verify``'s trusted base, held to the modules ``verify`` really loads.

The page lists, module by module, the code a check runs ("a bug in a module listed here could let a false
claim through; a bug anywhere else cannot"). A module ``verify`` imports that the page does not name is
code the reader is told is not trusted while it is (QA 58 found ``core/numbers.py``, whose ``is_whole``
vets every count a record gives, and ``core/game.py`` missing). So one record of every kind is written,
``verify`` checks them all in a fresh interpreter, and every ``stratagem`` module it loaded must be named
on the page.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from stratagem.cli.main import run
from stratagem.core.compiled import KERNELS

REPO = Path(__file__).resolve().parents[1]
PAGE = REPO / "docs" / "verification.md"

#: One command per kind of record ``verify`` checks, and the record it writes (every one well under a second
#: or two): a relaxation certificate, a Strato DRUP refutation, proof trees of Stratatak (with chance) and Card
#: Clash, a Stack Attack bound certificate, a STAKD refutation and a STAKD witness, a hidden-pile policy and a
#: value table.
RECORDS = (
    (["solve", "puzzles/strato/challenge-0.toml", "--proof", "relaxed.json"], "relaxed.json"),
    (["solve", "puzzles/strato/challenge-0.toml", "--method", "sat", "--proof", "sat.json"], "sat.json"),
    (["analyze", "puzzles/stratatak/reshuffle-gamble.toml", "--proof", "tree.json"], "tree.json"),
    (["analyze", "puzzles/cardclash/square-in-1.toml", "--proof", "clash.json"], "clash.json"),
    (["analyze", "puzzles/stackattack/2p-actions-3-turns.toml", "--proof", "bounds.json"], "bounds.json"),
    (["check", "puzzles/stakd/solo-4-impossible.toml", "--proof", "refuted.json"], "refuted.json"),
    (["check", "puzzles/stakd/solo-1-tiny.toml", "--proof", "witness.json"], "witness.json"),
    (["odds", "puzzles/strato/challenge-0.toml", "--position", "RRWR(RW)WWRW RRR WRR 1 -", "--no-rank",
      "--proof", "policy.json"], "policy.json"),
    (["odds", "puzzles/strato/challenge-0.toml", "--position", "RRWR(RW)WWRW RRR WRR 1 -", "--table",
      "table.tbl"], "table.tbl"),
)

#: The games whose rules the page names as "each game's rules" (proof trees and certificates) or, for STAKD,
#: as a package (`models/stakd/`): any module of theirs is the rules a check replays through.
RULES_PACKAGES = ("cardclash", "stackattack", "stratatak", "stakd")

#: The compiled kernels ``verify`` may load: the DRUP checker's engines (docs/verification.md).
DRUP_ENGINES = {"stratagem.solvers.drup_compiled", "stratagem.solvers.drup_flat"}

_LOADED = """
import json, sys
from stratagem.cli.main import run
codes = [run(["verify", record, "--quiet"]) for record in sys.argv[1:]]
print(json.dumps({"codes": codes, "modules": sorted(sys.modules)}))
"""


def named_on_the_page(module: str, page: str) -> bool:
    """Whether docs/verification.md names ``module`` (``stratagem.a.b``): by its path (``a/b.py``), by its file
    name in a row that names its folder (``notation.py`` beside ``models/strato/rules/position.py``), or as
    one of the games' rules."""
    parts = module.split(".")[1:]
    path = "/".join(parts) + ("/__init__.py" if module == "stratagem.verification" else ".py")
    if path in page:
        return True
    if parts[0] == "models" and len(parts) > 2 and parts[1] in RULES_PACKAGES:
        return "each game's rules" in page and (parts[1] != "stakd" or "`models/stakd/`" in page)
    folder = "/".join(parts[:-1]) + "/"
    return any(f"`{parts[-1]}.py`" in row and folder in row for row in page.split("\n"))


def test_the_page_names_every_module_verify_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Every ``stratagem`` module (not a package's empty ``__init__``, not the command line's own
    presentation in ``stratagem.cli``) that ``verify`` loads to check one record of each kind is on the page."""
    (tmp_path / "puzzles").symlink_to(REPO / "puzzles")
    monkeypatch.chdir(tmp_path)
    for command, record in RECORDS:
        assert run([*command, "--quiet"]) in (0, 1), command  # check of an impossible set exits 1
        assert (tmp_path / record).is_file(), record
    capsys.readouterr()
    done = subprocess.run([sys.executable, "-c", _LOADED, *(record for _, record in RECORDS)], cwd=tmp_path,
                          capture_output=True, text=True, check=True, timeout=120)
    loaded = json.loads(done.stdout.strip().split("\n")[-1])
    assert loaded["codes"][:-2] == [0] * (len(RECORDS) - 2)  # the policy's optimality needs --recheck: 3
    modules = set()
    for name in loaded["modules"]:
        # Only the package's own modules are imported here: another name the child held may be no module
        # at all (Cython 3.1's compiled modules enter their shared types as `_cython_3_1_0`, which no
        # import finds: ModuleNotFoundError where this process had loaded no compiled module to enter it).
        if not name.startswith("stratagem.") or name.startswith("stratagem.cli"):
            continue
        module = sys.modules.get(name) or __import__(name, fromlist=["_"])
        if Path(getattr(module, "__file__", "") or "").name == "__init__.py" and name != "stratagem.verification":
            continue
        modules.add(name)
    assert "stratagem.verification.relaxed" in modules and "stratagem.solvers.boundproof" in modules
    # A game's compiled engine would pass the naming test as "each game's rules"; verify runs none: of the
    # compiled kernels it loads only the DRUP checker's own engines (the page's one exception).
    kernels_loaded = {name for name in loaded["modules"] if name in KERNELS}
    assert "stratagem.solvers.drup_compiled" in kernels_loaded  # the DRUP records above do load it
    assert kernels_loaded <= DRUP_ENGINES, f"verify loads compiled kernels: {sorted(kernels_loaded - DRUP_ENGINES)}"
    page = PAGE.read_text(encoding="utf-8")
    unnamed = sorted(module for module in modules if not named_on_the_page(module, page))
    assert not unnamed, f"verify loads modules docs/verification.md does not name: {unnamed}"


def test_analyze_help_does_not_leave_compiled_methods_out(capsys: pytest.CaptureFixture[str]) -> None:
    """``analyze --help`` said the compiled engine served "mcts, alphabeta, lp, ismcts, duct", while expecti,
    paranoid, maxn and pimc search in C too (docs/guide/endgames.md): a reader told Stratatak's expecti ran
    in Python. The help now names the exceptions, which are what :func:`engine_for` sends to the rules engine."""
    assert run(["analyze", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    engine = text[text.index("--engine"):]
    assert "mcts, alphabeta, lp, ismcts, duct)" not in engine
    for words in ("depth-limited", "pimc of a simultaneous-move game", "lp where"):
        assert words in engine, words


def test_expecti_of_stratatak_searches_on_the_compiled_engine() -> None:
    """What the help above says of expecti, where the compiled core is built (else every method runs on the
    reference engine, and tests/test_engines.py checks that it says so)."""
    from stratagem.analysis.methods import engine_for
    from stratagem.engines import resolve
    from stratagem.loading import load_position

    gamble = load_position(REPO / "puzzles" / "stratatak" / "reshuffle-gamble.toml")
    choice = resolve(gamble.game, "compiled")
    if choice.engine is None:
        pytest.skip(choice.note)
    assert engine_for(gamble.game, "expecti", None).name == "compiled"
    assert engine_for(gamble.game, "expecti", None, depth=2).name == "reference"
