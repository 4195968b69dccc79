"""Tests of the Card Clash rules engine (the published rules; docs/rules/cardclash.md)."""
