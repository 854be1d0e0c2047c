"""Tests of Fate of Akalon: Tribes (spec shared/rules/fate-of-akalon-tribes.md)."""
