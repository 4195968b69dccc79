"""Tests of the Strato rules engine (seed 001_a251ad98da0616dd.txt, RULINGS.md, docs/rules/strato.md)."""
