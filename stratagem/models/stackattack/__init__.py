"""Stack Attack: simultaneous card play onto four rows, with action cards (rules: docs/rules/stackattack.md)."""
