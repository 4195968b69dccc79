"""Tests of the Card Clash rules engine (seed 003_88fdbbde58c563f9.txt, RULINGS.md, docs/rules/cardclash.md)."""
