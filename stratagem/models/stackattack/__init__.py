"""Stack Attack: simultaneous card play onto four rows, with action cards (seed 002, docs/rules/stackattack.md)."""
