"""Tests of the Rise of Tribes rule module (shared/rules/rise-of-tribes.md)."""
