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
    assert (tmp_path / "domain.pddl").read_text() == domain(game, axiom_free=True)
    assert out.read_text() == problem(game, name="duo-1", axiom_free=True)
    assert "(forall" not in (tmp_path / "domain.pddl").read_text()


def test_axiom_free_is_a_pddl_option(cli, tmp_path: Path) -> None:
    result = cli("export", LEVEL_2, "--horizon", "3", "--axiom-free", "--out", str(tmp_path / "x.cnf"))
    assert result.code == 2
    assert "--axiom-free" in result.err and "Traceback" not in result.err
