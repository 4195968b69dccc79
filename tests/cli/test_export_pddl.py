"""`stratagem export --format pddl --axiom-free`: the variant for planners without axioms."""

from __future__ import annotations

from pathlib import Path

from conftest import PUZZLES

from stratagem.loading import load_strato
from stratagem.models.strato.encodings.pddl import domain, problem

LEVEL_2 = str(PUZZLES / "level-2-example.toml")


def test_export_axiom_free_writes_the_library_variant(cli, tmp_path: Path) -> None:
    out = tmp_path / "duo-1.pddl"
    result = cli("export", LEVEL_2, "--format", "pddl", "--deal", "duo-1", "--axiom-free", "--out", str(out))
    assert result.code == 0, result.err
    game = load_strato(LEVEL_2).game(load_strato(LEVEL_2).find_deal("duo-1", None))
    assert (tmp_path / "duo-1-domain.pddl").read_text() == domain(game, axiom_free=True)
    assert out.read_text() == problem(game, name="duo-1", axiom_free=True)
    assert "(forall" not in (tmp_path / "duo-1-domain.pddl").read_text()


def test_axiom_free_is_a_pddl_option(cli, tmp_path: Path) -> None:
    result = cli("export", LEVEL_2, "--horizon", "3", "--axiom-free", "--out", str(tmp_path / "x.cnf"))
    assert result.code == 2
    assert "--axiom-free" in result.err and "Traceback" not in result.err


def test_each_problem_gets_its_own_domain_and_horizon_is_refused(cli, tmp_path: Path) -> None:
    """Two deals exported axiom-free into one folder keep both domains (each belongs to its deal); and
    --horizon, which PDDL has no use for, is refused rather than ignored, before anything is written."""
    for deal in ("solo-1", "duo-1"):
        result = cli("export", LEVEL_2, "--format", "pddl", "--deal", deal, "--axiom-free", "--out",
                     str(tmp_path / f"{deal}.pddl"))
        assert result.code == 0, result.err
    loaded = load_strato(LEVEL_2)
    for deal in ("solo-1", "duo-1"):
        game = loaded.game(loaded.find_deal(deal, None))
        assert (tmp_path / f"{deal}-domain.pddl").read_text() == domain(game, axiom_free=True)
    assert not (tmp_path / "domain.pddl").exists()
    refused = cli("export", LEVEL_2, "--format", "pddl", "--horizon", "3", "--out", str(tmp_path / "h.pddl"))
    assert refused.code == 2 and "--horizon" in refused.err and len(refused.err.strip().splitlines()) == 1
    assert not (tmp_path / "h.pddl").exists() and not (tmp_path / "h-domain.pddl").exists()
