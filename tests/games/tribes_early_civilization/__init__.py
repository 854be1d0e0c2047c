"""Tests of Tribes: Early Civilization (spec shared/rules/tribes-early-civilization.md)."""
