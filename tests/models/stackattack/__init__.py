"""Tests of the Stack Attack rules engine (the published rules; docs/rules/stackattack.md)."""
