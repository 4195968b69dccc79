"""Tests of the Stack Attack rules engine (seed 002_a7ce0d68dd5dd2af.txt, RULINGS.md, docs/rules/stackattack.md)."""
