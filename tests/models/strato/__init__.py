"""Tests of the Strato rules engine (the published rules; docs/rules/strato.md)."""
